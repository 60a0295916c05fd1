"""The director's facts in the event file: withdrawals (no-shows among them) and substitutes, corrections
and adjusted scores of closed tables (when, what, why), and each round's clock as it was run (its pauses and
extra minutes decide which deals of a time-limited round count). Each is a key of the file's top object,
written from the event's rows and read back checked against the event and rounds read before it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..models import EventRow
from ..rules.errors import RulesError
from ..rules.limits import MAX_PLAYER_NAME
from ..rules.problems import ProblemCode
from ..rules.refusals import Invalid
from ..rules.text import clean_name
from .corrections import Kind, clean_reason, clean_totals
from .file_fields import a_list, a_moment, an_object, iso, refused, required_moment, whole

WITHDRAWAL_KEYS = frozenset({"player", "from_round", "substitute", "at"})
CORRECTION_KEYS = frozenset({"round", "table", "kind", "deal", "before", "after", "score", "reason", "at"})
CLOCK_KEYS = frozenset({"round", "paused_at", "paused_seconds", "extra_minutes"})
MAX_PAUSED_SECONDS = 7 * 24 * 3600
MAX_EXTRA_MINUTES = 24 * 60
SEATED_WHEN_WITHDRAWN = "seated_when_withdrawn"  # a player seated in a round they were withdrawn from


@dataclass(frozen=True)
class WithdrawalFacts:
    """A player withdrawn from round ``from_round`` on, or (``substitute``) replaced for that round."""

    player: str
    from_round: int
    substitute: str | None
    at: datetime


@dataclass(frozen=True)
class CorrectionFacts:
    """A director's correction of a closed table, as kept: where, what, why and when."""

    round: int
    table: int
    kind: Kind
    deal: int | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    score: tuple[int, int] | None
    reason: str
    at: datetime


@dataclass(frozen=True)
class ClockFacts:
    """A round's clock as the director ran it: paused now (since when), seconds paused, minutes added."""

    round: int
    paused_at: datetime | None
    paused_seconds: int
    extra_minutes: int


# Writing ----------------------------------------------------------------------------------------------------

def withdrawals_json(event: EventRow) -> list[dict[str, Any]]:
    return [{"player": out.player, "from_round": out.from_round, "substitute": out.substitute,
             "at": iso(out.created_at)} for out in event.withdrawals]


def corrections_json(event: EventRow) -> list[dict[str, Any]]:
    return [{"round": row.round, "table": row.table, "kind": row.kind, "deal": row.deal, "before": row.before,
             "after": row.after, "score": row.totals, "reason": row.reason, "at": iso(row.made_at)}
            for row in event.corrections]


def clocks_json(event: EventRow) -> list[dict[str, Any]]:
    return [{"round": played.number, "paused_at": iso(played.paused_at), "paused_seconds": played.paused_seconds or 0,
             "extra_minutes": played.extra_minutes or 0} for played in event.played_rounds]


# Reading ----------------------------------------------------------------------------------------------------

def read_withdrawals(value: object, facts: dict[str, Any]) -> None:
    """Each withdrawal of an entrant, from a round of the event; never seated again once withdrawn."""
    event, rounds = facts["event"], facts["rounds"]
    players = {name for entrant in event.entrants for name in entrant}
    found: list[WithdrawalFacts] = []
    for index, one in enumerate(a_list(value, "withdrawals")):
        path = f"withdrawals[{index}]"
        given = an_object(one, path, WITHDRAWAL_KEYS)
        if given["player"] not in players:
            raise refused(f"{path}.player", ProblemCode.PLAYER_UNKNOWN, f"{given['player']!r} is no entrant")
        from_round = whole(given["from_round"], f"{path}.from_round", 1, event.rounds)
        substitute = _substitute(given["substitute"], f"{path}.substitute")
        out = WithdrawalFacts(given["player"], from_round, substitute, required_moment(given["at"], f"{path}.at"))
        if substitute is None and any(played.seating.round >= from_round and out.player in played.seating.players
                                      for played in rounds):
            raise refused(f"{path}.from_round", SEATED_WHEN_WITHDRAWN,
                          f"{out.player} is seated in a round from {from_round} on")
        found.append(out)
    facts["withdrawals"] = tuple(found)


def _substitute(value: object, path: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise refused(path, ProblemCode.WRONG_TYPE, "a substitute's name is text, or null")
    try:
        name = clean_name(value, path, MAX_PLAYER_NAME, "a substitute's name")
    except RulesError as error:
        raise refused(path, error.code, error.problem.message) from None
    if not name:
        raise refused(path, ProblemCode.NAME_MISSING, "a substitute needs a name")
    return name


def read_corrections(value: object, facts: dict[str, Any]) -> None:
    """Each correction, of a table seated in a round of the file, with its reason."""
    tables = {(played.seating.round, table.number) for played in facts["rounds"] for table in played.tables}
    found: list[CorrectionFacts] = []
    for index, one in enumerate(a_list(value, "corrections")):
        path = f"corrections[{index}]"
        given = an_object(one, path, CORRECTION_KEYS)
        where = (whole(given["round"], f"{path}.round", 1, 100), whole(given["table"], f"{path}.table", 1, 1000))
        if where not in tables:
            raise refused(f"{path}.table", ProblemCode.OUT_OF_RANGE, f"round {where[0]} has no table {where[1]}")
        try:
            kind = Kind(given["kind"] if isinstance(given["kind"], str) else "")
        except ValueError:
            raise refused(f"{path}.kind", ProblemCode.WRONG_FORMAT,
                          f"the kind is one of {', '.join(Kind)}") from None
        deal = None if given["deal"] is None else whole(given["deal"], f"{path}.deal", 1, 10_000)
        try:
            reason = clean_reason(given["reason"])
            score = None if given["score"] is None else clean_totals(given["score"])
        except Invalid as problem:
            raise refused(f"{path}.{problem.field}", problem.code, problem.message) from None
        found.append(CorrectionFacts(where[0], where[1], kind, deal, _deal_or_none(given["before"], f"{path}.before"),
                                     _deal_or_none(given["after"], f"{path}.after"), score, reason,
                                     required_moment(given["at"], f"{path}.at")))
    facts["corrections"] = tuple(found)


def _deal_or_none(value: object, path: str) -> dict[str, Any] | None:
    if value is not None and not isinstance(value, dict):
        raise refused(path, ProblemCode.WRONG_TYPE, "a deal as the match file writes it, or null")
    return value


def read_clocks(value: object, facts: dict[str, Any]) -> None:
    """Each round's clock, one a round seated, in order from 1."""
    rounds = facts["rounds"]
    clocks = a_list(value, "clocks")
    if len(clocks) != len(rounds):
        raise refused("clocks", ProblemCode.OUT_OF_RANGE, f"one clock a round seated: {len(rounds)}")
    found: list[ClockFacts] = []
    for index, one in enumerate(clocks):
        path = f"clocks[{index}]"
        given = an_object(one, path, CLOCK_KEYS)
        whole(given["round"], f"{path}.round", index + 1, index + 1)
        found.append(ClockFacts(index + 1, a_moment(given["paused_at"], f"{path}.paused_at", optional=True),
                                whole(given["paused_seconds"], f"{path}.paused_seconds", 0, MAX_PAUSED_SECONDS),
                                whole(given["extra_minutes"], f"{path}.extra_minutes", 0, MAX_EXTRA_MINUTES)))
    facts["clocks"] = tuple(found)
