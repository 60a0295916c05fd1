"""Writing a match: every change is checked by the rules core and recorded in one transaction.

A write's first statement claims the match (``_claim``): it bumps the version where the version is still
the one read, which takes SQLite's write lock or PostgreSQL's lock on the match's row, so two writes to
a match follow one another whichever process or machine they run in; the checking and scoring are done
before it, outside the lock. A write that finds the version moved on since it read the match lost a
race: with a version from the client it is refused (``StaleEdit``, 409); without one it is redone on the
match read again under the lock (``write``). A keyed write (``write_keys``) is done once.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from ..db import get_session
from ..models import Base, DealChangeRow, DealRow, MatchRow, RuleChangeRow, SideRow, WriteKeyRow, utc_now
from ..rules.checks import check_new_deal
from ..rules.errors import RulesError
from ..rules.house_rules import RULE_SPECS_BY_KEY, HouseRules
from ..rules.limits import MAX_DEALS
from ..rules.match import Deal, Match, PricingBasis
from ..rules.matchfile import DEAL_TEXT_KEYS, basis_to_json, deal_from_json, deal_to_json
from ..rules.problems import Problem, ProblemCode
from ..rules.refusals import Conflict, Invalid
from ..rules.rescale import Factor, rescale
from ..rules.scoring import RulesPreview, Sheet, compare_sheets, preview_rules, score_match
from ..rules.undo import rules_before
from ..versions import check_not_ahead
from .describe import describe_deal
from .history import DIRECTOR_BY, LastChange, acting, last_change
from .locks import closed_table, refusal, unlocked
from .reading import (
    Loaded,
    core_deal_or_404,
    deal_json,
    deal_json_of_columns,
    get_deal_or_404,
    load_match,
    next_match_of,
    to_core,
)
from .write_keys import KeyReused, WriteKey, store_key, stored_write

RACE_ATTEMPTS = 3  # goes of an unversioned write (the second, under the lock, does not lose a race)
_PENDING_KEY = "scorekeeper.write_key"  # in the session's info: the key the write under way stores
_HELD = "scorekeeper.held_commit"  # in the session's info: writes are flushed, the caller commits them together

W = TypeVar("W")
STALE = "stale"  # a write based on a version the match has moved on from
NOTHING_TO_UNDO = "nothing_to_undo"  # an undo that would change nothing


class StaleEdit(Conflict):
    """An edit based on an older version of the match; the message says what changed since."""

    def __init__(self, message: str, current_version: int) -> None:
        super().__init__("version", STALE, message, current_version=current_version)
        self.current_version = current_version


class InvalidDeal(RulesError):
    """A deal the house rules do not allow; ``problems`` say what and where (paths within the deal)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(Problem(ProblemCode.CONTRADICTION, "", "; ".join(p.message for p in problems)))
        self.problems = problems


class NothingToUndo(Invalid):
    """The change asked to be undone is not in the match's history, or undoing it changes nothing."""

    def __init__(self, message: str) -> None:
        super().__init__(None, NOTHING_TO_UNDO, message)


@dataclasses.dataclass(frozen=True)
class Written:
    """What a write left: the row and the facts after it; their sheet is worked out once, when asked."""

    row: MatchRow
    match: Match
    number: int | None = None  # the deal added, changed or deleted
    changed_rules: tuple[str, ...] = ()
    changed_deals: tuple[int, ...] = ()
    known_sheet: Sheet | None = None  # already worked out (a rule change's preview)
    version: int | None = None  # the match's version right after the write
    replayed: bool = False  # a repeat of a keyed write: nothing was written, this is the first one's result

    @functools.cached_property
    def sheet(self) -> Sheet:
        return self.known_sheet or score_match(self.match)


# Starting matches -----------------------------------------------------------------------------------

def create_match(match: Match, public_id: str | None = None, table_id: int | None = None,
                 following: tuple[MatchRow, WriteKey] | None = None, commit: bool = True,
                 **columns: Any) -> MatchRow:
    """Store a new match (from the form, an import or the API) and return its row; ``public_id`` gives
    it a chosen link (a seeded sample's) rather than a random one; ``table_id`` the table it is played at;
    ``following`` the finished match and the rematch form's key that started it; ``columns`` the row's
    other columns (a next match's). ``commit=False`` leaves the match in the session's transaction, for a
    caller storing several things at once."""
    row = MatchRow(name=match.name, auction=match.auction, rules=match.rules.to_mapping(), table_id=table_id,
                   first_dealer=match.first_dealer, **columns)
    if public_id is not None:
        row.public_id = public_id
    row.sides = [
        SideRow(position=index, name=side.name, players=list(side.players))
        for index, side in enumerate(match.sides)
    ]
    now = utc_now()
    deals = [_deal_values(number, deal, match.rules) | {"created_at": now, "updated_at": now}
             for number, deal in enumerate(match.deals, start=1)]
    session = get_session()
    session.add(row)
    if deals or following:
        session.flush()
    if deals:  # one statement with many rows: a long import holds SQLite's write lock briefly
        made = session.execute(insert(_DEAL).returning(_DEAL.c.position, _DEAL.c.id),
                               [values | {"match_id": row.id} for values in deals])
        ids: dict[int, int] = {found.position: found.id for found in made}
        session.execute(insert(_DEAL_CHANGE), [
            _change(row, ids[values["position"]], values["position"], None, _facts(values), now=now)
            for values in deals])
    if following:
        finished, key = following
        session.add(WriteKeyRow(match_id=finished.id, key=key.value, fingerprint=key.fingerprint, number=None,
                                version=finished.version, started_match_id=row.id))
    if commit:
        session.commit()
    if deals:
        session.expire(row, ["deals"])  # read when asked for
    return row


@dataclasses.dataclass(frozen=True)
class NextMatch:
    """The next match of a decided one; ``made``: this call started it (False: another had already)."""

    row: MatchRow
    made: bool


def start_next_match(finished: MatchRow, match: Match, key: WriteKey | None,
                     started_by: str | None = None) -> NextMatch:
    """The one next match of ``finished``: stored from ``match`` (at the same table) by the first call,
    found by every later one, from whichever phone, process or machine, racing or not.

    The call that stores it first claims ``finished`` (its version goes up, so every phone showing it is
    offered the next match) and inserts the new match naming it (``follows_id``, unique) in that
    transaction; a call that lost the race finds the winner's under the claim's lock, or, at the latest,
    when the unique column refuses its insert. ``started_by``: the name of the phone starting it, if it
    has one. With a ``key`` (the rematch form's), the key is stored with ``finished`` in the same
    transaction, so the same form sent again answers the same match (``KeyReused`` for another write's key).
    """
    if key is not None:
        first = _started_before(finished, key)
        if first is not None:
            return NextMatch(first, made=False)
    found = next_match_of(finished)
    if found is not None:
        return NextMatch(found, made=False)
    session = get_session()
    try:
        _claim_for_next_match(finished)
        found = next_match_of(finished)  # read under the lock: a call that got in first
        if found is not None:
            session.rollback()
            return NextMatch(found, made=False)
        row = create_match(match, table_id=finished.table_id, following=None if key is None else (finished, key),
                           follows_id=finished.id, started_by=started_by)
    except IntegrityError:
        session.rollback()  # the next match stored by a call that committed after this one read
        found = next_match_of(finished)
        if found is None:
            raise
        return NextMatch(found, made=False)
    return NextMatch(row, made=True)


def _claim_for_next_match(finished: MatchRow) -> None:
    """Bump ``finished``'s version, whatever it is (a deal added after the end does not stop its next match):
    it takes the lock a write takes, and the phones showing ``finished`` see it changed."""
    session = get_session()
    values = {"version": _MATCH.c.version + 1, "updated_at": utc_now(), "last_change": "the next match was started"}
    session.connection().execute(update(_MATCH).where(_MATCH.c.id == finished.id).values(values))
    session.expire(finished, ["version", "updated_at", "last_change"])


def _started_before(finished: MatchRow, key: WriteKey) -> MatchRow | None:
    """The match a rematch keyed ``key`` already started (``KeyReused`` when the key named another write)."""
    session = get_session()
    found = session.scalars(select(WriteKeyRow).where(
        (WriteKeyRow.match_id == finished.id) & (WriteKeyRow.key == key.value))).first()
    if found is None:
        return None
    if found.fingerprint != key.fingerprint or found.started_match_id is None:
        raise KeyReused(key.value)
    started = session.get(MatchRow, found.started_match_id)
    if started is None:  # deleted since: the key names nothing any more
        raise KeyReused(key.value)
    return started


# Checking a deal ------------------------------------------------------------------------------------

def parse_deal(match: Match, data: Mapping[str, Any]) -> Deal:
    """Read one deal (match file format) and check it against ``match``; raises RulesError."""
    deal = deal_from_json(dict(data), len(match.sides), rules=match.rules).pinned(match.rules)
    problems = check_new_deal(match, deal)
    if problems:
        raise InvalidDeal(problems)
    return deal


def with_deal(loaded: Loaded, data: Mapping[str, Any], number: int | None) -> tuple[Match, int]:
    """The match as it would be with this deal added (``number`` None) or in place of deal ``number``,
    checked as a write checks it (raises RulesError), and the deal's number; nothing is written."""
    row, match = loaded
    if number is None:
        return match.with_deals((*match.deals, parse_deal(match, data))), len(match.deals) + 1
    data = _keeping_pricing(core_deal_or_404(match, number), data)
    deal = parse_deal(match.with_deals(match.deals[: number - 1] + match.deals[number:]), data)
    return match.with_deals((*match.deals[: number - 1], deal, *match.deals[number:])), number


def _keeping_pricing(old: Deal, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` for a deal in place of ``old``: its numbers keep the pricing ``old`` was entered under
    unless ``data`` says otherwise."""
    data = dict(data)
    basis = old.entered_under
    if not old.passed and not data.get("passed") and basis is not None:
        data.setdefault("entered_under", basis_to_json(basis))
    return data


# The one place a race is decided --------------------------------------------------------------------

def write(loaded: Loaded, expected_version: int | None, change: Callable[[Loaded], W],
          key: WriteKey | None = None) -> W | Written:
    """Run ``change`` on the match.

    With an ``expected_version`` (the client's), a race lost to another write is a ``StaleEdit``.
    Without one, the write applies all the same: it is redone on the match read again, this time
    under the match's lock (taken before reading, so no other write can get in between), and so
    succeeds on its second go; the loop is bounded all the same.

    With a ``key`` already stored, the write is not done: the first one's result is returned. A race
    lost to the write with the same key (two taps at once) ends the same way, once the winner is in.
    """
    session, public_id = get_session(), loaded.row.public_id
    for attempt in range(1, RACE_ATTEMPTS + 1):
        first = _written_before(loaded.row, key)
        if first is not None:
            return first
        session.info[_PENDING_KEY] = key
        try:
            return change(loaded)
        except StaleEdit:
            first = _written_before(loaded.row, key)  # the write that got in first may be this one
            if first is not None:
                return first
            if expected_version is not None or attempt == RACE_ATTEMPTS:
                raise
        except IntegrityError:
            session.rollback()  # a key stored by a write that committed after this one claimed the match
            first = _written_before(loaded.row, key)
            if first is None:
                raise
            return first
        finally:
            session.info.pop(_PENDING_KEY, None)
        session.rollback()  # the rows read are expired: read again under the lock
        _lock_match(public_id)
        loaded = load_match(public_id)
    raise AssertionError("unreachable")


def _written_before(row: MatchRow, key: WriteKey | None) -> Written | None:
    """The result of the write stored under ``key``, if there is one."""
    if key is None:
        return None
    found = stored_write(row, key)
    if found is None:
        return None
    get_session().expire(row)
    return Written(row, to_core(row), number=found.number, version=found.version, replayed=True)


def _lock_match(public_id: str) -> None:
    """Take the lock a write takes, before reading: SQLite's write lock, PostgreSQL's lock on the
    match's row (an update that changes nothing; it waits for a write under way to finish)."""
    get_session().execute(update(_MATCH).where(MatchRow.public_id == public_id)
                          .values(version=MatchRow.version))


# A write's statements on the deal table: the rows they change are not the ORM's to track.
_DEAL = Base.metadata.tables["deal"]
_MATCH = Base.metadata.tables["match"]
_THIS_MATCH = _DEAL.c.match_id == bindparam("match")
_THIS_DEAL = _THIS_MATCH & (_DEAL.c.position == bindparam("number"))
_UPDATE_DEAL = update(_DEAL).where(_THIS_DEAL)  # SET: the columns given
_DELETE_DEAL = delete(_DEAL).where(_THIS_DEAL)
_MOVE_LATER_DEALS = (update(_DEAL).where(_THIS_MATCH & (_DEAL.c.position > bindparam("number")))
                     .values(position=-(_DEAL.c.position - 1)))  # out of the way first: positions are unique
_PUT_BACK_DEALS = update(_DEAL).where(_THIS_MATCH & (_DEAL.c.position < 0)).values(position=-_DEAL.c.position)
_MAKE_ROOM = (update(_DEAL).where(_THIS_MATCH & (_DEAL.c.position >= bindparam("number")))
              .values(position=-(_DEAL.c.position + 1)))  # for a deal put back: later deals move down one
_DEAL_CHANGE = Base.metadata.tables["deal_change"]
DEAL_COLUMNS = ("passed", "bidder", "bid", "trump", "thrown_in", "out", "forced", *DEAL_TEXT_KEYS,
                "meld_table", "trick_scale", "last_trick", "meld_prices", "sides")


# Deals ----------------------------------------------------------------------------------------------

def add_deal(loaded: Loaded, data: Mapping[str, Any], expected_version: int | None,
             key: WriteKey | None = None) -> Written:
    """Record the next deal."""
    return write(loaded, expected_version, lambda current: _add_deal(current, data, expected_version), key)


def _add_deal(loaded: Loaded, data: Mapping[str, Any], expected_version: int | None) -> Written:
    row, match = loaded
    _check_version(row, expected_version)
    deal = parse_deal(match, data)
    number = len(match.deals) + 1
    values = _deal_values(number, deal, match.rules)
    now = _claim(row, f"deal {number} was added")
    session = get_session()
    deal_id = session.execute(insert(_DEAL).returning(_DEAL.c.id),
                              values | {"match_id": row.id, "created_at": now, "updated_at": now}).scalar_one()
    session.execute(insert(_DEAL_CHANGE), _change(row, deal_id, number, None, _facts(values), now=now))
    return _commit(row, match.with_deals((*match.deals, deal)), number=number)


def replace_deal(loaded: Loaded, number: int, data: Mapping[str, Any], expected_version: int | None,
                 key: WriteKey | None = None) -> Written:
    """Correct deal ``number``. Its numbers keep the pricing they were entered under unless ``data``
    says otherwise."""
    return write(loaded, expected_version,
                 lambda current: _replace_deal(current, number, data, expected_version), key)


def _replace_deal(loaded: Loaded, number: int, data: Mapping[str, Any], expected_version: int | None,
                  undo: bool = False) -> Written:
    row, match = loaded
    _check_version(row, expected_version, number)
    after, _ = with_deal(loaded, data, number)
    values = _deal_values(number, after.deals[number - 1], match.rules)
    stored = get_deal_or_404(row, number)
    deal_id, before = stored.id, deal_json(stored)
    now = _claim(row, f"deal {number} was changed", number)
    session = get_session()
    session.execute(_UPDATE_DEAL, _changed_deal(row, number, values) | {"updated_at": now})
    session.execute(insert(_DEAL_CHANGE), _change(row, deal_id, number, before, _facts(values), now=now, undo=undo))
    return _commit(row, after, number=number)


def _changed_deal(row: MatchRow, number: int, values: dict[str, Any]) -> dict[str, Any]:
    """The parameters of ``_UPDATE_DEAL`` that set deal ``number``'s columns to ``values``."""
    return {column: values[column] for column in DEAL_COLUMNS} | {"match": row.id, "number": number}


def delete_deal(loaded: Loaded, number: int, expected_version: int | None, key: WriteKey | None = None) -> Written:
    """Remove deal ``number``; later deals move up one, all in two statements whatever their count."""
    return write(loaded, expected_version, lambda current: _delete_deal(current, number, expected_version), key)


def _delete_deal(loaded: Loaded, number: int, expected_version: int | None, undo: bool = False) -> Written:
    row, match = loaded
    _check_version(row, expected_version, number)
    core_deal_or_404(match, number)
    stored = get_deal_or_404(row, number)
    deal_id, before = stored.id, deal_json(stored)
    now = _claim(row, f"deal {number} was deleted", number)
    session = get_session()
    where = {"match": row.id, "number": number}
    try:
        if session.connection().execute(_DELETE_DEAL, where).rowcount != 1:
            raise StaleDataError(f"deal {number} of match {row.public_id} was not there to delete")
        session.execute(_MOVE_LATER_DEALS, where)
        session.execute(_PUT_BACK_DEALS, {"match": row.id})
    except (StaleDataError, IntegrityError):
        _raced(row, row.version - 1, number)
        raise
    session.execute(insert(_DEAL_CHANGE), _change(row, deal_id, number, before, None, now=now, undo=undo))
    return _commit(row, match.with_deals(match.deals[: number - 1] + match.deals[number:]), number=number)


def throw_in(loaded: Loaded, number: int, expected_version: int | None, key: WriteKey | None = None) -> Written:
    """Record deal ``number`` as thrown in: the bidders concede after meld; no tricks are played."""
    def change(current: Loaded) -> Written:
        _check_version(current.row, expected_version, number)
        return _replace_deal(current, number, _thrown_in(current.row, number), expected_version)

    return write(loaded, expected_version, change, key)


def _thrown_in(row: MatchRow, number: int) -> dict[str, Any]:
    data = deal_json(get_deal_or_404(row, number))
    if data.get("passed") or data.get("bidder") is None:
        raise InvalidDeal([Problem(ProblemCode.THROWN_IN_WITHOUT_BIDDER, "bidder",
                                   f"deal {number} has no bidder, so it cannot be thrown in")])
    data["thrown_in"] = True
    data["sides"] = [
        {"meld": side["meld"]} if "meld" in side else ({"meld": 0} if "total" not in side else side)
        for side in data["sides"]
    ]
    return data


# House rules ----------------------------------------------------------------------------------------

def change_rules(loaded: Loaded, new_rules: HouseRules, expected_version: int | None,
                 preview: RulesPreview | None = None, key: WriteKey | None = None,
                 action: str | None = None) -> Written | None:
    """Put new house rules in force from the first deal on (None when nothing changes).

    ``preview`` is the one the player saw, when the caller has it; it is worked out here otherwise.
    Raises ``ContradictionError`` (naming the deals) when recorded facts contradict the new rules.
    """
    seen = loaded.row.version

    def change(current: Loaded) -> Written | None:
        shown = preview if current.row.version == seen else None  # a redone write previews afresh
        return _change_rules(current, new_rules, expected_version, shown, action)

    return write(loaded, expected_version, change, key)


def _change_rules(loaded: Loaded, new_rules: HouseRules, expected_version: int | None,
                  preview: RulesPreview | None, action: str | None = None) -> Written | None:
    row, match = loaded
    _check_version(row, expected_version)
    changed = match.rules.differences(new_rules)
    if not changed:
        return None
    preview = preview or preview_rules(match, new_rules)
    labels = ", ".join(RULE_SPECS_BY_KEY[key].label.lower() for key in changed)
    _claim(row, f"the house rules were changed ({labels})", rules=new_rules.to_mapping(complete=True))
    _record_rules(row, match.rules, new_rules, action)
    return _commit(row, match.with_rules(new_rules), known_sheet=preview.after, changed_rules=tuple(changed),
                   changed_deals=preview.changed)


def _record_rules(row: MatchRow, old: HouseRules, new: HouseRules, action: str | None) -> None:
    """One change in the history: a row per rule, sharing the match's new version as their batch."""
    old_values, new_values = old.to_mapping(complete=True), new.to_mapping(complete=True)
    author = acting()
    for key in old.differences(new):
        row.rule_changes.append(RuleChangeRow(
            rule=key, old_value=old_values[key], new_value=new_values[key], after_deal=len(row.deals),
            batch=row.version, action=action, by=author.by, by_name=author.name,
        ))


def rescale_match(loaded: Loaded, factor: Factor, expected_version: int | None, key: WriteKey | None = None,
                  action: str | None = None) -> Written:
    """Move the match to the ×10 numbers or back: its rules and every recorded number, in one transaction
    and one change of the history. Raises ``HouseRuleError`` or ``ContradictionError`` (naming the deals)."""
    return write(loaded, expected_version,
                 lambda current: _rescale(current, factor, expected_version, action or f"rescale {factor.label}"), key)


def rescaling(loaded: Loaded, factor: Factor, expected_version: int | None) -> tuple[Match, RulesPreview]:
    """What rescaling would leave and the sheet before and after, worked out and checked, nothing written.
    Raises ``StaleEdit``, ``HouseRuleError`` or ``ContradictionError`` as ``rescale_match`` does."""
    _check_version(loaded.row, expected_version)
    after = rescale(loaded.match, factor)
    return after, compare_sheets(score_match(loaded.match), score_match(after))


def _rescale(loaded: Loaded, factor: Factor, expected_version: int | None, action: str) -> Written:
    row, match = loaded
    _check_version(row, expected_version)
    after = rescale(match, factor)
    before_sheet, sheet = score_match(match), score_match(after)
    _claim(row, f"the match was rescaled {factor.label}", rules=after.rules.to_mapping(complete=True))
    changes = [_changed_deal(row, number, _deal_values(number, deal, after.rules))
               for number, deal in enumerate(after.deals, start=1)]
    if changes:
        get_session().execute(_UPDATE_DEAL, changes)
    _record_rules(row, match.rules, after.rules, action)
    return _commit(row, after, known_sheet=sheet, changed_rules=tuple(match.rules.differences(after.rules)),
                   changed_deals=compare_sheets(before_sheet, sheet).changed)


def change_group(row: MatchRow, change_id: int) -> list[RuleChangeRow]:
    """The rows of the history's change that holds row ``change_id`` (empty when there is none)."""
    found = next((change for change in row.rule_changes if change.id == change_id), None)
    if found is None:
        return []
    if found.batch is None:
        return [found]
    return [change for change in row.rule_changes if change.batch == found.batch]


def undo_rules(loaded: Loaded, change_id: int, expected_version: int | None,
               key: WriteKey | None = None) -> Written:
    """Undo one change of the history, itself recorded as a change: a rescale is rescaled back, any other
    change puts back the values its rules had before it. Raises ``NothingToUndo``, ``ContradictionError``."""
    group = change_group(loaded.row, change_id)
    if not group:
        raise NothingToUndo("That change is not in this match's history.")
    scaled = _rescaled_by(group)
    if scaled is not None:
        inverse = scaled.inverse
        return rescale_match(loaded, inverse, expected_version, key, action=f"undo rescale {inverse.label}")
    old = rules_before(loaded.match.rules, {change.rule: change.old_value for change in group})
    written = change_rules(loaded, old, expected_version, key=key, action="undo")
    if written is None:
        raise NothingToUndo("Those rules already have the values they had before that change.")
    return written


# Undoing the last change ----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Undoing:
    """What undoing the match's last change would do: the change, the facts after it and their preview."""

    change: LastChange
    after: Match
    preview: RulesPreview
    old_rules: HouseRules | None = None  # the rules it puts back (a change of rules, not a rescale)


def undoing(loaded: Loaded, expected_version: int | None = None) -> Undoing:
    """The match's last change and what undoing it would leave, worked out and checked, nothing written.
    Raises ``StaleEdit`` when the match is no longer at ``expected_version``, ``NothingToUndo``, and
    ``RulesError`` for an undo the rules refuse (``ContradictionError``…)."""
    row = loaded.row
    _refuse_if_closed(row)
    _check_version(row, expected_version)
    change = last_change(row)
    if change is None:
        raise NothingToUndo(f"The last change ({row.last_change}) cannot be undone here." if row.version > 1
                            else "Nothing has changed in this match yet.")
    if change.deal is not None:
        return _previewed(loaded, change, _undone_deals(loaded, change.deal))
    assert change.rules is not None
    return undoing_rules(loaded, change.rules.id)


def undoing_rules(loaded: Loaded, change_id: int, expected_version: int | None = None) -> Undoing:
    """What undoing change ``change_id`` of the rules' history would leave (``undoing``'s preview of it)."""
    row, match = loaded
    _check_version(row, expected_version)
    group = change_group(row, change_id)
    if not group:
        raise NothingToUndo("That change is not in this match's history.")
    factor = _rescaled_by(group)
    if factor is not None:
        return _previewed(loaded, LastChange(None, group[0]), rescale(match, factor.inverse))
    old_rules = rules_before(match.rules, {rule.rule: rule.old_value for rule in group})
    if not match.rules.differences(old_rules):
        raise NothingToUndo("Those rules already have the values they had before that change.")
    return _previewed(loaded, LastChange(None, group[0]), match.with_rules(old_rules), old_rules)


def _previewed(loaded: Loaded, change: LastChange, after: Match, old_rules: HouseRules | None = None) -> Undoing:
    before_sheet, after_sheet = score_match(loaded.match), score_match(after)
    if len(after.deals) != len(loaded.match.deals):  # the deals after it move: only the totals are compared
        return Undoing(change, after, RulesPreview(before_sheet, after_sheet, ()), old_rules)
    return Undoing(change, after, compare_sheets(before_sheet, after_sheet), old_rules)


def _undone_deals(loaded: Loaded, change: DealChangeRow) -> Match:
    """The facts with a deal's last change taken back: an entered deal gone, a deleted one back in its
    place, a corrected one as it was."""
    match, number = loaded.match, change.number
    if change.before is None:
        return match.with_deals(match.deals[: number - 1] + match.deals[number:])
    if change.after is None:
        deal = parse_deal(match, change.before)
        return match.with_deals((*match.deals[: number - 1], deal, *match.deals[number - 1:]))
    return with_deal(loaded, change.before, number)[0]


def _rescaled_by(group: list[RuleChangeRow]) -> Factor | None:
    action = group[0].action or ""
    return next((factor for factor in Factor if action.endswith(f"rescale {factor.label}")), None)


def undo_last(loaded: Loaded, expected_version: int, key: WriteKey | None = None) -> Written:
    """Undo the match's last change, whatever its kind, itself recorded as a change; only while the match
    is at ``expected_version`` (the version the player saw it at): a stale undo is a ``StaleEdit`` and
    nothing is written. Raises ``NothingToUndo`` and what the rules refuse."""
    first = _written_before(loaded.row, key)
    if first is not None:
        return first
    _check_version(loaded.row, expected_version)
    change = undoing(loaded).change
    if change.rules is not None:
        return undo_rules(loaded, change.rules.id, expected_version, key)
    deal = change.deal
    assert deal is not None
    return write(loaded, expected_version, lambda current: _undo_deal(current, deal, expected_version), key)


def _undo_deal(loaded: Loaded, change: DealChangeRow, expected_version: int) -> Written:
    if change.before is None:
        return _delete_deal(loaded, change.number, expected_version, undo=True)
    if change.after is None:
        return _restore_deal(loaded, change, expected_version)
    return _replace_deal(loaded, change.number, change.before, expected_version, undo=True)


def _restore_deal(loaded: Loaded, change: DealChangeRow, expected_version: int) -> Written:
    """Put a deleted deal back in its place, under its row id (its history goes on), later deals down one."""
    row, match = loaded
    _check_version(row, expected_version)
    assert change.before is not None
    deal = parse_deal(match, change.before)
    number = min(change.number, len(match.deals) + 1)
    values = _deal_values(number, deal, match.rules)
    now = _claim(row, f"deal {number} was put back", number)
    session = get_session()
    session.execute(_MAKE_ROOM, {"match": row.id, "number": number})
    session.execute(_PUT_BACK_DEALS, {"match": row.id})
    session.execute(insert(_DEAL), values | {"id": change.deal_id, "match_id": row.id, "created_at": now,
                                             "updated_at": now})
    session.execute(insert(_DEAL_CHANGE), _change(row, change.deal_id, number, None, _facts(values), now=now,
                                                  undo=True))
    deals = match.deals
    return _commit(row, match.with_deals((*deals[: number - 1], deal, *deals[number - 1:])), number=number)


# Parts of every write -------------------------------------------------------------------------------

def _deal_values(number: int, deal: Deal, rules: HouseRules) -> dict[str, Any]:
    """The columns of a deal's row: the match file's deal and the pricing it was entered under."""
    data = deal_to_json(deal, rules)
    basis = deal.entered_under or PricingBasis.of(rules)
    return {
        "position": number,
        "passed": bool(data.get("passed", False)),
        "bidder": data.get("bidder"),
        "bid": data.get("bid"),
        "trump": data.get("trump"),
        "thrown_in": bool(data.get("thrown_in", False)),
        "out": bool(data.get("out", False)),
        "forced": bool(data.get("forced", False)),
        **{key: data.get(key) for key in DEAL_TEXT_KEYS},
        "meld_table": basis.meld_table.value,
        "trick_scale": basis.trick_scale.value,
        "last_trick": basis.last_trick,
        "meld_prices": basis.meld_prices.to_json() or None,
        "sides": list(data.get("sides", [])),
    }


def _facts(values: Mapping[str, Any]) -> dict[str, Any]:
    """A deal's columns (``_deal_values``) as the history keeps it: the match file's deal, as read back."""
    return deal_json_of_columns(values)


def _change(row: MatchRow, deal_id: int, number: int, before: dict[str, Any] | None, after: dict[str, Any] | None,
            now: datetime, undo: bool = False) -> dict[str, Any]:
    """A row of the change log for a write that made the match's current version."""
    author = acting()
    return {"match_id": row.id, "deal_id": deal_id, "number": number, "version": row.version, "changed_at": now,
            "by": author.by, "by_name": author.name, "before": before, "after": after, "undo": undo}


def _check_version(row: MatchRow, expected_version: int | None, deal_number: int | None = None) -> None:
    check_not_ahead(expected_version, row.version)
    if expected_version is not None and expected_version != row.version:
        _refuse_if_closed(row)  # closed since the player's page was drawn: the lock, not a race, is the news
        raise StaleEdit(_stale_message(row, expected_version, deal_number), row.version)


def _refuse_if_closed(row: MatchRow) -> None:
    """A player's write (or undo) at a closed table of an event is refused before anything else is said."""
    closed = closed_table(row.id) if acting().by != DIRECTOR_BY else None
    if closed is not None:
        raise closed


def _stale_message(row: MatchRow, expected_version: int, deal_number: int | None) -> str:
    missed = row.version - expected_version
    if missed == 1:
        text = f"While you were typing, {row.last_change} on another phone."
    else:
        text = (f"While you were typing, {missed} changes were saved on another phone; "
                f"the latest: {row.last_change}.")
    if deal_number is not None:
        deal = None
        if 1 <= deal_number <= MAX_DEALS:  # a number no match reaches is not asked of the database
            deal = get_session().scalars(select(DealRow).where(
                (DealRow.match_id == row.id) & (DealRow.position == deal_number))).first()
        text += (f" Deal {deal_number} now reads: {describe_deal(row, deal)}." if deal is not None
                 else f" There is no deal {deal_number} any more.")
    return text


def _claim(row: MatchRow, what: str, deal_number: int | None = None, **columns: Any) -> datetime:
    """A write's first statement: bump the version where it is still the one read (and set the match's
    other ``columns``, its rules for a rule change); returns the time it gives the write.

    A player's write to a closed table of an event, or to an event table's rules, changes nothing and is
    refused (``locks.MatchLocked``), whatever path it came by; the director's corrections pass.

    It takes SQLite's write lock (or PostgreSQL's lock on the match's row) for the rest of the write,
    so everything that may take long is done before it. Should another write have landed since the
    match was read, nothing was changed and the race turns into ``StaleEdit``. The row is then told its
    new values as if it had read them, so the session has nothing of its own left to write.
    """
    seen, now = row.version, utc_now()
    values = {"version": seen + 1, "updated_at": now, "last_change": what, **columns}
    guarded, rules = acting().by != DIRECTOR_BY, "rules" in columns
    where = (_MATCH.c.id == row.id) & (_MATCH.c.version == seen)
    if guarded:  # a closed table of an event, or its house rules, are the director's alone (``locks``)
        where = where & unlocked(_MATCH.c.id, rules)
    claimed = get_session().connection().execute(update(_MATCH).where(where).values(values))
    if claimed.rowcount != 1:
        refused = refusal(row.id, rules) if guarded else None
        if refused is not None:
            get_session().rollback()
            raise refused
        _raced(row, seen, deal_number)
        raise StaleDataError(f"match {row.public_id} was not at version {seen} any more")
    for column, value in values.items():
        set_committed_value(row, column, value)
    return now


def _raced(row: MatchRow, seen: int, deal_number: int | None) -> None:
    """After a statement failed: undo the write and, when another write changed the match since it
    was read at version ``seen``, raise ``StaleEdit`` saying what changed (a failure with the match
    unchanged is no race: the caller lets it propagate)."""
    session = get_session()
    session.rollback()
    session.refresh(row)
    if row.version != seen:
        raise StaleEdit(_stale_message(row, seen, deal_number), row.version) from None


def _commit(row: MatchRow, after: Match, **written: Any) -> Written:
    """Commit a claimed write, with its key if it has one (a failure that a race explains turns into
    ``StaleEdit``). The match's deal rows are read afresh when next asked for."""
    session = get_session()
    key: WriteKey | None = session.info.get(_PENDING_KEY)
    if key is not None:
        store_key(row, key, written.get("number"))
    try:
        if session.info.get(_HELD):
            session.flush()
        else:
            session.commit()
    except (StaleDataError, IntegrityError):
        _raced(row, row.version - 1, written.get("number"))
        raise
    session.expire(row, ["deals"])
    return Written(row, after, version=row.version, **written)


@contextmanager
def one_transaction() -> Iterator[None]:
    """The writes inside are flushed, not committed: the caller commits them all at once, or none (a write
    refused inside rolls back every one before it). Each must name the version it read, so that a lost race
    is refused rather than redone."""
    session = get_session()
    session.info[_HELD] = True
    try:
        yield
    finally:
        session.info.pop(_HELD, None)
