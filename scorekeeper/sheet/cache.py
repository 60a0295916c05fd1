"""A bounded cache, per process, of the score sheet page worked out from one version of a match.

Why serving from it is safe:

- An entry is used only for the version of the match it was made from. A match's ``version`` goes
  up with every write, in this process or any other (it is SQLAlchemy's version counter, stored in
  the match's own row), and every request reads the current version from the database first. A
  newer version leaves an entry behind; it can never be served in its place.
- An entry is keyed by the version read with the match's row, not by the one checked first. Should a
  write land while the deals are read, the entry may mix two versions, but its key is then already
  out of date, so it is never used again (only the request that drew it shows it, and its ETag
  makes the phone ask again).
- Nothing of a session is cached. The page's per-request parts, the flash messages and the
  dead-contract offer (a form with its CSRF token), sit in slots filled on every request; the page
  has no other form.
- The page also depends on the code and the templates: ``build_id`` (a digest of both) goes into the
  sheet's ETag, so a phone never keeps a page drawn by an older release.
- An entry keeps the page around its live part (``sheet/frame.py``), which depends on the match's link,
  name and watch link only: the page of the next version takes it for the same ones and draws its live part.
- An entry keeps the rows of its sheet (``sheet/rows.py``), each under its whole line of the sheet but
  for the running totals, drawn with marks where those go: the page of the next version takes a row
  from it only for an equal line on a page of the same kind, and puts in that version's totals.
- A reload whose answer is a kept page as it is (or a 304) is answered before the app (``sheet/kept.py``):
  with ``get``, for exactly the version read from the database then, under the link asked for (the
  watch page is kept under the watch link, so no link can lead to the other's page), and only for a
  session the view would leave as it is and show nothing of; everything else goes to the view.

A page is compressed the first time a phone that accepts gzip asks for it, and its live part the first
time a phone following the sheet asks for that: a match's page is mostly read by the phones showing it
(its live part), a crowded match's by phones reloading it (its page), seldom both.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

from flask import Flask, current_app
from markupsafe import Markup

from ..rules.match import Match
from ..rules.scoring import DealLine
from .frame import Frame, FrameKey
from .rows import Row, RowContext
from .view import SheetView

DEFAULT_SIZE = 64  # matches; an entry of a 100-deal match holds about 60 KB of page and its facts
DEFAULT_BYTES = 32 * 1024 * 1024  # and at most this much, counted by ``SheetPage.size``
FACTS_BYTES_PER_DEAL = 1500  # an estimate of one deal's facts and sheet line in memory (Python objects)
GZIP_LEVEL = 6  # zlib's default: a sheet page comes out about 2% larger than at level 9, in less time

# Slots in the cached HTML for what differs from one request to the next. Escaped user text cannot
# produce them: it never contains a raw "<".
FLASHES_SLOT = Markup("<!--slot:flashes-->")
DEAD_CONTRACT_SLOT = Markup("<!--slot:dead-contract-->")
REMATCH_SLOT = Markup("<!--slot:rematch-->")
SLOTS = (FLASHES_SLOT, DEAD_CONTRACT_SLOT, REMATCH_SLOT)
_DEAL_ROW = '<tr id="deal-{number}"'
# The live part of the page (what a new deal may change) lies between these marks.
LIVE_START, LIVE_END = "<!--live-->", "<!--/live-->"


@dataclass(frozen=True)
class Encoded:
    """Bytes to send, encoded once, and compressed once (to about a seventh) when first asked for."""

    body: bytes

    @classmethod
    def of(cls, text: str) -> Encoded:
        return cls(text.encode())

    @functools.cached_property
    def gzipped(self) -> bytes:
        return gzip.compress(self.body, compresslevel=GZIP_LEVEL, mtime=0)

    def __len__(self) -> int:
        """The body and room for its compressed copy (counted before it is made: half the body)."""
        return len(self.body) + len(self.body) // 2 + 32


@dataclass(frozen=True)
class SheetPage:
    """One version of a match: its facts, its sheet and the page drawn from them (with slots).

    ``key`` is the match's link for the players' page, ``watch_key(watch link)`` for the watch page."""

    key: str
    version: int
    match: Match
    view: SheetView
    html: str
    page: Encoded  # ``html`` as most requests send it, unchanged
    live: Encoded  # the live part alone, for phones that show the page already
    row_context: RowContext | None = None  # what the rows depend on besides their lines
    rows: Mapping[DealLine, Row] = field(default_factory=dict)  # the sheet's rows, cut at their totals, by shape
    frame: Frame | None = None  # the page around the live part (``sheet/frame.py``)

    @classmethod
    def drawn(cls, key: str, version: int, match: Match, view: SheetView, html: str,
              row_context: RowContext | None = None, rows: Mapping[DealLine, Row] | None = None,
              frame: Frame | None = None) -> SheetPage:
        start, end = html.find(LIVE_START), html.find(LIVE_END)
        live = html[start + len(LIVE_START):end] if 0 <= start < end else ""
        for slot in SLOTS:  # a phone following the sheet gets no request's own parts
            live = live.replace(slot, "")
        return cls(key, version, match, view, html, Encoded.of(html), Encoded.of(live), row_context, rows or {}, frame)

    def rows_for(self, context: RowContext) -> Mapping[DealLine, Row]:
        """This page's rows, for a page of the next version drawn in ``context`` (none if it differs)."""
        return self.rows if context == self.row_context else {}

    def frame_for(self, key: FrameKey) -> Frame | None:
        """This page's frame, for a page of the next version with the same ``key`` (None if it differs)."""
        return self.frame if self.frame is not None and self.frame.key == key else None

    @functools.cached_property
    def size(self) -> int:
        """Bytes the entry holds: its page, live part and rows, and an estimate for its facts and sheet."""
        rows = sum(map(len, chain.from_iterable(self.rows.values())))
        frame = len(self.frame.html) if self.frame is not None else 0
        return (len(self.html) + len(self.page) + len(self.live) + rows + frame
                + FACTS_BYTES_PER_DEAL * (len(self.match.deals) + 1))

    def filled(self, flashes: str = "", dead_contract: str = "", rematch: str = "",
               changed_row: int | None = None) -> str:
        """The page with this request's parts in their slots, and deal ``changed_row`` marked
        ``row-changed`` (the deal this phone just saved)."""
        html = self.html.replace(FLASHES_SLOT, flashes, 1).replace(DEAD_CONTRACT_SLOT, dead_contract, 1)
        html = html.replace(REMATCH_SLOT, rematch, 1)
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


class SheetCache:
    """The pages of at most ``size`` matches and ``max_bytes`` bytes, the newest version of each; least
    recently used go first. A page larger than the whole budget is not kept.

    ``page`` draws a missing page once even when many requests miss it at the same moment: the first
    draws it, the others wait for that page rather than each drawing their own.
    """

    def __init__(self, size: int, max_bytes: int = DEFAULT_BYTES) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        self._pages: OrderedDict[str, SheetPage] = OrderedDict()
        self._lock = threading.Lock()
        self._drawing: dict[str, tuple[int, threading.Lock]] = {}  # match → (version, held while drawing)

    def get(self, key: str, version: int) -> SheetPage | None:
        """The page of exactly this version, or None."""
        with self._lock:
            page = self._pages.get(key)
            if page is None or page.version != version:
                return None
            self._pages.move_to_end(key)
            return page

    def awaited(self, key: str, version: int) -> SheetPage | None:
        """``get``, waiting first for a page of this version (or newer) that another request is drawing."""
        with self._lock:
            drawing = self._drawing.get(key)
        if drawing is not None and drawing[0] >= version:
            with drawing[1]:  # held while that page is drawn
                pass
        return self.get(key, version)

    def latest(self, key: str) -> SheetPage | None:
        """The page kept for this key, whatever its version (for the rows it holds)."""
        with self._lock:
            return self._pages.get(key)

    def page(self, key: str, version: int, draw: Callable[[], SheetPage]) -> SheetPage:
        """The page of this version (or newer, should a write land meanwhile), drawn by ``draw`` unless
        kept or being drawn by another request, which is then waited for."""
        while True:
            with self._lock:
                page = self._pages.get(key)
                if page is not None and page.version >= version:
                    self._pages.move_to_end(key)
                    return page
                drawing = self._drawing.get(key)
                if drawing is None or drawing[0] < version:
                    mine = threading.Lock()
                    mine.acquire()
                    self._drawing[key] = (version, mine)
                    break
            with drawing[1]:  # wait for the page being drawn, then look again
                pass
            if self.size <= 0 or self.max_bytes <= 0:  # nothing is kept: draw our own
                return draw()
        try:
            page = draw()
            self.put(page)
            return page
        finally:
            with self._lock:
                if self._drawing.get(key, (0, None))[1] is mine:
                    del self._drawing[key]
            mine.release()

    def put(self, page: SheetPage) -> None:
        """Keep ``page``, unless a newer version of its match is already kept."""
        if self.size <= 0 or page.size > self.max_bytes:
            return
        with self._lock:
            kept = self._pages.get(page.key)
            if kept is not None and kept.version > page.version:
                return
            if kept is not None:
                self.bytes -= kept.size
            self._pages[page.key] = page
            self._pages.move_to_end(page.key)
            self.bytes += page.size
            while len(self._pages) > self.size or self.bytes > self.max_bytes:
                _, dropped = self._pages.popitem(last=False)
                self.bytes -= dropped.size

    def __len__(self) -> int:
        return len(self._pages)


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
    app.extensions["scorekeeper.sheet_cache"] = SheetCache(app.config.get("SHEET_CACHE_SIZE", DEFAULT_SIZE),
                                                           app.config.get("SHEET_CACHE_BYTES", DEFAULT_BYTES))
    app.extensions["scorekeeper.build_id"] = build_id(app)


def sheet_cache() -> SheetCache:
    cache: SheetCache = current_app.extensions["scorekeeper.sheet_cache"]
    return cache


def watch_key(watch_id: str) -> str:
    """The cache key of the watch page of a match, by its watch link (its players' page is kept under its
    players' link): a page can be found from the link it is asked at."""
    return f"watch:{watch_id}"


def sheet_etag(version: int, watching: bool = False) -> str:
    """The entity tag (without quotes) of the sheet page, or the watch page, of a version of the match
    under this release."""
    return etag_for(current_app, version, watching)


def etag_for(app: Flask, version: int, watching: bool = False) -> str:
    """``sheet_etag`` of ``app``, without an app context."""
    etag = f"{version}-{app.extensions['scorekeeper.build_id']}"
    return f"watch-{etag}" if watching else etag


def unchanged_headers(etag: str) -> list[tuple[str, str]]:
    """What the sheet's answers say of caching: kept by the phone only, checked with the server each time."""
    return [("ETag", f'W/"{etag}"'), ("Cache-Control", "private, no-cache"), ("Vary", "Accept-Encoding")]
