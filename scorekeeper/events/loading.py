"""Reading an event once per request, and what its rows say: the entrants, the rounds as seated, each
table's outcome from its match's sheet, the standings and the players' ratings."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import load_only, selectinload

from ..db import get_session
from ..models import EventRoundRow, EventRow, EventTableRow, MatchRow, aware
from ..ratings import Rating, Result, rate
from ..rules.events import (
    Clock,
    Entrant,
    EventFormat,
    Ranking,
    RoundEnd,
    RoundEndKind,
    SeatedTable,
    Seating,
    still_playing,
)
from ..rules.house_rules import HouseRules
from ..rules.movements import Movement, default_movement
from ..rules.refusals import NotFound
from ..rules.seating import repeats_warning
from ..rules.standings import (
    PlayerStanding,
    TableOutcome,
    TeamStanding,
    adjusted,
    progressive_standings,
    team_standings,
)
from ..store import reading
from .scores import UNTIED, MatchFacts, facts_of, read_missing

_WHOLE_EVENT = (  # the entrants are read when asked for: the standings need only the rounds as seated
    # A match's rules, sides and deals are read only when its version's facts are not kept (``scores``);
    # its own event table is not joined again (``scores.UNTIED``).
    selectinload(EventRow.played_rounds).selectinload(EventRoundRow.tables).selectinload(EventTableRow.match)
    .options(load_only(MatchRow.public_id, MatchRow.watch_id, MatchRow.edit_token, MatchRow.version), UNTIED),
    selectinload(EventRow.corrections),
)


def find_event(public_id: str, whole: bool = True, public: bool = False) -> EventRow | None:
    """The event with this director's link (``public``: this standings link), with its rounds, tables and
    matches (``whole``), or None."""
    if not reading.is_public_id(public_id):
        return None
    column = EventRow.standings_id if public else EventRow.public_id
    query = select(EventRow).where(column == public_id)
    if not whole:
        return get_session().scalars(query).first()
    row = get_session().scalars(query.options(*_WHOLE_EVENT)).first()
    if row is not None:
        read_missing([table.match for played in row.played_rounds for table in played.tables])
    return row


def get_event_or_404(public_id: str, whole: bool = True, public: bool = False) -> EventRow:
    row = find_event(public_id, whole, public)
    if row is None:
        raise NotFound(None, reading.NOT_FOUND, "There is no event at this link.")
    return row


_EVENT_OF_MATCH = (
    select(EventRow.name, EventRoundRow.number.label("round"), EventTableRow.number.label("table"))
    .join(EventRoundRow, EventRoundRow.event_id == EventRow.id)
    .join(EventTableRow, EventTableRow.round_id == EventRoundRow.id)
)


def event_of_match(match: MatchRow) -> dict[str, str | int] | None:
    """The match file's ``event`` of a match played at a club event's table (None for any other match)."""
    found = get_session().execute(_EVENT_OF_MATCH.where(EventTableRow.match_id == match.id)).first()
    return None if found is None else {"name": found.name, "round": found.round, "table": found.table}


_STANDING_FACTS = (
    select(EventRow.version, EventRow.round_end, EventRow.round_end_count, EventRoundRow.started_at,
           EventRoundRow.paused_at, EventRoundRow.paused_seconds, EventRoundRow.extra_minutes,
           MatchRow.version.label("match_version"))
    .outerjoin(EventRoundRow, EventRoundRow.event_id == EventRow.id)
    .outerjoin(EventTableRow, EventTableRow.round_id == EventRoundRow.id)
    .outerjoin(MatchRow, MatchRow.id == EventTableRow.match_id)
    .order_by(EventRoundRow.number, EventTableRow.number)
)


def standings_tag(standings_id: str, now: datetime) -> str | None:
    """What the standings of the event with this standings link are worked out from, as an ETag: the
    event's version, each table's match's version and, under a time limit, whether each round's time is
    up. One query of a few columns, no match read (None for an unknown link)."""
    if not reading.is_public_id(standings_id):
        return None
    rows = get_session().execute(_STANDING_FACTS.where(EventRow.standings_id == standings_id)).all()
    if not rows:
        return None
    first = rows[0]
    facts: list[object] = [first.version, *(row.match_version for row in rows)]
    end = RoundEnd(RoundEndKind(first.round_end), first.round_end_count)
    if end.kind is RoundEndKind.MINUTES:
        limits = [None if row.started_at is None else end.ends_at(
            aware(row.started_at), Clock(row.extra_minutes or 0, row.paused_seconds or 0,
                                         None if row.paused_at is None else aware(row.paused_at)), now)
                  for row in rows]
        facts += [limit is not None and now >= limit for limit in limits]
    return hashlib.sha1(repr(facts).encode(), usedforsecurity=False).hexdigest()[:20]


def event_format(row: EventRow) -> EventFormat:
    return EventFormat(row.format)


def movement_of(row: EventRow) -> Movement | None:
    """A team event's movement as chosen (None for a progressive event, or one left to its rounds)."""
    return None if row.movement is None else Movement(row.movement)


def chosen_movement(row: EventRow) -> Movement | None:
    """The movement a team event plays (None for a progressive event)."""
    if event_format(row) is not EventFormat.TEAM:
        return None
    return movement_of(row) or default_movement(len(row.entrants), row.rounds)


def repeats_ahead(row: EventRow) -> str | None:
    """Why meetings will repeat in this event (``rules.seating.repeats_warning``), or None."""
    return repeats_warning(event_format(row), len(row.entrants), row.rounds, movement_of(row))


def round_end(row: EventRow) -> RoundEnd:
    return RoundEnd(RoundEndKind(row.round_end), row.round_end_count)


def end_under(end: RoundEnd, rules: HouseRules) -> RoundEnd:
    """A round's end under these house rules: a round of a number of deals plays the rules' deal limit."""
    return RoundEnd(end.kind, rules.deal_limit) if end.kind is RoundEndKind.DEALS else end


def entrants(row: EventRow) -> list[Entrant]:
    return [tuple(entrant.players) for entrant in row.entrants]


def withdrawn(row: EventRow) -> dict[str, int]:
    """Each player withdrawn: the first round they miss."""
    return {out.player: out.from_round for out in row.withdrawals if out.substitute is None}


def playing_entrants(row: EventRow, round: int) -> list[Entrant]:
    """The entrants seated in ``round``: all but those withdrawn from it or before."""
    return still_playing(entrants(row), withdrawn(row), round)


def seating_of(played: EventRoundRow) -> Seating:
    """The round as seated (after any swap), for the rules core."""
    tables = tuple(SeatedTable(number, (tuple(first), tuple(second)))
                   for number, (first, second) in enumerate(played.seating["tables"], start=1))
    return Seating(played.number, tables, tuple(tuple(bye) for bye in played.seating["byes"]))


def seating_json(seating: Seating) -> dict[str, list[list[list[str]]] | list[list[str]]]:
    """How ``EventRoundRow.seating`` stores a round."""
    return {"tables": [[list(side) for side in table.sides] for table in seating.tables],
            "byes": [list(bye) for bye in seating.byes]}


def current_round(row: EventRow) -> EventRoundRow | None:
    return row.played_rounds[-1] if row.played_rounds else None


# A table's state -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TableState:
    """A table of a round as it stands now: its outcome for the standings and what the director sees."""

    row: EventTableRow
    outcome: TableOutcome
    closed: bool  # closed late by the director (or with its round)
    time_up: bool  # a time limit ran out; ``done`` once the deal then in play is entered
    adjusted: bool = False  # the director gave it an adjusted score, which counts in place of its sheet's
    counted: int | None = None  # the match's first deals that count for the event (those after do not)


def table_state(event: EventRow, played: EventRoundRow, table: EventTableRow, now: datetime,
                rules: HouseRules | None = None) -> TableState:
    """The table's outcome from its match's sheet (the rules core's ``table_outcome``). A table closed late
    counts the deals entered before it was closed; under a time limit, the deals up to the first one
    entered once time was up (the deal in play then) count. ``rules``: as it would be under those house
    rules (a change's preview; worked out afresh, never kept)."""
    facts, end = facts_of(table.match), round_end(event)
    if rules is not None:
        facts, end = MatchFacts(facts.match.with_rules(rules), facts.entered), end_under(end, rules)
    entered = len(facts.entered)
    counted = entered if table.closed_after is None else min(table.closed_after, entered)
    time_up = deal_in_play = False
    limit = end.ends_at(aware(played.started_at), clock_of(played), now)
    if limit is not None:
        time_up = now >= limit
        after = [number for number, moment in enumerate(facts.entered, start=1) if moment >= limit]
        counted = min(counted, after[0]) if after else counted
        deal_in_play = time_up and not after
    first, second = played.seating["tables"][table.number - 1]
    seated = SeatedTable(table.number, (tuple(first), tuple(second)))
    outcome = facts.outcome(played.number, seated, end, counted, time_up, deal_in_play, table.closed_after is not None)
    score = adjusted_totals(event).get((played.number, table.number))
    if score is not None:
        outcome = adjusted(outcome, score)
    return TableState(table, outcome, table.closed_after is not None, time_up, score is not None, counted)


ADJUSTED_SCORE = "score"  # the kind of correction that gives a table an adjusted score (``corrections.Kind``)


def adjusted_totals(event: EventRow) -> dict[tuple[int, int], tuple[int, int]]:
    """The adjusted score of each table given one (by round and table): the latest given, unless withdrawn."""
    found: dict[tuple[int, int], tuple[int, int] | None] = {}
    for row in event.corrections:
        if row.kind == ADJUSTED_SCORE:
            found[row.round, row.table] = None if row.totals is None else (row.totals[0], row.totals[1])
    return {key: totals for key, totals in found.items() if totals is not None}


def states_of(event: EventRow, played: EventRoundRow, now: datetime) -> list[TableState]:
    return [table_state(event, played, table, now) for table in played.tables]


def round_ends_at(event: EventRow, played: EventRoundRow, now: datetime) -> datetime | None:
    """When a round under a time limit runs out of time, as of ``now`` (it moves on while the clock is
    paused); None for other rounds."""
    return round_end(event).ends_at(aware(played.started_at), clock_of(played), now)


def clock_of(played: EventRoundRow) -> Clock:
    """The round's clock as the director ran it."""
    paused = None if played.paused_at is None else aware(played.paused_at)
    return Clock(played.extra_minutes or 0, played.paused_seconds or 0, paused)


# Standings ------------------------------------------------------------------------------------------------

Standings = tuple[PlayerStanding, ...] | tuple[TeamStanding, ...]


def event_standings_under(event: EventRow, now: datetime, rules: HouseRules | None) -> Standings:
    """The overall standings now, or as they would be under ``rules`` (a change's preview)."""
    outcomes = [table_state(event, played, table, now, rules).outcome
                for played in event.played_rounds for table in played.tables]
    return standings(event, outcomes, [seating_of(played) for played in event.played_rounds])


def standings(event: EventRow, outcomes: Sequence[TableOutcome], seatings: Sequence[Seating]) -> Standings:
    """The standings of ``outcomes`` (some rounds, or all), by the event's format."""
    if event_format(event) is EventFormat.TEAM:
        return team_standings(outcomes, seatings)
    return progressive_standings(outcomes, seatings, Ranking(event.ranking))


# Ratings --------------------------------------------------------------------------------------------------

def rated(outcome: TableOutcome) -> bool:
    """Whether a table counts in the ratings: done, with a deal played (a table closed before its first
    deal says nothing of anyone's skill)."""
    return outcome.done and outcome.deals > 0


def result_of(outcome: TableOutcome, finished: datetime | None = None) -> Result:
    """A table's sides placed by its outcome: the winner first (a table closed late: the side ahead),
    then by totals; a level table is a tie."""
    return Result.ranked(outcome.sides, outcome.totals, outcome.winner, finished)


def event_ratings(outcomes: Sequence[TableOutcome]) -> tuple[Rating, ...]:
    """The players' ratings from the tables rated among ``outcomes``, in the order given (round by round)."""
    return rate(result_of(outcome) for outcome in outcomes if rated(outcome))


def events_held(table_id: int) -> list[EventRow]:
    """The events a table holds, oldest first, each read whole (its rounds, tables and matches)."""
    query = select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.created_at, EventRow.id)
    held = list(get_session().scalars(query.options(*_WHOLE_EVENT)).all())
    read_missing([table.match for event in held for played in event.played_rounds for table in played.tables])
    return held


def results_at_table(table_id: int, now: datetime) -> dict[int, Result]:
    """The results of the tables rated of the events a table holds, by their match's row id, each placed
    as its event places it and decided when it was closed or its last deal was entered. Their matches'
    sheets alone would leave out a table closed late or ended level (no winner on the sheet)."""
    held = events_held(table_id)
    results: dict[int, Result] = {}
    for event in held:
        for played in event.played_rounds:
            for state in states_of(event, played, now):
                if rated(state.outcome):
                    entered = facts_of(state.row.match).entered
                    closed = state.row.closed_at
                    finished = aware(closed) if closed is not None else entered[-1]
                    results[state.row.match_id] = result_of(state.outcome, finished)
    return results
