"""The director's writes: a new event, a player or team added at the door, the next round seated with one
ordinary match per table, a swap before a round's first deal, a late table closed, a round closed.

Every write to an event starts by claiming it (``claim``): the event's version moves on where it is still
the one read, which takes SQLite's write lock or PostgreSQL's lock on the event's row. A write read from a
version another director's write has since moved on is refused (409) with nothing written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from enum import StrEnum

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from ..db import get_session
from ..models import EventEntrantRow, EventRoundRow, EventRow, EventTableRow, MatchRow, TableRow, utc_now
from ..rules.errors import RulesError
from ..rules.events import Entrant, EventFormat, RoundEndKind, SeatedTable, Seating, clean_entrants
from ..rules.limits import MAX_MATCH_NAME, MAX_TABLE_PLAYERS
from ..rules.matchfile import FORMAT, match_from_json
from ..rules.problems import ProblemCode
from ..rules.refusals import Conflict, Invalid, NotFound, Refusal
from ..rules.rotation import fitted_side_name
from ..rules.seating import seat_round, swap_players, swap_teams
from ..rules.text import fit_name
from ..store import writing
from .loading import (
    TableState,
    chosen_movement,
    clock_of,
    current_round,
    entrants,
    event_format,
    playing_entrants,
    round_end,
    seating_json,
    seating_of,
    states_of,
    table_state,
)
from .request import NewEvent

STALE = "stale"
ROUND_OPEN = "round_open"  # the current round is still being played
NO_ROUNDS_LEFT = "no_rounds_left"
ROUND_STARTED = "round_started"  # a deal was entered: no more swaps
ROUND_CLOSED = "round_closed"
NOT_CURRENT_ROUND = "not_current_round"
TABLES_PLAYING = "tables_playing"
TABLE_CLOSED = "table_closed"
TABLE_DONE = "table_done"
OTHER_EVENT = "table_of_another_event"
NO_SUCH_TABLE = "no_such_table"
UNKNOWN_TABLE = "unknown_table"  # a new event held by a table that does not exist


def create_event(new: NewEvent, table: TableRow | None = None) -> EventRow:
    """Store a new event; held by ``table`` (its right to be changed already checked), every match seated
    for it is that table's too. A table's limit on players holds for its events."""
    if table is not None:
        _check_table_limit(new.format, new.entrants)
    row = EventRow(name=new.name, format=new.format.value, auction=new.auction, rules=new.rules.to_mapping(),
                   round_end=new.round_end.kind.value, round_end_count=new.round_end.count, rounds=new.rounds,
                   movement=None if new.movement is None else new.movement.value,
                   ranking=new.ranking.value,
                   version=1, table_id=None if table is None else table.id)
    row.entrants = [EventEntrantRow(position=index, players=list(entrant))
                    for index, entrant in enumerate(new.entrants)]
    session = get_session()
    session.add(row)
    session.commit()
    return row


def _check_table_limit(format: EventFormat, entrants: Sequence[Entrant]) -> None:
    """An event held by a table has at most as many players as a table holds (``MAX_TABLE_PLAYERS``)."""
    players = sum(len(entrant) for entrant in entrants)
    if players > MAX_TABLE_PLAYERS:
        field = "teams" if format is EventFormat.TEAM else "players"
        raise Invalid(field, ProblemCode.TOO_MANY_PLAYERS, f"an event held by a table has at most "
                           f"{MAX_TABLE_PLAYERS} players, as the table does, not {players}")


def check_version(event: EventRow, expected: int | None) -> None:
    if expected is not None and expected != event.version:
        raise Conflict("version", STALE, f"the event is at version {event.version}, not {expected}: "
                           "another director changed it; look again and redo your change",
                           current_version=event.version)


def claim(event: EventRow) -> datetime:
    """A write's first statement: the event's version moves on where it is still the one read."""
    seen = event.version
    claimed = get_session().connection().execute(
        update(EventRow).where((EventRow.id == event.id) & (EventRow.version == seen)).values(version=seen + 1))
    if claimed.rowcount != 1:
        get_session().rollback()
        raise Conflict("version", STALE, "another director changed the event at the same moment; "
                           "look again and redo your change")
    set_committed_value(event, "version", seen + 1)
    return utc_now()


def touch(tables: Sequence[EventTableRow], what: str) -> None:
    """Move the tables' matches on a version, so that every phone showing one draws its sheet again (the
    table closed, its clock changed): what the event says of a table is drawn into the sheet of its version."""
    ids = [table.match_id for table in tables]
    if ids:
        get_session().connection().execute(
            update(MatchRow).where(MatchRow.id.in_(ids))
            .values(version=MatchRow.version + 1, updated_at=utc_now(), last_change=what))
        for table in tables:
            get_session().expire(table.match, ["version", "updated_at", "last_change"])


def commit() -> None:
    """Commit; a race the claim could not see (a unique row written by another process) is refused."""
    try:
        get_session().commit()
    except (IntegrityError, StaleDataError):
        get_session().rollback()
        raise Conflict("version", STALE, "another change reached the event at the same moment; "
                           "look again and redo your change") from None


def add_entrant(event: EventRow, entrant: Entrant, expected: int | None) -> None:
    """A player (a team, in a team event) who arrives at the door: seated from the next round on."""
    check_version(event, expected)
    if len(event.played_rounds) >= event.rounds:
        raise Conflict("name", NO_ROUNDS_LEFT, f"all {event.rounds} rounds have been seated")
    try:
        cleaned = clean_entrants(event_format(event), [*entrants(event), entrant])[-1]
    except RulesError as error:
        raise Invalid("name", error.code, error.problem.message) from None
    if event.table_id is not None:
        try:
            _check_table_limit(event_format(event), [*entrants(event), cleaned])
        except Refusal as problem:
            raise Invalid("name", problem.code, problem.message) from None
    claim(event)
    event.entrants.append(EventEntrantRow(position=len(event.entrants), players=list(cleaned)))
    commit()


def seat_next_round(event: EventRow, expected: int | None, now: datetime,
                    count_tables: Callable[[int], None]) -> tuple[EventRoundRow, Seating]:
    """Seat the next round (the current one closes here when every table is done) and start one match
    per table, named after the event, under the event's house rules, its sides after their players, at the
    table holding the event (if any).
    ``count_tables`` is told how many matches the round makes before anything is written (it may refuse)."""
    check_version(event, expected)
    played = current_round(event)
    if played is not None and played.closed_at is None:
        playing = [state.row.number for state in states_of(event, played, now) if not state.outcome.done]
        if playing:
            raise Conflict("round", ROUND_OPEN, f"round {played.number} is still being played at "
                               f"table(s) {', '.join(map(str, playing))}: close it first", tables=playing)
    if len(event.played_rounds) >= event.rounds:
        raise Conflict("round", NO_ROUNDS_LEFT, f"all {event.rounds} rounds have been seated")
    seating = seat_round(event_format(event), playing_entrants(event, len(event.played_rounds) + 1),
                         [seating_of(past) for past in event.played_rounds], event.rounds, chosen_movement(event))
    count_tables(len(seating.tables))
    when = claim(event)
    if played is not None and played.closed_at is None:
        played.closed_at = when
        touch(played.tables, f"round {played.number} closed")
    seated = EventRoundRow(number=seating.round, seating=seating_json(seating), started_at=when)
    for table in seating.tables:
        seated.tables.append(EventTableRow(number=table.number, match=start_match(event, seating.round, table)))
    event.played_rounds.append(seated)
    commit()
    return seated, seating


def start_match(event: EventRow, round_number: int, table: SeatedTable) -> MatchRow:
    """A table's new match (not committed): named after the event, under its house rules, at the table
    holding the event (if any), its sides after their players."""
    match = match_from_json({
        "format": FORMAT, "name": _match_name(event, round_number, table.number), "auction": event.auction,
        "rules": event.rules, "deals": [],
        "sides": [{"name": fitted_side_name(side), "players": list(side)} for side in table.sides],
    }, stored=True)
    return writing.create_match(match, table_id=event.table_id, commit=False)


class ClockAction(StrEnum):
    """What the director does to a time-limited round's clock."""

    PAUSE = "pause"
    RESUME = "resume"
    EXTEND = "extend"


MAX_EXTEND = 120  # minutes added at once
NO_CLOCK = "no_clock"
CLOCK_PAUSED = "clock_paused"
CLOCK_RUNNING = "clock_running"


def run_clock(event: EventRow, number: int, action: ClockAction, minutes: int, expected: int | None,
              now: datetime) -> EventRoundRow:
    """Pause, resume or extend (by ``minutes``) the clock of the round being played; every phone at its
    tables draws the new time (their matches' versions move on)."""
    check_version(event, expected)
    played = round_being_played(event, number)
    if round_end(event).kind is not RoundEndKind.MINUTES:
        raise Conflict("round", NO_CLOCK, "this event's rounds have no time limit")
    clock = clock_of(played)
    if action is ClockAction.PAUSE and clock.paused:
        raise Conflict("action", CLOCK_PAUSED, f"round {number}'s clock is paused already")
    if action is ClockAction.RESUME and not clock.paused:
        raise Conflict("action", CLOCK_RUNNING, f"round {number}'s clock is running")
    if action is ClockAction.EXTEND and not 1 <= minutes <= MAX_EXTEND:
        raise Invalid("minutes", "out_of_range", f"extend by 1 to {MAX_EXTEND} minutes, not {minutes}")
    when = claim(event)
    changed = {ClockAction.PAUSE: lambda: clock.paused_now(when), ClockAction.RESUME: lambda: clock.resumed(when),
               ClockAction.EXTEND: lambda: clock.extended(minutes)}[action]()
    played.paused_at, played.paused_seconds, played.extra_minutes = (changed.paused_at, changed.paused_seconds,
                                                                     changed.extra_minutes)
    what = {ClockAction.PAUSE: "paused the clock", ClockAction.RESUME: "started the clock again",
            ClockAction.EXTEND: f"added {minutes} minute{'' if minutes == 1 else 's'}"}[action]
    touch(played.tables, f"the director {what}")
    commit()
    return played


def undo_seating(event: EventRow, number: int, expected: int | None) -> None:
    """Take back the seating of round ``number`` (the current one) before its first deal: its tables'
    matches are deleted, and the round is seated again by the next "seat" (the round before stays closed)."""
    check_version(event, expected)
    played = unstarted_round(event, number, "its seating stays")
    claim(event)
    matches = [table.match for table in played.tables]
    event.played_rounds.remove(played)
    session = get_session()
    session.flush()
    for match in matches:
        session.delete(match)
    commit()


def _match_name(event: EventRow, round_number: int, table_number: int) -> str:
    name = f"{event.name or 'Event'} · round {round_number}, table {table_number}"
    return fit_name(name, MAX_MATCH_NAME)


def round_being_played(event: EventRow, number: int) -> EventRoundRow:
    """Round ``number``, seated and not closed, the current one (409 otherwise)."""
    played = current_round(event)
    if played is None:
        raise Conflict("round", NOT_CURRENT_ROUND, "no round has been seated yet")
    if played.closed_at is not None:
        raise Conflict("round", ROUND_CLOSED, f"round {played.number} is closed")
    if played.number != number:
        raise Conflict("round", NOT_CURRENT_ROUND, f"round {number} is not the round being played")
    return played


def unstarted_round(event: EventRow, number: int, what_stays: str = "seats no longer change") -> EventRoundRow:
    """Round ``number``, the current one, before its first deal (409 otherwise, saying ``what_stays``)."""
    played = round_being_played(event, number)
    if any(table.match.deals for table in played.tables):
        raise Conflict("round", ROUND_STARTED, f"round {played.number} has started (a deal was entered): {what_stays}")
    return played


def swap(event: EventRow, number: int, first: str, second: str, expected: int | None) -> EventRoundRow:
    """Put two players (a team event: their teams) in each other's seats before the first deal of round
    ``number`` (the current one); the matches of their tables change their sides."""
    check_version(event, expected)
    played = unstarted_round(event, number)
    change = swap_teams if event_format(event) is EventFormat.TEAM else swap_players
    try:
        seating = change(seating_of(played), first, second)
    except RulesError as error:
        raise Invalid(error.problem.path, error.code, error.problem.message) from None
    claim(event)
    played.seating = seating_json(seating)
    for table, seated in zip(played.tables, seating.tables, strict=True):
        for side, players in zip(table.match.sides, seated.sides, strict=True):
            if list(players) != side.players:
                side.players = list(players)
                side.name = fitted_side_name(players)
                table.match.last_change = f"the director swapped {first} and {second}"
    commit()
    return played


def find_table(event: EventRow, match_id: str) -> tuple[EventRoundRow, EventTableRow]:
    """The event's table whose match has this link: 422 when the match is another event's, 404 when it
    is no event's table."""
    for played in event.played_rounds:
        for table in played.tables:
            if table.match.public_id == match_id:
                return played, table
    if _belongs_to_an_event(match_id):
        raise Invalid("table", OTHER_EVENT, "this table's match belongs to another event")
    raise NotFound("table", NO_SUCH_TABLE, "this event has no table with this match")


def _belongs_to_an_event(match_id: str) -> bool:
    query = select(EventTableRow.id).join(MatchRow, EventTableRow.match_id == MatchRow.id)
    return get_session().scalars(query.where(MatchRow.public_id == match_id)).first() is not None


def close_table(event: EventRow, match_id: str, expected: int | None, now: datetime) -> TableState:
    """Close a late table with its score as it stands (the deals entered so far)."""
    check_version(event, expected)
    played, table = find_table(event, match_id)
    if played is not current_round(event) or played.closed_at is not None:
        raise Conflict("table", ROUND_CLOSED, f"round {played.number} is closed")
    if table.closed_after is not None:
        raise Conflict("table", TABLE_CLOSED, f"table {table.number} is already closed")
    if table_state(event, played, table, now).outcome.done:
        raise Conflict("table", TABLE_DONE, f"table {table.number} has finished its game")
    when = claim(event)
    table.closed_at, table.closed_after = when, len(table.match.deals)
    touch([table], f"the director closed table {table.number}")
    commit()
    return table_state(event, played, table, now)


def close_round(event: EventRow, number: int, late: bool, expected: int | None, now: datetime) -> EventRoundRow:
    """Close the current round: every table done, or (``late``) the tables still playing closed with
    their scores as they stand."""
    check_version(event, expected)
    played = next((played for played in event.played_rounds if played.number == number), None)
    if played is None:
        raise NotFound("round", NOT_CURRENT_ROUND, f"round {number} has not been seated")
    if played.closed_at is not None:
        raise Conflict("round", ROUND_CLOSED, f"round {number} is already closed")
    playing = [state.row for state in states_of(event, played, now) if not state.outcome.done]
    if playing and not late:
        numbers = [table.number for table in playing]
        raise Conflict("late", TABLES_PLAYING, f"table(s) {', '.join(map(str, numbers))} still "
                           'playing: send {"late": true} to close them with their scores as they stand',
                           tables=numbers)
    when = claim(event)
    for table in playing:
        table.closed_at, table.closed_after = when, len(table.match.deals)
    played.closed_at = when
    touch(played.tables, f"the director closed round {played.number}")
    commit()
    return played
