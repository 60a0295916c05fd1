"""Rescaling a match: the small numbers ↔ the ×10 numbers, as one change of rules and recorded numbers.

×10 moves small meld values to large and one point a counter to ten, and multiplies the last trick, the
target, the minimum bid, the other point rules, the table's own meld prices, every bid and every number
typed in (one-number entries, meld and trick points) by 10; ÷10 does the reverse and is refused, naming the
deals, when a recorded number is not a multiple of 10. Cards, sets and counters are priced by the rules
and need no change.
"""

from __future__ import annotations

import dataclasses
from enum import IntEnum

from .errors import ContradictionError, HouseRuleError
from .house_rules import RULE_SPECS_BY_KEY, HouseRules, MeldTableName, TrickScale
from .match import Deal, Match, MeldFact, MeldPoints, PricingBasis, SideDetail, SideEntry, SideTotal, TrickPoints
from .meld_prices import KEY as MELD_PRICES
from .meld_prices import MeldPrices
from .problems import Problem, ProblemCode, join_path


class Factor(IntEnum):
    """Which way a match is rescaled: 10 multiplies, -10 divides."""

    UP = 10
    DOWN = -10

    @property
    def label(self) -> str:
        return "×10" if self is Factor.UP else "÷10"

    @property
    def inverse(self) -> Factor:
        return Factor.DOWN if self is Factor.UP else Factor.UP


SMALL_TABLE, LARGE_TABLE = MeldTableName.DOUBLE_SMALL, MeldTableName.DOUBLE_LARGE
SMALL_SCALE, LARGE_SCALE = TrickScale.ONE_POINT, TrickScale.TEN_POINT
SCALED_RULES = ("target", "min_bid", "last_trick", "min_meld", "save_points", "throw_in_bonus")
"""The house rules that are numbers of points: multiplied or divided with the match."""


def is_small_table(table: MeldTableName) -> bool:
    return table is SMALL_TABLE


def is_small_scale(scale: TrickScale) -> bool:
    return scale is SMALL_SCALE


def scales_disagree(rules: HouseRules) -> bool:
    """Meld values and trick points on different scales (small meld with ten-point tricks, or large with one)."""
    return is_small_table(rules.meld_table) != is_small_scale(rules.trick_scale)


def rescale_offer(old: HouseRules, new: HouseRules) -> Factor | None:
    """The rescale that does what a change to ``new`` seems to want, when ``new`` puts the meld values and
    the trick points on different scales and ``old`` can be rescaled that way; None otherwise."""
    if not scales_disagree(new) or scales_disagree(old):
        return None
    moved_up = (is_small_table(old.meld_table) and not is_small_table(new.meld_table)) or (
        is_small_scale(old.trick_scale) and not is_small_scale(new.trick_scale))
    factor = Factor.UP if moved_up else Factor.DOWN
    return factor if rescale_refusal(old, factor) is None else None


def _scale_refusal(rules: HouseRules, factor: Factor) -> str | None:
    table, scale = (SMALL_TABLE, SMALL_SCALE) if factor is Factor.UP else (LARGE_TABLE, LARGE_SCALE)
    if rules.meld_table is not table or rules.trick_scale is not scale:
        needs = ("small double-deck meld values and one point a counter" if factor is Factor.UP
                 else "large double-deck meld values and ten points a counter")
        return f"Rescaling {factor.label} needs {needs}"
    return None


def rescale_refusal(rules: HouseRules, factor: Factor) -> str | None:
    """Why these rules cannot be rescaled that way (the deals aside), or None when they can."""
    refusal = _scale_refusal(rules, factor)
    if refusal is not None:
        return refusal
    try:
        rescale_rules(rules, factor)
    except HouseRuleError as error:
        return str(error)
    return None


def rescale_rules(rules: HouseRules, factor: Factor) -> HouseRules:
    """The rules on the other scale; ``HouseRuleError`` naming the rule when a number does not fit."""
    up = factor is Factor.UP
    changes: dict[str, object] = {
        "meld_table": (LARGE_TABLE if up else SMALL_TABLE).value,
        "trick_scale": (LARGE_SCALE if up else SMALL_SCALE).value,
    }
    for key in SCALED_RULES:
        value: int = getattr(rules, key)
        if not up and value % 10:
            raise HouseRuleError(key, f"{RULE_SPECS_BY_KEY[key].label} {value} is not a multiple of 10")
        changes[key] = value * 10 if up else value // 10
    if rules.meld_prices:
        changes[MELD_PRICES] = rescale_prices(rules.meld_prices, factor)
    return rules.replace(**changes)


def rescale_prices(prices: MeldPrices, factor: Factor) -> MeldPrices:
    """The table's own meld prices on the other scale; ``HouseRuleError`` naming a price that does not fit."""
    scaled: dict[str, list[int | None]] = {}
    for combination, groups in prices.rows:
        row: list[int | None] = []
        for index, price in enumerate(groups):
            if price is not None and factor is Factor.DOWN and price % 10:
                raise HouseRuleError(join_path(MELD_PRICES, f"{combination.value}[{index}]"),
                                     f"Meld prices: {combination.label} {price} is not a multiple of 10",
                                     ProblemCode.NOT_A_MULTIPLE_OF_TEN)
            row.append(None if price is None else price * 10 if factor is Factor.UP else price // 10)
        scaled[combination.value] = row
    return MeldPrices.from_json(scaled)  # names a price pushed out of its range


def rescale(match: Match, factor: Factor) -> Match:
    """The match with its rules and every recorded number on the other scale.

    Raises ``HouseRuleError`` when the rules cannot move that way and ``ContradictionError`` naming every
    deal with a number that is not a multiple of 10 (÷10).
    """
    refusal = _scale_refusal(match.rules, factor)
    if refusal is not None:
        raise HouseRuleError("meld_table", refusal)
    rules = rescale_rules(match.rules, factor)  # names the rule whose number does not fit, when one does not
    problems: list[tuple[int, Problem]] = []
    deals = []
    for number, deal in enumerate(match.deals, start=1):
        scaled = _DealScaler(match.rules, factor)
        deals.append(scaled.deal(deal))
        problems.extend((number, problem) for problem in scaled.problems)
    if problems:
        raise ContradictionError(problems)
    return dataclasses.replace(match, rules=rules, deals=tuple(deals))


class _DealScaler:
    """Rescales the numbers of one deal, collecting those that ÷10 cannot divide."""

    def __init__(self, rules: HouseRules, factor: Factor) -> None:
        self.rules = rules
        self.factor = factor
        self.problems: list[Problem] = []

    def number(self, value: int, path: str) -> int:
        if self.factor is Factor.UP:
            return value * 10
        if value % 10:
            self.problems.append(Problem(ProblemCode.NOT_A_MULTIPLE_OF_TEN, path,
                                         f"{value} is not a multiple of 10"))
            return value
        return value // 10

    def deal(self, deal: Deal) -> Deal:
        if deal.passed:
            return deal
        basis = deal.entered_under or PricingBasis.of(self.rules)
        meld_moves = basis.meld_table is (SMALL_TABLE if self.factor is Factor.UP else LARGE_TABLE)
        tricks_move = basis.trick_scale is (SMALL_SCALE if self.factor is Factor.UP else LARGE_SCALE)
        sides = tuple(self.side(entry, f"sides[{index}]", meld_moves, tricks_move)
                      for index, entry in enumerate(deal.sides))
        new_basis = PricingBasis(
            _other_table(basis.meld_table) if meld_moves else basis.meld_table,
            _other_scale(basis.trick_scale) if tricks_move else basis.trick_scale,
            self.number(basis.last_trick, "last_trick") if tricks_move else basis.last_trick,
            self.prices(basis.meld_prices) if meld_moves else basis.meld_prices,
        )
        bid = None if deal.bid is None else self.number(deal.bid, "bid")
        return deal._replace(sides=sides, bid=bid, entered_under=new_basis)

    def prices(self, prices: MeldPrices) -> MeldPrices:
        try:
            return rescale_prices(prices, self.factor)
        except HouseRuleError as error:
            self.problems.append(Problem(error.code, join_path("entered_under", error.key), str(error)))
            return prices

    def side(self, entry: SideEntry, path: str, meld_moves: bool, tricks_move: bool) -> SideEntry:
        if isinstance(entry, SideTotal):  # meld and tricks together: moves only when both do
            if not (meld_moves and tricks_move):
                return entry
            return dataclasses.replace(entry, total=self.number(entry.total, f"{path}.total"))
        meld = tuple(self.meld(fact, f"{path}.meld", meld_moves) for fact in entry.meld)
        tricks = entry.tricks
        if isinstance(tricks, TrickPoints) and tricks_move:
            tricks = self.number(tricks, f"{path}.tricks")
        return SideDetail(meld=meld, tricks=tricks, last_trick=entry.last_trick, took_trick=entry.took_trick)

    def meld(self, fact: MeldFact, path: str, moves: bool) -> MeldFact:
        if isinstance(fact, MeldPoints) and moves:
            return self.number(fact, path)
        return fact


def _other_table(table: MeldTableName) -> MeldTableName:
    return LARGE_TABLE if table is SMALL_TABLE else SMALL_TABLE


def _other_scale(scale: TrickScale) -> TrickScale:
    return LARGE_SCALE if scale is SMALL_SCALE else SMALL_SCALE
