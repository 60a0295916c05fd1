"""A bounded cache, per process, of the score sheet pages drawn for one version of a match.

An entry is keyed by (page key, version): the page key is the match's players' link, or
``watch_key(watch link)`` for its watch page. A match's ``version`` goes up with every write, whichever
process or machine makes it, and a view reads the current version from the database before it looks
here, so an entry is only ever served for the version it was drawn from; the entries of older versions
are never asked for again and leave as the least recently used.

Nothing of a session is kept: the per-request parts of the players' page (flash messages, the
dead-contract offer) go into slots filled on each request (``SheetPage.filled``).
The ETag names the release (``build_id``), so a phone never keeps a page drawn by older code.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app
from markupsafe import Markup

from ..rules.match import Match
from .view import SheetView

DEFAULT_SIZE = 256  # pages; a 30-deal match's page is about 30 KB, so a club night of 50 matches fits twice over

# Slots in the kept HTML for what differs from one request to the next. Escaped user text cannot
# produce them: it never contains a raw "<".
FLASHES_SLOT = Markup("<!--slot:flashes-->")
DEAD_CONTRACT_SLOT = Markup("<!--slot:dead-contract-->")
SLOTS = (FLASHES_SLOT, DEAD_CONTRACT_SLOT)
_DEAL_ROW = '<tr id="deal-{number}"'
# The live part of the page (what a new deal may change) lies between these marks.
LIVE_START, LIVE_END = "<!--live-->", "<!--/live-->"


@dataclass(frozen=True)
class Encoded:
    """Bytes to send, and their gzip, made once when first asked for."""

    body: bytes

    @functools.cached_property
    def gzipped(self) -> bytes:
        return gzip.compress(self.body, compresslevel=6, mtime=0)  # Flask-Compress's level


@dataclass(frozen=True)
class SheetPage:
    """One version of a match: its facts, its sheet and the page drawn from them (with slots)."""

    version: int
    match: Match
    view: SheetView
    html: str
    page: Encoded  # ``html`` as most requests send it, unchanged
    live: Encoded  # the live part alone, for phones that show the page already

    @classmethod
    def drawn(cls, version: int, match: Match, view: SheetView, html: str) -> SheetPage:
        start, end = html.find(LIVE_START), html.find(LIVE_END)
        live = html[start + len(LIVE_START):end] if 0 <= start < end else ""
        for slot in SLOTS:  # a phone following the sheet gets no request's own parts
            live = live.replace(slot, "")
        return cls(version, match, view, html, Encoded(html.encode()), Encoded(live.encode()))

    def filled(self, flashes: str = "", dead_contract: str = "", changed_row: int | None = None) -> str:
        """The page with this request's parts in their slots, and deal ``changed_row`` marked
        ``row-changed`` (the deal this phone just saved)."""
        html = self.html.replace(FLASHES_SLOT, flashes, 1).replace(DEAD_CONTRACT_SLOT, dead_contract, 1)
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
    """At most ``size`` pages, least recently used go first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._pages: OrderedDict[tuple[str, int], SheetPage] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, version: int) -> SheetPage | None:
        """The page of ``key`` at ``version`` if it is kept."""
        with self._lock:
            page = self._pages.get((key, version))
            if page is not None:
                self._pages.move_to_end((key, version))
            return page

    def page(self, key: str, version: int, draw: Callable[[], SheetPage]) -> SheetPage:
        """The page of ``key`` at ``version``, drawn by ``draw`` when it is not kept. Two requests missing
        the same page at once may both draw it: the second one's is kept."""
        page = self.get(key, version)
        if page is not None:
            return page
        page = draw()
        if self.size > 0:
            with self._lock:
                self._pages[(key, page.version)] = page
                while len(self._pages) > self.size:
                    self._pages.popitem(last=False)
        return page

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
    app.extensions["scorekeeper.sheet_cache"] = SheetCache(app.config.get("SHEET_CACHE_SIZE", DEFAULT_SIZE))
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
