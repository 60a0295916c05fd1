"""Problems as values: a stable code, the path of the place in the match file, and a message for a player.

Paths use the match file's vocabulary (``bid``, ``sides[1].tricks``, ``deals[3].sides[0].meld[1].cards[4]``,
``rules.target``); a problem about a deal as a whole has the path of the deal ("" within the deal).
Code that shows a problem decides where by its path or code, never by its words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ProblemCode(StrEnum):
    """What kind of problem: one code per situation, stable across wording changes."""

    # Reading values
    NOT_JSON = "not_json"
    TOO_DEEP = "too_deep"
    WRONG_TYPE = "wrong_type"
    NOT_A_NUMBER = "not_a_number"
    OUT_OF_RANGE = "out_of_range"
    TOO_LONG = "too_long"
    BAD_CHARACTER = "bad_character"
    UNKNOWN_KEY = "unknown_key"
    DUPLICATE_KEY = "duplicate_key"
    MISSING_KEY = "missing_key"
    WRONG_FORMAT = "wrong_format"
    NAME_MISSING = "name_missing"
    DUPLICATE_NAME = "duplicate_name"
    DUPLICATE_PLAYER = "duplicate_player"
    SIDE_COUNT = "side_count"
    TOO_MANY_PLAYERS = "too_many_players"
    TOO_MANY_DEALS = "too_many_deals"
    # Cards and meld
    NOT_A_CARD = "not_a_card"
    NOT_A_SUIT = "not_a_suit"
    NOT_A_RANK = "not_a_rank"
    CARD_NOT_IN_DECK = "card_not_in_deck"
    TOO_MANY_COPIES = "too_many_copies"
    UNKNOWN_COMBINATION = "unknown_combination"
    PRICED_ONE_AT_A_TIME = "priced_one_at_a_time"
    # House rules
    UNKNOWN_RULE = "unknown_rule"
    BAD_RULE_VALUE = "bad_rule_value"
    # The contract
    BIDDER_MISSING = "bidder_missing"
    BIDDER_UNKNOWN = "bidder_unknown"
    BID_MISSING = "bid_missing"
    BID_WITHOUT_BIDDER = "bid_without_bidder"
    BID_BELOW_MINIMUM = "bid_below_minimum"
    THROWN_IN_WITHOUT_BIDDER = "thrown_in_without_bidder"
    THROWN_IN_WITHOUT_AUCTION = "thrown_in_without_auction"
    OUT_WITHOUT_BIDDER = "out_without_bidder"
    FORCED_WITHOUT_BIDDER = "forced_without_bidder"
    # Who bid and who dealt
    BID_BY_NOT_BIDDER = "bid_by_not_bidder"
    DEALER_UNKNOWN = "dealer_unknown"
    # Meld against the deck
    MELD_NEEDS_TRUMP = "meld_needs_trump"
    IMPOSSIBLE_SETS = "impossible_sets"
    TRUMP_KINGS_SHORT = "trump_kings_short"
    HANDS_BEYOND_DECK = "hands_beyond_deck"
    MELDS_BEYOND_DECK = "melds_beyond_deck"
    # Tricks
    COUNTERS_BEYOND_DECK = "counters_beyond_deck"
    COUNTERS_ON_CLASSIC = "counters_on_classic"
    RANK_BEYOND_DECK = "rank_beyond_deck"
    TRICKS_WITHOUT_TRICK = "tricks_without_trick"
    TRICKS_IN_THROWN_IN = "tricks_in_thrown_in"
    RANK_TOTAL = "rank_total"
    COUNTERS_TOTAL = "counters_total"
    LAST_TRICK_COUNT = "last_trick_count"
    LAST_TRICK_MISSING = "last_trick_missing"
    TRICK_TOTAL = "trick_total"
    # Rescaling
    NOT_A_MULTIPLE_OF_TEN = "not_a_multiple_of_ten"
    # Club events
    TOO_FEW_ENTRANTS = "too_few_entrants"
    TOO_MANY_ENTRANTS = "too_many_entrants"
    ENTRANT_SIZE = "entrant_size"
    PLAYER_UNKNOWN = "player_unknown"
    # Several problems at once
    CONTRADICTION = "contradiction"


@dataclass(frozen=True)
class Problem:
    """One thing wrong, at one place."""

    code: ProblemCode
    path: str
    message: str

    def at(self, prefix: str) -> Problem:
        """The same problem with its path rooted at ``prefix``: ``bid`` at ``deals[2]`` is ``deals[2].bid``."""
        return Problem(self.code, join_path(prefix, self.path), self.message)

    def __str__(self) -> str:
        return self.message


def join_path(prefix: str, path: str) -> str:
    """``prefix`` followed by ``path``: a key after a dot, an index (``[4]``) directly."""
    if not prefix or not path:
        return prefix or path
    return prefix + path if path.startswith("[") else f"{prefix}.{path}"
