"""The largest match and table files the limits let in: every name at its longest in four-byte characters,
four sides of four players, and deals that record every fact the format has, the meld of every hand as
cards (the whole double deck shown), the tricks by rank and the table's own prices of every combination.
The byte limits (``MAX_REQUEST_BYTES``) are set so that these, written as the app writes them, go in again.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.cards import ALL_CARDS
from scorekeeper.rules.combinations import Combination
from scorekeeper.rules.limits import (
    MAX_DEALS,
    MAX_MATCH_NAME,
    MAX_PLAYER_NAME,
    MAX_PLAYERS,
    MAX_SIDE_NAME,
    MAX_SIDES,
    MAX_TABLE_DEALS,
    MAX_TABLE_MATCHES,
    MAX_TABLE_NAME,
    MAX_TABLE_PLAYERS,
)
from scorekeeper.rules.matchfile import FORMAT
from scorekeeper.rules.meld_prices import MAX_PRICE

WIDE = "\U0001d538"  # 𝔸: four bytes in UTF-8, twelve as a JSON escape


def long_name(number: int, length: int) -> str:
    """A name of ``length`` characters, told apart by its number."""
    tail = str(number)
    return WIDE * (length - len(tail)) + tail


def prices(top: int) -> dict[str, list[int]]:
    """A price for each group of 1–4 sets of every combination (for one set of those priced one at a time),
    each of five digits."""
    return {combination.value: [top - n for n in range(1 if combination.priced_one_at_a_time else 4)]
            for combination in Combination}


def largest_deal(players: list[list[str]]) -> dict[str, Any]:
    """A deal with every fact: the 80 cards of a double deck shown as the meld of 16 hands, each with its
    trump, the tricks by rank, the last trick, who bid and who dealt, and the pricing it was entered under."""
    deck = [card.code for card in ALL_CARDS if card.rank.value != "9"] * 4
    hands = [deck[i * 5:(i + 1) * 5] for i in range(MAX_SIDES * MAX_PLAYERS)]
    sides = [{"meld": [{"cards": hands[s * MAX_PLAYERS + h], "trump": "H"} for h in range(MAX_PLAYERS)],
              "tricks": {"cards": {"A": 4, "T": 4, "K": 4, "Q": 4, "J": 4}}, "last_trick": s == 0, "took_trick": True}
             for s in range(MAX_SIDES)]
    return {"bidder": 0, "bid": 100_000, "trump": "H", "out": True, "bid_by": players[0][0],
            "dealt_by": players[-1][-1], "sides": sides,
            "entered_under": {"meld_table": "double-large", "trick_scale": "ten-point", "last_trick": 20,
                              "meld_prices": prices(MAX_PRICE - 10)}}


def largest_match_file(deals: int = MAX_DEALS, number: int = 0) -> dict[str, Any]:
    players = [[long_name(number * 100 + s * 10 + p, MAX_PLAYER_NAME) for p in range(MAX_PLAYERS)]
               for s in range(MAX_SIDES)]
    return {
        "format": FORMAT,
        "name": long_name(number, MAX_MATCH_NAME),
        "sides": [{"name": long_name(s, MAX_SIDE_NAME), "players": players[s]} for s in range(MAX_SIDES)],
        "rules": {"target": 5000, "deck": "double", "meld_table": "double-small", "trick_scale": "one-point",
                  "going_out": "announce", "meld_prices": prices(MAX_PRICE)},
        "deals": [largest_deal(players)] * deals,
    }


def largest_table_file() -> dict[str, Any]:
    """A table file at every limit: its matches share out the most deals a table file may bring in."""
    matches = [largest_match_file(0, number) for number in range(MAX_TABLE_MATCHES)]
    left = MAX_TABLE_DEALS
    for match in matches:
        match["deals"] = [largest_deal([side["players"] for side in match["sides"]])] * min(left, MAX_DEALS)
        left -= len(match["deals"])
    players = sorted({name for match in matches for side in match["sides"] for name in side["players"]})
    return {"format": "scorekeeper-table/1", "name": long_name(0, MAX_TABLE_NAME),
            "players": players[:MAX_TABLE_PLAYERS], "rule_cards": [], "matches": matches}
