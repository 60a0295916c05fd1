"""Held looks at a live sheet: a phone's poll that finds its match unchanged may wait for the next version.

A parked poll (``Waiter``) is woken when its match's version moves on, which this process learns two ways:

- a write committed here: every session's flush notes the matches it changed (``MatchRow`` rows, whose
  version SQLAlchemy bumps) and its commit wakes their waiters at once (``_noted`` → ``_committed``);
  a rollback forgets them;
- a write committed by another process (another gunicorn worker, the command line): while at least one
  poll is parked, one thread per ``Holds`` reads the versions of every parked match in one query every
  ``WATCH_EVERY`` seconds and wakes the waiters whose version changed (or whose match is gone). With
  nothing parked, the thread waits on a condition and asks nothing.

A wake is only a hint: the woken poll goes on to the app, which reads the version again and answers 200
or 304 itself. ``Holds`` bounds the parked polls (``slots``) and how long each waits (``seconds``).
``WorkGate`` bounds the requests doing work at once, so that parked polls never take a working thread
and work never runs on more threads than asked for.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections import defaultdict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from sqlalchemy import Engine, event, inspect, or_, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ..models import MatchRow

log = logging.getLogger(__name__)

WATCH_EVERY = 0.5  # seconds between two looks at the parked matches' versions (writes of other processes)
DEFAULT_SECONDS = 25.0  # the longest a poll is held: under the usual 30–60 s of proxies and phones
LINKS = ("public_id", "watch_id")
Key = tuple[str, str]  # (link column, its value): what a poll names its match by


class WorkGate:
    """At most ``slots`` requests inside at once (no bound when ``slots`` is 0), let in in the order they
    came: a request leaving hands its slot to the one that has waited longest.

    First come, first served matters under load: with a plain semaphore, a request arriving just as a
    slot frees takes it ahead of those already waiting (the woken one must first get the interpreter
    back), so a few unlucky requests wait through many turns and the slowest answers grow long."""

    def __init__(self, slots: int) -> None:
        self._free = slots
        self._bounded = slots > 0
        self._lock = threading.Lock()
        self._queue: deque[threading.Lock] = deque()  # the waiting requests' turns, oldest first

    @contextmanager
    def work(self, first: bool = False) -> Iterator[None]:
        """Hold a slot for the block; ``first`` goes ahead of the requests already waiting (work that
        those behind it need done, such as the page they are about to ask for)."""
        if not self._bounded:
            yield
            return
        self._enter(first)
        try:
            yield
        finally:
            self._leave()

    @contextmanager
    def stepped_out(self) -> Iterator[None]:
        """Give the slot up while the request waits for something other than the interpreter (a match's
        write turn), so the waiting never keeps other requests out; it is taken back first in line."""
        if not self._bounded:
            yield
            return
        self._leave()
        try:
            yield
        finally:
            self._enter(first=True)

    @property
    def waiting(self) -> int:
        """How many requests wait for a slot now."""
        with self._lock:
            return len(self._queue)

    def _enter(self, first: bool = False) -> None:
        with self._lock:
            if self._free > 0 and not self._queue:
                self._free -= 1
                return
            turn = threading.Lock()
            turn.acquire()
            if first:
                self._queue.appendleft(turn)
            else:
                self._queue.append(turn)
        turn.acquire()  # released by the request that hands its slot to this one

    def _leave(self) -> None:
        with self._lock:
            if self._queue:
                self._queue.popleft().release()  # the slot goes on, never back to the pool
            else:
                self._free += 1


@dataclass(eq=False)
class Waiter:
    """One parked poll: the match it follows, the version it holds, and the event that wakes it."""

    key: Key
    version: int | None = None  # set once the poll has found its match unchanged and parks
    woken: threading.Event = field(default_factory=threading.Event)


class Holds:
    """The parked polls of one app (one database) in this process."""

    def __init__(self, engine: Engine, slots: int, seconds: float = DEFAULT_SECONDS,
                 watch_every: float = WATCH_EVERY) -> None:
        self.engine, self.slots, self.seconds, self.watch_every = engine, slots, seconds, watch_every
        self._free = threading.BoundedSemaphore(slots)
        self._lock = threading.Condition()
        self._waiters: dict[Key, set[Waiter]] = defaultdict(set)
        self._parked = 0
        self._watcher: threading.Thread | None = None
        _BOARDS.add(self)

    @property
    def parked(self) -> int:
        """How many polls are parked now."""
        with self._lock:
            return self._parked

    def wait_for_parked(self, count: int, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) until at least ``count`` polls are parked."""
        with self._lock:
            return self._lock.wait_for(lambda: self._parked >= count, timeout)

    def enter(self, link: str, value: str) -> Waiter | None:
        """Take a hold slot for a poll about the match ``link`` = ``value``, or None when all are taken.

        The waiter listens from here on, before its version is read, so no write is missed in between."""
        if not self._free.acquire(blocking=False):
            return None
        waiter = Waiter((link, value))
        with self._lock:
            self._waiters[waiter.key].add(waiter)
        return waiter

    def wait(self, waiter: Waiter, version: int, seconds: float) -> bool:
        """Park until the match moves on from ``version`` (True) or ``seconds`` pass (False)."""
        with self._lock:
            waiter.version = version
            self._parked += 1
            self._lock.notify_all()
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, name="live-holds", daemon=True)
                self._watcher.start()
        try:
            return waiter.woken.wait(seconds)
        finally:
            with self._lock:
                self._parked -= 1

    def leave(self, waiter: Waiter) -> None:
        """Give the slot back."""
        with self._lock:
            waiting = self._waiters.get(waiter.key)
            if waiting is not None:
                waiting.discard(waiter)
                if not waiting:
                    del self._waiters[waiter.key]
        self._free.release()

    def notice(self, keys: set[Key]) -> None:
        """Wake every poll following one of these matches."""
        with self._lock:
            for key in keys:
                for waiter in self._waiters.get(key, ()):
                    waiter.woken.set()

    def _watch(self) -> None:
        """The writes of other processes: while polls are parked, their matches' versions in one query."""
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._parked > 0)
            threading.Event().wait(self.watch_every)  # a bounded wait in this thread, never in a request
            with self._lock:
                held = [key for key, waiting in self._waiters.items()
                        if any(waiter.version is not None for waiter in waiting)]
            if not held:
                continue
            try:
                current = self._versions(held)
            except SQLAlchemyError as error:  # the database is away: the polls end at their time
                log.warning("could not read the versions of the followed matches: %s", error)
                continue
            asked = set(held)
            with self._lock:
                for key, waiting in self._waiters.items():
                    for waiter in waiting if key in asked else ():
                        if waiter.version is not None and waiter.version != current.get(key):
                            waiter.woken.set()

    def _versions(self, keys: list[Key]) -> dict[Key, int]:
        """The current version of these matches, read in one query (a match gone has none)."""
        table = MatchRow.__table__
        wanted = {link: [value for kind, value in keys if kind == link] for link in LINKS}
        query = select(table.c.public_id, table.c.watch_id, table.c.version).where(
            or_(*(table.c[link].in_(values) for link, values in wanted.items() if values)))
        found: dict[Key, int] = {}
        with self.engine.connect() as connection:
            for public_id, watch_id, version in connection.execute(query):
                found[("public_id", public_id)] = found[("watch_id", watch_id)] = version
        return found


# Writes committed in this process --------------------------------------------------------------------

_BOARDS: weakref.WeakSet[Holds] = weakref.WeakSet()
_CHANGED = "scorekeeper.changed_matches"


@event.listens_for(Session, "after_flush")
def _noted(session: Session, _context: Any) -> None:
    """Note the matches a flush changed or deleted (their links, read without loading anything)."""
    if not _BOARDS:  # nothing holds polls in this process (the command line, gunicorn's sync workers)
        return
    rows = [row for row in chain(session.dirty, session.deleted) if isinstance(row, MatchRow)]
    if rows:
        changed: set[Key] = session.info.setdefault(_CHANGED, set())
        for row in rows:
            loaded = inspect(row).dict
            changed.update((link, loaded[link]) for link in LINKS if loaded.get(link))


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    changed: set[Key] | None = session.info.pop(_CHANGED, None)
    if changed:
        for board in list(_BOARDS):
            board.notice(changed)


@event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    session.info.pop(_CHANGED, None)
