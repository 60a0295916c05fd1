"""A cache, per process and bounded in bytes, of the answers worked out for one version of a match: the score
sheet pages, and the costly answers a program or a download asks for (the API's match, the CSV export).

An entry is keyed by (key, version): a sheet page's key is the match's players' link, or
``watch_key(watch link)`` for its watch page; another answer's key names its kind first (``api:…``). A match's
``version`` goes up with every write, whichever process or machine makes it, and a view reads the current
version from the database before it looks here, so an entry is only ever served for the version it was drawn
from; the entries of older versions are never asked for again and leave as the least recently used.

Only bytes are kept (an answer's body, its gzip once a client has accepted it, a few small facts), never the
match or its sheet as objects, and every entry counts its bytes against one budget (``SHEET_CACHE_BYTES``)
that no request can raise: what a stranger sends can push other entries out, never grow the process.

Nothing of a session is kept: the per-request parts of the players' page (flash messages, the
dead-contract offer) go into slots filled on each request (``SheetPage.filled``).
The ETag names the release (``build_id``), so a phone never keeps a page drawn by older code.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar, cast

from flask import Flask, current_app
from markupsafe import Markup

DEFAULT_BYTES = 32 * 2**20  # a club night (50 matches, players' and watch pages) takes about 6 MB
ENTRY_OVERHEAD = 1024  # bytes counted for an entry besides its bodies: its key, its objects, the cache's links

# Slots in the kept HTML for what differs from one request to the next. Escaped user text cannot
# produce them: it never contains a raw "<".
FLASHES_SLOT = Markup("<!--slot:flashes-->")
DEAD_CONTRACT_SLOT = Markup("<!--slot:dead-contract-->")
NEXT_SEATS_SLOT = Markup("<!--slot:next-seats-->")  # a club event's table: where its players sit next
SLOTS = (FLASHES_SLOT, DEAD_CONTRACT_SLOT, NEXT_SEATS_SLOT)
_DEAL_ROW = '<tr id="deal-{number}"'
# The live part of the page (what a new deal may change) lies between these marks.
LIVE_START, LIVE_END = "<!--live-->", "<!--/live-->"


class Encoded:
    """Bytes to send, and their gzip (Flask-Compress's level), made when a client first accepts it and kept
    from then on: an answer only ever read uncompressed keeps no gzip. A cache holding it is told when the
    gzip is made (``on_growth``), so that its bytes are counted from then on."""

    __slots__ = ("body", "_gzipped", "_grown")

    def __init__(self, body: bytes) -> None:
        self.body = body
        self._gzipped: bytes | None = None
        self._grown: Callable[[], None] | None = None

    @classmethod
    def of(cls, body: bytes) -> Encoded:
        return cls(body)

    @property
    def gzipped(self) -> bytes:
        made = self._gzipped
        if made is None:
            made = self._gzipped = gzip.compress(self.body, compresslevel=6, mtime=0)
            grown = self._grown
            if grown is not None:
                grown()
        return made

    def on_growth(self, grown: Callable[[], None]) -> None:
        """Call ``grown`` once the gzip is made."""
        self._grown = grown

    @property
    def nbytes(self) -> int:
        return len(self.body) + (len(self._gzipped) if self._gzipped is not None else 0)


class Kept(Protocol):
    """What the cache keeps: one version's answer, which knows how many bytes it holds."""

    @property
    def version(self) -> int: ...

    @property
    def nbytes(self) -> int: ...

    @property
    def parts(self) -> tuple[Encoded, ...]: ...


@dataclass(frozen=True)
class SheetPage:
    """One version of a match's sheet page (with slots), as bytes, and the little the views ask of it."""

    version: int
    page: Encoded  # the page as most requests send it, unchanged
    live: Encoded  # the live part alone, for phones that show the page already
    decided: bool  # the match has a winner
    dead_contracts: frozenset[int]  # the deals whose dead contract the sheet offers to throw in

    @classmethod
    def drawn(cls, version: int, html: str, decided: bool = False,
              dead_contracts: frozenset[int] = frozenset()) -> SheetPage:
        start, end = html.find(LIVE_START), html.find(LIVE_END)
        live = html[start + len(LIVE_START):end] if 0 <= start < end else ""
        for slot in SLOTS:  # a phone following the sheet gets no request's own parts
            live = live.replace(slot, "")
        return cls(version, Encoded.of(html.encode()), Encoded.of(live.encode()), decided, dead_contracts)

    @property
    def nbytes(self) -> int:
        return self.page.nbytes + self.live.nbytes + 8 * len(self.dead_contracts) + ENTRY_OVERHEAD

    @property
    def parts(self) -> tuple[Encoded, ...]:
        return self.page, self.live

    def filled(self, flashes: str = "", dead_contract: str = "", changed_row: int | None = None,
               next_seats: str = "") -> str:
        """The page with this request's parts in their slots, and deal ``changed_row`` marked
        ``row-changed`` (the deal this phone just saved)."""
        html = self.page.body.decode().replace(FLASHES_SLOT, flashes, 1).replace(DEAD_CONTRACT_SLOT, dead_contract, 1)
        html = html.replace(NEXT_SEATS_SLOT, next_seats, 1)
        if changed_row is not None:
            row = _DEAL_ROW.format(number=changed_row)
            start = html.find(row)
            if start >= 0:
                end = html.index(">", start)
                tag = html[start:end]
                if ' class="' in tag:
                    tag = tag.replace(' class="', ' class="row-changed ', 1)
                else:
                    tag += ' class="row-changed"'
                html = html[:start] + tag + html[end:]
        return html


@dataclass(frozen=True)
class Answer:
    """One version's answer other than the sheet (the API's match, a download), as bytes."""

    version: int
    body: Encoded
    mimetype: str
    headers: tuple[tuple[str, str], ...] = ()

    @property
    def nbytes(self) -> int:
        return self.body.nbytes + sum(len(name) + len(value) for name, value in self.headers) + ENTRY_OVERHEAD

    @property
    def parts(self) -> tuple[Encoded, ...]:
        return (self.body,)


Entry = TypeVar("Entry", bound=Kept)


class SheetCache:
    """Entries holding at most ``budget`` bytes in all, the least recently used going first; an entry larger
    than the whole budget is not kept (0 keeps nothing). An entry's gzip, made once a client accepts it,
    counts from then on."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.nbytes = 0
        self._entries: OrderedDict[tuple[str, int], Kept] = OrderedDict()
        self._counted: dict[tuple[str, int], int] = {}  # each entry's bytes as last counted
        self._lock = threading.Lock()

    def get(self, key: str, version: int) -> Kept | None:
        """The entry of ``key`` at ``version`` if it is kept."""
        with self._lock:
            entry = self._entries.get((key, version))
            if entry is not None:
                self._entries.move_to_end((key, version))
            return entry

    def page(self, key: str, version: int, draw: Callable[[], Entry]) -> Entry:
        """The entry of ``key`` at ``version``, drawn by ``draw`` when it is not kept (a key names one kind of
        entry). Two requests missing the same entry at once may both draw it: the second one's is kept."""
        found = self.get(key, version)
        if found is not None:
            return cast(Entry, found)
        entry = draw()
        if entry.nbytes <= self.budget:
            place = (key, entry.version)
            with self._lock:
                self._entries.pop(place, None)
                self._entries[place] = entry
                self._count(place)
            for part in entry.parts:
                part.on_growth(lambda: self._grown(place))
        return entry

    def _grown(self, place: tuple[str, int]) -> None:
        """An entry's gzip was made: count the entry kept at ``place`` again, if one still is."""
        with self._lock:
            if place in self._entries:
                self._count(place)

    def _count(self, place: tuple[str, int]) -> None:
        """Count the entry at ``place`` as it is now, then let the least recently used go while over budget
        (holding the lock)."""
        size = self._entries[place].nbytes
        self.nbytes += size - self._counted.get(place, 0)
        self._counted[place] = size
        while self.nbytes > self.budget:
            dropped, _ = self._entries.popitem(last=False)
            self.nbytes -= self._counted.pop(dropped)

    def __len__(self) -> int:
        return len(self._entries)


def build_id(app: Flask) -> str:
    """A short digest of the package's code and the templates: it changes with any release."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for folder, pattern in ((package, "*.py"), (Path(app.template_folder or ""), "*.html")):
        for path in sorted(folder.rglob(pattern)):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def init_app(app: Flask) -> None:
    app.extensions["scorekeeper.sheet_cache"] = SheetCache(int(app.config["SHEET_CACHE_BYTES"]))
    app.extensions["scorekeeper.build_id"] = build_id(app)


def sheet_cache() -> SheetCache:
    cache: SheetCache = current_app.extensions["scorekeeper.sheet_cache"]
    return cache


def watch_key(watch_id: str) -> str:
    """The cache key of the watch page of a match, by its watch link (its players' page is kept under its
    players' link): a page can be found only from the link it is asked at."""
    return f"watch:{watch_id}"


def sheet_etag(version: int, watching: bool = False) -> str:
    """The entity tag (without quotes) of the sheet page, or the watch page, of a version of the match
    under this release."""
    etag = f"{version}-{current_app.extensions['scorekeeper.build_id']}"
    return f"watch-{etag}" if watching else etag


def unchanged_headers(etag: str) -> dict[str, str]:
    """What the sheet's answers say of caching: kept by the phone only, checked with the server each time
    (a weak ETag, as the bytes sent may differ by compression on the way)."""
    return {"ETag": f'W/"{etag}"', "Cache-Control": "private, no-cache", "Vary": "Accept-Encoding"}
