"""Turning one side's recorded facts into points under the house rules in force.

Sets, cards and counters price exactly under any rules. A plain number is converted only when the
rules it was entered under and the rules in force differ by an exact factor; otherwise it is kept as
entered and the side is marked (``exact=False``). Nothing here decides made or set: see ``scoring``.
"""

from __future__ import annotations

from dataclasses import dataclass
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
from .meld import MeldResult, best_meld, price_sets, table_factor
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


@dataclass(frozen=True)
class PricedSide:
    """A side's meld and trick points in one deal, before the contract is settled."""

    meld: int  # for a one-number entry: the whole number
    tricks: int | None  # card points plus the last trick; None when folded into a one-number entry
    took_trick: bool
    exact: bool  # False: a number was kept as entered because it does not convert
    card_points: int | None = None  # without the last trick; None for a one-number entry

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
        if played and self.card_points is not None and self.card_points < rules.save_points:
            return 0
        meld = 0 if self.meld_lost_because(rules, played) else self.meld
        return meld + (self.tricks or 0)


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


@lru_cache(maxsize=4096)
def meld_of_hand(hand: Hand, trump: Suit, table: MeldTableName, prices: MeldPrices = NO_PRICES) -> MeldResult:
    """``best_meld``, remembered: a hand is priced by the checks and again by the scoring."""
    return best_meld(hand, trump, table, prices)


def meld_factor(basis: PricingBasis, rules: HouseRules) -> Fraction | None:
    """The factor from the meld prices a number was entered under to those of ``rules`` (None: none fits)."""
    return table_factor(basis.meld_table, rules.meld_table, rules.deck, basis.meld_prices, rules.meld_prices)


def price_meld(fact: MeldFact, deal: Deal, rules: HouseRules) -> tuple[int, bool]:
    """Meld points of one hand's meld under ``rules``, and whether they are exact."""
    if isinstance(fact, MeldPoints):
        basis = basis_of(deal, rules)
        return convert(fact.points, meld_factor(basis, rules))
    if isinstance(fact, MeldCards):
        trump = fact.trump or deal.trump
        if trump is None:
            return 0, False
        return meld_of_hand(fact.hand, trump, rules.meld_table, rules.meld_prices).total, True
    return price_sets(dict(fact.sets), rules.meld_table, prices=rules.meld_prices).total, True


def price_card_points(fact: TrickFact | None, deal: Deal, rules: HouseRules) -> tuple[int, bool]:
    """Card points taken (without the last trick) under ``rules``, and whether they are exact."""
    if fact is None:
        return 0, True
    if isinstance(fact, TrickPoints):
        basis = basis_of(deal, rules)
        return convert(fact.points, scale_factor(basis.trick_scale, rules.trick_scale))
    if isinstance(fact, TrickCounters):
        value = counter_value(rules.trick_scale)
        if value is not None:
            return fact.counters * value, True
        return fact.counters * (counter_value(basis_of(deal, rules).trick_scale) or 0), fact.counters == 0
    points = CARD_POINTS[rules.trick_scale]
    return sum(points[rank] * n for rank, n in fact.by_rank), True


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
    melds = [price_meld(fact, deal, rules) for fact in entry.meld]
    card_points, tricks_exact = price_card_points(entry.tricks, deal, rules)
    took = entry.took_trick if entry.took_trick is not None else took_any_trick(entry.tricks, entry.last_trick)
    return PricedSide(
        meld=sum(points for points, _ in melds),
        tricks=card_points + (rules.last_trick if entry.last_trick else 0),
        took_trick=took,
        exact=tricks_exact and all(exact for _, exact in melds),
        card_points=card_points,
    )


def _price_total(entry: SideTotal, deal: Deal, rules: HouseRules) -> PricedSide:
    """A one-number entry converts only when meld, tricks and last trick all scale by one factor."""
    basis = basis_of(deal, rules)
    meld = meld_factor(basis, rules)
    trick_factor = scale_factor(basis.trick_scale, rules.trick_scale)
    if meld is not None and meld == trick_factor and basis.last_trick * meld == rules.last_trick:
        total, exact = convert(entry.total, meld)
    else:
        total, exact = entry.total, entry.total == 0
    if entry.took_trick is False:
        return PricedSide(meld=total, tricks=0, took_trick=False, exact=exact)
    return PricedSide(meld=total, tricks=None, took_trick=True, exact=exact)
