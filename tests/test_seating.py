"""Seating a round: the team movement (stay/move, rotating byes), the director's swaps, and repeat counts."""

from __future__ import annotations

import pytest

from scorekeeper.rules.events import EventError, EventFormat, SeatedTable, Seating
from scorekeeper.rules.problems import ProblemCode as Code
from scorekeeper.rules.seating import repeat_counts, seat_round, swap_players, swap_teams

TEAM, PROGRESSIVE = EventFormat.TEAM, EventFormat.PROGRESSIVE


def teams(count: int) -> list[tuple[str, ...]]:
    return [(f"A{index}", f"B{index}") for index in range(1, count + 1)]


def rounds(format: EventFormat, entrants: list[tuple[str, ...]], count: int) -> list[Seating]:
    past: list[Seating] = []
    for _ in range(count):
        past.append(seat_round(format, entrants, past))
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


def test_an_odd_team_sits_out_in_turn_and_comes_back_in_the_seat_of_the_next() -> None:
    seatings = rounds(TEAM, teams(5), 4)
    assert [lines(seating) for seating in seatings] == [
        ["A1-A2", "A3-A4", "bye A5"],
        ["A1-A5", "A3-A2", "bye A4"],  # A4 moved on to table 1 but sits out: A5 takes its seat
        ["A1-A2", "A4-A5", "bye A3"],  # A3 stayed at table 2 but sits out: A4 takes its seat
        ["A1-A5", "A4-A3", "bye A2"],
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
