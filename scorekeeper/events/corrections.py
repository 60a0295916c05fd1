"""The director's corrections of a closed table: a deal of its match corrected or deleted, or an adjusted
score given to the table (a director's arbitral score), each kept with when, what and why, and shown with
the standings as an adjustment.

A closed table takes no write from its players (``store.locks``); the director's writes pass, named as
the director's in the match's history. The event's claim, the correction's row and the match's write are
one transaction: a correction is logged exactly when it is made.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..models import EventCorrectionRow, EventRoundRow, EventRow, EventTableRow, utc_iso
from ..rules.errors import RulesError
from ..rules.refusals import Conflict, Invalid, NotFound
from ..store import reading, writing
from ..store.history import THE_DIRECTOR, act_as, acting
from .director import check_version, claim, commit
from .loading import ADJUSTED_SCORE

MAX_REASON = 300
MAX_POINTS = 1_000_000  # a side's adjusted score, either way
TABLE_OPEN = "table_open"  # its players still correct it themselves
NO_SUCH_ROUND = "no_such_round"
NO_SUCH_TABLE = "no_such_table"
REASON_MISSING = "reason_missing"


class Kind(StrEnum):
    """What a correction did."""

    CHANGED = "changed"  # a deal of the table's match corrected
    DELETED = "deleted"  # a deal of the table's match deleted
    SCORE = ADJUSTED_SCORE  # an adjusted score given to the table (or withdrawn)


@dataclass(frozen=True)
class Correction:
    """A correction asked for: the table (round and number), why, and what: a deal's new facts (``deal`` and
    ``facts``), a deal deleted (``deal``, no facts), or an adjusted score (``totals``; None withdraws it)."""

    round: int
    table: int
    reason: str
    kind: Kind
    deal: int | None = None
    facts: Mapping[str, Any] | None = None
    totals: tuple[int, int] | None = None


def clean_reason(value: object) -> str:
    """The reason a correction is made: text, 1 to ``MAX_REASON`` characters."""
    if not isinstance(value, str) or not value.strip():
        raise Invalid("reason", REASON_MISSING, "say why the table is corrected (a reason is kept with it)")
    reason = " ".join(value.split())
    if len(reason) > MAX_REASON:
        raise Invalid("reason", "too_long", f"a reason has at most {MAX_REASON} characters")
    return reason


def clean_totals(value: object, field: str = "score") -> tuple[int, int]:
    """An adjusted score: each side's points, two whole numbers."""
    if not isinstance(value, list) or len(value) != 2 or \
            not all(isinstance(points, int) and not isinstance(points, bool) for points in value):
        raise Invalid(field, "wrong_type", "an adjusted score is two whole numbers, the sides' points")
    if not all(-MAX_POINTS <= points <= MAX_POINTS for points in value):
        raise Invalid(field, "out_of_range", f"each side's points are within ±{MAX_POINTS:,}")
    return int(value[0]), int(value[1])


def closed_table_of(event: EventRow, round_number: int, table_number: int) -> tuple[EventRoundRow, EventTableRow]:
    """The table to correct: seated, and closed (an open table is its players' to correct)."""
    played = next((played for played in event.played_rounds if played.number == round_number), None)
    if played is None:
        raise NotFound("round", NO_SUCH_ROUND, f"round {round_number} has not been seated")
    table = next((table for table in played.tables if table.number == table_number), None)
    if table is None:
        raise NotFound("table", NO_SUCH_TABLE, f"round {round_number} has no table {table_number}")
    if played.closed_at is None and table.closed_at is None:
        raise Conflict("table", TABLE_OPEN, f"table {table_number} of round {round_number} is still "
                           "open: its players correct it themselves; close it first")
    return played, table


@contextmanager
def as_the_director() -> Iterator[None]:
    """The writes inside are the director's: they pass a closed table's lock, and its history names them."""
    before = acting()
    act_as(THE_DIRECTOR)
    try:
        yield
    finally:
        act_as(before)


def with_points(event: EventRow, round_number: int, table_number: int, number: int,
                totals: tuple[int, int]) -> dict[str, Any]:
    """Deal ``number`` of a closed table as recorded, with each side's points set to ``totals`` (who bid and
    what stay as they were): the correction a director types from a score slip."""
    _, table = closed_table_of(event, round_number, table_number)
    deals = reading.load_match(table.match.public_id).row.deals
    if not 1 <= number <= len(deals):
        raise Invalid("deal", "no_such_deal", f"table {table_number} has no deal {number}")
    kept = {key: value for key, value in reading.deal_json(deals[number - 1]).items()
            if key not in ("passed", "thrown_in", "sides", "entered_under")}  # the rest is kept as noted
    return kept | {"sides": [{"total": points} for points in totals]}


def correct(event: EventRow, asked: Correction, expected: int | None) -> EventCorrectionRow:
    """Make the correction and keep it, in one transaction; refused (a ``Refusal``) with nothing written."""
    check_version(event, expected)
    _, table = closed_table_of(event, asked.round, asked.table)
    row = EventCorrectionRow(round=asked.round, table=asked.table, kind=asked.kind.value, reason=asked.reason,
                             deal=asked.deal, totals=None if asked.totals is None else list(asked.totals))
    if asked.kind is Kind.SCORE:
        claim(event)
        event.corrections.append(row)
        commit()
        return row
    loaded = reading.load_match(table.match.public_id)
    number = asked.deal or 0
    if not 1 <= number <= len(loaded.match.deals):
        raise Invalid("deal", "no_such_deal", f"table {asked.table} has no deal {number}")
    row.before = reading.deal_json(loaded.row.deals[number - 1])
    if asked.facts is not None:
        try:
            writing.with_deal(loaded, asked.facts, number)  # checked before anything is claimed
        except RulesError as error:
            raise Invalid(f"deal.{error.problem.path}".rstrip("."), error.code,
                               error.problem.message) from None
    claim(event)
    event.corrections.append(row)
    if asked.facts is None and table.closed_after is not None and number <= table.closed_after:
        table.closed_after -= 1  # the deals counted close up with the match's
    try:
        with as_the_director():
            if asked.facts is None:
                writing.delete_deal(loaded, number, loaded.row.version)
            else:
                row.after = dict(asked.facts)
                writing.replace_deal(loaded, number, asked.facts, loaded.row.version)
    except writing.StaleEdit:
        raise Conflict("version", "stale", "a write reached the table's match at the same moment; "
                           "look again and redo your correction") from None
    return row


def adjustment_json(row: EventCorrectionRow) -> dict[str, Any]:
    """A correction as the answers list it: where, what, why and when."""
    return {"round": row.round, "table": row.table, "kind": row.kind, "deal": row.deal, "before": row.before,
            "after": row.after, "score": row.totals, "reason": row.reason, "at": utc_iso(row.made_at),
            "what": describe(row)}


def describe(row: EventCorrectionRow) -> str:
    """A correction in a few words: "deal 3 corrected", "deal 3 deleted", "adjusted score 120–80"."""
    if row.kind == Kind.SCORE:
        return "adjusted score withdrawn" if row.totals is None else f"adjusted score {row.totals[0]}–{row.totals[1]}"
    return f"deal {row.deal} {'deleted' if row.kind == Kind.DELETED else 'corrected'}"
