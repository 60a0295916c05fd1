"""Turning one side's recorded facts into points under the house rules in force.

Sets, cards and counters price exactly under any rules. A plain number is converted only when the
rules it was entered under and the rules in force differ by an exact factor; otherwise it is kept as
entered and the side is marked (``exact=False``). Nothing here decides made or set: see ``scoring``.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from .cards import Hand, Suit
from .house_rules import HouseRules, MeldTableName, MustTake
from .match import (
    Deal,
    MeldCards,
    MeldFact,
    MeldPoints,
    MeldSets,
    PricingBasis,
    SideEntry,
    SideTotal,
    TrickCards,
    TrickCounters,
    TrickFact,
    TrickPoints,
)
from .meld import MeldResult, best_meld, forget_holdings, meld_points, sets_points, table_factor
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
        """``earned`` and ``meld_lost_because`` at once (see ``settle_side``)."""
        return settle_side(self.figures(), rules, played)

    def figures(self) -> SideFigures:
        return self.meld, self.tricks, self.took_trick, self.exact, self.card_points, self.hands


# A priced side as the scoring reads it: ``PricedSide``'s fields in its order, as a plain tuple (a recompute
# prices every side of every deal, and a tuple is made in a fraction of the time an instance takes).
SideFigures = tuple[int, int | None, bool, bool, int | None, tuple[tuple[int, bool], ...]]


def settle_side(side: SideFigures, rules: HouseRules, played: bool = True) -> tuple[int, MeldLostReason | None]:
    """What a priced side earned in the deal and why its meld did not count (``PricedSide.earned`` and
    ``meld_lost_because`` at once: the scoring needs both for every side)."""
    meld, tricks, took_trick, exact, card_points, _ = side
    return _settled(meld, tricks, took_trick, exact, card_points, rules, played)


def _settled(meld: int, taken: int | None, took: bool, exact: bool, card_points: int | None,
             rules: HouseRules, played: bool) -> tuple[int, MeldLostReason | None]:
    """``settle_side`` from the side's figures. This runs for every side of every deal, so why the meld was
    lost is asked only when one of its reasons might hold: meld below the minimum, or a must-take rule
    with no trick or no trick points."""
    if (card_points is not None and meld < rules.min_meld) or (
            played and (not took or taken == 0) and rules.must_take_trick is not _TAKE_NOTHING):
        reason = PricedSide(meld, taken, took, exact, card_points).meld_lost_because(rules, played)
    else:
        reason = None
    if played and card_points is not None and card_points < rules.save_points:
        return 0, reason
    taken = taken or 0
    return (taken if reason else meld + taken), reason


# A member of an enum read once: in Python 3.11 reading one from its class is slow, and the scoring would
# do it for every side of every deal.
_TAKE_NOTHING = MustTake.OFF


class _RulesBasis:
    """The pricing basis of the rules last asked about, kept by identity: a match's deals are all priced
    under one rules object, and hashing the whole house rules for every deal would cost more than the pricing."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: tuple[HouseRules, PricingBasis] | None = None

    def of(self, rules: HouseRules) -> PricingBasis:
        last = self.last
        if last is not None and last[0] is rules:
            return last[1]
        basis = PricingBasis.of(rules)
        self.last = (rules, basis)  # one assignment: a thread reading ``last`` sees the old pair or the new
        return basis


_RULES_BASIS = _RulesBasis()


def basis_of(deal: Deal, rules: HouseRules) -> PricingBasis:
    """The rules the deal's plain numbers were entered under."""
    return deal.entered_under or _RULES_BASIS.of(rules)


def same_meld_prices(basis: PricingBasis | None, rules: HouseRules) -> bool:
    """Whether meld typed as a number under ``basis`` (None: the rules in force) keeps its value under
    ``rules``: the same meld table with the same prices over it."""
    if basis is None:
        return True
    prices = basis.meld_prices
    return basis.meld_table is rules.meld_table and (prices is rules.meld_prices or prices == rules.meld_prices)


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


@lru_cache(maxsize=HANDS_KEPT)
def meld_of_hand(hand: Hand, trump: Suit, table: MeldTableName, prices: MeldPrices = NO_PRICES) -> MeldResult:
    """``best_meld``, remembered: the checks ask for a hand's lines more than once. (The scoring needs only
    the total, which ``meld_points`` works out in less time than a look-up here would take.)"""
    return best_meld(hand, trump, table, prices)


def forget_hands() -> None:
    """Forget every hand and every holding of sets priced (a cold start)."""
    meld_of_hand.cache_clear()
    forget_holdings()


def meld_factor(basis: PricingBasis, rules: HouseRules) -> Fraction | None:
    """The factor from the meld prices a number was entered under to those of ``rules`` (None: none fits)."""
    return table_factor(basis.meld_table, rules.meld_table, rules.deck, basis.meld_prices, rules.meld_prices)


EXACT_KEPT = 2048
# ``(points, True)`` made once for the usual meld: every priced deal keeps its hands' meld (``PricedSide.hands``),
# and fewer new objects that live on mean fewer runs of the garbage collector.
_EXACT: tuple[tuple[int, bool], ...] = tuple((points, True) for points in range(EXACT_KEPT))


def price_meld(fact: MeldFact, deal: Deal, rules: HouseRules) -> tuple[int, bool]:
    """Meld points of one hand's meld under ``rules``, and whether they are exact."""
    if isinstance(fact, MeldPoints):
        if not same_meld_prices(deal.entered_under, rules):
            return convert(fact, meld_factor(basis_of(deal, rules), rules))
        points = fact  # the factor is 1
    elif isinstance(fact, MeldCards):
        trump = fact.trump or deal.trump
        if trump is None:
            return 0, False
        points = meld_points(fact.hand, trump, rules.meld_table, rules.meld_prices)
    else:
        points = sets_points(fact.sets, rules.meld_table, rules.meld_prices)
    return _EXACT[points] if 0 <= points < EXACT_KEPT else (points, True)


def price_card_points(fact: TrickFact | None, deal: Deal, rules: HouseRules) -> tuple[int, bool]:
    """Card points taken (without the last trick) under ``rules``, and whether they are exact."""
    if fact is None:
        return 0, True
    if isinstance(fact, TrickPoints):
        basis = deal.entered_under
        if basis is None or basis.trick_scale is rules.trick_scale:  # the factor is 1
            return fact, True
        return convert(fact, scale_factor(basis.trick_scale, rules.trick_scale))
    if isinstance(fact, TrickCards):
        points = CARD_POINTS[rules.trick_scale]
        total = 0
        for rank, n in fact.by_rank:
            total += points[rank] * n
        return total, True
    value = counter_value(rules.trick_scale)
    if value is not None:
        return fact.counters * value, True
    return fact.counters * (counter_value(basis_of(deal, rules).trick_scale) or 0), fact.counters == 0


def took_any_trick(fact: TrickFact | None, last_trick: bool) -> bool:
    """Whether the recorded tricks show that the side took at least one trick."""
    if last_trick:
        return True
    if isinstance(fact, TrickPoints):
        return fact > 0
    if isinstance(fact, TrickCards):
        for _, n in fact.by_rank:
            if n > 0:
                return True
        return False
    if isinstance(fact, TrickCounters):
        return fact.counters > 0
    return False


def price_side(entry: SideEntry, deal: Deal, rules: HouseRules) -> PricedSide:
    """Price one side's entry of a deal under ``rules``."""
    return PricedSide(*side_figures(entry, deal, rules))


def side_figures(entry: SideEntry, deal: Deal, rules: HouseRules) -> SideFigures:
    """``price_side``'s answer as a plain tuple, as the scoring reads it."""
    if isinstance(entry, SideTotal):
        return _price_total(entry, deal, rules)
    tricks = entry.tricks
    card_points, exact = price_card_points(tricks, deal, rules)
    meld = 0
    hands = []
    for fact in entry.meld:
        hand = price_meld(fact, deal, rules)
        hands.append(hand)
        meld += hand[0]
        if not hand[1]:
            exact = False
    took = entry.took_trick
    if took is None:  # card points show a trick taken; without any, the tricks recorded tell
        took = card_points > 0 or took_any_trick(tricks, entry.last_trick)
    taken = card_points + rules.last_trick if entry.last_trick else card_points
    return meld, taken, took, exact, card_points, tuple(hands)


def settle_entry(entry: SideEntry, deal: Deal, rules: HouseRules, played: bool,
                 melds: list[int | None]) -> tuple[int, int, MeldLostReason | None, bool]:
    """Price one side's entry and settle it in one step, as the scoring does for every side of every deal:
    what the side earned, its meld, why the meld did not count (None: it did) and whether every number is
    exact. Each hand's meld goes into ``melds`` as ``price_meld`` gives it, None where not exact."""
    if isinstance(entry, SideTotal):
        side = _price_total(entry, deal, rules)
        points, reason = settle_side(side, rules, played)
        return points, side[0], reason, side[3]
    tricks = entry.tricks
    basis = deal.entered_under
    if type(tricks) is TrickPoints and (basis is None or basis.trick_scale is rules.trick_scale):
        card_points, exact = tricks, True  # points on the scale in force: as ``price_card_points`` has it
    else:
        card_points, exact = price_card_points(tricks, deal, rules)
    same_prices = basis is None or same_meld_prices(basis, rules)
    meld = 0
    for fact in entry.meld:  # the usual forms priced here, as ``price_meld`` does, without its call
        if type(fact) is MeldPoints and same_prices:
            points = fact
        elif isinstance(fact, MeldSets):
            points = sets_points(fact.sets, rules.meld_table, rules.meld_prices)
        elif isinstance(fact, MeldCards) and (trump := fact.trump or deal.trump) is not None:
            points = meld_points(fact.hand, trump, rules.meld_table, rules.meld_prices)
        else:  # a number to convert, or cards with no trump
            points, fact_exact = price_meld(fact, deal, rules)
            if not fact_exact:  # kept as entered: it counts, but the hand's meld is not known
                meld += points
                melds.append(None)
                exact = False
                continue
        meld += points
        melds.append(points)
    took, last_trick = entry.took_trick, entry.last_trick
    if took is None:  # card points show a trick taken; without any, the tricks recorded tell
        took = card_points > 0 or took_any_trick(tricks, last_trick)
    taken = card_points + rules.last_trick if last_trick else card_points
    if meld < rules.min_meld or (played and (not took or taken == 0) and rules.must_take_trick is not _TAKE_NOTHING):
        points, reason = _settled(meld, taken, took, exact, card_points, rules, played)  # the meld may be lost
        return points, meld, reason, exact
    # The meld counts: settled as ``_settled`` settles it, without its call (the usual side of the usual deal).
    return (0 if played and card_points < rules.save_points else meld + taken), meld, None, exact


def _price_total(entry: SideTotal, deal: Deal, rules: HouseRules) -> SideFigures:
    """A one-number entry converts only when meld, tricks and last trick all scale by one factor."""
    basis = deal.entered_under
    if basis is None or (same_meld_prices(basis, rules) and basis.trick_scale is rules.trick_scale
                         and basis.last_trick == rules.last_trick):  # every factor is 1
        return _total_side(entry, entry.total, True)
    meld = meld_factor(basis, rules)
    trick_factor = scale_factor(basis.trick_scale, rules.trick_scale)
    if meld is not None and meld == trick_factor and basis.last_trick * meld == rules.last_trick:
        total, exact = convert(entry.total, meld)
    else:
        total, exact = entry.total, entry.total == 0
    return _total_side(entry, total, exact)


def _total_side(entry: SideTotal, total: int, exact: bool) -> SideFigures:
    if entry.took_trick is False:
        return total, 0, False, exact, None, ()
    return total, None, True, exact, None, ()
