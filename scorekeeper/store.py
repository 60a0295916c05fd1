"""The one place that turns rows into the rules core's facts and records new facts.

A request reads its match once (``load_match``: the row, its sides and deals, and the rules core's
``Match``). Every write checks the facts with the rules core, runs in one transaction, bumps the
match's ``version`` and refuses an edit made on an older version (``StaleEdit``), so two phones at
the same table cannot overwrite each other without noticing. A write returns what it worked out
(``Written``: the facts after it and their sheet) so that the answer need not work it out again.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from flask import abort
from sqlalchemy import Dialect, bindparam, select, update
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError

from .db import get_engine, get_session
from .models import DealRow, MatchRow, RuleChangeRow, SideRow, utc_now
from .rules.checks import check_new_deal
from .rules.errors import RulesError
from .rules.house_rules import RULE_SPECS_BY_KEY, HouseRules
from .rules.match import Deal, Match, PricingBasis
from .rules.matchfile import FORMAT, deal_from_json, deal_to_json, match_from_json
from .rules.problems import Problem, ProblemCode
from .rules.scoring import RulesPreview, Sheet, preview_rules, score_match

DEAL_KEYS = ("passed", "bidder", "bid", "trump", "thrown_in")


class StaleEdit(Exception):
    """An edit based on an older version of the match; the message says what changed since."""

    def __init__(self, message: str, current_version: int) -> None:
        super().__init__(message)
        self.message = message
        self.current_version = current_version


class InvalidDeal(RulesError):
    """A deal the house rules do not allow; ``problems`` say what and where (paths within the deal)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(Problem(ProblemCode.CONTRADICTION, "", "; ".join(p.message for p in problems)))
        self.problems = problems


class Loaded(NamedTuple):
    """A match as this request read it: its row and the rules core's facts."""

    row: MatchRow
    match: Match


@dataclass(frozen=True)
class Written:
    """What a write left: the row and the facts after it; their sheet is worked out once, when asked."""

    row: MatchRow
    match: Match
    number: int | None = None  # the deal added, changed or deleted
    changed_rules: tuple[str, ...] = ()
    changed_deals: tuple[int, ...] = ()
    known_sheet: Sheet | None = None  # already worked out (a rule change's preview)

    @functools.cached_property
    def sheet(self) -> Sheet:
        return self.known_sheet or score_match(self.match)


# Reading -------------------------------------------------------------------------------------------

_PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_public_id(public_id: str) -> bool:
    """Whether ``public_id`` could be a match's link: anything else (a NUL, which PostgreSQL cannot
    take, very long or non-ASCII text) is no match, and the database is not asked."""
    return _PUBLIC_ID.fullmatch(public_id) is not None


def find_match(public_id: str) -> MatchRow | None:
    """The match with this link, its sides and deals read in the same go."""
    if not is_public_id(public_id):
        return None
    query = (select(MatchRow).where(MatchRow.public_id == public_id)
             .options(selectinload(MatchRow.sides), selectinload(MatchRow.deals)))
    return get_session().scalars(query).first()


_VERSION_QUERY = select(MatchRow.__table__.c.version).where(MatchRow.__table__.c.public_id == bindparam("public_id"))


def match_version(public_id: str) -> int | None:
    """The current version of a match (None for an unknown link), read without loading the match.

    Asked on every view of the score sheet, so it skips the ORM and SQLAlchemy's result objects:
    the Core query, compiled once for the engine's dialect, runs on a pooled DBAPI connection.
    """
    if not is_public_id(public_id):
        return None
    engine = get_engine()
    sql, positional = _compiled_version_query(engine.dialect)
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute(sql, (public_id,) if positional else {"public_id": public_id})
        row = cursor.fetchone()
        cursor.close()
    finally:
        connection.close()  # back to the pool, which ends the read transaction
    return None if row is None else int(row[0])


@functools.cache
def _compiled_version_query(dialect: Dialect) -> tuple[str, bool]:
    compiled = _VERSION_QUERY.compile(dialect=dialect)
    return str(compiled), compiled.positional


def get_match_or_404(public_id: str) -> MatchRow:
    row = find_match(public_id)
    if row is None:
        abort(404, "There is no match at this link.")
    return row


def load_match(public_id: str) -> Loaded:
    """The match row and its facts for the rules core (404 when the link is unknown)."""
    row = get_match_or_404(public_id)
    return Loaded(row, to_core(row))


def matches_by_public_id(public_ids: Iterable[str]) -> list[MatchRow]:
    """The matches with these links, in the order given; unknown links are skipped."""
    wanted = [public_id for public_id in public_ids if is_public_id(public_id)]
    if not wanted:
        return []
    rows = get_session().scalars(select(MatchRow).where(MatchRow.public_id.in_(wanted))).all()
    by_id = {row.public_id: row for row in rows}
    return [by_id[public_id] for public_id in wanted if public_id in by_id]


def get_deal_or_404(row: MatchRow, number: int) -> DealRow:
    if not 1 <= number <= len(row.deals):
        abort(404, f"This match has no deal {number}.")
    return row.deals[number - 1]


def deal_json(deal: DealRow) -> dict[str, Any]:
    """One stored deal in the match file format, with the pricing it was entered under."""
    if deal.passed:
        return {"passed": True}
    data: dict[str, Any] = {"bidder": deal.bidder}
    if deal.bid is not None:
        data["bid"] = deal.bid
    if deal.trump:
        data["trump"] = deal.trump
    if deal.thrown_in:
        data["thrown_in"] = True
    data["sides"] = deal.sides
    data["entered_under"] = {
        "meld_table": deal.meld_table, "trick_scale": deal.trick_scale, "last_trick": deal.last_trick,
    }
    return data


def match_json(row: MatchRow) -> dict[str, Any]:
    """The whole match in the match file format, built from the rows."""
    return {
        "format": FORMAT,
        "name": row.name,
        "auction": row.auction,
        "sides": [{"name": side.name, "players": list(side.players)} for side in row.sides],
        "rules": dict(row.rules),
        "deals": [deal_json(deal) for deal in row.deals],
    }


def to_core(row: MatchRow) -> Match:
    """The rules core's ``Match`` for a row; parsing lives in the match file reader only. Rows were
    checked when written, so a match stored before a limit was lowered still reads (``stored``)."""
    return match_from_json(match_json(row), stored=True)


def rules_of(row: MatchRow) -> HouseRules:
    return HouseRules.from_mapping(row.rules)


# Writing -------------------------------------------------------------------------------------------

def create_match(match: Match) -> MatchRow:
    """Store a new match (from the form, an import or the API) and return its row."""
    row = MatchRow(name=match.name, auction=match.auction, rules=match.rules.to_mapping())
    row.sides = [
        SideRow(position=index, name=side.name, players=list(side.players))
        for index, side in enumerate(match.sides)
    ]
    for number, deal in enumerate(match.deals, start=1):
        row.deals.append(_deal_row(number, deal, match.rules))
    session = get_session()
    session.add(row)
    session.commit()
    return row


def parse_deal(match: Match, data: Mapping[str, Any]) -> Deal:
    """Read one deal (match file format) and check it against ``match``; raises RulesError."""
    deal = deal_from_json(dict(data), len(match.sides), rules=match.rules).pinned(match.rules)
    problems = check_new_deal(match, deal)
    if problems:
        raise InvalidDeal(problems)
    return deal


def add_deal(loaded: Loaded, data: Mapping[str, Any], expected_version: int | None) -> Written:
    """Record the next deal."""
    row, match = loaded
    _check_version(row, expected_version)
    deal = parse_deal(match, data)
    number = len(row.deals) + 1
    row.deals.append(_deal_row(number, deal, match.rules))
    return _commit(row, match.with_deals((*match.deals, deal)), f"deal {number} was added", number=number)


def replace_deal(loaded: Loaded, number: int, data: Mapping[str, Any], expected_version: int | None) -> Written:
    """Correct deal ``number``. Its numbers keep the pricing they were entered under unless ``data``
    says otherwise."""
    row, match = loaded
    _check_version(row, expected_version, number)
    old = get_deal_or_404(row, number)
    data = dict(data)
    if not old.passed and not data.get("passed"):
        data.setdefault("entered_under", deal_json(old)["entered_under"])
    others = match.deals[: number - 1] + match.deals[number:]
    deal = parse_deal(match.with_deals(others), data)
    new = _deal_row(number, deal, match.rules)
    for column in (*DEAL_KEYS, "meld_table", "trick_scale", "last_trick", "sides"):
        setattr(old, column, getattr(new, column))
    old.updated_at = utc_now()
    after = match.with_deals((*match.deals[: number - 1], deal, *match.deals[number:]))
    return _commit(row, after, f"deal {number} was changed", number=number)


def delete_deal(loaded: Loaded, number: int, expected_version: int | None) -> Written:
    """Remove deal ``number``; later deals move up one, all in two statements whatever their count."""
    row, match = loaded
    _check_version(row, expected_version, number)
    session = get_session()
    session.delete(get_deal_or_404(row, number))
    session.flush()
    later = (DealRow.match_id == row.id) & (DealRow.position > number)
    # Positions are unique within a match: move the later deals out of the way, then into place.
    session.execute(update(DealRow).where(later).values(position=-(DealRow.position - 1)),
                    execution_options={"synchronize_session": False})
    session.execute(update(DealRow).where((DealRow.match_id == row.id) & (DealRow.position < 0))
                    .values(position=-DealRow.position), execution_options={"synchronize_session": False})
    session.expire(row, ["deals"])
    after = match.with_deals(match.deals[: number - 1] + match.deals[number:])
    return _commit(row, after, f"deal {number} was deleted", number=number)


def throw_in(loaded: Loaded, number: int, expected_version: int | None) -> Written:
    """Record deal ``number`` as thrown in: the bidders concede after meld; no tricks are played."""
    data = deal_json(get_deal_or_404(loaded.row, number))
    if data.get("passed") or data.get("bidder") is None:
        raise InvalidDeal([Problem(ProblemCode.THROWN_IN_WITHOUT_BIDDER, "bidder",
                                   f"deal {number} has no bidder, so it cannot be thrown in")])
    data["thrown_in"] = True
    data["sides"] = [
        {"meld": side["meld"]} if "meld" in side else ({"meld": 0} if "total" not in side else side)
        for side in data["sides"]
    ]
    return replace_deal(loaded, number, data, expected_version)


def change_rules(loaded: Loaded, new_rules: HouseRules, expected_version: int | None,
                 preview: RulesPreview | None = None) -> Written | None:
    """Put new house rules in force from the first deal on (None when nothing changes).

    ``preview`` is the one the player saw, when the caller has it; it is worked out here otherwise.
    Raises ``ContradictionError`` (naming the deals) when recorded facts contradict the new rules.
    """
    row, match = loaded
    _check_version(row, expected_version)
    changed = match.rules.differences(new_rules)
    if not changed:
        return None
    preview = preview or preview_rules(match, new_rules)
    old_values, new_values = match.rules.to_mapping(), new_rules.to_mapping()
    for key in changed:
        row.rule_changes.append(RuleChangeRow(
            rule=key, old_value=old_values[key], new_value=new_values[key], after_deal=len(row.deals),
        ))
    row.rules = new_values
    labels = ", ".join(RULE_SPECS_BY_KEY[key].label.lower() for key in changed)
    return _commit(row, match.with_rules(new_rules), f"the house rules were changed ({labels})",
                   known_sheet=preview.after, changed_rules=tuple(changed), changed_deals=preview.changed)


def _deal_row(number: int, deal: Deal, rules: HouseRules) -> DealRow:
    data = deal_to_json(deal, rules)
    basis = deal.entered_under or PricingBasis.of(rules)
    return DealRow(
        position=number,
        passed=bool(data.get("passed", False)),
        bidder=data.get("bidder"),
        bid=data.get("bid"),
        trump=data.get("trump"),
        thrown_in=bool(data.get("thrown_in", False)),
        meld_table=basis.meld_table.value,
        trick_scale=basis.trick_scale.value,
        last_trick=basis.last_trick,
        sides=list(data.get("sides", [])),
    )


def _check_version(row: MatchRow, expected_version: int | None, deal_number: int | None = None) -> None:
    if expected_version is not None and expected_version != row.version:
        raise StaleEdit(_stale_message(row, expected_version, deal_number), row.version)


def _stale_message(row: MatchRow, expected_version: int, deal_number: int | None) -> str:
    missed = row.version - expected_version
    if missed == 1:
        text = f"While you were typing, {row.last_change} on another phone."
    else:
        text = (f"While you were typing, {missed} changes were saved on another phone; "
                f"the latest: {row.last_change}.")
    if deal_number is not None and deal_number <= len(row.deals):
        text += f" Deal {deal_number} now reads: {describe_deal(row, row.deals[deal_number - 1])}."
    elif deal_number is not None:
        text += f" There is no deal {deal_number} any more."
    return text


def describe_deal(row: MatchRow, deal: DealRow) -> str:
    """A deal's facts in a few words: 'We bid 60; We 67, They 20'."""
    if deal.passed:
        return "all passed"
    names = [side.name for side in row.sides]
    parts = []
    if deal.bidder is not None:
        parts.append(f"{names[deal.bidder]} bid {deal.bid}" + (", thrown in" if deal.thrown_in else ""))
    entries = []
    for name, entry in zip(names, deal.sides, strict=False):
        if "total" in entry:
            entries.append(f"{name} {entry['total']}")
        else:
            meld, tricks = describe_fact(entry.get("meld")), describe_fact(entry.get("tricks"))
            entries.append(f"{name} meld {meld}, tricks {tricks}")
    parts.append(", ".join(entries))
    return "; ".join(parts)


def describe_fact(value: object) -> str:
    """A meld or trick fact of the match file in a few words."""
    if value is None:
        return "none"
    if isinstance(value, list):
        return " + ".join(describe_fact(item) for item in value)
    if isinstance(value, dict):
        cards = value.get("cards")
        if isinstance(cards, list):
            return "cards " + " ".join(str(card) for card in cards)
        if isinstance(cards, dict):
            return "cards taken " + ", ".join(f"{count} × {rank}" for rank, count in cards.items())
        if "counters" in value:
            return f"{value['counters']} counters"
        return ", ".join(f"{count} {str(key).replace('_', ' ')}" for key, count in value.items())
    return str(value)


def _commit(row: MatchRow, after: Match, what: str, **written: Any) -> Written:
    """Bump the version and commit; a concurrent write that got in first turns into ``StaleEdit``."""
    session = get_session()
    expected = row.version
    row.updated_at = utc_now()
    row.last_change = what
    try:
        session.commit()
    except StaleDataError:
        session.rollback()
        session.refresh(row)
        raise StaleEdit(_stale_message(row, expected, None), row.version) from None
    return Written(row, after, **written)
