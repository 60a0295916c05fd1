"""Re-pricing recorded facts under changed house rules, as RULES.md says: convert only what converts exactly."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches import format_example
from scorekeeper.rules.cards import Rank
from scorekeeper.rules.combinations import Combination
from scorekeeper.rules.house_rules import HouseRules, MeldTableName, MustTake, TrickScale
from scorekeeper.rules.match import (
    Deal,
    MeldSets,
    PricingBasis,
    SideDetail,
    SideTotal,
    TrickCards,
    TrickCounters,
)
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.rules.pricing import PricedSide, convert, price_card_points, price_meld, price_side
from scorekeeper.rules.scoring import preview_rules, score_match

SMALL, LARGE, CLASSIC_TABLE = "double-small", "double-large", "single-classic"
ONE, TEN, CLASSIC = "one-point", "ten-point", "classic"


def rules(deck: str = "double", meld_table: str = SMALL, trick_scale: str = ONE, last_trick: int = 2) -> HouseRules:
    return HouseRules.from_mapping(
        {"deck": deck, "meld_table": meld_table, "trick_scale": trick_scale, "last_trick": last_trick}
    )


def entered_under(basis: HouseRules) -> Deal:
    """A deal whose plain numbers were entered under ``basis``."""
    return Deal(bidder=0, bid=50, entered_under=PricingBasis.of(basis))


# Meld typed as a number: converted between tables only by an exact factor for the deck.
@pytest.mark.parametrize(
    ("deck", "source", "target", "entered", "expected", "exact"),
    [
        ("double", SMALL, LARGE, 19, 190, True),  # ×10
        ("double", LARGE, SMALL, 190, 19, True),  # ÷10 when whole
        ("double", LARGE, SMALL, 195, 195, False),  # not whole: kept as entered
        ("double", LARGE, SMALL, 15, 15, False),
        ("single", CLASSIC_TABLE, LARGE, 240, 240, True),  # same prices on a single deck
        ("single", LARGE, CLASSIC_TABLE, 1650, 1650, True),
        ("single", CLASSIC_TABLE, SMALL, 240, 24, True),  # a tenth of the classic prices on a single deck
        ("single", CLASSIC_TABLE, SMALL, 245, 245, False),
        ("single", SMALL, CLASSIC_TABLE, 24, 240, True),
        ("double", CLASSIC_TABLE, LARGE, 240, 240, False),  # three runs differ: no factor on a double deck
        ("double", LARGE, CLASSIC_TABLE, 240, 240, False),
        ("double", CLASSIC_TABLE, SMALL, 240, 240, False),
        ("double", SMALL, CLASSIC_TABLE, 24, 24, False),
        ("double", SMALL, SMALL, 37, 37, True),
        ("single", CLASSIC_TABLE, CLASSIC_TABLE, 245, 245, True),
    ],
)
def test_meld_number_between_tables(deck: str, source: str, target: str, entered: int, expected: int,
                                    exact: bool) -> None:
    deal = entered_under(rules(deck, meld_table=source))
    assert price_meld(entered, deal, rules(deck, meld_table=target)) == (expected, exact)


TABLES = [SMALL, LARGE, CLASSIC_TABLE]
SCALES = [ONE, TEN, CLASSIC]


@pytest.mark.parametrize("deck", ["single", "double"])
@pytest.mark.parametrize("source", TABLES)
@pytest.mark.parametrize("target", TABLES)
def test_zero_meld_is_exact_on_every_table(deck: str, source: str, target: str) -> None:
    deal = entered_under(rules(deck, meld_table=source))
    assert price_meld(0, deal, rules(deck, meld_table=target)) == (0, True)


@pytest.mark.parametrize(
    ("table", "expected"), [(SMALL, 15 + 30 + 4), (LARGE, 150 + 300 + 40), (CLASSIC_TABLE, 150 + 300 + 40)]
)
def test_meld_sets_always_reprice(table: str, expected: int) -> None:
    fact = MeldSets(((Combination.RUN, 1), (Combination.ROYAL_MARRIAGE, 1), (Combination.PINOCHLE, 2)))
    for basis_table in TABLES:
        deal = entered_under(rules(meld_table=basis_table))
        assert price_meld(fact, deal, rules(meld_table=table)) == (expected, True)


# Trick points typed as a number: one-point ↔ ten-point convert, classic does not.
@pytest.mark.parametrize(
    ("source", "target", "entered", "expected", "exact"),
    [
        (ONE, TEN, 21, 210, True),
        (TEN, ONE, 210, 21, True),
        (TEN, ONE, 215, 215, False),
        (ONE, CLASSIC, 21, 21, False),
        (CLASSIC, ONE, 120, 120, False),
        (TEN, CLASSIC, 120, 120, False),
        (CLASSIC, TEN, 120, 120, False),
        (CLASSIC, CLASSIC, 121, 121, True),
        (ONE, ONE, 21, 21, True),
    ],
)
def test_trick_number_between_scales(source: str, target: str, entered: int, expected: int, exact: bool) -> None:
    deal = entered_under(rules(trick_scale=source))
    assert price_card_points(entered, deal, rules(trick_scale=target)) == (expected, exact)


@pytest.mark.parametrize("source", SCALES)
@pytest.mark.parametrize("target", SCALES)
def test_zero_trick_points_and_counters_are_exact_on_every_scale(source: str, target: str) -> None:
    deal = entered_under(rules(trick_scale=source))
    assert price_card_points(0, deal, rules(trick_scale=target)) == (0, True)
    assert price_card_points(TrickCounters(0), deal, rules(trick_scale=target)) == (0, True)
    assert price_card_points(None, deal, rules(trick_scale=target)) == (0, True)


# Counters convert to the one-point and ten-point scales whatever they were entered under, never to classic.
@pytest.mark.parametrize(
    ("source", "target", "expected", "exact"),
    [
        (ONE, ONE, 27, True),
        (ONE, TEN, 270, True),
        (TEN, ONE, 27, True),
        (CLASSIC, TEN, 270, True),
        (ONE, CLASSIC, 27, False),  # kept as entered: 27 points on the one-point scale
        (TEN, CLASSIC, 270, False),
    ],
)
def test_counters(source: str, target: str, expected: int, exact: bool) -> None:
    deal = entered_under(rules(trick_scale=source))
    assert price_card_points(TrickCounters(27), deal, rules(trick_scale=target)) == (expected, exact)


# Cards taken by rank re-price on every scale, whatever the deal was entered under.
@pytest.mark.parametrize(("target", "expected"), [(ONE, 28), (TEN, 280), (CLASSIC, 110 + 100 + 32 + 12)])
@pytest.mark.parametrize("source", SCALES)
def test_cards_by_rank_always_reprice(source: str, target: str, expected: int) -> None:
    taken = TrickCards(((Rank.ACE, 10), (Rank.TEN, 10), (Rank.KING, 8), (Rank.QUEEN, 4)))
    deal = entered_under(rules(trick_scale=source))
    assert price_card_points(taken, deal, rules(trick_scale=target)) == (expected, True)


def test_the_last_trick_bonus_of_a_detailed_entry_follows_the_rule_in_force() -> None:
    deal = entered_under(rules(trick_scale=ONE, last_trick=2))
    entry = SideDetail(meld=(10,), tricks=30, last_trick=True)
    priced = price_side(entry, deal, rules(meld_table=LARGE, trick_scale=TEN, last_trick=10))
    assert (priced.meld, priced.tricks, priced.exact) == (100, 300 + 10, True)


# One number for meld and tricks together converts only when meld, tricks and last trick share one factor.
@pytest.mark.parametrize(
    ("source", "target", "entered", "expected", "exact"),
    [
        (rules(), rules(meld_table=LARGE, trick_scale=TEN, last_trick=20), 67, 670, True),
        (rules(meld_table=LARGE, trick_scale=TEN, last_trick=20), rules(), 670, 67, True),
        (rules(meld_table=LARGE, trick_scale=TEN, last_trick=20), rules(), 675, 675, False),
        (rules(), rules(meld_table=LARGE, trick_scale=TEN, last_trick=10), 67, 67, False),  # bonus not ×10
        (rules(), rules(meld_table=LARGE), 67, 67, False),  # meld ×10 but tricks ×1
        (rules(), rules(trick_scale=TEN, last_trick=20), 67, 67, False),  # tricks ×10 but meld ×1
        (rules(), rules(last_trick=10), 67, 67, False),  # only the bonus changed
        (rules("single", CLASSIC_TABLE, TEN, 10), rules("single", LARGE, TEN, 10), 350, 350, True),
        (rules("single", CLASSIC_TABLE, CLASSIC, 10), rules("single", LARGE, CLASSIC, 10), 350, 350, True),
        (rules("single", CLASSIC_TABLE, TEN, 10), rules("single", SMALL, ONE, 1), 350, 35, True),
        (rules("single", CLASSIC_TABLE, TEN, 10), rules("single", CLASSIC_TABLE, CLASSIC, 10), 350, 350, False),
        (rules("double", CLASSIC_TABLE, TEN, 10), rules("double", LARGE, TEN, 10), 350, 350, False),
        (rules(), rules(), 67, 67, True),
    ],
)
def test_one_number_total(source: HouseRules, target: HouseRules, entered: int, expected: int, exact: bool) -> None:
    priced = price_side(SideTotal(entered), entered_under(source), target)
    assert (priced.meld, priced.exact) == (expected, exact)


@pytest.mark.parametrize(
    ("source", "target"),
    [(rules(), rules(meld_table=LARGE)), (rules(), rules(trick_scale=CLASSIC)),
     (rules("double", CLASSIC_TABLE, TEN, 10), rules("double", LARGE, TEN, 10)), (rules(), rules(last_trick=7))],
)
def test_zero_total_is_exact_whatever_the_change(source: HouseRules, target: HouseRules) -> None:
    priced = price_side(SideTotal(0), entered_under(source), target)
    assert (priced.meld, priced.exact) == (0, True)


@pytest.mark.parametrize(
    ("value", "factor", "expected"),
    [(0, None, (0, True)), (15, None, (15, False)), (15, Fraction(10), (150, True)),
     (150, Fraction(1, 10), (15, True)), (15, Fraction(1, 10), (15, False)), (7, Fraction(1), (7, True))],
)
def test_convert(value: int, factor: Fraction | None, expected: tuple[int, bool]) -> None:
    assert convert(value, factor) == expected


# Through a whole match: the sheet keeps unconvertible numbers as entered and marks those sides.
def changed_example(**changes: Any) -> Any:
    match = match_from_json(format_example())
    return score_match(match.with_rules(match.rules.replace(**changes)))


def test_meld_table_change_to_large_converts_meld_numbers_and_marks_totals() -> None:
    sheet = changed_example(meld_table=LARGE)
    assert [line.scores for line in sheet.deals] == [(67, 20), (140 + 21 + 2, 150 + 40 + 27), (-50, 80), (0, 0)]
    assert [line.as_entered for line in sheet.deals] == [(0, 1), (), (), ()]


def test_single_classic_on_a_double_deck_keeps_meld_numbers_as_entered() -> None:
    sheet = changed_example(meld_table=CLASSIC_TABLE)
    assert [line.scores for line in sheet.deals] == [(67, 20), (14 + 21 + 2, 150 + 40 + 27), (-50, 8), (0, 0)]
    assert [line.as_entered for line in sheet.deals] == [(0, 1), (0,), (0, 1), ()]


def test_everything_times_ten_converts_totals_too() -> None:
    sheet = changed_example(meld_table=LARGE, trick_scale=TEN, last_trick=20, target=2000)
    assert [line.scores for line in sheet.deals] == [(670, 200), (140 + 210 + 20, 150 + 40 + 270), (-50, 80), (0, 0)]
    assert all(line.as_entered == () for line in sheet.deals)


def test_preview_names_only_the_deals_whose_scores_change() -> None:
    match = match_from_json(format_example())
    preview = preview_rules(match, match.rules.replace(meld_table=LARGE))
    assert preview.changed == (2, 3)  # deal 1 keeps its scores (now marked as entered): not a change
    assert preview.before == score_match(match)
    assert preview_rules(match, match.rules.replace(min_bid=40)).changed == ()


def test_changing_back_prices_every_number_as_first_entered() -> None:
    match = match_from_json(format_example())
    there = match.with_rules(match.rules.replace(meld_table=CLASSIC_TABLE, trick_scale=CLASSIC))
    assert score_match(there.with_rules(match.rules)) == score_match(match)


def test_pricing_basis_is_the_rules_that_price_plain_numbers() -> None:
    basis = PricingBasis.of(rules("single", CLASSIC_TABLE, TEN, 10))
    assert basis == PricingBasis(MeldTableName.SINGLE_CLASSIC, TrickScale.TEN_POINT, 10)


@given(meld=st.integers(-20, 300), tricks=st.one_of(st.none(), st.integers(0, 60)),
       card_points=st.one_of(st.none(), st.integers(0, 60)), took_trick=st.booleans(),
       must_take=st.sampled_from(MustTake), min_meld=st.integers(0, 100), save_points=st.integers(0, 40),
       played=st.booleans())
def test_a_side_earns_its_tricks_and_its_meld_unless_the_meld_is_lost_or_the_tricks_fall_short(
        meld: int, tricks: int | None, card_points: int | None, took_trick: bool, must_take: MustTake,
        min_meld: int, save_points: int, played: bool) -> None:
    side = PricedSide(meld, tricks, took_trick, True, card_points)
    house = HouseRules(must_take_trick=must_take, min_meld=min_meld, save_points=save_points)
    reason = side.meld_lost_because(house, played)
    short = played and card_points is not None and card_points < save_points
    earned = 0 if short else (tricks or 0) + (0 if reason else meld)
    assert side.settled(house, played) == (earned, reason)
    assert side.earned(house, played) == earned
