"""Phones following a score sheet, answered before the app when nothing changed, or held until it does.

A phone showing a sheet asks for its live part (``/m/<link>/live`` or ``/w/<watch link>/live``,
static/phone.js) with the ETag of the version it shows. Nearly every such request finds the match
unchanged, so ``UnchangedSheets`` answers those from the match's version alone: no request context,
session, rate limiter or after-request hook runs for them. Any other request, and every poll that finds
something new, goes on to the app, whose views answer the same question the same way (views/matches.py:
``live`` and ``watch_live``).

A poll may ask to be held, with ``Prefer: wait=<seconds>`` (RFC 7240). When its match is unchanged and a
hold slot is free (``LIVE_HOLD_SLOTS``), the request is parked, with nothing of Flask around it, until
the match's version moves on (then the app answers it: 200 with the new live part) or
``LIVE_HOLD_SECONDS`` (at most the seconds asked) pass (then 304). A held answer says so with
``Preference-Applied: wait=<seconds>``; the phone asks again at once after it, and after its usual
interval otherwise. With every slot taken, or a ``Prefer`` it cannot read, the poll is answered at once.

``LIVE_WORK_SLOTS`` (``scorekeeper serve --threads``) bounds the requests doing work at once, parked
polls not counted: the server runs that many threads more than it has hold slots (cli.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask
from werkzeug.http import parse_etags

from ..store import GATE_KEY, version_by_link
from .cache import etag_for, unchanged_headers
from .holds import DEFAULT_SECONDS, Holds, WorkGate
from .kept import VERSION_READ, KeptPages

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

_LIVE_PATH = re.compile(r"/(m|w)/([A-Za-z0-9_-]{1,64})/live")
_LINKS = {"m": "public_id", "w": "watch_id"}
_WAIT = re.compile(r"\s*wait\s*=\s*\"?([0-9]{1,6})\"?\s*", re.IGNORECASE | re.ASCII)


class UnchangedSheets:
    """WSGI middleware: 304 for a live-part poll whose ETag is the match's current one, at once or once
    its hold ends; every other request passes through the work gate to a kept sheet page (kept.py) or
    the app."""

    def __init__(self, app: Flask, wsgi_app: WSGIApplication, headers: Iterable[tuple[str, str]] = ()) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.engine = app.extensions["scorekeeper.engine"]
        self.kept = KeptPages(app, headers)  # ``headers``: what the app adds to every answer
        self.gate = WorkGate(int(app.config.get("LIVE_WORK_SLOTS") or 0))
        slots = int(app.config.get("LIVE_HOLD_SLOTS") or 0)
        seconds = float(app.config.get("LIVE_HOLD_SECONDS") or DEFAULT_SECONDS)
        self.holds = Holds(self.engine, slots, seconds) if slots > 0 else None

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        environ[GATE_KEY] = self.gate
        tags = environ.get("HTTP_IF_NONE_MATCH")
        found = _LIVE_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if not tags or found is None or environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            with self.gate.work():
                return self._app(environ, start_response)
        kind, link = found.groups()
        seconds = self._wait_asked(environ)
        waiter = self.holds.enter(_LINKS[kind], link) if self.holds is not None and seconds else None
        try:
            with self.gate.work():
                version = version_by_link(self.engine, _LINKS[kind], link)
                if version is None:
                    return self._app(environ, start_response)
                environ[VERSION_READ] = (_LINKS[kind], link, version)  # not read again for the kept part
                etag = etag_for(self.app, version, watching=kind == "w")
                if not parse_etags(tags).contains_weak(etag):
                    return self._app(environ, start_response)
                if waiter is None:
                    start_response("304 Not Modified", unchanged_headers(etag))
                    return []
            assert self.holds is not None
            changed = self.holds.wait(waiter, version, seconds)
            del environ[VERSION_READ]  # the match may have moved on while the poll was held
        finally:
            if waiter is not None and self.holds is not None:
                self.holds.leave(waiter)
        held = [("Preference-Applied", f"wait={seconds:g}")]
        with self.gate.work():
            if not changed:
                start_response("304 Not Modified", unchanged_headers(etag) + held)
                return []

            def start_held(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> object:
                return start_response(status, headers + held, exc_info)  # type: ignore[arg-type]

            return self._app(environ, start_held)  # type: ignore[arg-type]

    def _app(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """The kept page or 304 when the app's answer would be just that (kept.py), else the app's answer."""
        kept = self.kept.answer(environ)
        if kept is None:
            return self.wsgi_app(environ, start_response)
        start_response(kept.status, kept.headers)
        return [kept.body]

    def _wait_asked(self, environ: WSGIEnvironment) -> float:
        """The seconds the poll may be held: what its ``Prefer: wait=N`` asks, at most the configured
        hold; 0 for no ``Prefer``, a zero wait or one that cannot be read."""
        if self.holds is None:
            return 0
        for preference in environ.get("HTTP_PREFER", "").split(","):
            asked = _WAIT.fullmatch(preference.split(";", 1)[0])
            if asked is not None:
                return min(float(asked.group(1)), self.holds.seconds)
        return 0
