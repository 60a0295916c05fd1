"""Finding a table by its link, and reading its matches and players."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..db import get_session
from ..models import MatchRow, TableRow
from ..rules.refusals import NotFound
from ..store import reading


def find_table(public_id: str) -> TableRow | None:
    if not reading.is_public_id(public_id):
        return None
    return get_session().scalars(select(TableRow).where(TableRow.public_id == public_id)).first()


def get_table_or_404(public_id: str) -> TableRow:
    row = find_table(public_id)
    if row is None:
        raise NotFound(None, reading.NOT_FOUND, "There is no table at this link.")
    return row


def tables_by_public_id(public_ids: Iterable[str]) -> list[TableRow]:
    """The tables with these links, in the order given; unknown links are skipped."""
    wanted = [public_id for public_id in public_ids if reading.is_public_id(public_id)]
    if not wanted:
        return []
    rows = get_session().scalars(select(TableRow).where(TableRow.public_id.in_(wanted))).all()
    by_id = {row.public_id: row for row in rows}
    return [by_id[public_id] for public_id in wanted if public_id in by_id]


def table_of(match: MatchRow) -> TableRow | None:
    return None if match.table_id is None else get_session().get(TableRow, match.table_id)


def table_matches(table: TableRow) -> list[MatchRow]:
    """The table's matches in the order they were started, with their sides and deals read at once."""
    query = (select(MatchRow).where(MatchRow.table_id == table.id)
             .options(selectinload(MatchRow.sides), selectinload(MatchRow.deals))
             .order_by(MatchRow.created_at, MatchRow.id))
    return list(get_session().scalars(query).all())


def player_list(table: TableRow) -> list[str]:
    return [player.name for player in table.players]
