"""Standings of a club event from its tables' outcomes, checked against standings worked out by hand."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches import make_match
from scorekeeper.rules.events import EventFormat, Ranking, RoundEnd, RoundEndKind, SeatedTable, Seating
from scorekeeper.rules.seating import seat_round
from scorekeeper.rules.standings import (
    PlayerStanding,
    TableOutcome,
    TeamStanding,
    close_table,
    progressive_standings,
    round_is_done,
    table_outcome,
    team_standings,
)

Sides = tuple[tuple[str, ...], tuple[str, ...]]


def done(round: int, table: int, sides: Sides, first: int, second: int) -> TableOutcome:
    """A finished table: the side ahead won (none on a tie), four deals played."""
    winner = None if first == second else (0 if first > second else 1)
    return TableOutcome(round, table, sides, (first, second), winner, 4, True)


# Progressive: 8 players, 2 tables, 3 rounds ------------------------------------------------------------

PROGRESSIVE = [
    done(1, 1, (("Ann", "Bob"), ("Cy", "Di")), 520, 380),
    done(1, 2, (("Ed", "Flo"), ("Gus", "Hal")), 410, 450),
    done(2, 1, (("Ann", "Cy"), ("Ed", "Gus")), 300, 610),
    done(2, 2, (("Bob", "Di"), ("Flo", "Hal")), 470, 470),  # a tie: no one wins the round
    done(3, 1, (("Ann", "Di"), ("Flo", "Gus")), 560, 240),
    done(3, 2, (("Bob", "Ed"), ("Cy", "Hal")), 390, 450),
]


def test_progressive_standings_of_a_small_evening_worked_out_by_hand() -> None:
    # name, points (each round's side total added up), rank, rounds, rounds won, best round, byes
    assert progressive_standings(PROGRESSIVE) == (
        PlayerStanding("Ed", 410 + 610 + 390, 1, 3, 1, 610, 0),  # 1410, as Di, but a better best round
        PlayerStanding("Di", 380 + 470 + 560, 2, 3, 1, 560, 0),
        PlayerStanding("Ann", 520 + 300 + 560, 3, 3, 2, 560, 0),  # 1380, as Bob, but two rounds won
        PlayerStanding("Bob", 520 + 470 + 390, 4, 3, 1, 520, 0),
        PlayerStanding("Hal", 450 + 470 + 450, 5, 3, 2, 470, 0),
        PlayerStanding("Gus", 450 + 610 + 240, 6, 3, 2, 610, 0),
        PlayerStanding("Cy", 380 + 300 + 450, 7, 3, 1, 450, 0),
        PlayerStanding("Flo", 410 + 470 + 240, 8, 3, 0, 470, 0),
    )


def test_players_equal_on_points_rounds_won_and_best_round_share_a_rank_listed_by_name() -> None:
    outcomes = [done(1, 1, (("Cy", "Ann"), ("Di", "Bob")), 300, 200),
                done(1, 2, (("Ed", "Flo"), ("Gus", "Hal")), 250, 100)]
    assert [(standing.name, standing.rank) for standing in progressive_standings(outcomes)] == [
        ("Ann", 1), ("Cy", 1), ("Ed", 3), ("Flo", 3), ("Bob", 5), ("Di", 5), ("Gus", 7), ("Hal", 7)]


def test_a_progressive_bye_is_worth_the_rounds_average_side_total() -> None:
    outcomes = [done(1, 1, (("Ann", "Bob"), ("Cy", "Di")), 300, 201)]
    seatings = [Seating(1, (SeatedTable(1, outcomes[0].sides),), (("Ed",),))]
    standings = {standing.name: standing for standing in progressive_standings(outcomes, seatings)}
    assert standings["Ed"] == PlayerStanding("Ed", 251, 3, 0, 0, None, 1)  # (300 + 300 + 201 + 201) / 4 = 250.5


def test_a_table_still_playing_counts_its_points_so_far_but_no_round_won() -> None:
    playing = TableOutcome(1, 1, (("Ann", "Bob"), ("Cy", "Di")), (120, 80), None, 2, False)
    standings = progressive_standings([playing])
    assert [(s.name, s.points, s.won) for s in standings] == [
        ("Ann", 120, 0), ("Bob", 120, 0), ("Cy", 80, 0), ("Di", 80, 0)]


# Team: 5 teams, 2 tables and a bye, 2 rounds -----------------------------------------------------------

AB, CD, EF, GH, IJ = ("Ann", "Bob"), ("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal"), ("Ivy", "Jo")
TEAM_SEATINGS = [
    Seating(1, (SeatedTable(1, (AB, CD)), SeatedTable(2, (EF, GH))), (IJ,)),
    Seating(2, (SeatedTable(1, (AB, IJ)), SeatedTable(2, (EF, CD))), (GH,)),  # GH moved on, IJ took its seat
]
TEAM = [
    done(1, 1, (AB, CD), 500, 420),
    done(1, 2, (EF, GH), 380, 451),
    done(2, 1, (AB, IJ), 430, 510),
    done(2, 2, (EF, CD), 505, 300),
]


def test_the_team_movement_seats_the_small_event_as_written() -> None:
    entrants = [AB, CD, EF, GH, IJ]
    first = seat_round(EventFormat.TEAM, entrants, [])
    assert [first, seat_round(EventFormat.TEAM, entrants, [first])] == TEAM_SEATINGS


def test_team_standings_of_a_small_event_with_a_bye_worked_out_by_hand() -> None:
    # players, won (a bye counts as won), points, rank, played at a table, byes
    assert team_standings(TEAM, TEAM_SEATINGS) == (
        TeamStanding(IJ, 2, 476 + 510, 1, 1, 1),  # round 1's bye: (500 + 451) / 2 = 475.5, halves up
        TeamStanding(GH, 2, 451 + 508, 2, 1, 1),  # round 2's bye: (510 + 505) / 2 = 507.5
        TeamStanding(AB, 1, 500 + 430, 3, 2, 0),
        TeamStanding(EF, 1, 380 + 505, 4, 2, 0),
        TeamStanding(CD, 0, 420 + 300, 5, 2, 0),
    )


A, B, C, D = ("Ann", "Al"), ("Bea", "Bo"), ("Cy", "Cal"), ("Di", "Dot")


def test_teams_equal_on_games_and_points_are_split_by_their_games_against_each_other() -> None:
    outcomes = [done(1, 1, (A, B), 500, 300), done(1, 2, (C, D), 400, 350),
                done(2, 1, (A, C), 300, 400), done(2, 2, (B, D), 600, 200),
                done(3, 1, (A, D), 600, 100), done(3, 2, (C, B), 600, 610)]
    assert [(standing.players, standing.won, standing.points, standing.rank)
            for standing in team_standings(outcomes, [])] == [
        (B, 2, 1510, 1), (C, 2, 1400, 2), (A, 2, 1400, 3), (D, 0, 650, 4)]  # C beat A in round 2


def test_teams_that_never_met_and_are_otherwise_equal_share_a_rank_listed_by_name() -> None:
    outcomes = [done(1, 1, (C, B), 400, 300), done(1, 2, (A, D), 400, 300)]
    assert [(standing.players, standing.rank) for standing in team_standings(outcomes, [])] == [
        (A, 1), (C, 1), (B, 3), (D, 3)]


def test_a_bye_before_any_table_is_done_is_worth_nothing_yet() -> None:
    playing = TableOutcome(1, 1, (A, B), (200, 150), None, 3, False)
    seatings = [Seating(1, (SeatedTable(1, (A, B)),), (C,))]
    standings = {standing.players: standing for standing in team_standings([playing], seatings)}
    assert (standings[C].won, standings[C].points, standings[A].won, standings[A].points) == (1, 0, 0, 200)


# Closing a late table, and when a table is done --------------------------------------------------------

@pytest.mark.parametrize(("totals", "winner"), [((310, 290), 0), ((120, 455), 1), ((200, 200), None)])
def test_a_late_table_closes_with_its_score_as_it_stands(totals: tuple[int, int], winner: int | None) -> None:
    late = TableOutcome(2, 3, (A, B), totals, None, 5, False)
    assert close_table(late) == TableOutcome(2, 3, (A, B), totals, winner, 5, True)


TARGET, DEALS, MINUTES = RoundEnd(RoundEndKind.TARGET), RoundEnd(RoundEndKind.DEALS, 6), RoundEnd(
    RoundEndKind.MINUTES, 50)


@pytest.mark.parametrize(("end", "target_reached", "deals", "minutes", "in_play", "expected"), [
    (TARGET, False, 12, 80.0, False, False),
    (TARGET, True, 9, None, False, True),
    (DEALS, False, 5, None, False, False),
    (DEALS, False, 6, None, False, True),
    (DEALS, True, 4, None, False, True),  # the match was won before its deals were up
    (MINUTES, False, 7, 49.9, False, False),
    (MINUTES, False, 7, 50.0, True, False),  # time is up: the deal in play is finished first
    (MINUTES, False, 8, 52.5, False, True),
    (MINUTES, False, 0, None, False, False),  # the clock has not started
    (MINUTES, True, 5, 20.0, True, True),
])
def test_a_table_is_done_by_the_target_its_deals_or_its_time(end: RoundEnd, target_reached: bool, deals: int,
                                                             minutes: float | None, in_play: bool,
                                                             expected: bool) -> None:
    assert round_is_done(end, target_reached, deals, minutes, deal_in_play=in_play) is expected


# A table's outcome from its match, scored by the sheet -------------------------------------------------

SEATED = SeatedTable(2, (A, B))


def deal(we: int, they: int) -> dict[str, Any]:
    return {"bidder": 0, "bid": 50, "sides": [{"total": we}, {"total": they}]}


PASS = {"passed": True}


@pytest.mark.parametrize(("deals", "end", "options", "expected"), [
    ([deal(60, 10)], DEALS, {}, ((60, 10), None, 1, False)),
    ([deal(60, 10)] * 5 + [PASS, deal(70, 30)], DEALS, {}, ((370, 80), 0, 6, True)),  # passed: not a deal
    ([deal(50, 70), deal(70, 50)] * 3, DEALS, {}, ((360, 360), None, 6, False)),  # level after its deals: plays on
    ([deal(260, 10), deal(250, 10)], TARGET, {}, ((510, 20), 0, 2, True)),
    ([deal(260, 10), deal(200, 10)], TARGET, {}, ((460, 20), None, 2, False)),
    ([deal(60, 10)], MINUTES, {"minutes_elapsed": 51.0, "deal_in_play": True}, ((60, 10), None, 1, False)),
    ([deal(60, 10)], MINUTES, {"minutes_elapsed": 51.0}, ((60, 10), 0, 1, True)),
    ([deal(50, 60)], TARGET, {"closed": True}, ((50, 60), 1, 1, True)),  # closed late: the side ahead wins
])
def test_a_tables_outcome_is_its_matchs_sheet_and_the_rounds_end(
        deals: list[dict[str, Any]], end: RoundEnd, options: dict[str, Any],
        expected: tuple[tuple[int, int], int | None, int, bool]) -> None:
    outcome = table_outcome(3, SEATED, make_match(deals), end, **options)
    assert (outcome.round, outcome.table, outcome.sides) == (3, 2, (A, B))
    assert (outcome.totals, outcome.winner, outcome.deals, outcome.done) == expected


# Properties over any event -----------------------------------------------------------------------------

@st.composite
def played_events(draw: st.DrawFn) -> tuple[EventFormat, list[Seating], list[TableOutcome]]:
    """An event of a few rounds, every table's outcome made up: done or not, the side ahead winning."""
    format = draw(st.sampled_from(EventFormat))
    count = draw(st.integers(2, 9)) if format is EventFormat.TEAM else draw(st.integers(4, 18))
    entrants = ([(f"A{index}", f"B{index}") for index in range(count)] if format is EventFormat.TEAM
                else [(f"P{index}",) for index in range(count)])
    seatings: list[Seating] = []
    outcomes: list[TableOutcome] = []
    for _ in range(draw(st.integers(1, 4))):
        seatings.append(seat_round(format, entrants, seatings))
        for table in seatings[-1].tables:
            first, second = draw(st.integers(-100, 600)), draw(st.integers(-100, 600))
            outcome = TableOutcome(seatings[-1].round, table.number, table.sides, (first, second), None, 4, False)
            outcomes.append(close_table(outcome) if draw(st.booleans()) else outcome)
    return format, seatings, outcomes


@settings(max_examples=60, deadline=None)
@given(played_events())
def test_standings_add_up_every_side_total_and_rank_in_order(
        event: tuple[EventFormat, list[Seating], list[TableOutcome]]) -> None:
    format, seatings, outcomes = event
    played = sum(outcome.totals[0] + outcome.totals[1] for outcome in outcomes)
    wins = sum(outcome.winner is not None for outcome in outcomes if outcome.done)
    keys: list[tuple[int, int]]
    if format is EventFormat.TEAM:
        teams = team_standings(outcomes, seatings)
        keys, ranks = [(-team.won, -team.points) for team in teams], [team.rank for team in teams]
        assert sum(team.won for team in teams) == wins + sum(team.byes for team in teams)
        assert sum(team.played for team in teams) == 2 * len(outcomes)
    else:
        players = progressive_standings(outcomes)
        keys, ranks = [(-player.points, -player.won) for player in players], [player.rank for player in players]
        assert sum(player.points for player in players) == 2 * played  # two players a side
        assert sum(player.won for player in players) == 2 * wins
    assert keys == sorted(keys) and ranks[0] == 1
    assert all(rank == place + 1 or rank == ranks[place - 1] for place, rank in enumerate(ranks))


# Ranking by wins, a bye's credit, a level table ---------------------------------------------------------------

def test_ranking_by_wins_puts_rounds_won_before_points() -> None:
    outcomes = [TableOutcome(1, 1, (("Cy", "Ann"), ("Di", "Bob")), (520, 480), 0, 4, True),
                TableOutcome(2, 1, (("Cy", "Bob"), ("Di", "Ann")), (100, 90), 0, 4, True),
                TableOutcome(3, 1, (("Di", "Ann"), ("Cy", "Bob")), (900, 0), 0, 4, True)]
    # points: Ann 520 + 90 + 900 = 1510, Di 1470, Cy 620, Bob 580; rounds won: Ann 2, Cy 2, Di 1, Bob 1
    assert [one.name for one in progressive_standings(outcomes)] == ["Ann", "Di", "Cy", "Bob"]
    assert [(one.name, one.rank, one.won) for one in progressive_standings(outcomes, ranking=Ranking.WINS)] == [
        ("Ann", 1, 2), ("Cy", 2, 2), ("Di", 3, 1), ("Bob", 4, 1)]


def test_a_byes_credit_is_never_below_zero() -> None:
    set_both = TableOutcome(1, 1, (("Ann", "Bob"), ("Cy", "Di")), (-50, -20), 1, 2, True)
    seatings = [Seating(1, (SeatedTable(1, (("Ann", "Bob"), ("Cy", "Di"))),), (("Ed",),))]
    ed = next(one for one in progressive_standings([set_both], seatings) if one.name == "Ed")
    assert (ed.points, ed.byes) == (0, 1)
    team = {one.players: one for one in team_standings([replace(set_both, winner=1, totals=(-50, -20))],
                                                        [replace(seatings[0], byes=(("Ed", "Flo"),))])}
    assert team[("Ed", "Flo")].points == 0


def test_a_level_table_after_its_deals_plays_on_and_its_tie_break_counts() -> None:
    level = [deal(50, 70), deal(70, 50)] * 3
    assert table_outcome(1, SEATED, make_match(level), DEALS).done is False
    broken = table_outcome(1, SEATED, make_match([*level, deal(60, 10)]), DEALS)
    assert (broken.done, broken.winner, broken.deals, broken.totals) == (True, 0, 7, (420, 370))
