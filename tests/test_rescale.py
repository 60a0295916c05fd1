"""Rescaling a match (RULES.md "Rescaling a match"): small numbers ↔ ×10 numbers as one change."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.errors import ContradictionError, HouseRuleError
from scorekeeper.rules.house_rules import HouseRules, MeldTableName, TrickScale
from scorekeeper.rules.match import Deal, Match, SideDetail, SideInfo, SideTotal
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.rules.problems import ProblemCode
from scorekeeper.rules.rescale import Factor, rescale, rescale_offer, rescale_refusal, scales_disagree
from scorekeeper.rules.scoring import preview_rules, score_match
from scorekeeper.rules.undo import rules_before
from strategies import DealOptions, deal_twins, house_rules, matches

EXAMPLES = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
SMALL, LARGE = MeldTableName.DOUBLE_SMALL, MeldTableName.DOUBLE_LARGE
ONE, TEN = TrickScale.ONE_POINT, TrickScale.TEN_POINT


def worked_sheet() -> Match:
    """RULES.md's worked score sheet (play to 300, one number a side)."""
    rows = [(0, 60, 67, 20), (1, 55, 51, 38), (0, 80, 95, 15), (1, 70, 84, 30), (0, 75, 88, 12)]
    deals = []
    for bidder, bid, took, others in rows:
        sides = [others, others]
        sides[bidder] = took
        deals.append({"bidder": bidder, "bid": bid, "sides": [{"total": n} for n in sides]})
    return match_from_json({"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}],
                            "rules": {"target": 300}, "deals": deals})


def test_times_ten_moves_rules_bids_and_one_number_entries() -> None:
    """×10: small → large meld, one → ten points a counter, last trick 2 → 20, play to 300 → 3000, minimum
    bid 50 → 500; deal 1 (We bid 60, took 67, They 20) becomes We bid 600, took 670, They 200."""
    match = worked_sheet()
    scaled = rescale(match, Factor.UP)
    assert (scaled.rules.meld_table, scaled.rules.trick_scale, scaled.rules.last_trick) == (LARGE, TEN, 20)
    assert (scaled.rules.target, scaled.rules.min_bid) == (3000, 500)
    first = scaled.deals[0]
    assert first.bid == 600 and first.sides == (SideTotal(670), SideTotal(200))
    sheet = score_match(scaled)
    assert sheet.totals == (3180, 760) and sheet.winner == 0 and sheet.ended_at == 5  # RULES.md's 318 and 76, ×10


def test_times_ten_multiplies_meld_and_trick_points_typed_in() -> None:
    """A side with meld 24 and 30 trick points typed in: 240 and 300 after ×10 (cards are priced anew)."""
    deal = Deal(sides=(SideDetail(meld=(24,), tricks=30, last_trick=True),
                       SideDetail(meld=(4,), tricks=18)), bidder=0, bid=50)
    match = Match(sides=(SideInfo("We"), SideInfo("They")), deals=(deal.pinned(HouseRules()),))
    scaled = rescale(match, Factor.UP)
    sides = scaled.deals[0].sides
    assert sides[0] == SideDetail(meld=(240,), tricks=300, last_trick=True)
    assert score_match(scaled).deals[0].scores == (560, 220)  # 240 + 300 + 20, 40 + 180
    assert rescale(scaled, Factor.DOWN) == match


def test_the_tables_own_meld_prices_move_with_the_match() -> None:
    """NPA prices on the small table (run 25, pinochle 15 / 30 / 60 / 90) become 250 and 150 / 300 / 600 /
    900 after ×10. A hand of one run and one pinochle in spades, shown as sets, is 25 + 15 = 40, then 400;
    with tricks 30 typed in (300 after ×10) and the last trick (2, then 20) the bidders score 72, then 720.
    ÷10 brings the prices back; prices of 5 cannot be divided and are named."""
    npa = {"run": [25, 150, 225, 300], "pinochle": [15, 30, 60, 90]}
    match = match_from_json({
        "format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}],
        "rules": {"meld_prices": npa},
        "deals": [{"bidder": 0, "bid": 50, "trump": "S", "sides": [
            {"meld": [{"run": 1, "pinochle": 1}], "tricks": 30, "last_trick": True},
            {"meld": [], "tricks": 18}]}]})
    scaled = rescale(match, Factor.UP)
    assert scaled.rules.meld_prices.to_json() == {"run": [250, 1500, 2250, 3000], "pinochle": [150, 300, 600, 900]}
    assert score_match(match).deals[0].scores[0] == 72
    assert score_match(scaled).deals[0].scores[0] == 720
    back = rescale(scaled, Factor.DOWN)
    assert back.rules == match.rules and score_match(back) == score_match(match)
    odd = rescale(match, Factor.UP).rules.replace(meld_prices={"pinochle": [155]})
    with pytest.raises(HouseRuleError) as refused:
        rescale(dataclasses.replace(scaled, rules=odd), Factor.DOWN)
    assert refused.value.problem.path == "rules.meld_prices.pinochle[0]"


def test_divide_by_ten_is_refused_naming_the_deals_that_do_not_divide() -> None:
    scaled = rescale(worked_sheet(), Factor.UP)
    odd = scaled.with_deals((scaled.deals[0], scaled.deals[1]._replace(bid=555), scaled.deals[2],
                             scaled.deals[3]._replace(sides=(SideTotal(301), SideTotal(840)))))
    with pytest.raises(ContradictionError) as refused:
        rescale(odd, Factor.DOWN)
    assert refused.value.deal_numbers == [2, 4]
    assert {problem.code for _, problem in refused.value.problems} == {ProblemCode.NOT_A_MULTIPLE_OF_TEN}
    assert "555 is not a multiple of 10" in str(refused.value)


@pytest.mark.parametrize(("rules", "factor", "fragment"), [
    (HouseRules(meld_table=LARGE, trick_scale=TEN, last_trick=20, min_bid=500), Factor.UP, "needs small"),
    (HouseRules(), Factor.DOWN, "needs large"),
    (HouseRules(meld_table=MeldTableName.SINGLE_CLASSIC, trick_scale=TEN), Factor.DOWN, "needs large"),
    (HouseRules(target=1000), Factor.UP, "Play to"),  # 10,000 is beyond 5,000
    (HouseRules(meld_table=LARGE, trick_scale=TEN, last_trick=25 // 5 * 3, min_bid=500), Factor.DOWN,
     "Last trick worth 15 is not a multiple of 10"),
])
def test_rules_that_cannot_move_say_why(rules: HouseRules, factor: Factor, fragment: str) -> None:
    refusal = rescale_refusal(rules, factor)
    assert refusal is not None and fragment in refusal
    with pytest.raises(HouseRuleError):
        rescale(Match(sides=(SideInfo("We"), SideInfo("They")), rules=rules), factor)


def test_mixed_scales_are_noticed_and_the_rescale_offered() -> None:
    small = HouseRules()
    assert not scales_disagree(small)
    assert scales_disagree(small.replace(trick_scale="ten-point"))
    assert rescale_offer(small, small.replace(trick_scale="ten-point")) is Factor.UP
    assert rescale_offer(small, small.replace(meld_table="double-large")) is Factor.UP
    large = rescale(Match(sides=(SideInfo("A"), SideInfo("B")), rules=small), Factor.UP).rules
    assert rescale_offer(large, large.replace(trick_scale="one-point")) is Factor.DOWN
    assert rescale_offer(small, small.replace(target=600)) is None


@st.composite
def small_matches(draw: st.DrawFn) -> Match:
    """A match on the small numbers whose rules fit ×10 (deals entered under the match's own rules)."""
    rules = dataclasses.replace(draw(house_rules()), meld_table=SMALL, trick_scale=ONE)
    rules = dataclasses.replace(rules, target=min(rules.target, 500), min_bid=min(rules.min_bid, 60),
                                last_trick=rules.last_trick % 3)
    side_count = draw(st.integers(2, 3))
    auction = draw(st.booleans())
    twins = draw(st.lists(deal_twins(rules, side_count, auction, DealOptions(pricing_bases=False)), max_size=6))
    sides = tuple(SideInfo(name) for name in ("A", "B", "C")[:side_count])
    return Match(sides=sides, rules=rules, deals=tuple(deal.pinned(rules) for deal, _ in twins), auction=auction)


@EXAMPLES
@given(small_matches())
def test_times_ten_then_divide_by_ten_is_the_identity(match: Match) -> None:
    assert rescale(rescale(match, Factor.UP), Factor.DOWN) == match


@EXAMPLES
@given(small_matches())
def test_times_ten_multiplies_every_score_and_keeps_the_winner(match: Match) -> None:
    before, after = score_match(match), score_match(rescale(match, Factor.UP))
    assert after.totals == tuple(10 * total for total in before.totals)
    assert [line.scores and tuple(10 * n for n in line.scores) for line in before.deals] == \
        [line.scores for line in after.deals]
    assert (after.winner, after.ended_at) == (before.winner, before.ended_at)


def test_preview_lists_only_changed_scores_and_names_flips_and_the_winner() -> None:
    """On the worked sheet: a ten-point trick scale keeps every one-number entry as entered (they no longer
    convert), so no score changes even though every line is now marked: nothing is listed."""
    match = worked_sheet()
    same = preview_rules(match, match.rules.replace(trick_scale="ten-point"))
    assert same.changed == () and same.flipped == () and not same.winner_changes
    # "Minus twice the bid": deal 2 (They bid 55, took 51) scores −110 instead of −55; nothing flips.
    doubled = preview_rules(match, match.rules.replace(set_penalty="double"))
    assert doubled.changed == (2,) and doubled.flipped == ()
    # Play to 200: We reach 67 + 38 + 95 = 200 at deal 3 on our own bid: the match ends two deals earlier.
    earlier = preview_rules(match, match.rules.replace(target=200))
    assert earlier.winner_changes and earlier.after.ended_at == 3
    assert earlier.changed == (4, 5)  # played after the end: no scores any more


@EXAMPLES
@given(matches(max_deals=6), house_rules())
def test_undo_of_a_change_restores_the_sheet(match: Match, other: HouseRules) -> None:
    """Change any rules, then put the changed ones back: the sheet is the one before, deal for deal."""
    before = score_match(match)
    changed = match.with_rules(other)
    try:
        score_match(changed)
    except ContradictionError:
        assume(False)  # a change the recorded deals refuse is never applied, so there is nothing to undo
    old = match.rules.to_mapping(complete=True)
    undone = changed.with_rules(rules_before(other, {key: old[key] for key in match.rules.differences(other)}))
    assert undone.rules == match.rules
    assert score_match(undone) == before
