"""The event file (``pinochle-event/1``): everything an event's standings are worked out from, in one JSON
document: what the event is played under (its ranking and movement among it), its entrants, each round as
seated with its tables' match files, when each deal was entered and what the director closed, and the
director's facts (``director_facts``): withdrawals and substitutes, corrections, each round's clock. Written
from the rows (``event_file``), read and checked before anything is stored (``read_event_file``);
``importing`` stores it as a new event.

Its facts are plain keys of the top object, each read by its own reader (``FACT_READERS``); a key no reader
knows is refused (``unknown_key``) rather than dropped, so a file never imports as less than it says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..models import EventRoundRow, EventRow, EventTableRow
from ..rules.errors import RulesError
from ..rules.events import Entrant, EventFormat, SeatedTable, Seating
from ..rules.match import Match
from ..rules.matchfile import match_from_json, match_to_json
from ..rules.problems import ProblemCode
from ..rules.refusals import Refusal
from ..store import reading
from .director_facts import (
    ClockFacts,
    CorrectionFacts,
    WithdrawalFacts,
    clocks_json,
    corrections_json,
    read_clocks,
    read_corrections,
    read_withdrawals,
    withdrawals_json,
)
from .file_fields import a_list, a_moment, an_object, iso, refused, required_moment, whole
from .loading import entrants, round_end, seating_of
from .request import NewEvent, read_new_event

FORMAT = "pinochle-event/1"
ROUND_KEYS = frozenset({"round", "started_at", "closed_at", "seating", "tables"})
SEATING_KEYS = frozenset({"tables", "byes"})
TABLE_KEYS = frozenset({"table", "closed_at", "closed_after", "entered", "match"})
UNKNOWN_PLAYER = "unknown_player"  # a seat taken by a name that is no entrant


# Writing ----------------------------------------------------------------------------------------------------

def event_file(event: EventRow) -> dict[str, Any]:
    """The event file of ``event``: its settings, entrants and every round seated."""
    key = "teams" if event.format == EventFormat.TEAM else "players"
    listed = [list(entrant) for entrant in entrants(event)] if key == "teams" else [
        entrant[0] for entrant in entrants(event)]
    chosen = {"movement": event.movement} if event.movement is not None else {}
    if event.format == EventFormat.PROGRESSIVE:
        chosen["ranking"] = event.ranking
    return {"format": FORMAT,
            "event": {"name": event.name, "format": event.format, "auction": event.auction, "rules": dict(event.rules),
                      "round_end": round_end(event).to_json(), "rounds": event.rounds, key: listed, **chosen},
            "rounds": [_round_json(event, played) for played in event.played_rounds],
            "withdrawals": withdrawals_json(event), "corrections": corrections_json(event),
            "clocks": clocks_json(event)}


def _round_json(event: EventRow, played: EventRoundRow) -> dict[str, Any]:
    seating = seating_of(played)
    return {"round": played.number, "started_at": iso(played.started_at), "closed_at": iso(played.closed_at),
            "seating": {"tables": [{"table": table.number, "sides": [list(side) for side in table.sides]}
                                   for table in seating.tables],
                        "byes": [list(bye) for bye in seating.byes]},
            "tables": [_table_json(event, played, table) for table in played.tables]}


def _table_json(event: EventRow, played: EventRoundRow, table: EventTableRow) -> dict[str, Any]:
    place = {"name": event.name, "round": played.number, "table": table.number}
    return {"table": table.number, "closed_at": iso(table.closed_at), "closed_after": table.closed_after,
            "entered": [iso(deal.created_at) for deal in table.match.deals],
            "match": match_to_json(reading.to_core(table.match), event=place)}


# Reading ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TableFacts:
    """A table of a round as the file gives it: its match, when each deal was entered, and its closing."""

    number: int
    match: Match
    entered: tuple[datetime, ...]
    closed_at: datetime | None
    closed_after: int | None


@dataclass(frozen=True)
class RoundFacts:
    """A round as seated, when it started and closed, and its tables."""

    seating: Seating
    started_at: datetime
    closed_at: datetime | None
    tables: tuple[TableFacts, ...]


@dataclass(frozen=True)
class EventFacts:
    """An event file read and checked: the new event, its rounds and the director's facts."""

    event: NewEvent
    rounds: tuple[RoundFacts, ...]
    withdrawals: tuple[WithdrawalFacts, ...] = ()
    corrections: tuple[CorrectionFacts, ...] = ()
    clocks: tuple[ClockFacts, ...] = ()


def _names(value: object, path: str) -> tuple[str, ...]:
    names = a_list(value, path)
    if not all(isinstance(name, str) for name in names):
        raise refused(path, ProblemCode.WRONG_TYPE, "expected a list of names")
    return tuple(names)


def _read_event(value: object, facts: dict[str, Any]) -> None:
    if not isinstance(value, dict):
        raise refused("event", ProblemCode.WRONG_TYPE, "expected an object")
    try:
        facts["event"] = read_new_event(dict(value))
    except Refusal as problem:
        raise refused(f"event.{problem.field}".rstrip("."), problem.code, problem.message) from None


def _read_rounds(value: object, facts: dict[str, Any]) -> None:
    event: NewEvent | None = facts.get("event")
    if event is None:
        raise refused("event", ProblemCode.MISSING_KEY, "event is missing")
    rounds = a_list(value, "rounds")
    if len(rounds) > event.rounds:
        raise refused("rounds", ProblemCode.OUT_OF_RANGE, f"the event has {event.rounds} rounds, the file "
                       f"{len(rounds)}")
    facts["rounds"] = tuple(_round(one, f"rounds[{index}]", index + 1, event.entrants)
                            for index, one in enumerate(rounds))


def _round(value: object, path: str, number: int, entrants: Sequence[Entrant]) -> RoundFacts:
    found = an_object(value, path, ROUND_KEYS)
    if found["round"] != number:
        raise refused(f"{path}.round", ProblemCode.OUT_OF_RANGE, f"expected round {number}")
    seated = an_object(found["seating"], f"{path}.seating", SEATING_KEYS)
    tables: list[SeatedTable] = []
    for index, table in enumerate(a_list(seated["tables"], f"{path}.seating.tables")):
        here = f"{path}.seating.tables[{index}]"
        table = an_object(table, here, frozenset({"table", "sides"}))
        sides = [_names(side, f"{here}.sides[{side_index}]") for side_index, side in
                 enumerate(a_list(table["sides"], f"{here}.sides"))]
        if table["table"] != index + 1 or len(sides) != 2:
            raise refused(here, ProblemCode.WRONG_TYPE, f"table {index + 1} with two sides")
        tables.append(SeatedTable(index + 1, (sides[0], sides[1])))
    byes = tuple(_names(bye, f"{path}.seating.byes[{index}]")
                 for index, bye in enumerate(a_list(seated["byes"], f"{path}.seating.byes")))
    seating = Seating(number, tuple(tables), byes)
    _check_seats(seating, f"{path}.seating", entrants)
    played = [_table(one, f"{path}.tables[{index}]", seating) for index, one in
              enumerate(a_list(found["tables"], f"{path}.tables"))]
    if [table.number for table in played] != [table.number for table in tables]:
        raise refused(f"{path}.tables", ProblemCode.OUT_OF_RANGE,
                       f"the round seats {len(tables)} tables: one each, in order from 1")
    return RoundFacts(seating, required_moment(found["started_at"], f"{path}.started_at"),
                      a_moment(found["closed_at"], f"{path}.closed_at", optional=True), tuple(played))


def _check_seats(seating: Seating, path: str, entrants: Sequence[Entrant]) -> None:
    """Every seat is an entrant's (a team event: each side, and each bye, is one of its teams), once."""
    players = {name for entrant in entrants for name in entrant}
    strangers = sorted(set(seating.players) - players)
    if strangers:
        raise refused(path, UNKNOWN_PLAYER, f"{strangers[0]!r} is no entrant of the event")
    twice = sorted(name for name, seats in Counter(seating.players).items() if seats > 1)
    if twice:
        raise refused(path, ProblemCode.DUPLICATE_PLAYER, f"{twice[0]!r} is seated twice in one round")
    if len(entrants[0]) > 1:
        teams = {frozenset(entrant) for entrant in entrants}
        split = [side for table in seating.tables for side in table.sides] + list(seating.byes)
        if any(frozenset(side) not in teams for side in split):
            raise refused(path, UNKNOWN_PLAYER, "in a team event each side and each bye is one of its teams")


def _table(value: object, path: str, seating: Seating) -> TableFacts:
    found = an_object(value, path, TABLE_KEYS)
    number = whole(found["table"], f"{path}.table", 1, len(seating.tables))
    try:
        match = match_from_json(found["match"])
    except RulesError as error:
        raise refused(f"{path}.match.{error.problem.path}".rstrip("."), error.code, error.problem.message) from None
    if tuple(side.players for side in match.sides) != seating.tables[number - 1].sides:
        raise refused(f"{path}.match.sides", ProblemCode.WRONG_TYPE, f"the match's sides are not table {number}'s")
    entered = tuple(required_moment(moment, f"{path}.entered[{index}]")
                    for index, moment in enumerate(a_list(found["entered"], f"{path}.entered")))
    if len(entered) != len(match.deals):
        raise refused(f"{path}.entered", ProblemCode.OUT_OF_RANGE, f"one moment a deal: {len(match.deals)}")
    closed_after = None if found["closed_after"] is None else whole(
        found["closed_after"], f"{path}.closed_after", 0, len(match.deals))
    return TableFacts(number, match, entered, a_moment(found["closed_at"], f"{path}.closed_at", optional=True),
                      closed_after)


FactReader = Callable[[object, dict[str, Any]], None]
# Each fact of the file, read in this order into the facts read so far.
FACT_READERS: dict[str, FactReader] = {"event": _read_event, "rounds": _read_rounds,
                                       "withdrawals": read_withdrawals, "corrections": read_corrections,
                                       "clocks": read_clocks}


def read_event_file(data: object) -> EventFacts:
    """An event file read and checked (``Invalid`` at the first wrong field)."""
    if not isinstance(data, dict):
        raise refused("", ProblemCode.WRONG_TYPE, "an event file is a JSON object")
    if data.get("format") != FORMAT:
        raise refused("format", ProblemCode.WRONG_FORMAT, f'expected "{FORMAT}"')
    unknown = sorted(set(data) - set(FACT_READERS) - {"format"})
    if unknown:
        raise refused(unknown[0], ProblemCode.UNKNOWN_KEY, f"unknown key {unknown[0]!r}: this app reads "
                       f"{', '.join(['format', *FACT_READERS])}; a file from a newer app cannot be imported here")
    facts: dict[str, Any] = {}
    for key, read in FACT_READERS.items():
        if key not in data:
            raise refused(key, ProblemCode.MISSING_KEY, f"{key} is missing")
        read(data[key], facts)
    return EventFacts(facts["event"], facts["rounds"], facts["withdrawals"], facts["corrections"], facts["clocks"])
