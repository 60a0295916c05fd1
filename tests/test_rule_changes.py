"""Every house rule can change on a finished match: the sheet is recomputed from the facts.

The detailed match (tests/matches.py) records meld and tricks in every form; its sheet under the
default rules, to 100, is We 51/28, 52/−60 (They set), 81/0, We winning at deal 3.
"""

from __future__ import annotations

from typing import Any

import pytest

from matches import detailed_match, worked_sheet
from scorekeeper.rules.errors import ContradictionError
from scorekeeper.rules.match import Match
from scorekeeper.rules.scoring import Sheet, preview_rules, score_match


def changed(match: Match, **rules: Any) -> Sheet:
    return score_match(match.with_rules(match.rules.replace(**rules)))


def scores(sheet: Sheet) -> list[tuple[int, ...] | None]:
    return [line.scores for line in sheet.deals]


def test_baseline_of_the_detailed_match() -> None:
    sheet = score_match(detailed_match())
    assert scores(sheet) == [(51, 28), (52, -60), (81, 0)]
    assert (sheet.totals, sheet.winner, sheet.ended_at) == ((184, -32), 0, 3)


def test_play_to_moves_the_end_and_marks_later_deals() -> None:
    sheet = changed(worked_sheet(), target=200)
    assert (sheet.winner, sheet.ended_at, sheet.totals) == (0, 3, (200, -20))
    assert [line.after_end for line in sheet.deals] == [False, False, False, True, True]
    assert changed(worked_sheet(), target=500).winner is None


def test_play_to_changed_back_restores_the_sheet() -> None:
    match = worked_sheet()
    there = match.with_rules(match.rules.replace(target=200))
    back = there.with_rules(match.rules)
    assert score_match(back) == score_match(match)


def test_must_win_on_own_bid_off_lets_the_defenders_finish() -> None:
    sheet = changed(detailed_match(), must_win_own_bid=False)
    assert (sheet.winner, sheet.ended_at, sheet.totals) == (0, 2, (103, -32))
    assert sheet.deals[2].after_end


def test_single_deck_is_refused_when_recorded_tricks_need_a_double_deck() -> None:
    match = detailed_match()
    with pytest.raises(ContradictionError) as caught:
        preview_rules(match, match.rules.replace(deck="single"))
    assert caught.value.deal_numbers == [1, 2, 3]
    assert "single deck holds 24" in str(caught.value)


def test_deck_change_of_one_number_deals_changes_nothing() -> None:
    assert changed(worked_sheet(), deck="single") == score_match(worked_sheet())


def test_large_meld_values_reprice_sets_cards_and_numbers() -> None:
    sheet = changed(detailed_match(), meld_table="double-large")
    # run + pinochle 150 + 40, +30 +2 last trick; They's 10 becomes 100, + 18 counters.
    assert sheet.deals[0].scores == (222, 118)
    assert (sheet.winner, sheet.ended_at) == (0, 1)
    assert sheet.deals[0].as_entered == ()


def test_single_classic_values_on_a_double_deck_keep_plain_numbers_as_entered() -> None:
    sheet = changed(detailed_match(), meld_table="single-classic")
    assert sheet.deals[0].scores == (222, 28)  # sets re-priced: 150 + 40; They's 10 kept
    assert sheet.deals[0].as_entered == (1,)


def test_ten_point_scale_multiplies_trick_points() -> None:
    sheet = changed(detailed_match(), trick_scale="ten-point")
    assert sheet.deals[0].scores == (19 + 300 + 2, 10 + 180)


def test_classic_scale_reprices_cards_and_keeps_numbers_as_entered() -> None:
    sheet = changed(detailed_match(), trick_scale="classic")
    assert sheet.deals[0].scores == (51, 28) and sheet.deals[0].as_entered == (0, 1)
    # Deal 2: We took A×10, 10×10, K×8, Q×4: 110 + 100 + 32 + 12 = 254 classic points.
    assert sheet.deals[1].scores == (22 + 254 + 2, -60)
    assert sheet.deals[1].as_entered == (1,)


@pytest.mark.parametrize("min_bid", [60, 55])
def test_raising_the_minimum_bid_above_recorded_bids_is_refused(min_bid: int) -> None:
    match = detailed_match()
    with pytest.raises(ContradictionError) as caught:
        preview_rules(match, match.rules.replace(min_bid=min_bid))
    assert caught.value.deal_numbers == [1, 3]


def test_lowering_the_minimum_bid_changes_no_deal() -> None:
    match = detailed_match()
    assert preview_rules(match, match.rules.replace(min_bid=40)).changed == ()


def test_last_trick_worth_changes_the_side_that_took_it() -> None:
    sheet = changed(detailed_match(), last_trick=10)
    assert scores(sheet) == [(59, 28), (60, -60), (89, 0)]


def test_last_trick_worth_keeps_one_number_deals_as_entered() -> None:
    sheet = changed(worked_sheet(), last_trick=10)
    assert sheet.totals == (318, 76)
    assert all(line.as_entered == (0, 1) for line in sheet.deals)


def test_must_take_a_trick_off_keeps_the_meld_of_a_side_without_tricks() -> None:
    sheet = changed(detailed_match(), must_take_trick="off")
    assert sheet.deals[2].scores == (81, 8)


def test_must_take_trick_points_is_at_least_as_strict() -> None:
    assert changed(detailed_match(), must_take_trick="points").deals[2].scores == (81, 0)


def test_preview_names_the_deals_whose_line_changes() -> None:
    match = detailed_match()
    preview = preview_rules(match, match.rules.replace(must_take_trick="off"))
    assert preview.changed == (3,)
    assert preview.before == score_match(match)
    assert preview.after.totals == (184, -24)
