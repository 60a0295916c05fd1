"""Turning one side's recorded facts into points under the house rules in force.

Sets, cards and counters price exactly under any rules. A plain number is converted only when the
rules it was entered under and the rules in force differ by an exact factor; otherwise it is kept as
entered and the side is marked (``exact=False``). Nothing here decides made or set: see ``scoring``.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from functools import cache, lru_cache

from .cards import Hand, Suit
from .house_rules import HouseRules, MeldTableName, MustTake
from .match import (
    Deal,
    MeldCards,
    MeldFact,
    MeldPoints,
    PricingBasis,
    SideEntry,
    SideTotal,
    TrickCards,
    TrickCounters,
    TrickFact,
    TrickPoints,
)
from .meld import MeldResult, best_meld, meld_points, sets_points, table_factor
from .meld_prices import NO_PRICES, MeldPrices
from .tricks import CARD_POINTS, counter_value, scale_factor


class MeldLostReason(StrEnum):
    """Why a side's meld did not count (the minimum meld and the must-take-a-trick house rules)."""

    NO_TRICK = "no_trick"  # the side took no trick
    NO_TRICK_POINTS = "no_trick_points"  # it took tricks, but no points in them, and the rule asks for points
    BELOW_MIN_MELD = "below_min_meld"  # the meld is below what the house rules need for it to count

    @property
    def label(self) -> str:
        return {"no_trick": "no trick", "no_trick_points": "no points in tricks",
                "below_min_meld": "meld below the minimum"}[self.value]


class PricedSide:
    """A side's meld and trick points in one deal, before the contract is settled.

    A plain class with slots rather than a dataclass: a recompute builds one for every side of every deal.
    """

    __slots__ = ("meld", "tricks", "took_trick", "exact", "card_points", "hands")

    def __init__(self, meld: int, tricks: int | None, took_trick: bool, exact: bool, card_points: int | None = None,
                 hands: tuple[tuple[int, bool], ...] = ()) -> None:
        self.meld = meld  # for a one-number entry: the whole number
        self.tricks = tricks  # card points plus the last trick; None when folded into a one-number entry
        self.took_trick = took_trick
        self.exact = exact  # False: a number was kept as entered because it does not convert
        self.card_points = card_points  # without the last trick; None for a one-number entry
        self.hands = hands  # each hand's meld as ``price_meld`` gave it (meld entered apart from tricks)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PricedSide) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"PricedSide(meld={self.meld!r}, tricks={self.tricks!r}, took_trick={self.took_trick!r}, "
                f"exact={self.exact!r}, card_points={self.card_points!r})")

    def _key(self) -> tuple[int, int | None, bool, bool, int | None]:
        return self.meld, self.tricks, self.took_trick, self.exact, self.card_points

    def meld_lost_because(self, rules: HouseRules, played: bool = True) -> MeldLostReason | None:
        """Why the side's meld does not count, or None when it does: below the minimum meld (meld entered
        apart from tricks), then, in a deal played out, the must-take-a-trick rule."""
        if self.card_points is not None and self.meld < rules.min_meld:
            return MeldLostReason.BELOW_MIN_MELD if self.meld > 0 else None
        rule = rules.must_take_trick
        if not played or rule is MustTake.OFF:
            return None
        if not self.took_trick:
            return MeldLostReason.NO_TRICK
        if rule is MustTake.POINTS and self.tricks == 0:
            return MeldLostReason.NO_TRICK_POINTS
        return None

    def earned(self, rules: HouseRules, played: bool = True) -> int:
        """What the side earned in the deal: meld (when it counts) plus trick points; nothing at all when
        a played deal's card points fall short of the house rules' points needed to score."""
        return self.settled(rules, played)[0]

    def settled(self, rules: HouseRules, played: bool = True) -> tuple[int, MeldLostReason | None]:
        """``earned`` and ``meld_lost_because`` at once (the scoring needs both for every side)."""
        reason = self.meld_lost_because(rules, played)
        if played and self.card_points is not None and self.card_points < rules.save_points:
            return 0, reason
        return (self.tricks or 0) if reason else self.meld + (self.tricks or 0), reason


@cache
def _basis_of_rules(rules: HouseRules) -> PricingBasis:
    return PricingBasis.of(rules)


def basis_of(deal: Deal, rules: HouseRules) -> PricingBasis:
    """The rules the deal's plain numbers were entered under."""
    return deal.entered_under or _basis_of_rules(rules)


def convert(value: int, factor: Fraction | None) -> tuple[int, bool]:
    """``value × factor`` when that is a whole number, else ``value`` kept as entered (False)."""
    if value == 0:
        return 0, True
    if factor is None:
        return value, False
    converted, remainder = divmod(value * factor.numerator, factor.denominator)
    if remainder:
        return value, False
    return converted, True


HANDS_KEPT = 4096
# The totals of the hands ``meld_of_hand`` priced, by hand, trump, meld table and the table's own prices.
_HAND_POINTS: dict[tuple[Hand, Suit, MeldTableName, MeldPrices], int] = {}


@lru_cache(maxsize=HANDS_KEPT)
def meld_of_hand(hand: Hand, trump: Suit, table: MeldTableName, prices: MeldPrices = NO_PRICES) -> MeldResult:
    """``best_meld``, remembered: a hand is priced by the checks and again by the scoring (which reads
    only its total, from ``_HAND_POINTS``)."""
    result = best_meld(hand, trump, table, prices)
    if len(_HAND_POINTS) >= HANDS_KEPT:
        _HAND_POINTS.clear()
    _HAND_POINTS[(hand, trump, table, prices)] = result.total
    return result


def forget_hands() -> None:
    """Forget every hand priced (a cold start)."""
    meld_of_hand.cache_clear()
    _HAND_POINTS.clear()


def meld_factor(basis: PricingBasis, rules: HouseRules) -> Fraction | None:
    """The factor from the meld prices a number was entered under to those of ``rules`` (None: none fits)."""
    return table_factor(basis.meld_table, rules.meld_table, rules.deck, basis.meld_prices, rules.meld_prices)


def price_meld(fact: MeldFact, deal: Deal, rules: HouseRules) -> tuple[int, bool]:
    """Meld points of one hand's meld under ``rules``, and whether they are exact."""
    if isinstance(fact, MeldCards):
        trump = fact.trump or deal.trump
        if trump is None:
            return 0, False
        prices = rules.meld_prices
        known = _HAND_POINTS.get((fact.hand, trump, rules.meld_table, prices))
        return (meld_points(fact.hand, trump, rules.meld_table, prices) if known is None else known), True
    if isinstance(fact, MeldPoints):
        basis = basis_of(deal, rules)
        if basis.meld_table is rules.meld_table and basis.meld_prices == rules.meld_prices:  # the factor is 1
            return fact.points, True
        return convert(fact.points, meld_factor(basis, rules))
    return sets_points(fact.sets, rules.meld_table, rules.meld_prices), True


def price_card_points(fact: TrickFact | None, deal: Deal, rules: HouseRules) -> tuple[int, bool]:
    """Card points taken (without the last trick) under ``rules``, and whether they are exact."""
    if fact is None:
        return 0, True
    if isinstance(fact, TrickCards):
        points = CARD_POINTS[rules.trick_scale]
        return sum([points[rank] * n for rank, n in fact.by_rank]), True
    if isinstance(fact, TrickPoints):
        basis = basis_of(deal, rules)
        if basis.trick_scale is rules.trick_scale:  # the factor is 1
            return fact.points, True
        return convert(fact.points, scale_factor(basis.trick_scale, rules.trick_scale))
    value = counter_value(rules.trick_scale)
    if value is not None:
        return fact.counters * value, True
    return fact.counters * (counter_value(basis_of(deal, rules).trick_scale) or 0), fact.counters == 0


def took_any_trick(fact: TrickFact | None, last_trick: bool) -> bool:
    """Whether the recorded tricks show that the side took at least one trick."""
    if last_trick:
        return True
    if isinstance(fact, TrickPoints):
        return fact.points > 0
    if isinstance(fact, TrickCounters):
        return fact.counters > 0
    if isinstance(fact, TrickCards):
        return any(n > 0 for _, n in fact.by_rank)
    return False


def price_side(entry: SideEntry, deal: Deal, rules: HouseRules) -> PricedSide:
    """Price one side's entry of a deal under ``rules``."""
    if isinstance(entry, SideTotal):
        return _price_total(entry, deal, rules)
    hands = tuple([price_meld(fact, deal, rules) for fact in entry.meld])
    card_points, exact = price_card_points(entry.tricks, deal, rules)
    took = entry.took_trick if entry.took_trick is not None else took_any_trick(entry.tricks, entry.last_trick)
    meld = 0
    for points, hand_exact in hands:
        meld += points
        exact = exact and hand_exact
    tricks = card_points + rules.last_trick if entry.last_trick else card_points
    return PricedSide(meld, tricks, took, exact, card_points, hands)


def _price_total(entry: SideTotal, deal: Deal, rules: HouseRules) -> PricedSide:
    """A one-number entry converts only when meld, tricks and last trick all scale by one factor."""
    basis = basis_of(deal, rules)
    if basis.meld_table is rules.meld_table and basis.meld_prices == rules.meld_prices \
            and basis.trick_scale is rules.trick_scale and basis.last_trick == rules.last_trick:  # every factor is 1
        return _total_side(entry, entry.total, True)
    meld = meld_factor(basis, rules)
    trick_factor = scale_factor(basis.trick_scale, rules.trick_scale)
    if meld is not None and meld == trick_factor and basis.last_trick * meld == rules.last_trick:
        total, exact = convert(entry.total, meld)
    else:
        total, exact = entry.total, entry.total == 0
    return _total_side(entry, total, exact)


def _total_side(entry: SideTotal, total: int, exact: bool) -> PricedSide:
    if entry.took_trick is False:
        return PricedSide(meld=total, tricks=0, took_trick=False, exact=exact)
    return PricedSide(meld=total, tricks=None, took_trick=True, exact=exact)
