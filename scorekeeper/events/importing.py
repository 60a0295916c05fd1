"""An event file stored as a new event: its rounds, seating and tables, each table's match with its deals
entered at the moments the file gives, what the director closed, and the director's withdrawals, substitutes,
corrections and clocks as they were made; new links and a new director token."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import update

from ..db import get_session
from ..models import (
    DealRow,
    EventCorrectionRow,
    EventEntrantRow,
    EventRoundRow,
    EventRow,
    EventTableRow,
    EventWithdrawalRow,
    TableRow,
)
from ..store import writing
from .event_file import EventFacts
from .loading import seating_json


def import_event(facts: EventFacts, table: TableRow | None = None,
                 count: Callable[[int, int], None] = lambda matches, deals: None) -> EventRow:
    """Store ``facts`` as a new event, held by ``table`` (its right to be changed already checked);
    ``count`` is told how many matches and deals it makes before anything is written (it may refuse)."""
    new = facts.event
    tables = [table for played in facts.rounds for table in played.tables]
    count(len(tables), sum(len(table.match.deals) for table in tables))
    row = EventRow(name=new.name, format=new.format.value, auction=new.auction, rules=new.rules.to_mapping(),
                   round_end=new.round_end.kind.value, round_end_count=new.round_end.count, rounds=new.rounds,
                   movement=None if new.movement is None else new.movement.value, ranking=new.ranking.value,
                   version=1, table_id=None if table is None else table.id)
    row.entrants = [EventEntrantRow(position=index, players=list(entrant))
                    for index, entrant in enumerate(new.entrants)]
    row.withdrawals = [EventWithdrawalRow(player=out.player, from_round=out.from_round, substitute=out.substitute,
                                          created_at=out.at) for out in facts.withdrawals]
    row.corrections = [EventCorrectionRow(round=kept.round, table=kept.table, kind=kept.kind.value, deal=kept.deal,
                                          before=kept.before, after=kept.after, reason=kept.reason, made_at=kept.at,
                                          totals=None if kept.score is None else list(kept.score))
                       for kept in facts.corrections]
    clocks = {clock.round: clock for clock in facts.clocks}
    session = get_session()
    session.add(row)
    for played in facts.rounds:
        seated = EventRoundRow(number=played.seating.round, seating=seating_json(played.seating),
                               started_at=played.started_at, closed_at=played.closed_at)
        clock = clocks.get(played.seating.round)
        if clock is not None:
            seated.paused_at, seated.paused_seconds, seated.extra_minutes = (clock.paused_at, clock.paused_seconds,
                                                                             clock.extra_minutes)
        for facts_of_table in played.tables:
            match = writing.create_match(facts_of_table.match, table_id=row.table_id, commit=False)
            session.flush()
            for position, moment in enumerate(facts_of_table.entered, start=1):
                session.execute(update(DealRow).where((DealRow.match_id == match.id) & (DealRow.position == position))
                                .values(created_at=moment, updated_at=moment))
            seated.tables.append(EventTableRow(number=facts_of_table.number, match=match,
                                               closed_at=facts_of_table.closed_at,
                                               closed_after=facts_of_table.closed_after))
        row.played_rounds.append(seated)
    session.commit()
    return row
