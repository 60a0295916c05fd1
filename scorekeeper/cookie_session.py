"""Flask's signed-cookie session, remembering the cookies it has already checked.

A phone sends the same signed cookie with every page until its list of matches changes. Checking
it (signature, age, JSON) costs more than the rest of a cached score sheet view, so a bounded map
from the exact cookie text to what it held skips the check the next time it comes. Only cookies
that passed the check are kept, a kept one is used only while the cookie is young enough to be
accepted, and every request gets its own copy of the data: the application sees what Flask's own
session would give it. (A changed secret key needs a restart, as it does anyway.)
"""

from __future__ import annotations

import copy
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature, URLSafeTimedSerializer

DEFAULT_SIZE = 1024  # cookies; a device's cookie holds at most 40 match links, about 1 KB


class CheckedCookieSessionInterface(SecureCookieSessionInterface):
    """Signed cookies as Flask makes them; the ones already checked are not checked again."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._checked: OrderedDict[str, tuple[float, dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()
        self._serializer: tuple[object, URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer, made once per secret key rather than for every cookie read or written."""
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        made = self._serializer
        if made is None or made[0] != keys:
            made = self._serializer = (keys, super().get_signing_serializer(app))
        return made[1]

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if not app.secret_key:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        data = self.checked_data(app, value)
        return self.session_class(None if data is None else copy.deepcopy(data))

    def checked_data(self, app: Flask, value: str) -> Mapping[str, Any] | None:
        """What the cookie ``value`` holds, once it passed the check (or passed it before and is still young
        enough): the same data ``open_session`` gives a request a copy of. None for a cookie Flask would
        refuse (its session then starts empty). Shared with every later request: read it, never change it."""
        max_age = int(app.permanent_session_lifetime.total_seconds())
        with self._lock:
            found = self._checked.get(value)
            if found is not None:
                self._checked.move_to_end(value)
        if found is not None and time.time() - found[0] <= max_age:
            return found[1]
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        try:
            data, signed_at = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return None
        self._keep(value, signed_at.timestamp(), data)
        return data  # type: ignore[no-any-return]

    def _keep(self, value: str, signed_at: float, data: dict[str, Any]) -> None:
        with self._lock:
            self._checked[value] = (signed_at, data)
            self._checked.move_to_end(value)
            while len(self._checked) > self.size:
                self._checked.popitem(last=False)

    def __len__(self) -> int:
        return len(self._checked)
