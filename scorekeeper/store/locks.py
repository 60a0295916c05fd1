"""What a club event's table keeps from its players: a closed table (its round closed, or closed late by the
director) takes no write through the players' link or the match's edit token, and no table of an event
changes its house rules (the event's rules are the director's to change, for every table at once).

Checked in the statement that claims the match (``writing._claim``): the UPDATE that takes the match's lock
changes nothing while the match is locked, so no write escapes, whichever form, panel, outbox or API call
made it, and a table closed a moment before the write is seen. The director's own writes (``act_as`` the
director) pass, and are logged by the event as corrections.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, exists, select

from ..db import get_session
from ..models import Base
from ..rules.refusals import Conflict

TABLE_CLOSED = "table_closed"
EVENT_RULES = "event_rules"

_TABLE = Base.metadata.tables["event_table"]
_ROUND = Base.metadata.tables["event_round"]
_MATCH = Base.metadata.tables["match"]


class MatchLocked(Conflict):
    """A write the match refuses as it stands: its code, and a message and a page title for a person."""

    CODE = ""

    def __init__(self, message: str) -> None:
        super().__init__(None, self.CODE, message)


class TableClosed(MatchLocked):
    """A write to a table whose results are locked: its round closed, or the director closed it."""

    CODE = TABLE_CLOSED
    title = "This table is closed"

    def __init__(self, round_number: int, table_number: int) -> None:
        super().__init__(f"Table {table_number} of round {round_number} is closed: its results are locked and "
                         "nothing was saved. Ask the director to correct it.")
        self.round, self.table = round_number, table_number


class EventRules(MatchLocked):
    """A change of house rules at a table of an event: the event's rules are changed by its director."""

    CODE = EVENT_RULES
    title = "The event's house rules"

    def __init__(self) -> None:
        super().__init__("This match is a table of a club event and plays the event's house rules: only the "
                         "director changes them, for every table at once. Nothing was saved.")


def _closed_table(match_id: ColumnElement[int]) -> ColumnElement[bool]:
    closed = select(_TABLE.c.id).join(_ROUND, _ROUND.c.id == _TABLE.c.round_id).where(
        (_TABLE.c.match_id == match_id) & (_TABLE.c.closed_at.is_not(None) | _ROUND.c.closed_at.is_not(None)))
    return exists(closed)


def unlocked(match_id: ColumnElement[int], rules: bool) -> ColumnElement[bool]:
    """The condition a player's write adds to its claim: the match is no closed table and, for a change of
    its rules (``rules``), no event's table at all."""
    condition = ~_closed_table(match_id)
    if rules:
        condition = condition & ~exists(select(_TABLE.c.id).where(_TABLE.c.match_id == match_id))
    return condition


def refusal(match_id: int, rules: bool) -> MatchLocked | None:
    """Why a claim the condition stopped was refused (None: it was not locked, it lost a race)."""
    return _refusal_where(_TABLE.c.match_id == match_id, rules)


def refused_at(public_id: str, rules: bool) -> MatchLocked | None:
    """``refusal`` of the match at this link, asked before a page previews a change it would refuse."""
    return _refusal_where(_TABLE.c.match_id.in_(select(_MATCH.c.id).where(_MATCH.c.public_id == public_id)
                                                .scalar_subquery()), rules)


def _refusal_where(condition: ColumnElement[bool], rules: bool) -> MatchLocked | None:
    """The refusal of the event table found by ``condition`` (None: no event table, or one taking writes)."""
    found = get_session().execute(
        select(_ROUND.c.number, _TABLE.c.number.label("table"), _TABLE.c.closed_at, _ROUND.c.closed_at.label("ended"))
        .select_from(_TABLE).join(_ROUND, _ROUND.c.id == _TABLE.c.round_id).where(condition)).first()
    if found is None:
        return None
    if found.closed_at is not None or found.ended is not None:
        return TableClosed(found.number, found.table)
    return EventRules() if rules else None


def closed_table(match_id: int) -> TableClosed | None:
    """The refusal a player's write to this match meets now (None: it takes writes)."""
    refused = refusal(match_id, rules=False)
    return refused if isinstance(refused, TableClosed) else None
