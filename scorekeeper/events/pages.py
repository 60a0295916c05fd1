"""What the event pages read beyond the API's calls: the round as the director's page shows it, the standings
overall and round by round.

The standings are the same calls the API makes (``loading.standings`` over ``loading.states_of``), so the
pages and the API never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, select
from sqlalchemy.orm import aliased, joinedload

from ..db import get_session
from ..models import EventRoundRow, EventRow, EventTableRow, MatchRow, utc_now
from ..ratings import Rating
from ..rules.events import SeatedTable, Seating
from ..store import reading
from .loading import (
    Standings,
    TableState,
    current_round,
    event_ratings,
    round_ends_at,
    seating_of,
    standings,
    states_of,
    table_state,
)
from .scores import facts_of


@dataclass(frozen=True)
class RoundNow:
    """The round being played (or the last one), as its director sees it now."""

    row: EventRoundRow
    tables: list[TableState]
    ends_at: datetime | None
    started: bool  # a deal was entered: seats no longer change
    paused_left: int | None = None  # the clock paused: the seconds it has left

    @property
    def paused(self) -> bool:
        return self.row.paused_at is not None

    @property
    def closed(self) -> bool:
        return self.row.closed_at is not None

    @property
    def playing(self) -> list[int]:
        return [state.row.number for state in self.tables if not state.outcome.done]

    @property
    def players(self) -> tuple[str, ...]:
        return seating_of(self.row).players


def round_now(event: EventRow, now: datetime) -> RoundNow | None:
    played = current_round(event)
    if played is None:
        return None
    ends_at = round_ends_at(event, played, now)
    return RoundNow(played, states_of(event, played, now), ends_at,
                    any(facts_of(table.match).entered for table in played.tables), paused_left(played, ends_at, now))


def paused_left(played: EventRoundRow, ends_at: datetime | None, now: datetime) -> int | None:
    """The seconds a paused clock has left (None while it runs, or with no clock)."""
    if played.paused_at is None or ends_at is None:
        return None
    return max(0, int((ends_at - now).total_seconds()))


class RoundStandings(NamedTuple):
    """One round seated: its number, whether it was closed, whether every table is done, its standings."""

    number: int
    closed: bool
    done: bool
    standings: Standings


@dataclass(frozen=True)
class EventStandings:
    """The standings overall and of each round seated, and the players' ratings from the tables done."""

    overall: Standings
    rounds: list[RoundStandings]
    ratings: tuple[Rating, ...]


def event_standings(event: EventRow, now: datetime) -> EventStandings:
    """Worked out now from every table's match (the page, its CSV and the API answer alike)."""
    by_round = [(played, [state.outcome for state in states_of(event, played, now)])
                for played in event.played_rounds]
    seatings = [seating_of(played) for played, _ in by_round]
    every = [outcome for _, outcomes in by_round for outcome in outcomes]
    rounds = [RoundStandings(played.number, played.closed_at is not None, all(outcome.done for outcome in outcomes),
                             standings(event, outcomes, [seating]))
              for (played, outcomes), seating in zip(by_round, seatings, strict=True)]
    return EventStandings(standings(event, every, seatings), rounds, event_ratings(every))


def event_seatings(event: EventRow) -> list[Seating]:
    """Every round as seated (after any swap or no-show), round 1 first."""
    return [seating_of(played) for played in event.played_rounds]


_NEXT_ROUND = aliased(EventRoundRow)
_HEAD_AND_NEXT = (
    select(*reading.HEAD_COLUMNS, EventTableRow.id.label("event_table"), EventTableRow.number,
           EventRoundRow.seating, _NEXT_ROUND.number.label("next"), _NEXT_ROUND.seating.label("next_seating"))
    .select_from(MatchRow)
    .outerjoin(EventTableRow, EventTableRow.match_id == MatchRow.id)
    .outerjoin(EventRoundRow, EventRoundRow.id == EventTableRow.round_id)
    .outerjoin(_NEXT_ROUND, (_NEXT_ROUND.event_id == EventRoundRow.event_id)
               & (_NEXT_ROUND.number == EventRoundRow.number + 1))
    .where(MatchRow.public_id == bindparam("link"))
)


@dataclass(frozen=True)
class NextSeats:
    """Where the players of a club event's table sit in the round after theirs: each name with its table's
    number, or None for a bye (or a player no longer seated)."""

    round: int
    seats: tuple[tuple[str, int | None, bool], ...]  # name, table, on a bye


class SheetHead(NamedTuple):
    """What the sheet page reads first of a match, in one SELECT on the session's connection: its head (the
    version among it), the club event's table it is played at (its id, if any) and, when that table's next
    round is seated, where its players sit then."""

    match: reading.MatchHead
    event_table: int | None
    next_seats: NextSeats | None


def sheet_head(public_id: str) -> SheetHead | None:
    """The sheet head of the match with this link (None for an unknown link)."""
    if not reading.is_public_id(public_id):
        return None
    found = get_session().connection().execute(_HEAD_AND_NEXT, {"link": public_id}).first()
    if found is None:
        return None
    head = reading.MatchHead(*found[:len(reading.HEAD_COLUMNS)])
    if found.next is None:
        return SheetHead(head, found.event_table, None)
    here = found.seating["tables"][found.number - 1]
    return SheetHead(head, found.event_table, _next_seats(here, found.next, found.next_seating))


def _next_seats(here: list[list[str]], next_round: int, seating: dict[str, Any]) -> NextSeats:
    """Where the players of a table seated ``here`` sit in the next round, seated so."""
    later = Seating(next_round, tuple(SeatedTable(number, (tuple(first), tuple(second))) for number, (first, second)
                                      in enumerate(seating["tables"], start=1)),
                    tuple(tuple(bye) for bye in seating["byes"]))
    seats = []
    for name in (name for side in here for name in side):
        table = later.table_of(name)
        seats.append((name, None if table is None else table.number,
                      any(name in bye for bye in later.byes)))
    return NextSeats(next_round, tuple(seats))


@dataclass(frozen=True)
class EventPlace:
    """Where a match is played at a club event: its round and table, the standings link, the round's end time,
    and the table as the event counts it (the same ``table_state`` the standings read): done, closed, and
    how many of the match's first deals count (those after are marked on the sheet)."""

    round: int
    table: int
    standings_id: str
    ends_at: datetime | None
    paused_left: int | None = None
    done: bool = False
    closed: bool = False
    counted: int | None = None


def event_place(table_id: int | None) -> EventPlace | None:
    """The event table a match is played at (its id; None for any other match, with no query), as the event
    counts it now: drawn into the sheet of the match's version (a deal entered moves it on, and redraws it).
    A table already read (with its match, after a write) is not read again."""
    if table_id is None:
        return None
    table = get_session().get(EventTableRow, table_id, options=[joinedload(EventTableRow.match)])
    if table is None:
        return None
    played = get_session().get(EventRoundRow, table.round_id)
    event = None if played is None else get_session().get(EventRow, played.event_id)
    if played is None or event is None:
        return None
    now = utc_now()
    state = table_state(event, played, table, now)
    ends_at = round_ends_at(event, played, now)
    return EventPlace(played.number, table.number, event.standings_id, ends_at,
                      paused_left(played, ends_at, now), state.outcome.done,
                      state.closed or played.closed_at is not None, state.counted)


def events_by_public_id(public_ids: list[str]) -> list[EventRow]:
    """The events with these director's links, in the order given (this device's list, never anyone else's)."""
    if not public_ids:
        return []
    found = {row.public_id: row for row in get_session().scalars(
        select(EventRow).where(EventRow.public_id.in_(public_ids)))}
    return [found[public_id] for public_id in public_ids if public_id in found]
