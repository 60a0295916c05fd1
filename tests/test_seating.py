"""Seating a round: the team movement (stay/move, rotating byes), the director's swaps, and repeat counts."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.events import EventError, EventFormat, SeatedTable, Seating, bye_counts, still_playing
from scorekeeper.rules.movements import Movement, default_movement, round_robin_rounds
from scorekeeper.rules.problems import ProblemCode as Code
from scorekeeper.rules.progressive import crowding_floor
from scorekeeper.rules.seating import repeat_counts, repeats_warning, seat_round, swap_players, swap_teams

TEAM, PROGRESSIVE = EventFormat.TEAM, EventFormat.PROGRESSIVE


def teams(count: int) -> list[tuple[str, ...]]:
    return [(f"A{index}", f"B{index}") for index in range(1, count + 1)]


def rounds(format: EventFormat, entrants: list[tuple[str, ...]], count: int) -> list[Seating]:
    past: list[Seating] = []
    for _ in range(count):
        past.append(seat_round(format, entrants, past))
    return past


def rounds_of(format: EventFormat, entrants: list[tuple[str, ...]], count: int, planned: int) -> list[Seating]:
    """``count`` rounds seated knowing the event has ``planned``."""
    past: list[Seating] = []
    for _ in range(count):
        past.append(seat_round(format, entrants, past, planned))
    return past


def lines(seating: Seating) -> list[str]:
    """Each table as 'stayer-mover' by the teams' first players, then the byes."""
    return [f"{table.sides[0][0]}-{table.sides[1][0]}" for table in seating.tables] + [
        f"bye {bye[0]}" for bye in seating.byes]


def test_team_movement_keeps_the_first_side_and_moves_the_second_to_the_next_table() -> None:
    seatings = rounds(TEAM, teams(6), 3)
    assert [lines(seating) for seating in seatings] == [
        ["A1-A2", "A3-A4", "A5-A6"],
        ["A1-A6", "A3-A2", "A5-A4"],
        ["A1-A4", "A3-A6", "A5-A2"],
    ]
    assert [seating.round for seating in seatings] == [1, 2, 3]
    assert [table.number for table in seatings[0].tables] == [1, 2, 3]


def test_an_odd_team_sits_out_in_turn_choosing_the_bye_that_avoids_a_game_played_before() -> None:
    seatings = rounds(TEAM, teams(5), 4)
    assert [lines(seating) for seating in seatings] == [
        ["A1-A2", "A3-A4", "bye A5"],
        ["A1-A5", "A3-A2", "bye A4"],  # A4 moved on to table 1 but sits out: A5 takes its seat
        ["A1-A4", "A3-A5", "bye A2"],  # A3's bye would seat A1-A2 again; A2's or A1's none: A2 is later
        ["A1-A5", "A2-A4", "bye A3"],  # A3 or A1: one game played before either way; A3 is later
    ]


def test_team_seats_keep_each_team_together_with_its_names_in_order() -> None:
    seating = seat_round(TEAM, teams(4), [])
    assert seating.tables[1].sides == (("A3", "B3"), ("A4", "B4"))


def test_a_swapped_team_moves_on_from_the_seat_it_was_given() -> None:
    first = swap_teams(seat_round(TEAM, teams(4), []), "B1", "A2")
    assert lines(first) == ["A2-A1", "A3-A4"]
    assert lines(seat_round(TEAM, teams(4), [first])) == ["A2-A4", "A3-A1"]


def test_seating_is_the_same_for_the_same_input() -> None:
    assert rounds(TEAM, teams(7), 5) == rounds(TEAM, teams(7), 5)


def test_swap_players_exchanges_two_seats_including_a_bye() -> None:
    seating = Seating(1, (SeatedTable(1, (("Ann", "Bob"), ("Cy", "Di"))),), (("Ed",),))
    assert swap_players(seating, "Bob", "Ed") == Seating(1, (SeatedTable(1, (("Ann", "Ed"), ("Cy", "Di"))),),
                                                         (("Bob",),))
    assert swap_players(seating, "Ann", "Di").tables[0].sides == (("Di", "Bob"), ("Cy", "Ann"))


@pytest.mark.parametrize(("first", "second", "code", "path", "fragment"), [
    ("Ann", "Zoe", Code.PLAYER_UNKNOWN, "second", "Zoe does not play round 1"),
    ("Zoe", "Ann", Code.PLAYER_UNKNOWN, "first", "Zoe does not play round 1"),
    ("Ann", "Ann", Code.DUPLICATE_PLAYER, "second", "two different players"),
])
def test_a_swap_of_someone_not_playing_or_of_one_player_is_refused(first: str, second: str, code: Code, path: str,
                                                                   fragment: str) -> None:
    seating = Seating(1, (SeatedTable(1, (("Ann", "Bob"), ("Cy", "Di"))),))
    for swap in (swap_players, swap_teams):
        with pytest.raises(EventError) as caught:
            swap(seating, first, second)
        assert (caught.value.code, caught.value.problem.path) == (code, path)
        assert fragment in str(caught.value)


def test_swapping_teams_refuses_two_partners() -> None:
    seating = Seating(1, (SeatedTable(1, (("Ann", "Bob"), ("Cy", "Di"))),))
    with pytest.raises(EventError, match="Ann and Bob are partners"):
        swap_teams(seating, "Ann", "Bob")


def test_repeat_counts_count_every_meeting_after_the_first() -> None:
    table = SeatedTable(1, (("Ann", "Bob"), ("Cy", "Di")))
    again = SeatedTable(1, (("Ann", "Cy"), ("Bob", "Di")))
    counts = repeat_counts([Seating(1, (table,)), Seating(2, (table,)), Seating(3, (again,))])
    assert counts.partners[("Ann", "Bob")] == 2 and counts.partners[("Ann", "Cy")] == 1
    assert counts.opponents[("Ann", "Cy")] == 2 and counts.opponents[("Ann", "Di")] == 3
    assert counts.opponents[("Ann", "Bob")] == 1
    assert (counts.partner_repeats, counts.opponent_repeats) == (2, 1 + 2 + 2 + 1)  # AC, AD, BC, BD


def players(count: int) -> list[tuple[str, ...]]:
    return [(f"P{index}",) for index in range(1, count + 1)]


def test_progressive_tables_hold_four_players_in_two_sides_of_two() -> None:
    seating = seat_round(PROGRESSIVE, players(8), [])
    assert [table.number for table in seating.tables] == [1, 2]
    assert all(len(side) == 2 for table in seating.tables for side in table.sides)
    assert sorted(seating.players) == sorted(name for (name,) in players(8))


def test_eight_players_never_partner_twice_in_seven_rounds() -> None:
    counts = repeat_counts(rounds(PROGRESSIVE, players(8), 7))
    assert set(counts.partners.values()) == {1} and len(counts.partners) == 8 * 7 // 2


def test_forty_players_meet_no_one_twice_in_six_rounds() -> None:
    counts = repeat_counts(rounds(PROGRESSIVE, players(40), 6))
    assert (counts.partner_repeats, counts.opponent_repeats) == (0, 0)


def test_knowing_the_number_of_rounds_sixteen_players_meet_no_one_twice_in_five_in_any_role() -> None:
    past: list[Seating] = []
    for _ in range(5):
        past.append(seat_round(PROGRESSIVE, players(16), past, 5))
    counts = repeat_counts(past)
    assert counts.meeting_repeats == 0 and len(counts.meetings) == 16 * 15 // 2  # everyone met everyone once
    assert [seating.round for seating in past] == [1, 2, 3, 4, 5]


def test_twelve_players_over_four_rounds_meet_again_no_more_than_three_tables_force() -> None:
    past: list[Seating] = []
    for _ in range(4):
        past.append(seat_round(PROGRESSIVE, players(12), past, 4))
    counts = repeat_counts(past)
    assert counts.partner_repeats == 0
    assert sum(count * (count - 1) // 2 for count in counts.meetings.values()) == crowding_floor(3, 4) == 18


def test_a_pair_that_partnered_and_opposed_met_twice() -> None:
    counts = repeat_counts([Seating(1, (SeatedTable(1, (("Ann", "Bob"), ("Cy", "Di"))),)),
                            Seating(2, (SeatedTable(1, (("Ann", "Cy"), ("Bob", "Di"))),))])
    assert counts.meetings[("Ann", "Bob")] == 2  # partners, then opponents
    assert counts.meeting_repeats == 6  # every pair met twice: AB, CD, AC, BD in two roles, AD and BC opposed


def test_players_beyond_a_multiple_of_four_sit_out_in_turn() -> None:
    seatings = rounds(PROGRESSIVE, players(10), 5)
    assert [bye for seating in seatings for (bye,) in seating.byes] == [
        "P10", "P9", "P8", "P7", "P6", "P5", "P4", "P3", "P2", "P1"]


def test_a_progressive_round_follows_the_swaps_the_director_made() -> None:
    first = swap_players(seat_round(PROGRESSIVE, players(8), []), "P1", "P2")
    second = seat_round(PROGRESSIVE, players(8), [first])
    partners_before = {frozenset(side) for table in first.tables for side in table.sides}
    assert not partners_before & {frozenset(side) for table in second.tables for side in table.sides}


# Properties over any number of entrants, rounds and director's swaps ------------------------------------

@st.composite
def events(draw: st.DrawFn) -> tuple[EventFormat, list[tuple[str, ...]], list[Seating]]:
    """A format, its entrants, and rounds seated one after the other, some with a director's swap of two
    seated players (or their teams) before they start."""
    format = draw(st.sampled_from(EventFormat))
    entrants = teams(draw(st.integers(2, 13))) if format is TEAM else players(draw(st.integers(4, 23)))  # 40: above
    past: list[Seating] = []
    total = draw(st.integers(1, 6))
    rounds = draw(st.sampled_from((None, total)))
    for _ in range(total):
        seating = seat_round(format, entrants, past, rounds)
        if draw(st.booleans()):
            sides = [side for table in seating.tables for side in table.sides]
            one, other = draw(st.lists(st.sampled_from(sides), min_size=2, max_size=2, unique=True))
            swap = swap_teams if format is TEAM else swap_players
            seating = swap(seating, draw(st.sampled_from(one)), draw(st.sampled_from(other)))
        past.append(seating)
    return format, entrants, past


@settings(max_examples=12, deadline=None)
@given(events())
def test_every_entrant_is_seated_once_or_on_a_bye_at_tables_of_two_sides_of_two(
        event: tuple[EventFormat, list[tuple[str, ...]], list[Seating]]) -> None:
    format, entrants, past = event
    names = sorted(name for entrant in entrants for name in entrant)
    for number, seating in enumerate(past, start=1):
        assert seating.round == number
        assert sorted(seating.players) == names  # each name once: no one twice, at a table or anywhere
        assert [table.number for table in seating.tables] == list(range(1, len(seating.tables) + 1))
        assert all(len(side) == 2 for table in seating.tables for side in table.sides)
        assert len(seating.byes) == len(entrants) % (2 if format is TEAM else 4)
        if format is TEAM:
            assert {frozenset(unit) for table in seating.tables for unit in table.sides} | {
                frozenset(bye) for bye in seating.byes} == {frozenset(team) for team in entrants}


@settings(max_examples=10, deadline=None)
@given(events())
def test_byes_rotate_so_no_one_sits_out_twice_while_another_has_not(
        event: tuple[EventFormat, list[tuple[str, ...]], list[Seating]]) -> None:
    format, entrants, past = event
    for played in range(1, len(past) + 1):
        byes = Counter(frozenset(bye) for seating in past[:played] for bye in seating.byes)
        counts = [byes[frozenset(entrant)] for entrant in entrants]
        assert max(counts) - min(counts) <= 1


@settings(max_examples=5, deadline=None)
@given(events())
def test_the_next_round_is_the_same_for_the_same_input(
        event: tuple[EventFormat, list[tuple[str, ...]], list[Seating]]) -> None:
    format, entrants, past = event
    assert seat_round(format, entrants, past) == seat_round(format, list(entrants), list(past))
    assert seat_round(format, entrants, past, len(past) + 2) == seat_round(format, entrants, past, len(past) + 2)


SEAT_IN_ANOTHER_PROCESS = """
from scorekeeper.rules.events import EventFormat
from scorekeeper.rules.seating import seat_round
players = [(f"P{index}",) for index in range(1, 11)]
past = []
for _ in range(3):
    past.append(seat_round(EventFormat.PROGRESSIVE, players, past, 3))
print(repr(past))
"""


def test_seating_is_the_same_in_another_process_whatever_its_hash_seed() -> None:
    past: list[Seating] = []
    for _ in range(3):
        past.append(seat_round(PROGRESSIVE, players(10), past, 3))
    for seed in ("1", "2"):
        run = subprocess.run([sys.executable, "-c", SEAT_IN_ANOTHER_PROCESS], capture_output=True, text=True,
                             check=True, env={**os.environ, "PYTHONHASHSEED": seed})
        assert run.stdout.strip() == repr(past)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 20).filter(lambda count: count % 2 == 0), st.integers(1, 6))
def test_with_an_even_team_count_the_first_side_stays_and_the_second_moves_one_table_on(count: int,
                                                                                         played: int) -> None:
    seatings = rounds(TEAM, teams(count), played + 1)
    before, after = seatings[-2].tables, seatings[-1].tables
    for index, table in enumerate(after):
        assert table.sides == (before[index].sides[0], before[index - 1].sides[1])


def test_teams_added_at_the_door_take_free_seats_or_a_new_table_and_teams_gone_leave_theirs() -> None:
    first = seat_round(TEAM, teams(4), [])
    assert lines(seat_round(TEAM, teams(6), [first])) == ["A1-A4", "A3-A2", "A5-A6"]
    # A5 missed round 1, which counts as sat out: A4 (the latest of the others) sits out, A5 takes its seat
    assert lines(seat_round(TEAM, teams(5), [first])) == ["A1-A5", "A3-A2", "bye A4"]
    without_a2 = [team for team in teams(4) if team[0] != "A2"]
    assert lines(seat_round(TEAM, without_a2, [first])) == ["A1-A3", "bye A4"]  # A4 sits out; the rest close up


def test_progressive_players_added_or_gone_between_rounds_are_seated_once_each() -> None:
    first = seat_round(PROGRESSIVE, players(8), [])
    later = players(9)[1:]  # P1 went home, P9 came
    second = seat_round(PROGRESSIVE, later, [first])
    assert sorted(second.players) == sorted(name for (name,) in later)
    partners_before = {frozenset(side) for table in first.tables for side in table.sides}
    assert not partners_before & {frozenset(side) for table in second.tables for side in table.sides}


# Team movements: a round robin, stay/move, and the warning when meetings repeat ---------------------------

def games(seatings: list[Seating]) -> Counter[frozenset[frozenset[str]]]:
    return Counter(frozenset(map(frozenset, table.sides)) for seating in seatings for table in seating.tables)


@pytest.mark.parametrize("count", range(4, 13))
def test_a_round_robin_meets_every_other_team_once_and_an_odd_count_sits_out_once_each(count: int) -> None:
    full = round_robin_rounds(count)
    seatings = rounds_of(TEAM, teams(count), full, full)
    assert set(games(seatings).values()) == {1} and len(games(seatings)) == count * (count - 1) // 2
    assert sorted(bye for seating in seatings for (bye, _) in seating.byes) == (
        sorted(team[0] for team in teams(count)) if count % 2 else [])


@pytest.mark.parametrize(("count", "rounds", "movement"), [
    (5, 4, Movement.ROUND_ROBIN), (4, 3, Movement.ROUND_ROBIN), (8, 7, Movement.ROUND_ROBIN),
    (4, 8, Movement.STAY_MOVE), (5, 6, Movement.STAY_MOVE), (6, 5, Movement.ROUND_ROBIN),
])
def test_the_default_movement_is_a_round_robin_when_the_rounds_fit_in_one(count: int, rounds: int,
                                                                         movement: Movement) -> None:
    assert default_movement(count, rounds) is movement


def test_five_teams_over_four_rounds_meet_no_one_twice_by_default() -> None:
    seatings = rounds_of(TEAM, teams(5), 4, 4)
    assert max(games(seatings).values()) == 1 and len(games(seatings)) == 8  # 2 tables a round


def test_stay_move_can_still_be_chosen() -> None:
    past: list[Seating] = []
    for _ in range(3):
        past.append(seat_round(TEAM, teams(6), past, 3, Movement.STAY_MOVE))
    assert past == rounds(TEAM, teams(6), 3)


def test_a_round_robin_disturbed_by_a_team_at_the_door_pairs_teams_that_have_not_met() -> None:
    first = seat_round(TEAM, teams(4), [], 3)
    second = seat_round(TEAM, teams(6), [first], 3)
    assert not games([first]) & games([second])


@pytest.mark.parametrize(("format", "count", "rounds", "movement", "fragment"), [
    (TEAM, 4, 8, None, "4 teams meet each other once in 3 rounds"),
    (TEAM, 6, 5, Movement.STAY_MOVE, "a round robin"),
    (PROGRESSIVE, 12, 4, None, "some will meet twice"),
])
def test_a_warning_says_why_meetings_repeat(format: EventFormat, count: int, rounds: int,
                                            movement: Movement | None, fragment: str) -> None:
    warning = repeats_warning(format, count, rounds, movement)
    assert warning is not None and fragment in warning


@pytest.mark.parametrize(("format", "count", "rounds", "movement"), [
    (TEAM, 6, 5, None), (TEAM, 5, 5, Movement.ROUND_ROBIN), (TEAM, 6, 3, Movement.STAY_MOVE),
    (PROGRESSIVE, 40, 6, None), (PROGRESSIVE, 16, 5, None),
])
def test_no_warning_where_no_one_need_meet_twice(format: EventFormat, count: int, rounds: int,
                                                 movement: Movement | None) -> None:
    assert repeats_warning(format, count, rounds, movement) is None


# Late arrivals and withdrawals ----------------------------------------------------------------------------

def test_a_late_arrivals_missed_rounds_count_as_sat_out_so_the_next_byes_go_to_others() -> None:
    past = rounds(PROGRESSIVE, players(12), 2)  # 12 players, no byes
    late = players(13)  # P13 arrives for round 3
    byes: list[str] = []
    for _ in range(4):
        past.append(seat_round(PROGRESSIVE, late, past, 6))
        byes += [name for (name,) in past[-1].byes]
    assert "P13" not in byes and len(set(byes)) == 4  # four others sit out before P13 would


def test_bye_counts_count_the_rounds_an_entrant_was_not_there() -> None:
    past = rounds(PROGRESSIVE, players(8), 3)
    counts = bye_counts(past, players(9))
    assert counts[frozenset({"P9"})] == 3 and counts[frozenset({"P1"})] == 0


def test_still_playing_leaves_out_those_withdrawn_from_the_round_or_before_and_a_withdrawn_players_team() -> None:
    entrants = teams(3)
    assert still_playing(entrants, {"B2": 3}, 2) == entrants
    assert still_playing(entrants, {"B2": 3}, 3) == [entrants[0], entrants[2]]
    assert still_playing(players(5), {"P1": 1, "P4": 6}, 4) == [("P2",), ("P3",), ("P4",), ("P5",)]
