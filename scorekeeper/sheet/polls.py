"""Phones following a score sheet, answered before the app when nothing changed.

A phone showing a sheet asks for its live part every few seconds (``/m/<link>/live`` or
``/w/<watch link>/live``, static/phone.js) with the ETag of the version it shows. Nearly every such
request finds the match unchanged, so ``UnchangedSheets`` answers those with 304 from the match's
version alone: no request context, session, rate limiter or after-request hook runs for them. Any
other request, and every poll that finds something new, goes on to the app, whose views answer the
same question the same way (views/matches.py: ``live`` and ``watch_live``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask
from werkzeug.http import parse_etags

from ..store import version_by_link
from .cache import etag_for

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

_LIVE_PATH = re.compile(r"/(m|w)/([A-Za-z0-9_-]{1,64})/live")
_LINKS = {"m": "public_id", "w": "watch_id"}


class UnchangedSheets:
    """WSGI middleware: 304 for a live-part poll whose ETag is the match's current one."""

    def __init__(self, app: Flask, wsgi_app: WSGIApplication) -> None:
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        tags = environ.get("HTTP_IF_NONE_MATCH")
        if tags and environ.get("REQUEST_METHOD") == "GET" and not environ.get("QUERY_STRING"):
            found = _LIVE_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if found is not None:
                kind, link = found.groups()
                version = version_by_link(self.app.extensions["scorekeeper.engine"], _LINKS[kind], link)
                if version is not None:
                    etag = etag_for(self.app, version, watching=kind == "w")
                    if parse_etags(tags).contains_weak(etag):
                        start_response("304 Not Modified", unchanged_headers(etag))
                        return []
        return self.wsgi_app(environ, start_response)


def unchanged_headers(etag: str) -> list[tuple[str, str]]:
    """What the sheet's answers say of caching: kept by the phone only, checked with the server each time."""
    return [("ETag", f'W/"{etag}"'), ("Cache-Control", "private, no-cache"), ("Vary", "Accept-Encoding")]
