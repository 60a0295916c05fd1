"""``scorekeeper serve``: waitress, guarded so that no one address can hold the server.

waitress reads every request on one thread and hands only complete ones to its workers, so slow clients
cost it no worker; what they can use up is its connections (``connection_limit``). Two guards keep one
address from holding them all:

- **At most ``per_address`` connections from one address** at once: beyond that a new connection is
  closed as soon as it is accepted. Phones at a table each have an address of their own (a browser opens
  a handful); behind a reverse proxy every connection comes from the proxy, so there the proxy limits each
  client and the cap is off (``SCOREKEEPER_PROXIES``).
- **Deadlines for a request to arrive**, counted from its first byte, whatever the pace of the bytes: its
  head within ``head_seconds``, then its body within ``body_seconds`` more, plus a second for every
  ``body_rate`` bytes it announces. A connection that misses one is closed. (waitress's own
  ``channel_timeout`` closes connections idle between requests.)

waitress's own refusals (a body over the request limit, a malformed request) are answered in JSON with a
code where the app answers in JSON (``views.errors.wants_json``).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server
from waitress.task import ErrorTask

from .views.errors import STATUS_CODES, wants_json

HEAD_SECONDS = 15.0  # for a request's line and headers to arrive (a phone sends them in one packet)
BODY_SECONDS = 20.0  # for its body, on top of the head …
BODY_RATE = 32 * 1024  # … and a second for every this many bytes it announces (a 6 MB file: 3 minutes)


@dataclass
class Guard:
    """The limits on one address and on a request's pace, and the connections open by address."""

    per_address: int  # connections one address may hold at once; 0: no cap
    head_seconds: float = HEAD_SECONDS
    body_seconds: float = BODY_SECONDS
    body_rate: float = BODY_RATE
    _open: Counter[str] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def opened(self, address: str) -> bool:
        """Count a connection from ``address``; False (not counted) when the address has its most."""
        with self._lock:
            if self.per_address and self._open[address] >= self.per_address:
                return False
            self._open[address] += 1
            return True

    def closed(self, address: str) -> None:
        with self._lock:
            self._open[address] -= 1
            if not self._open[address]:
                del self._open[address]

    def deadline(self, request: Any, started: float) -> float:
        """When the request being read must have arrived whole (``time.monotonic``)."""
        if not request.headers_finished:
            return started + self.head_seconds
        return started + self.head_seconds + self.body_seconds + float(request.content_length) / self.body_rate


class JsonErrorTask(ErrorTask):
    """waitress's refusal of a request, in the app's JSON shape where the app answers in JSON."""

    def execute(self) -> None:
        request: Any = self.request  # the parser of the refused request (the stubs call it an Error)
        headers = getattr(request, "headers", None) or {}
        if not wants_json(getattr(request, "path", "") or "", headers.get("ACCEPT")):
            super().execute()
            return
        error = request.error
        message = f"{error.reason}: {error.body}" if error.code != 413 else (
            "the request body is larger than a request may carry; nothing was saved")
        body = json.dumps({"error": {"field": None, "code": STATUS_CODES.get(error.code, "bad_request"),
                                     "message": message}}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers = [*self.response_headers, ("Content-Type", "application/json")]
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class GuardedChannel(HTTPChannel):
    """A connection counted against its address, closed when a request misses its deadline."""

    guard: Guard  # set on the class made for each server (``guarded_server``)
    error_task_class = JsonErrorTask

    def __init__(self, server: BaseWSGIServer, sock: socket.socket, addr: Any, adj: Adjustments,
                 map: Mapping[int, socket.socket] | None = None) -> None:
        super().__init__(server, sock, addr, adj, map)
        self.address = str(addr[0] if isinstance(addr, tuple) else addr)
        self.counted = self.guard.opened(self.address)
        self.timed: Any = None  # the request whose arrival is timed, and since when
        self.started = 0.0
        if not self.counted:
            self.will_close = True  # closed before anything is read from it

    def received(self, data: bytes) -> bool:
        now = time.monotonic()
        done: bool = super().received(data)
        if self.request is not self.timed:  # a request began in this data (or the last one was read whole)
            self.timed, self.started = self.request, now
        return done

    def readable(self) -> bool:
        if self.timed is not None and time.monotonic() > self.guard.deadline(self.timed, self.started):
            self.will_close = True
            return False
        readable: bool = super().readable()
        return readable

    def del_channel(self, map: Mapping[int, socket.socket] | None = None) -> None:
        super().del_channel(map)
        if self.counted:
            self.counted = False
            self.guard.closed(self.address)


def guarded_server(app: Any, guard: Guard, **options: Any) -> Any:
    """A waitress server for ``app`` (``options`` as ``waitress.serve`` takes them) whose connections are
    guarded by ``guard``; ``run()`` serves."""
    sockets: dict[int, Any] = {}
    server = create_server(app, map=sockets, **options)
    channel = type("GuardedChannel", (GuardedChannel,), {"guard": guard})
    for listening in [server, *sockets.values()]:
        if isinstance(listening, BaseWSGIServer):
            listening.channel_class = channel
    return server


def serve(app: Any, guard: Guard, **options: Any) -> None:
    """Serve ``app`` until interrupted, as ``waitress.serve`` does, with ``guard`` on every connection."""
    server = guarded_server(app, guard, **options)
    server.print_listen("Serving on http://{}:{}")
    server.run()
