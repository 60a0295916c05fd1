"""Reloads of a score sheet answered from the sheet cache before the app, when the app would answer
with the kept page as it is.

A crowded match is read mostly by phones reloading its sheet (``/m/<link>``, ``/w/<watch link>``) or
asking for its live part: each time the app would make a request context, open the session, run the
before- and after-request hooks and the view, only to send bytes the sheet cache already holds.
``KeptPages.answer`` sends those bytes itself, with the headers the app would send, and only when the
app's answer is known to be exactly that:

- a GET without a query (a query may ask for the dead-contract offer), to a host the app trusts;
- the version read from the database now (as the view reads it): a 304 when the phone's ETag is the
  current one, else the page kept for exactly that version (``SheetCache.awaited``: once drawn, when
  another request is drawing it; never an older or newer one), in the cache of the link asked for (the
  watch link's page is kept under the watch link);
- on the players' page, a session cookie that passed the check and that the view would leave as it is
  (``device.sheet_keeps_session``: this match first in the phone's list, no renewal due, no message or
  saved deal waiting), so the answer sets no cookie; and no winner (the page then offers a rematch, a
  form with the session's CSRF token).

Anything else, a page not kept yet included, goes on to the app, which answers it and keeps the page.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask
from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_accept_header, parse_cookie, parse_etags
from werkzeug.sansio.utils import get_host

from ..cookie_session import CheckedCookieSessionInterface
from ..device import sheet_keeps_session
from ..store import version_by_link
from .cache import SheetCache, etag_for, unchanged_headers, watch_key

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

VERSION_READ = "scorekeeper.version_read"  # in the WSGI environ: (link column, link, version) read by a poll
_SHEET_PATH = re.compile(r"/(m|w)/([A-Za-z0-9_-]{1,64})(/live)?")
_HTML = "text/html; charset=utf-8"


@dataclass(frozen=True)
class Kept:
    """An answer ready to send: its status line, headers and body."""

    status: str
    headers: list[tuple[str, str]]
    body: bytes


class KeptPages:
    """The answers of the sheet views (views/matches.py: ``sheet``, ``live``, ``watch``, ``watch_live``)
    that need nothing but the match's version and the sheet cache. ``answered`` counts them."""

    def __init__(self, app: Flask, extra_headers: Iterable[tuple[str, str]]) -> None:
        self.app = app
        self.engine = app.extensions["scorekeeper.engine"]
        self.cache: SheetCache = app.extensions["scorekeeper.sheet_cache"]
        self.extra = list(extra_headers)  # what the app's after-request hooks add to every answer
        self.sessions = app.session_interface
        # A session refreshed on each request would set a cookie on every page: only the app does that.
        self.enabled = isinstance(self.sessions, CheckedCookieSessionInterface) \
            and not app.config["SESSION_REFRESH_EACH_REQUEST"] and bool(app.config.get("KEPT_PAGES", True))
        self.answered = 0

    def answer(self, environ: WSGIEnvironment) -> Kept | None:
        """The app's answer to this request when it is a kept page or a 304, else None (the app answers)."""
        if not self.enabled or environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return None
        found = _SHEET_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if found is None or not self._trusted_host(environ):
            return None
        kind, link, live = found.groups()
        players_page = kind == "m" and not live
        if players_page and not self._session_kept(environ, link):
            return None
        watching = kind == "w"
        column = "watch_id" if watching else "public_id"
        read = environ.get(VERSION_READ)
        version = read[2] if read is not None and read[:2] == (column, link) else \
            version_by_link(self.engine, column, link)
        if version is None:
            return None  # the app answers 404
        etag = etag_for(self.app, version, watching)
        vary = "Accept-Encoding, Cookie" if players_page else "Accept-Encoding"
        tags = environ.get("HTTP_IF_NONE_MATCH")
        if tags and parse_etags(tags).contains_weak(etag):
            self.answered += 1
            return Kept("304 NOT MODIFIED", _cache_headers(etag, vary) + self.extra, b"")
        page = self.cache.awaited(watch_key(link) if watching else link, version)
        if page is None or (players_page and page.view.winner_name() is not None):
            return None
        encoded = page.live if live else page.page
        gzipped = _gzip_asked(environ.get("HTTP_ACCEPT_ENCODING", ""))
        if gzipped is None:
            return None
        body = encoded.gzipped if gzipped else encoded.body
        headers = _cache_headers(etag, vary)
        if gzipped:
            headers.append(("Content-Encoding", "gzip"))
        headers += [("Content-Type", _HTML), ("Content-Length", str(len(body))), *self.extra]
        self.answered += 1
        return Kept("200 OK", headers, body)

    def _trusted_host(self, environ: WSGIEnvironment) -> bool:
        """Whether Flask would take the request's host (``TRUSTED_HOSTS``). A host with a port is left to
        the app: which port it drops depends on the scheme, which a proxy in front may change."""
        trusted = self.app.config["TRUSTED_HOSTS"]
        if trusted is None:
            return True
        host = environ.get("HTTP_HOST")
        if not host or ":" in host:
            return False
        try:
            get_host(environ.get("wsgi.url_scheme", "http"), host, None, trusted)
        except SecurityError:
            return False
        return True

    def _session_kept(self, environ: WSGIEnvironment, public_id: str) -> bool:
        """Whether the request's session cookie is good and opening the players' page leaves it as it is."""
        assert isinstance(self.sessions, CheckedCookieSessionInterface)
        value = parse_cookie(environ.get("HTTP_COOKIE")).get(self.sessions.get_cookie_name(self.app))
        if not value or not self.app.secret_key:
            return False
        data: Mapping[str, Any] | None = self.sessions.checked_data(self.app, value)
        return data is not None and sheet_keeps_session(data, public_id)


def _cache_headers(etag: str, vary: str) -> list[tuple[str, str]]:
    return [(name, vary if name == "Vary" else value) for name, value in unchanged_headers(etag)]


@functools.lru_cache(maxsize=64)
def _gzip_asked(accept_encoding: str) -> bool | None:
    """Whether the view sends the page compressed: ``request.accept_encodings["gzip"]`` as it reads it
    (phones send a handful of these headers). None when it does not but Flask-Compress would compress the
    page after it (``gzip;q=0``, which it does not read as a refusal): that answer is the app's."""
    if parse_accept_header(accept_encoding)["gzip"]:
        return True
    return None if "gzip" in accept_encoding.lower() else False
