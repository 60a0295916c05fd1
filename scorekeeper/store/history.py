"""Who changes a match, each deal's history, the match's last change and its rules at an earlier version, read from
the change log.

``store/writing.py`` appends a ``deal_change`` row in the transaction of every write to a deal; this module
reads them back. Who writes is told once per request (``act_as``): the view layer names the phone (its short
id from its session cookie and the name it gave) or the API, and each row keeps it.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import select

from ..db import get_session
from ..models import DealChangeRow, MatchRow, RuleChangeRow, utc_iso
from ..rules.house_rules import HouseRules
from ..rules.undo import rules_before
from .describe import describe_facts

_AUTHOR_KEY = "scorekeeper.author"  # in the database session's info: who this request writes as
PHONE = "phone:"  # ``by`` of a phone: its short id after it
API_BY = "api"
DIRECTOR_BY = "director"  # an event's director correcting a table: passes the lock of a closed table


class Author(NamedTuple):
    """Who writes: ``by`` is ``phone:<id>``, ``api`` or None (the command line); ``name`` the phone's."""

    by: str | None
    name: str | None = None


THE_API = Author(API_BY)
THE_DIRECTOR = Author(DIRECTOR_BY)


def act_as(author: Author) -> None:
    """Name who this request's writes are made by."""
    get_session().info[_AUTHOR_KEY] = author


def acting() -> Author:
    """Who this request's writes are made by (no one named: the command line)."""
    found = get_session().info.get(_AUTHOR_KEY)
    return found if isinstance(found, Author) else Author(None)


def who(by: str | None, name: str | None) -> str:
    """How the history names a writer: "Ann's phone", "a phone (k3f9)", "the API"."""
    if by == API_BY:
        return "the API"
    if by == DIRECTOR_BY:
        return "the director"
    if by is not None and by.startswith(PHONE):
        return f"{name}'s phone" if name else f"a phone ({by[len(PHONE):][:4]})"
    return "the command line"


@dataclasses.dataclass(frozen=True)
class DealEntry:
    """One change of a deal as the history shows it."""

    change_id: int
    deal_id: int
    number: int
    what: str  # "Entered", "Corrected", "Deleted", "Put back"
    undo: bool
    who: str
    changed_at: datetime
    before: str | None  # the deal in a few words
    after: str | None
    before_facts: dict[str, Any] | None
    after_facts: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.change_id, "deal": self.number, "what": self.what.lower(), "undo": self.undo,
                "by": self.who, "at": utc_iso(self.changed_at), "before": self.before_facts, "after": self.after_facts}


def what_was_done(change: DealChangeRow) -> str:
    if change.before is None:
        return "Put back" if change.undo else "Entered"
    return "Deleted" if change.after is None else "Corrected"


def _entry(row: MatchRow, change: DealChangeRow) -> DealEntry:
    return DealEntry(
        change.id, change.deal_id, change.number, what_was_done(change), change.undo,
        who(change.by, change.by_name), change.changed_at,
        None if change.before is None else describe_facts(row, change.before),
        None if change.after is None else describe_facts(row, change.after),
        change.before, change.after,
    )


def deal_history(row: MatchRow, deal_id: int) -> list[DealEntry]:
    """A deal's changes, oldest first (empty for a deal of another match or none)."""
    changes = get_session().scalars(select(DealChangeRow).where(
        (DealChangeRow.match_id == row.id) & (DealChangeRow.deal_id == deal_id)).order_by(DealChangeRow.id))
    return [_entry(row, change) for change in changes]


def match_history(row: MatchRow) -> list[DealEntry]:
    """Every deal's changes, newest first."""
    changes = get_session().scalars(select(DealChangeRow).where(DealChangeRow.match_id == row.id)
                                    .order_by(DealChangeRow.id.desc()))
    return [_entry(row, change) for change in changes]


class LastChange(NamedTuple):
    """The change that made the match's current version: a deal's (``deal``) or the house rules' (the
    first row of its group, ``rules``)."""

    deal: DealChangeRow | None
    rules: RuleChangeRow | None

    def describe(self, row: MatchRow) -> str:
        if self.deal is not None:
            change = self.deal
            return f"{what_was_done(change)} deal {change.number}" + (" (an undo)" if change.undo else "")
        assert self.rules is not None
        action = self.rules.action or ""
        if "rescale" in action:
            return "Rescaled " + action.rsplit(" ", 1)[-1] + (" (an undo)" if action.startswith("undo") else "")
        return "Changed the house rules" + (" (an undo)" if action == "undo" else "")


def last_change(row: MatchRow) -> LastChange | None:
    """The match's last change, when the history holds the one that made its current version (not the
    match's start, nor a change made before the history was kept)."""
    deals = get_session().scalars(select(DealChangeRow).where(
        (DealChangeRow.match_id == row.id) & (DealChangeRow.version == row.version))).all()
    if len(deals) == 1 and row.version > 1:
        return LastChange(deals[0], None)
    if deals:
        return None
    rules = get_session().scalars(select(RuleChangeRow).where(
        (RuleChangeRow.match_id == row.id) & (RuleChangeRow.batch == row.version)).order_by(RuleChangeRow.id)).first()
    return None if rules is None else LastChange(None, rules)


def current_deal_id(row: MatchRow, number: int) -> int | None:
    """The row id of the match's deal ``number`` now (None when there is no such deal)."""
    if not 1 <= number <= len(row.deals):
        return None
    return row.deals[number - 1].id


def rules_at(row: MatchRow, rules: HouseRules, version: int) -> HouseRules | None:
    """The house rules the match (its row, and ``rules``, those in force now) had at ``version``: what a page drawn
    then showed, each rule changed since put back as it was before its first change. None when the match was
    rescaled since, or its rescaling undone (the recorded numbers moved too)."""
    since = [change for change in row.rule_changes if change.batch is not None and change.batch > version]
    if any("rescale" in (change.action or "") for change in since):
        return None
    before: dict[str, Any] = {}
    for change in since:  # in the order made
        before.setdefault(change.rule, change.old_value)
    return rules_before(rules, before)
