"""The one place that turns rows into the rules core's facts and records new facts.

A request reads its match once (``load_match``: the row, its sides and deals, and the rules core's
``Match``). Every write checks the facts with the rules core, runs in one transaction, bumps the
match's ``version`` and refuses an edit made on an older version (``StaleEdit``), so two phones at
the same table cannot overwrite each other without noticing. A write returns what it worked out
(``Written``: the facts after it and their sheet) so that the answer need not work it out again.

Writes go through ``write``, the one place that decides what a race means. A write's first statement
claims the match (``_claim``: it bumps the version where the version is still the one read), which
takes SQLite's write lock or PostgreSQL's lock on the match's row, so two writes to a match follow one
another; the checking and scoring are done before it, outside the lock. A write that finds the
version moved on since it read the match lost a race: with a version from the client it is refused
(``StaleEdit``, 409); without one it applies all the same, redone on the match as it now is.
Within one process, writes to a match take turns, and one that finds the match written by this
process while it waited reads it again before it starts, so the threads of a busy process do not race.

A write may carry a key (``WriteKey``: a form's hidden key or the API's ``Idempotency-Key``). The key
is stored with the write, in its transaction, under a unique (match, key) constraint; a write whose
key is found already is not done again but answers what the first one did (``Written.replayed``), so
a double tap or a retry is counted once whichever worker it reaches, and the loser of a race between
the two never turns into a false "changed on another phone". Keys older than ``WRITE_KEY_KEPT`` are
deleted by the next keyed write to their match.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from contextlib import nullcontext
from datetime import datetime, timedelta
from typing import Any, NamedTuple, TypeVar

from flask import abort, current_app, g, has_request_context, request
from sqlalchemy import Dialect, Engine, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from .db import compiled, get_engine, get_session, read_one
from .models import Base, DealRow, MatchRow, RuleChangeRow, SideRow, WriteKeyRow, utc_now
from .rules.checks import check_new_deal
from .rules.errors import RulesError
from .rules.house_rules import RULE_SPECS_BY_KEY, HouseRules
from .rules.limits import MAX_WRITE_KEY, MIN_WRITE_KEY
from .rules.match import Deal, Match, PricingBasis
from .rules.matchfile import FORMAT, basis_to_json, deal_from_json, deal_to_json, match_from_json
from .rules.problems import Problem, ProblemCode
from .rules.rescale import Factor, rescale
from .rules.scoring import RulesPreview, Sheet, compare_sheets, preview_rules, score_match
from .rules.undo import rules_before
from .stored_deals import DealReader, StoredDeal, deal_json

DEAL_COLUMNS = ("position", *StoredDeal._fields)
RACE_ATTEMPTS = 3  # goes of an unversioned write (the second, under the lock, does not lose a race)

WRITE_KEY_KEPT = timedelta(days=1)  # how long a write's key answers its repeats
_PENDING_KEY = "scorekeeper.write_key"  # the session's note of the key the write under way stores

FACTS_MEMO_SIZE = 256  # matches whose newest facts are kept (a 100-deal match's take about 150 KB)

W = TypeVar("W")
V = TypeVar("V")


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


class KeyReused(Exception):
    """A write key sent again with another write (another body or address): nothing is done."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} was sent before with a different request; send a new key for a new write")
        self.message = str(self)


@dataclasses.dataclass(frozen=True)
class WriteKey:
    """The key a client named a write with, and a fingerprint of the write it asked for."""

    value: str
    fingerprint: str

    @classmethod
    def of(cls, value: str, *request_parts: str) -> WriteKey:
        """A key for ``value`` (checked with ``is_write_key`` first) and the parts of the request that
        a repeat must send again unchanged."""
        digest = hashlib.sha256("\n".join(request_parts).encode("utf-8", "surrogatepass")).hexdigest()
        return cls(value, digest)


_WRITE_KEY = re.compile(rf"[A-Za-z0-9_.:~-]{{{MIN_WRITE_KEY},{MAX_WRITE_KEY}}}")


def is_write_key(text: str) -> bool:
    """Whether ``text`` may name a write: 8 to 64 letters, digits and ``- _ . : ~`` (a UUID fits)."""
    return _WRITE_KEY.fullmatch(text) is not None


class Loaded(NamedTuple):
    """A match as this request read it: its row and the rules core's facts."""

    row: MatchRow
    match: Match


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
        return self.known_sheet or sheet_of(self.match)


SHEETS_KEPT = 64  # sheets of the newest facts, found by the facts' identity


class SheetMemo:
    """The sheets of the facts of recent versions, found by the very ``Match`` object (the facts memo hands
    every request of this process the same one for a version): the write that makes a version works its
    sheet out for its answer, and the page of that version takes it rather than working it out again.
    An entry holds its facts, so their ``id`` cannot name another object while it is kept."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._sheets: dict[int, tuple[Match, Sheet]] = {}
        self._lock = threading.Lock()

    def __call__(self, match: Match) -> Sheet:
        kept = self._sheets.get(id(match))
        if kept is not None and kept[0] is match:
            return kept[1]
        sheet = score_match(match)  # raises ContradictionError for facts the rules refuse: nothing is kept
        with self._lock:
            if len(self._sheets) >= self.limit:
                self._sheets.clear()
            self._sheets[id(match)] = (match, sheet)
        return sheet


sheet_of = SheetMemo(SHEETS_KEPT)


# Reading -------------------------------------------------------------------------------------------

_PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_public_id(public_id: str) -> bool:
    """Whether ``public_id`` could be a match's link: anything else (a NUL, which PostgreSQL cannot
    take, very long or non-ASCII text) is no match, and the database is not asked."""
    return _PUBLIC_ID.fullmatch(public_id) is not None


_FIND_MATCH = select(MatchRow).where(MatchRow.public_id == bindparam("link"))  # built once: compiled once


def find_match(public_id: str) -> MatchRow | None:
    """The match with this link; its sides and deals are read when first asked for (``facts_of`` reads
    them only for a version this process has not read yet)."""
    if not is_public_id(public_id):
        return None
    return get_session().scalars(_FIND_MATCH, {"link": public_id}).first()


_MATCH = Base.metadata.tables["match"]
_HEADER_COLUMNS = (_MATCH.c.public_id, _MATCH.c.name, _MATCH.c.version, _MATCH.c.watch_id)
_ONE_ROW_QUERIES = {  # what each look at a sheet reads of a match's own row, by its players' or watch link
    "version": {link: select(_MATCH.c.version).where(_MATCH.c[link] == bindparam("link"))
                for link in ("public_id", "watch_id")},
    "header": {link: select(*_HEADER_COLUMNS).where(_MATCH.c[link] == bindparam("link"))
               for link in ("public_id", "watch_id")},
}


def match_version(public_id: str) -> int | None:
    """The current version of a match (None for an unknown link), read without loading the match."""
    return version_by_link(get_engine(), "public_id", public_id)


def version_by_link(engine: Engine, link: str, value: str) -> int | None:
    """The version of the match whose ``link`` ("public_id" or "watch_id") is ``value``, or None.

    Asked on every view of the score sheet and every look of a phone following it, so it skips the ORM
    and SQLAlchemy's result objects: the Core query, compiled once for the engine's dialect, is one
    round trip on the reading engine (``db.read_one``). It needs no app context.
    """
    row = _read_by_link(engine, "version", link, value)
    return None if row is None else int(row[0])


def _read_by_link(engine: Engine, what: str, link: str, value: str) -> tuple[Any, ...] | None:
    if not is_public_id(value):
        return None
    sql, positional = _compiled_query(engine.dialect, what, link)
    return read_one(engine, sql, (value,) if positional else {"link": value})


@functools.cache
def _compiled_query(dialect: Dialect, what: str, link: str) -> tuple[str, bool]:
    return compiled(_ONE_ROW_QUERIES[what][link], dialect)


class Header(NamedTuple):
    """What a page shows of a match besides its facts."""

    public_id: str
    name: str
    version: int
    watch_id: str


def match_header(public_id: str) -> Header | None:
    """The match's name, version and watch link, read without its sides and deals (one round trip)."""
    found = _read_by_link(get_engine(), "header", "public_id", public_id)
    return None if found is None else Header(*found)


def known_facts(public_id: str, version: int) -> Match | None:
    """The facts of this version of the match if this process has read or written them already."""
    return _facts_memo().get(public_id, version)


def watched_match(watch_id: str) -> tuple[str, int] | None:
    """The link and current version of the match with this watch link, or None (one round trip)."""
    found = _read_by_link(get_engine(), "header", "watch_id", watch_id)
    return None if found is None else (found[0], found[2])


def get_match_or_404(public_id: str) -> MatchRow:
    row = find_match(public_id)
    if row is None:
        abort(404, "There is no match at this link.")
    return row


def match_to_write(public_id: str) -> MatchRow:
    """``get_match_or_404`` for a request that is to write the match, first thing in the request. It takes
    the match's turn among this process's writes first (held until its write is committed or the request
    ends: ``end_turns``), so the row it reads is the one the write starts from, rather than one that a
    write running meanwhile makes stale, to be read again. A row older than a version this process has
    written since is read again all the same, in a new transaction."""
    if is_public_id(public_id):
        _take_turn(public_id)
    row = get_match_or_404(public_id)
    if _stale_here(row):
        get_session().rollback()
        row = get_match_or_404(public_id)
    return row


GATE_KEY = "scorekeeper.work_gate"  # in the WSGI environ: the gate bounding the requests at work (sheet/polls.py)
_TURNS_HELD = "scorekeeper_turns"  # in ``g``: the write turns this request holds, in the order taken


def _turn(public_id: str) -> threading.RLock:
    return _WRITE_TURNS[zlib.crc32(public_id.encode()) % len(_WRITE_TURNS)]


def _take_turn(public_id: str) -> None:
    turn = _turn(public_id)
    _acquire(turn)
    g.setdefault(_TURNS_HELD, []).append(turn)


def _acquire(turn: threading.RLock) -> None:
    """Take ``turn``. While another write holds it, the request leaves its work slot to the others: a
    queue of writes to one match never keeps the reads of any match waiting."""
    if turn.acquire(blocking=False):
        return
    gate = request.environ.get(GATE_KEY) if has_request_context() else None
    with gate.stepped_out() if gate is not None else nullcontext():
        turn.acquire()


def end_turns(_error: BaseException | None = None) -> None:
    """Give back the write turns the request took (``match_to_write``): at the end of every request."""
    for turn in reversed(g.pop(_TURNS_HELD, [])):
        turn.release()


def _stale_here(row: MatchRow) -> bool:
    """Whether this process has written a newer version of the match than ``row`` holds."""
    newest = _facts_memo().newest_version(row.public_id)
    return newest is not None and newest > row.version


def load_match(public_id: str) -> Loaded:
    """The match row and its facts for the rules core (404 when the link is unknown)."""
    row = get_match_or_404(public_id)
    return Loaded(row, facts_of(row))


class FactsMemo:
    """The rules core's facts of the newest version of recent matches, per process (bounded, least
    recently used go first): a version is read into the rules core once, by the write that made it or
    the first request that read it. Safe for the reason the sheet cache is: a version's facts never change."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._facts: OrderedDict[str, tuple[int, Match]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, public_id: str, version: int) -> Match | None:
        with self._lock:
            kept = self._facts.get(public_id)
            if kept is None or kept[0] != version:
                return None
            self._facts.move_to_end(public_id)
            return kept[1]

    def newest_version(self, public_id: str) -> int | None:
        """The version of the facts kept for this match (the newest this process read or wrote), if any."""
        kept = self._facts.get(public_id)
        return None if kept is None else kept[0]

    def put(self, public_id: str, version: int, match: Match) -> None:
        with self._lock:
            kept = self._facts.get(public_id)
            if kept is not None and kept[0] > version:
                return
            self._facts[public_id] = (version, match)
            self._facts.move_to_end(public_id)
            while len(self._facts) > self.size:
                self._facts.popitem(last=False)


def _facts_memo() -> FactsMemo:
    memo: FactsMemo = current_app.extensions.setdefault("scorekeeper.facts", FactsMemo(FACTS_MEMO_SIZE))
    return memo


def facts_of(row: MatchRow) -> Match:
    """``to_core(row)``, read once per version of the match."""
    memo = _facts_memo()
    match = memo.get(row.public_id, row.version)
    if match is None:
        match = to_core(row)
        memo.put(row.public_id, row.version, match)
    return match


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


def match_json(row: MatchRow) -> dict[str, Any]:
    """The whole match in the match file format, built from the rows."""
    return _without_deals(row) | {"deals": [deal_json(deal) for deal in row.deals]}


def _without_deals(row: MatchRow) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "name": row.name,
        "auction": row.auction,
        "sides": [{"name": side.name, "players": list(side.players)} for side in row.sides],
        "rules": dict(row.rules),
    }


def to_core(row: MatchRow) -> Match:
    """The rules core's ``Match`` for a row, read by the match file reader. Rows were checked when
    written, so a match stored before a limit was lowered still reads (``stored``). Deals already loaded
    with the row (a table's matches are read with theirs at once) are taken as they are; otherwise one
    query reads them, and only a row whose content is new to this process is parsed (``DEAL_READER``)."""
    if "deals" in row.__dict__:
        return canonical(match_from_json(match_json(row), stored=True))
    match = match_from_json(_without_deals(row), stored=True)
    rules, sides = CANON(match.rules), CANON(match.sides)
    deals = DEAL_READER.deals(get_session().connection(), row.id, rules, len(sides))
    return dataclasses.replace(match, rules=rules, sides=sides, deals=deals)


class Canon:
    """One object for each value of a deal, house rules or sides seen lately, per process (bounded: past
    ``limit`` values it starts afresh).

    The memos that work a match out (a deal's outcome, its JSON) key deals and rules by value; a deal
    that is the very object they were keyed with is found by identity, without comparing every field
    of two equal deals. A version read from the rows gives new objects, equal to those of the
    versions before it: taking the kept ones in their place keeps every later lookup an identity hit.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: dict[Any, Any] = {}

    def __call__(self, value: V) -> V:
        kept: V | None = self._kept.get(value)
        if kept is None:
            if len(self._kept) >= self.limit:
                self._kept.clear()
            kept = self._kept.setdefault(value, value)
        return kept


CANON = Canon(limit=20_000)
DEAL_READER = DealReader(limit=20_000, canonical=CANON)


def canonical(match: Match) -> Match:
    """``match`` made of the objects kept for its values (equal to it in every way)."""
    return dataclasses.replace(match, rules=CANON(match.rules), sides=CANON(match.sides),
                               deals=tuple(CANON(deal) for deal in match.deals))


def rules_of(row: MatchRow) -> HouseRules:
    return HouseRules.from_mapping(row.rules)


def with_deal(loaded: Loaded, data: Mapping[str, Any], number: int | None) -> tuple[Match, int]:
    """The match as it would be with this deal added (``number`` None) or in place of deal ``number``,
    checked as a write checks it (raises RulesError), and the deal's number; nothing is written."""
    row, match = loaded
    if number is None:
        return match.with_deals((*match.deals, parse_deal(match, data))), len(match.deals) + 1
    data = _keeping_pricing(core_deal_or_404(match, number), data)
    deal = parse_deal(match.with_deals(match.deals[: number - 1] + match.deals[number:]), data)
    return match.with_deals((*match.deals[: number - 1], deal, *match.deals[number:])), number


# Writing -------------------------------------------------------------------------------------------

def create_match(match: Match, public_id: str | None = None, table_id: int | None = None,
                 following: tuple[MatchRow, WriteKey] | None = None) -> MatchRow:
    """Store a new match (from the form, an import or the API) and return its row; ``public_id`` gives
    it a chosen link (a seeded sample's) rather than a random one; ``table_id`` the table it is played at.

    The deals' rows are worked out before the first statement (which takes SQLite's write lock) and
    inserted in one statement with many rows, so a long import holds the lock briefly.
    """
    row = MatchRow(name=match.name, auction=match.auction, rules=match.rules.to_mapping(), table_id=table_id)
    if public_id is not None:
        row.public_id = public_id
    row.sides = [
        SideRow(position=index, name=side.name, players=list(side.players))
        for index, side in enumerate(match.sides)
    ]
    now = utc_now()
    deals = []
    for number, deal in enumerate(match.deals, start=1):
        values = _deal_values(number, deal, match.rules)
        deals.append(values | {"created_at": now, "updated_at": now})
    session = get_session()
    session.add(row)
    if deals or following:
        session.flush()
    if deals:
        session.execute(insert(DealRow), [values | {"match_id": row.id} for values in deals])
    if following:
        finished, key = following
        session.add(WriteKeyRow(match_id=finished.id, key=key.value, fingerprint=key.fingerprint, number=None,
                                version=finished.version, started_match_id=row.id))
    session.commit()
    if deals:
        session.expire(row, ["deals"])  # read when asked for
    return row


def start_next_match(finished: MatchRow, match: Match, key: WriteKey | None) -> MatchRow:
    """Store ``match`` as the one after ``finished`` (a rematch), at the same table. With a ``key`` (the
    rematch form's), the key is stored with ``finished`` in the new match's transaction, so the same form
    sent again (a double tap, a resend) answers the match the first one started rather than a second."""
    if key is None:
        return create_match(match, table_id=finished.table_id)
    first = _started_before(finished, key)
    if first is not None:
        return first
    try:
        return create_match(match, table_id=finished.table_id, following=(finished, key))
    except IntegrityError:
        get_session().rollback()  # the same key stored by a rematch that committed first
        first = _started_before(finished, key)
        if first is None:
            raise
        return first


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


def parse_deal(match: Match, data: Mapping[str, Any]) -> Deal:
    """Read one deal (match file format) and check it against ``match``; raises RulesError."""
    deal = deal_from_json(dict(data), len(match.sides), rules=match.rules).pinned(match.rules)
    problems = check_new_deal(match, deal)
    if problems:
        raise InvalidDeal(problems)
    return CANON(deal)


def write(loaded: Loaded, expected_version: int | None, change: Callable[[Loaded], W],
          key: WriteKey | None = None) -> W | Written:
    """Run ``change`` on the match, the one place where a lost race is decided.

    With an ``expected_version`` (the client's), a race lost to another write is a ``StaleEdit``.
    Without one, the write applies all the same: it is redone on the match read again, this time
    under the match's lock (taken before reading, so no other write can get in between), and so
    succeeds on its second go; the loop is bounded all the same.

    With a ``key`` already stored, the write is not done: the first one's result is returned. A race
    lost to the write with the same key (two taps at once) ends the same way, once the winner is in.
    """
    turn = _turn(loaded.row.public_id)
    _acquire(turn)
    try:
        return _write(loaded, expected_version, change, key)
    finally:
        turn.release()


# This process's writes to one match take turns (a match's turn is shared by a few others): racing one
# another, all but one would check and score their deal for nothing and then be redone (``write``).
_WRITE_TURNS = tuple(threading.RLock() for _ in range(64))


def _write(loaded: Loaded, expected_version: int | None, change: Callable[[Loaded], W],
           key: WriteKey | None) -> W | Written:
    public_id = loaded.row.public_id
    session = get_session()
    if expected_version is None and _stale_here(loaded.row):
        # A write of this process landed since the match was read, while this one waited its turn: it is
        # read again now (a new read transaction, for SQLite) rather than found out at the claim.
        session.rollback()
        loaded = load_match(public_id)
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
        session.rollback()
        _lock_match(public_id)
        loaded = load_match(public_id)
    raise AssertionError("unreachable")


def _written_before(row: MatchRow, key: WriteKey | None) -> Written | None:
    """The result of the write stored under ``key``, if there is one (``KeyReused`` when that write
    asked for something else)."""
    if key is None:
        return None
    session = get_session()
    found = session.connection().execute(_FIND_KEY, {"match": row.id, "key": key.value}).first()
    if found is None:
        return None
    fingerprint, number, version = found
    if fingerprint != key.fingerprint:
        raise KeyReused(key.value)
    session.refresh(row)
    return Written(row, facts_of(row), number=number, version=version, replayed=True)


def stored_keys(row: MatchRow, keys: Iterable[str]) -> set[str]:
    """Which of these write keys name a write already done to the match."""
    wanted = list(keys)
    if not wanted:
        return set()
    return set(get_session().scalars(select(WriteKeyRow.key).where(
        (WriteKeyRow.match_id == row.id) & WriteKeyRow.key.in_(wanted))))


def _lock_match(public_id: str) -> None:
    """Take the lock a write takes, before reading: SQLite's write lock, PostgreSQL's lock on the
    match's row (an update that changes nothing; it waits for a write under way to finish)."""
    get_session().connection().execute(_LOCK_MATCH, {"link": public_id})


# A write's statements, built once (so compiled once) and run on the session's connection: the rows they
# change are not the ORM's to track (the match's own row is told its new values, ``_claim``).
_DEAL = Base.metadata.tables["deal"]
_LOCK_MATCH = update(_MATCH).where(_MATCH.c.public_id == bindparam("link")).values(version=_MATCH.c.version)
_CLAIM = update(_MATCH).where((_MATCH.c.id == bindparam("match")) & (_MATCH.c.version == bindparam("seen")))
_THIS_DEAL = (_DEAL.c.match_id == bindparam("match")) & (_DEAL.c.position == bindparam("number"))
_INSERT_DEAL = insert(_DEAL)
_UPDATE_DEAL = update(_DEAL).where(_THIS_DEAL)  # SET: the columns given
_DELETE_DEAL = delete(_DEAL).where(_THIS_DEAL)
_DEAL_ROW = select(DealRow).where(_THIS_DEAL)
_THIS_MATCH = _DEAL.c.match_id == bindparam("match")
_MOVE_LATER_DEALS = (update(_DEAL).where(_THIS_MATCH & (_DEAL.c.position > bindparam("number")))
                     .values(position=-(_DEAL.c.position - 1)))  # out of the way first: positions are unique
_PUT_BACK_DEALS = update(_DEAL).where(_THIS_MATCH & (_DEAL.c.position < 0)).values(position=-_DEAL.c.position)
_KEYS = Base.metadata.tables["write_key"]
_INSERT_KEY = insert(_KEYS)
_FIND_KEY = (select(_KEYS.c.fingerprint, _KEYS.c.number, _KEYS.c.version)
             .where((_KEYS.c.match_id == bindparam("match")) & (_KEYS.c.key == bindparam("key"))))
_DELETE_OLD_KEYS = delete(_KEYS).where((_KEYS.c.match_id == bindparam("match"))
                                       & (_KEYS.c.created_at < bindparam("before")))


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
    # Added beside the deals, which need not be read, in one statement.
    added = values | {"match_id": row.id, "created_at": now, "updated_at": now}
    get_session().connection().execute(_INSERT_DEAL, added)
    _forget_deal_rows(row)
    return _commit(row, match.with_deals((*match.deals, deal)), number=number)


def replace_deal(loaded: Loaded, number: int, data: Mapping[str, Any], expected_version: int | None,
                 key: WriteKey | None = None) -> Written:
    """Correct deal ``number``. Its numbers keep the pricing they were entered under unless ``data``
    says otherwise."""
    return write(loaded, expected_version,
                 lambda current: _replace_deal(current, number, data, expected_version), key)


def _replace_deal(loaded: Loaded, number: int, data: Mapping[str, Any], expected_version: int | None) -> Written:
    row, match = loaded
    _check_version(row, expected_version, number)
    data = _keeping_pricing(core_deal_or_404(match, number), data)
    others = match.deals[: number - 1] + match.deals[number:]
    deal = parse_deal(match.with_deals(others), data)
    values = _deal_values(number, deal, match.rules)
    now = _claim(row, f"deal {number} was changed", number)
    # The deal's row is changed by one statement: the facts (read once per version) say what it held.
    get_session().connection().execute(_UPDATE_DEAL, _changed_deal(row, number, values) | {"updated_at": now})
    _forget_deal_rows(row)
    after = match.with_deals((*match.deals[: number - 1], deal, *match.deals[number:]))
    return _commit(row, after, number=number)


def _changed_deal(row: MatchRow, number: int, values: dict[str, Any]) -> dict[str, Any]:
    """The parameters of ``_UPDATE_DEAL`` that set deal ``number``'s columns to ``values``."""
    changed = {column: values[column] for column in DEAL_COLUMNS if column != "position"}
    return changed | {"match": row.id, "number": number}


def _forget_deal_rows(row: MatchRow) -> None:
    """After a statement changed the match's deals: its deal rows, if this request read them, are read
    afresh when next asked for."""
    session = get_session()
    if "deals" in row.__dict__:
        for deal in row.deals:
            session.expire(deal)
    session.expire(row, ["deals"])


def core_deal_or_404(match: Match, number: int) -> Deal:
    """Deal ``number`` of the facts (404 when the match has no such deal)."""
    if not 1 <= number <= len(match.deals):
        abort(404, f"This match has no deal {number}.")
    return match.deals[number - 1]


def _keeping_pricing(old: Deal, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` for a deal in place of ``old``: its numbers keep the pricing ``old`` was entered under
    unless ``data`` says otherwise."""
    data = dict(data)
    basis = old.entered_under
    if not old.passed and not data.get("passed") and basis is not None:
        data.setdefault("entered_under", basis_to_json(basis))
    return data


def delete_deal(loaded: Loaded, number: int, expected_version: int | None, key: WriteKey | None = None) -> Written:
    """Remove deal ``number``; later deals move up one, all in two statements whatever their count."""
    return write(loaded, expected_version, lambda current: _delete_deal(current, number, expected_version), key)


def _delete_deal(loaded: Loaded, number: int, expected_version: int | None) -> Written:
    row, match = loaded
    _check_version(row, expected_version, number)
    core_deal_or_404(match, number)
    _claim(row, f"deal {number} was deleted", number)
    connection = get_session().connection()
    where = {"match": row.id, "number": number}
    try:
        if connection.execute(_DELETE_DEAL, where).rowcount != 1:
            raise StaleDataError(f"deal {number} of match {row.public_id} was not there to delete")
        # Positions are unique within a match: move the later deals out of the way, then into place.
        connection.execute(_MOVE_LATER_DEALS, where)
        connection.execute(_PUT_BACK_DEALS, {"match": row.id})
    except (StaleDataError, IntegrityError):
        _raced(row, row.version - 1, number)
        raise
    _forget_deal_rows(row)
    after = match.with_deals(match.deals[: number - 1] + match.deals[number:])
    return _commit(row, after, number=number)


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
    for key in old.differences(new):
        row.rule_changes.append(RuleChangeRow(
            rule=key, old_value=old_values[key], new_value=new_values[key], after_deal=len(row.deals),
            batch=row.version, action=action,
        ))


def rescale_match(loaded: Loaded, factor: Factor, expected_version: int | None, key: WriteKey | None = None,
                  action: str | None = None) -> Written:
    """Move the match to the ×10 numbers or back: its rules and every recorded number, in one transaction
    and one change of the history. Raises ``HouseRuleError`` or ``ContradictionError`` (naming the deals)."""
    return write(loaded, expected_version,
                 lambda current: _rescale(current, factor, expected_version, action or f"rescale {factor.label}"), key)


def _rescale(loaded: Loaded, factor: Factor, expected_version: int | None, action: str) -> Written:
    row, match = loaded
    _check_version(row, expected_version)
    after = rescale(match, factor)
    before_sheet, sheet = score_match(match), score_match(after)
    _claim(row, f"the match was rescaled {factor.label}", rules=after.rules.to_mapping(complete=True))
    changes = [_changed_deal(row, number, _deal_values(number, deal, after.rules))
               for number, deal in enumerate(after.deals, start=1)]
    if changes:
        get_session().connection().execute(_UPDATE_DEAL, changes)
    _forget_deal_rows(row)
    _record_rules(row, match.rules, after.rules, action)
    return _commit(row, after, known_sheet=sheet, changed_rules=tuple(match.rules.differences(after.rules)),
                   changed_deals=compare_sheets(before_sheet, sheet).changed)


class NothingToUndo(Exception):
    """The change asked to be undone is not in the match's history, or undoing it changes nothing."""


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
    scaled = next((factor for factor in Factor if (group[0].action or "").endswith(f"rescale {factor.label}")), None)
    if scaled is not None:
        inverse = scaled.inverse
        return rescale_match(loaded, inverse, expected_version, key, action=f"undo rescale {inverse.label}")
    old = rules_before(loaded.match.rules, {change.rule: change.old_value for change in group})
    written = change_rules(loaded, old, expected_version, key=key, action="undo")
    if written is None:
        raise NothingToUndo("Those rules already have the values they had before that change.")
    return written


def _deal_values(number: int, deal: Deal, rules: HouseRules) -> dict[str, Any]:
    """The columns of a deal's row (``DEAL_COLUMNS``): the match file's deal and the pricing it was entered under."""
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
        "bid_by": data.get("bid_by"),
        "dealt_by": data.get("dealt_by"),
        "meld_table": basis.meld_table.value,
        "trick_scale": basis.trick_scale.value,
        "last_trick": basis.last_trick,
        "meld_prices": basis.meld_prices.to_json() or None,
        "sides": list(data.get("sides", [])),
    }


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
    if deal_number is not None:
        deal = get_session().scalars(_DEAL_ROW, {"match": row.id, "number": deal_number}).first()
        text += (f" Deal {deal_number} now reads: {describe_deal(row, deal)}." if deal is not None
                 else f" There is no deal {deal_number} any more.")
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


def _claim(row: MatchRow, what: str, deal_number: int | None = None, **columns: Any) -> datetime:
    """A write's first statement: bump the version where it is still the one read (and set the match's
    other ``columns``, its rules for a rule change); returns the time it gives the write.

    It takes SQLite's write lock (or PostgreSQL's lock on the match's row) for the rest of the write,
    so everything that may take long is done before it. Should another write have landed since the
    match was read, nothing was changed and the race turns into ``StaleEdit``. The row is then told its
    new values as if it had read them, so the session has nothing of its own left to write.
    """
    seen, now = row.version, utc_now()
    values = {"version": seen + 1, "updated_at": now, "last_change": what, **columns}
    claimed = get_session().connection().execute(_CLAIM, values | {"match": row.id, "seen": seen})
    if claimed.rowcount != 1:
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
    ``StaleEdit``)."""
    session = get_session()
    key: WriteKey | None = session.info.get(_PENDING_KEY)
    if key is not None:
        _store_key(row, key, written.get("number"))
    try:
        session.commit()
    except (StaleDataError, IntegrityError):
        _raced(row, row.version - 1, written.get("number"))
        raise
    _facts_memo().put(row.public_id, row.version, after)  # what reading the rows back would give
    g.setdefault(_WRITTEN, {})[row.public_id] = row.version
    end_turns()  # the write is in: the next one need not wait for this one's answer to be drawn
    return Written(row, after, version=row.version, **written)


_WRITTEN = "scorekeeper_written"  # in ``g``: link → version of the matches this request's writes committed


def written_versions() -> dict[str, int]:
    """The matches this request (or app context) has committed writes to, and the version each was left at."""
    return dict(g.get(_WRITTEN, {}))


def _store_key(row: MatchRow, key: WriteKey, number: int | None) -> None:
    """Keep the write's key in its transaction (the match is claimed, so this match's keys are ours to
    tidy: those older than ``WRITE_KEY_KEPT`` go, found through the (match, key) index)."""
    connection, now = get_session().connection(), utc_now()
    connection.execute(_DELETE_OLD_KEYS, {"match": row.id, "before": now - WRITE_KEY_KEPT})
    connection.execute(_INSERT_KEY, {"match_id": row.id, "key": key.value, "fingerprint": key.fingerprint,
                                     "number": number, "version": row.version, "created_at": now,
                                     "started_match_id": None})
