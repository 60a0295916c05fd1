"""Invariants of the score sheet over random valid matches (see ``strategies``)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.checks import check_match
from scorekeeper.rules.match import Match, SideDetail, SideTotal
from scorekeeper.rules.matchfile import dumps_match, loads_match, match_from_json, match_to_json
from scorekeeper.rules.scoring import play, preview_rules, score_match, settle_match
from strategies import DealOptions, match_twins, matches

EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@EXAMPLES
@given(matches())
def test_generated_matches_hold_no_contradiction(match: Match) -> None:
    assert check_match(match) == []


@EXAMPLES
@given(matches())
def test_recomputing_under_unchanged_rules_changes_nothing(match: Match) -> None:
    preview = preview_rules(match, match.rules)
    assert preview.changed == ()
    assert preview.after == preview.before == score_match(match)
    assert score_match(match.with_rules(match.rules)) == score_match(match)


@EXAMPLES
@given(matches())
def test_a_checked_match_scores_the_same_without_the_checks(match: Match) -> None:
    assert score_match(match, checked=True) == score_match(match)


@EXAMPLES
@given(matches())
def test_the_deals_settled_add_up_to_the_sheets_end(match: Match) -> None:
    sheet = score_match(match)
    assert play(match, settle_match(match)) == (sheet.totals, sheet.winner, sheet.ended_at)


@EXAMPLES
@given(match_twins(options=DealOptions(pricing_bases=False, totals=False, zero_point_tricks=False)))
def test_one_number_per_side_scores_the_same_as_meld_and_tricks(twins: tuple[Match, Match]) -> None:
    match, quick = twins
    assert all(isinstance(entry, SideDetail) for deal in match.deals for entry in deal.sides)
    assert all(isinstance(entry, SideTotal) for deal in quick.deals for entry in deal.sides)
    assert score_match(quick) == score_match(match)


@EXAMPLES
@given(matches())
def test_match_file_round_trip(match: Match) -> None:
    assert match_from_json(match_to_json(match)) == match
    assert loads_match(dumps_match(match)) == match


@EXAMPLES
@given(matches())
def test_running_totals_are_the_sums_of_the_scores_up_to_the_end(match: Match) -> None:
    sheet = score_match(match)
    running = [0] * len(match.sides)
    for line in sheet.deals:
        if line.after_end:
            break
        assert line.scores is not None
        running = [total + score for total, score in zip(running, line.scores)]
        assert line.totals == tuple(running)
    assert sheet.totals == tuple(running)


@EXAMPLES
@given(matches())
def test_after_the_winner_every_deal_is_after_the_end(match: Match) -> None:
    sheet = score_match(match)
    ended_at = sheet.ended_at if sheet.winner is not None else len(sheet.deals)
    assert (sheet.winner is None) == (sheet.ended_at is None)
    for line in sheet.deals:
        counted = line.number <= ended_at
        assert line.after_end is not counted
        assert (line.scores is None, line.totals is None) == (not counted, not counted)


@EXAMPLES
@given(matches())
def test_the_winner_reached_the_target_and_is_ranked_first(match: Match) -> None:
    sheet = score_match(match)
    assert sorted(sheet.rank) == list(range(len(match.sides)))
    others = [sheet.totals[i] for i in sheet.rank if i != sheet.winner]
    assert others == sorted(others, reverse=True)
    if sheet.winner is None:
        return
    assert sheet.totals[sheet.winner] >= match.rules.target
    assert sheet.rank[0] == sheet.winner
    deciding = sheet.deals[sheet.ended_at - 1]
    if match.auction and match.rules.must_win_own_bid:
        assert (deciding.bidder, deciding.made) == (sheet.winner, True)


@settings(EXAMPLES, max_examples=30)
@given(matches(), st.data())
def test_a_deal_never_changes_the_lines_before_it(match: Match, data: st.DataObject) -> None:
    sheet = score_match(match)
    count = data.draw(st.integers(0, len(match.deals)), label="deals kept")
    shorter = score_match(match.with_deals(match.deals[:count]))
    assert shorter.deals == sheet.deals[:count]
    if sheet.ended_at is None or count < sheet.ended_at:
        assert shorter.winner is None
