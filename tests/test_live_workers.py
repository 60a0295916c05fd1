"""The live sheet behind gunicorn with several workers: whichever worker a phone's poll reaches, it never
answers "unchanged" for a version older than the newest write, made through any worker. A server that holds
polls (``scorekeeper serve``, or gunicorn's gthread workers with ``SCOREKEEPER_LIVE_HOLDS``) answers a held
poll with the new version when another process writes it."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from bench_start import free_port, private_options  # noqa: E402

POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "")
WORKERS = 3


def call(port: int, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection, so that successive requests may reach different workers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if data else {}
        connection.request(method, path, body=data, headers=sent | (headers or {}))
        answer = connection.getresponse()
        return answer.status, {name.lower(): value for name, value in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def database_for(kind: str, tmp_path: Path) -> str:
    if kind == "postgresql":
        if not POSTGRES_URL:
            pytest.skip("SCOREKEEPER_TEST_DATABASE_URL is not set")
        return POSTGRES_URL
    return f"sqlite:///{tmp_path / 'live.sqlite'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[int]:
    yield from run_server(tmp_path, database_for(request.param, tmp_path),
                          ["-m", "gunicorn", "-w", str(WORKERS), "-b", "127.0.0.1:{port}", *private_options(),
                           "scorekeeper:create_app()"])


HOLD_SECONDS = 2
HOLDING_SERVERS = {  # how each server is started, holding polls for HOLD_SECONDS
    "serve": ["-m", "scorekeeper.cli", "serve", "--port", "{port}", "--threads", "2", "--hold-slots", "4"],
    "gthread": ["-m", "gunicorn", "-w", "2", "-k", "gthread", "--threads", "6", "-b", "127.0.0.1:{port}",
                *private_options(), "scorekeeper:create_app()"],
}


@pytest.fixture(params=[(server, database) for server in HOLDING_SERVERS for database in ("sqlite", "postgresql")],
                ids=lambda param: "-".join(param))
def holding_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[int, str]]:
    kind, database = request.param
    url = database_for(database, tmp_path)
    for port in run_server(tmp_path, url, HOLDING_SERVERS[kind], SCOREKEEPER_LIVE_HOLDS="4",
                           SCOREKEEPER_LIVE_HOLD_SECONDS=str(HOLD_SECONDS)):
        yield port, url


def run_server(tmp_path: Path, database_url: str, arguments: list[str], **settings: str) -> Iterator[int]:
    env = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DATABASE_URL")}
    env.update(SCOREKEEPER_INSTANCE=str(tmp_path / "instance"), SCOREKEEPER_CREATE_LIMIT="1000 per minute",
               DATABASE_URL=database_url, SECRET_KEY="live-workers", **settings)
    port = free_port()
    log = (tmp_path / "gunicorn.log").open("w")
    process = subprocess.Popen([sys.executable, *(part.format(port=port) for part in arguments)],
                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                assert call(port, "GET", "/")[0] == 200
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
                time.sleep(0.1)  # waiting for the server to listen, not timing anything
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def test_every_worker_sees_every_write_at_once(server: int) -> None:
    status, _, body = call(server, "POST", "/api/v1/matches", {
        "format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}]})
    assert status == 201
    created = json.loads(body)
    public_id, token = created["id"], created["edit_token"]
    status, headers, _ = call(server, "GET", f"/m/{public_id}/live")
    etag = headers["etag"]
    for number in range(1, 9):
        deal = {"bidder": number % 2, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}
        status, _, body = call(server, "POST", f"/api/v1/matches/{public_id}/deals", deal,
                                  {"Authorization": f"Bearer {token}"})
        assert status == 201, body
        for _ in range(WORKERS):  # fresh connections: the polls spread over the workers
            status, headers, part = call(server, "GET", f"/m/{public_id}/live", headers={"If-None-Match": etag})
            assert status == 200, f"a worker answered {status} for the version before deal {number}"
            assert f'id="deal-{number}"' in part.decode()
        etag = headers["etag"]
        for _ in range(WORKERS):
            assert call(server, "GET", f"/m/{public_id}/live", headers={"If-None-Match": etag})[0] == 304


def test_a_held_poll_gets_a_deal_written_by_another_process(holding_server: tuple[int, str]) -> None:
    """A phone keeps asking to be held, as the page does; once one of its polls has been held to the end,
    this test process (not the server) records a deal in the database. The poll then parked is answered
    with it: 200 with ``Preference-Applied`` (a hold that ends unchanged answers 304)."""
    port, database_url = holding_server
    status, _, body = call(port, "POST", "/api/v1/matches", {
        "format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}]})
    assert status == 201
    created = json.loads(body)
    public_id, token = created["id"], created["edit_token"]
    etag = call(port, "GET", f"/m/{public_id}/live")[1]["etag"]

    from scorekeeper import create_app
    writer = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "other-process", "RATELIMIT_ENABLED": False,
                         "MIGRATE_ON_START": False}).test_client()
    for number in range(1, 4):  # a deal written between two polls (not while one is parked) is tried again
        held_once = threading.Event()
        answers: list[tuple[int, dict[str, str], bytes, float]] = []

        def phone(etag: str = etag, answers: list[Any] = answers, held_once: threading.Event = held_once) -> None:
            while True:
                started = time.monotonic()
                status, headers, part = call(port, "GET", f"/m/{public_id}/live",
                                             headers={"If-None-Match": etag, "Prefer": "wait=25"})
                answers.append((status, headers, part, time.monotonic() - started))
                if status != 304:
                    return
                held_once.set()

        looking = threading.Thread(target=phone, daemon=True)
        looking.start()
        assert held_once.wait(HOLD_SECONDS * 10), f"no poll was held: {answers}"
        assert answers[0][1]["preference-applied"] == f"wait={HOLD_SECONDS}"
        deal = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}
        written = writer.post(f"/api/v1/matches/{public_id}/deals", json=deal,
                              headers={"Authorization": f"Bearer {token}"})
        assert written.status_code == 201, written.get_data(as_text=True)
        looking.join(HOLD_SECONDS * 10)
        status, headers, part, _ = answers[-1]
        assert status == 200 and f'id="deal-{number}"' in part.decode()
        etag = headers["etag"]
        if "preference-applied" in headers:
            return  # a held poll got it
    pytest.fail("no deal reached a held poll")
