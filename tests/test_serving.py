"""No one address can hold the server: ``scorekeeper serve`` caps the connections of one
address and closes a request that does not arrive in time, and answers its own refusals in JSON under
the API. Every connection here stays on this machine (127.0.0.0/8); every wait is bounded."""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from waitress import wasyncore

from scorekeeper import create_app
from scorekeeper.serving import Guard, guarded_server

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
ATTACKER = "127.0.0.2"  # one address on the loopback network, other than the phone's 127.0.0.1
SLOW_CONNECTIONS = 850  # more than the server's 800 connections
WAIT = 10  # seconds any one wait here may take at most


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str, timeout: float = WAIT) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return answer.status, answer.read()


def slow_connection(port: int, source: str = ATTACKER) -> socket.socket:
    """A connection that has sent the start of a request head and nothing more (as one sending a byte every
    five seconds has, between its bytes)."""
    connection = socket.socket()
    connection.bind((source, 0))
    connection.settimeout(WAIT)
    connection.connect(("127.0.0.1", port))
    connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return connection


def closed_by_the_server(connection: socket.socket) -> bool:
    """Whether the server closes ``connection`` (within ``WAIT``) without an answer."""
    try:
        return connection.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


@pytest.fixture
def enough_files() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = SLOW_CONNECTIONS + 256
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[int]:
    """``scorekeeper serve`` as a deployment starts it, on a port of its own."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite'}", "SECRET_KEY": "test-secret",
           "SCOREKEEPER_INSTANCE": str(tmp_path)}
    env.pop("SCOREKEEPER_PROXIES", None)
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port)],
                              env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                get(f"http://127.0.0.1:{port}/rules")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
                time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=WAIT)
        log.close()


def test_a_phone_gets_the_sheet_while_one_address_holds_850_slow_connections(served: int, enough_files: None) -> None:
    port = served
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/matches", method="POST",
                                     data=(SEEDS / "worked-sheet.json").read_bytes(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=WAIT) as answer:
        sheet = json.load(answer)["links"]["sheet"]
    assert get(f"http://127.0.0.1:{port}{sheet}")[0] == 200  # the phone had it open before
    with ExitStack() as held:
        for _ in range(SLOW_CONNECTIONS):
            held.enter_context(slow_connection(port))
        started = time.monotonic()
        status, body = get(f"http://127.0.0.1:{port}{sheet}", timeout=5)
        took = time.monotonic() - started
    assert status == 200 and b"Worked score sheet" in body
    assert took < 1.0, f"the sheet took {took:.2f} s"


# The guards, on a server in this process -------------------------------------------------------------

@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[Any]:
    """Start a guarded server for a fresh app with the given guard; yields a starter returning its port."""
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'g.sqlite'}", "SECRET_KEY": "s",
                      "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": False})
    servers: list[tuple[Any, threading.Thread]] = []

    def start(guard: Guard, **options: Any) -> int:
        server = guarded_server(app, guard, host="127.0.0.1", port=0, threads=2, **options)
        loop = threading.Thread(target=server.run, daemon=True)
        loop.start()
        servers.append((server, loop))
        return int(server.effective_port)

    yield start
    for server, loop in servers:
        server.task_dispatcher.shutdown()
        # Closed by the loop's own thread (woken by the server's trigger), never under its select: the loop
        # then finds no socket left and ends.
        server.trigger.pull_trigger(lambda sockets=server._map: wasyncore.close_all(sockets))
        loop.join(timeout=WAIT)
    app.extensions["scorekeeper.engine"].dispose()


def test_an_address_beyond_its_connections_is_closed_at_once_and_others_are_served(guarded: Any) -> None:
    port = guarded(Guard(per_address=3))
    with ExitStack() as held:
        first = [held.enter_context(slow_connection(port)) for _ in range(3)]
        extra = held.enter_context(slow_connection(port))
        assert closed_by_the_server(extra)
        assert get(f"http://127.0.0.1:{port}/rules")[0] == 200  # another address
        first[0].settimeout(1.0)  # refusals come at once: a second without one is enough to know
        assert not closed_by_the_server(first[0])
        first[0].close()  # its place is free again, once the server has seen it closed
        assert any(answered_whole(port) for _ in range(50))


def answered_whole(port: int) -> bool:
    """Whether a whole request from the attacker's address is answered (a refused one is retried shortly)."""
    with slow_connection(port) as connection:
        try:
            connection.sendall(b"\r\n")
            if connection.recv(12) == b"HTTP/1.1 200":
                return True
        except (ConnectionResetError, BrokenPipeError):  # refused, before or after the rest of its head
            pass
    time.sleep(0.05)
    return False


def test_a_request_head_that_does_not_arrive_in_time_is_closed(guarded: Any) -> None:
    port = guarded(Guard(per_address=0, head_seconds=0.5))
    with slow_connection(port, "127.0.0.1") as slow:
        assert closed_by_the_server(slow)
    assert get(f"http://127.0.0.1:{port}/rules")[0] == 200


def test_a_body_that_does_not_arrive_in_time_is_closed(guarded: Any) -> None:
    port = guarded(Guard(per_address=0, head_seconds=0.5, body_seconds=0.5, body_rate=1_000_000))
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as slow:
        slow.sendall(b"POST /api/v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{")
        assert closed_by_the_server(slow)


def refusal(port: int, request: bytes) -> tuple[bytes, bytes]:
    """The head and body of the server's answer to a request it refuses as too large."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as connection:
        connection.sendall(request)
        answer = b""
        while part := connection.recv(4096):
            answer += part
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, body


@pytest.mark.parametrize("path, accept", [("/api/v1/matches", b""),
                                          ("/m/abc/deals/new", b"Accept: application/json\r\n")])
def test_the_servers_own_refusals_are_json_with_a_code_where_the_app_answers_json(
        guarded: Any, path: str, accept: bytes) -> None:
    port = guarded(Guard(per_address=0), max_request_body_size=1000)
    head, body = refusal(port, b"POST " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + accept
                         + b"Content-Type: application/json\r\nContent-Length: 1001\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413") and b"Content-Type: application/json" in head
    error = json.loads(body)["error"]
    assert error["code"] == "too_large" and error["field"] is None and "nothing was saved" in error["message"]


def test_waitress_is_pinned_to_the_major_version_these_tests_run_the_guard_with() -> None:
    """serving.py subclasses waitress's channel and server, which are not public: a new major version may
    change them, so pyproject.toml admits only the major version installed here."""
    import tomllib
    from importlib.metadata import version

    from packaging.requirements import Requirement
    from packaging.version import Version

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    pinned = next(Requirement(line) for line in project["project"]["dependencies"] if line.startswith("waitress"))
    installed = Version(version("waitress"))
    assert installed in pinned.specifier
    assert Version(f"{installed.major + 1}.0") not in pinned.specifier
    assert Version(f"{installed.major}.99") in pinned.specifier


def test_the_servers_own_refusal_of_a_page_is_not_json(guarded: Any) -> None:
    port = guarded(Guard(per_address=0), max_request_body_size=1000)
    head, _ = refusal(port, b"POST /m/abc/deals/new HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\n"
                            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1001\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413") and b"application/json" not in head
