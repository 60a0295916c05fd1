"""An event's entrants are checked before anything is seated; a round's end is a value that says what it needs."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from scorekeeper.rules.events import (
    EventError,
    EventFormat,
    RoundEnd,
    RoundEndKind,
    SeatedTable,
    Seating,
    check_entrants,
    clean_entrants,
    pick_byes,
)
from scorekeeper.rules.limits import MAX_EVENT_ENTRANTS
from scorekeeper.rules.problems import ProblemCode as Code

TEAM, PROGRESSIVE = EventFormat.TEAM, EventFormat.PROGRESSIVE


def players(count: int) -> list[tuple[str, ...]]:
    return [(f"P{index}",) for index in range(1, count + 1)]


def teams(count: int) -> list[tuple[str, ...]]:
    return [(f"A{index}", f"B{index}") for index in range(1, count + 1)]


@pytest.mark.parametrize(("format", "entrants"), [
    (PROGRESSIVE, players(4)), (PROGRESSIVE, players(7)), (PROGRESSIVE, players(MAX_EVENT_ENTRANTS)),
    (TEAM, teams(2)), (TEAM, teams(3)), (TEAM, teams(MAX_EVENT_ENTRANTS // 2)),
])
def test_entrants_that_fill_a_table_are_taken(format: EventFormat, entrants: list[tuple[str, ...]]) -> None:
    check_entrants(format, entrants)


# (format, entrants, code, path, a fragment of the message)
REFUSED = [
    (PROGRESSIVE, players(3), Code.TOO_FEW_ENTRANTS, "players", "at least 4 players"),
    (TEAM, teams(1), Code.TOO_FEW_ENTRANTS, "teams", "at least 2 teams"),
    (PROGRESSIVE, players(MAX_EVENT_ENTRANTS + 1), Code.TOO_MANY_ENTRANTS, "players", "at most 200 players"),
    (TEAM, teams(MAX_EVENT_ENTRANTS // 2 + 1), Code.TOO_MANY_ENTRANTS, "teams", "at most 200 players"),
    (TEAM, [*teams(2), ("Cy",)], Code.ENTRANT_SIZE, "teams[2]", "a team is two players, not 1"),
    (TEAM, [*teams(2), ("Cy", "Di", "Ed")], Code.ENTRANT_SIZE, "teams[2]", "not 3"),
    (PROGRESSIVE, [*players(4), ("Cy", "Di")], Code.ENTRANT_SIZE, "players[4]", "one player, not 2"),
    (PROGRESSIVE, [*players(4), ("  ",)], Code.NAME_MISSING, "players[4]", "needs a name"),
    (TEAM, [*teams(2), ("Cy", "")], Code.NAME_MISSING, "teams[2][1]", "needs a name"),
    (PROGRESSIVE, [*players(4), (" p2 ",)], Code.DUPLICATE_PLAYER, "players[4]", "p2 is entered twice"),
    (TEAM, [*teams(2), ("Cy", "a1")], Code.DUPLICATE_PLAYER, "teams[2][1]", "a1 is entered twice"),
    (TEAM, [*teams(2), ("Cy", "cy")], Code.DUPLICATE_PLAYER, "teams[2][1]", "cy is entered twice"),
    (PROGRESSIVE, [*players(3), ("Ren\u00e9",), ("Rene\u0301",)], Code.DUPLICATE_PLAYER, "players[4]",
     "entered twice"),  # the same name once composed
    (PROGRESSIVE, [*players(4), ("x" * 41,)], Code.TOO_LONG, "players[4]", "at most 40 characters"),
    (TEAM, [*teams(2), ("Cy", "Di\tEd")], Code.BAD_CHARACTER, "teams[2][1]", "control character U+0009"),
    (TEAM, [*teams(2), ("Cy", 7)], Code.WRONG_TYPE, "teams[2][1]", "a player's name is text"),
]


@pytest.mark.parametrize(("format", "entrants", "code", "path", "fragment"), REFUSED)
def test_entrants_an_event_cannot_take_are_refused_naming_the_place(
        format: EventFormat, entrants: list[tuple[Any, ...]], code: Code, path: str, fragment: str) -> None:
    with pytest.raises(EventError) as caught:
        check_entrants(format, entrants)
    assert (caught.value.code, caught.value.problem.path) == (code, path)
    assert fragment in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_entrants_names_are_kept_as_a_match_file_keeps_them() -> None:
    entrants = [(" Ann ", "Bob"), ("Ren\u00e9", "Zo\u00eb"), ("Cy", "Di  ")]
    assert clean_entrants(TEAM, entrants) == (("Ann", "Bob"), ("Ren\u00e9", "Zo\u00eb"), ("Cy", "Di"))
    assert clean_entrants(PROGRESSIVE, [("Rene\u0301",), *players(3)])[0] == ("Ren\u00e9",)


@pytest.mark.parametrize(("kind", "count"), [(RoundEndKind.TARGET, None), (RoundEndKind.DEALS, 8),
                                             (RoundEndKind.MINUTES, 50)])
def test_a_round_end_counts_deals_or_minutes_and_nothing_for_the_target(kind: RoundEndKind, count: int | None) -> None:
    assert RoundEnd(kind, count).count == count


@pytest.mark.parametrize(("kind", "count"), [(RoundEndKind.TARGET, 3), (RoundEndKind.DEALS, None),
                                             (RoundEndKind.MINUTES, 0), (RoundEndKind.DEALS, -2),
                                             (RoundEndKind.MINUTES, 601)])
def test_a_round_end_without_its_count_or_with_a_needless_one_is_no_value(kind: RoundEndKind,
                                                                          count: int | None) -> None:
    with pytest.raises(ValueError, match="round"):
        RoundEnd(kind, count)


@pytest.mark.parametrize(("value", "end"), [
    ({"target": True}, RoundEnd(RoundEndKind.TARGET)),
    ({"deals": 8}, RoundEnd(RoundEndKind.DEALS, 8)),
    ({"minutes": 50}, RoundEnd(RoundEndKind.MINUTES, 50)),
    ({"deals": 1000}, RoundEnd(RoundEndKind.DEALS, 1000)),
])
def test_a_round_end_reads_and_writes_its_json(value: dict[str, object], end: RoundEnd) -> None:
    assert RoundEnd.from_json(value) == end
    assert end.to_json() == value


@pytest.mark.parametrize(("end", "ends_at"), [
    (RoundEnd(RoundEndKind.MINUTES, 50), datetime(2026, 3, 6, 20, 20, tzinfo=UTC)),
    (RoundEnd(RoundEndKind.MINUTES, 90), datetime(2026, 3, 6, 21, 0, tzinfo=UTC)),
    (RoundEnd(RoundEndKind.DEALS, 8), None),
    (RoundEnd(RoundEndKind.TARGET), None),
])
def test_only_a_round_under_a_time_limit_runs_out_of_time(end: RoundEnd, ends_at: datetime | None) -> None:
    assert end.ends_at(datetime(2026, 3, 6, 19, 30, tzinfo=UTC)) == ends_at


@pytest.mark.parametrize(("value", "code", "path", "fragment"), [
    ([8], Code.WRONG_TYPE, "round_end", "one of"),
    ({}, Code.MISSING_KEY, "round_end", "one of"),
    ({"deals": 8, "minutes": 50}, Code.UNKNOWN_KEY, "round_end", "one of"),
    ({"hands": 8}, Code.UNKNOWN_KEY, "round_end.hands", "not 'hands'"),
    ({"target": 500}, Code.WRONG_TYPE, "round_end.target", "written true"),
    ({"deals": "8"}, Code.NOT_A_NUMBER, "round_end.deals", "whole number"),
    ({"minutes": True}, Code.NOT_A_NUMBER, "round_end.minutes", "whole number"),
    ({"minutes": 2.5}, Code.NOT_A_NUMBER, "round_end.minutes", "whole number"),
    ({"deals": 0}, Code.OUT_OF_RANGE, "round_end.deals", "1 to 1,000 deals, not 0"),
    ({"minutes": 601}, Code.OUT_OF_RANGE, "round_end.minutes", "1 to 600 minutes, not 601"),
])
def test_a_round_end_that_cannot_be_read_is_refused_naming_the_place(value: object, code: Code, path: str,
                                                                     fragment: str) -> None:
    with pytest.raises(EventError) as caught:
        RoundEnd.from_json(value)
    assert (caught.value.code, caught.value.problem.path) == (code, path)
    assert fragment in str(caught.value)


def test_a_seating_finds_each_players_table_and_lists_everyone() -> None:
    seating = Seating(2, (SeatedTable(1, (("Ann", "Bob"), ("Cy", "Di"))),
                          SeatedTable(2, (("Ed", "Flo"), ("Gus", "Hal")))), (("Ivy",),))
    assert seating.table_of("Gus") == seating.tables[1]
    assert seating.table_of("Ivy") is None
    assert seating.players == ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy")


def test_byes_go_to_the_fewest_byes_then_the_latest_entered() -> None:
    five = players(6)
    past = [Seating(1, (SeatedTable(1, (("P1", "P2"), ("P3", "P4"))),), (("P6",), ("P5",))),
            Seating(2, (SeatedTable(1, (("P1", "P2"), ("P5", "P6"))),), (("P4",), ("P3",)))]
    assert pick_byes(five, 2, []) == [("P6",), ("P5",)]
    assert pick_byes(five, 2, past[:1]) == [("P4",), ("P3",)]
    assert pick_byes(five, 3, past) == [("P2",), ("P1",), ("P6",)]


def test_a_late_arrivals_missed_rounds_count_as_byes() -> None:
    past = [Seating(1, (SeatedTable(1, (("P1", "P2"), ("P3", "P4"))),), (("P5",),))]
    assert pick_byes(players(6), 2, past) == [("P4",), ("P3",)]  # P6 missed round 1, P5 sat it out
