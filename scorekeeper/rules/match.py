"""The recorded facts of a match: sides, house rules and what happened in each deal.

Nothing here is a score. ``scoring`` derives the sheet from these facts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .cards import Hand, Rank, Suit
from .combinations import Combination
from .house_rules import PRESETS, HouseRules, MeldTableName, TrickScale
from .meld_prices import NO_PRICES, MeldPrices


@dataclass(frozen=True, slots=True)
class PricingBasis:
    """The house rules that plain numbers of a deal were entered under (slots, as ``HouseRules`` has)."""

    meld_table: MeldTableName
    trick_scale: TrickScale
    last_trick: int
    meld_prices: MeldPrices = NO_PRICES  # the table's own meld prices, over the meld table

    @classmethod
    def of(cls, rules: HouseRules) -> PricingBasis:
        return cls(rules.meld_table, rules.trick_scale, rules.last_trick, rules.meld_prices)


# Meld facts: what a hand showed, in one of three forms.
MeldPoints = int
"""Meld as a plain number, priced on the deal's ``entered_under`` table: a number is kept as the number it is (a
long match's file holds thousands)."""


@dataclass(frozen=True, slots=True)
class MeldSets:
    """Meld as sets of each combination held in one hand, e.g. one run and one pinochle."""

    sets: tuple[tuple[Combination, int], ...]

    def count(self, combination: Combination) -> int:
        return dict(self.sets).get(combination, 0)


@dataclass(frozen=True, slots=True)
class MeldCards:
    """Meld as the cards of one hand, worked out by the meld calculator."""

    hand: Hand
    trump: Suit | None = None  # None: the deal's trump


MeldFact = MeldPoints | MeldSets | MeldCards


# Trick facts: what a side took in play, in one of three forms (never the last-trick bonus).
TrickPoints = int
"""Card points as a plain number on the deal's ``entered_under`` scale, kept as the number it is."""


@dataclass(frozen=True, slots=True)
class TrickCounters:
    """How many aces, tens and kings were taken."""

    counters: int


@dataclass(frozen=True, slots=True)
class TrickCards:
    """How many cards of each rank were taken."""

    by_rank: tuple[tuple[Rank, int], ...]

    def count(self, rank: Rank) -> int:
        return dict(self.by_rank).get(rank, 0)


TrickFact = TrickPoints | TrickCounters | TrickCards


@dataclass(frozen=True, slots=True)
class SideTotal:
    """One number for the side's meld and tricks together, as on a paper sheet."""

    total: int
    took_trick: bool | None = None


class SideDetail(NamedTuple):
    """A side's meld (one fact per hand; usually one) and what it took in play.

    A named tuple, as ``Deal`` is: a long match's file is read into two or more for each deal."""

    meld: tuple[MeldFact, ...] = ()
    tricks: TrickFact | None = None
    last_trick: bool = False
    took_trick: bool | None = None  # None: inferred from the tricks and the last trick


SideEntry = SideTotal | SideDetail


class Deal(NamedTuple):
    """What happened in one deal. A passed deal has no sides; a deal with no auction has no bidder.

    A named tuple rather than a frozen dataclass: a long match's file is read into a thousand of them, and one
    of eleven fields is made in under half the time (a frozen dataclass sets each field by a call of its own).
    Its fields are read more slowly than from slots: scoring alone takes a little longer, reading a match file
    and scoring it a good deal less (``bench/bench_core.py``)."""

    sides: tuple[SideEntry, ...] = ()
    bidder: int | None = None
    bid: int | None = None
    trump: Suit | None = None
    thrown_in: bool = False
    passed: bool = False
    entered_under: PricingBasis | None = None  # None: the match's own rules
    bid_by: str | None = None  # the player who won the auction, one of the bidding side's players
    dealt_by: str | None = None  # the dealer, one of the match's players
    out: bool = False  # the bidders announced that this deal takes them out (bidding out)
    forced: bool = False  # everybody passed and the dealer's side took the contract at the minimum bid

    def pinned(self, rules: HouseRules) -> Deal:
        """This deal with ``entered_under`` made explicit (the rules it was entered under)."""
        if self.entered_under is not None or self.passed:
            return self
        return self._replace(entered_under=PricingBasis.of(rules))


@dataclass(frozen=True, slots=True)
class SideInfo:
    """A side of the match: a partnership or a single player."""

    name: str
    players: tuple[str, ...] = ()

    @property
    def shown_name(self) -> str:
        """The name pages show (``shown_side_name``); the stored name stays as it is."""
        return shown_side_name(self.name, self.players)


# The side names the presets fill in for the players to replace: a side still called so is named after its players.
PLACEHOLDER_SIDE_NAMES = frozenset(name for preset in PRESETS for name in preset.side_names)


def shown_side_name(name: str, players: Sequence[str]) -> str:
    """A side's name as pages show it: its own name, or its players' ("Ann & Bob") when the name is empty
    or still the placeholder a preset starts with ("We", "They" …)."""
    if players and (not name or name in PLACEHOLDER_SIDE_NAMES):
        return " & ".join(players)
    return name


@dataclass(frozen=True, slots=True)
class Match:
    """Everything needed to recompute a match (slots, as a deal has)."""

    sides: tuple[SideInfo, ...]
    rules: HouseRules = HouseRules()
    deals: tuple[Deal, ...] = ()
    name: str = ""
    auction: bool = True
    first_dealer: str | None = None  # who deals the first deal (one of the players); None: the first player
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        # Matches key the statistics' memo, so the hash is worked out once.
        cached = self._hash
        if cached is None:
            cached = hash((self.sides, self.rules, self.deals, self.name, self.auction, self.first_dealer))
            object.__setattr__(self, "_hash", cached)
        return cached

    def with_rules(self, rules: HouseRules) -> Match:
        """The same facts under other house rules; plain numbers stay priced as entered."""
        deals = tuple(deal.pinned(self.rules) for deal in self.deals)
        return dataclasses.replace(self, rules=rules, deals=deals)

    def with_deals(self, deals: tuple[Deal, ...]) -> Match:
        return dataclasses.replace(self, deals=deals)
