"""Two app servers on one database, as two machines would be: nothing depends on what one process holds.

Server A runs as ``scorekeeper serve`` (waitress), server B as gunicorn with two workers; both are separate
processes on the same PostgreSQL (or, without one, the same SQLite file). A phone following a sheet on A sees a
deal saved through B at its next look, and writes sent through A and B to one match at once are all kept.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "")
SERVERS = {
    "A": ["-m", "scorekeeper.cli", "serve", "--port", "{port}", "--threads", "4"],
    "B": ["-m", "gunicorn", "-w", "2", "-b", "127.0.0.1:{port}", "scorekeeper:create_app()"],
}


def call(port: int, method: str, path: str, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection, so that successive requests may reach different workers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if data else {}
        connection.request(method, path, body=data, headers=sent | (headers or {}))
        answer = connection.getresponse()
        return answer.status, {name.lower(): value for name, value in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start(name: str, database_url: str, folder: Path) -> tuple[subprocess.Popen[bytes], int, Path]:
    env = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DATABASE_URL")}
    env.update(SCOREKEEPER_INSTANCE=str(folder / f"instance-{name}"), SCOREKEEPER_CREATE_LIMIT="1000 per minute",
               DATABASE_URL=database_url, SECRET_KEY="two-servers")
    port, log = free_port(), folder / f"server-{name}.log"
    process = subprocess.Popen([sys.executable, *(part.format(port=port) for part in SERVERS[name])],
                               cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    return process, port, log


def wait_until_up(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            if call(port, "GET", "/")[0] == 200:
                return
        except OSError:
            pass
        assert process.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)  # waiting for the server to listen, not timing anything


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, int]]:
    """The ports of server A and server B, both up, on one new database: PostgreSQL when the tests have one
    (as in CI), else a SQLite file. The tests share them, each with matches of its own."""
    tmp_path = tmp_path_factory.mktemp("two-servers")
    if POSTGRES_URL:
        from scorekeeper.db import drop_schema, make_engine

        engine = make_engine(POSTGRES_URL)
        drop_schema(engine)
        engine.dispose()
        database_url = POSTGRES_URL
    else:
        database_url = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    started = [start(name, database_url, tmp_path) for name in SERVERS]
    try:
        for process, port, log in started:
            wait_until_up(process, port, log)
        yield {name: port for name, (_, port, _) in zip(SERVERS, started, strict=True)}
    finally:
        for process, _, _ in started:
            process.terminate()
        for process, _, _ in started:
            process.wait(timeout=30)


def new_match(port: int) -> tuple[str, str]:
    status, _, body = call(port, "POST", "/api/v1/matches", {
        "format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}], "rules": {"target": 5000}})
    assert status == 201, body
    created = json.loads(body)
    return created["id"], created["edit_token"]


def quick_deal(bidder: int) -> dict[str, Any]:
    return {"bidder": bidder, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}


def test_a_phone_on_one_server_sees_a_deal_saved_through_the_other_at_its_next_look(servers: dict[str, int]) -> None:
    """The phone looks every 1.5 s (static/phone.js): seen at the first look after the save, a deal shows
    within 2 s of it."""
    public_id, token = new_match(servers["B"])
    status, headers, _ = call(servers["A"], "GET", f"/m/{public_id}/live")
    assert status == 200
    etag = headers["etag"]
    for number in range(1, 6):
        assert call(servers["A"], "GET", f"/m/{public_id}/live", headers={"If-None-Match": etag})[0] == 304
        status, _, body = call(servers["B"], "POST", f"/api/v1/matches/{public_id}/deals", quick_deal(number % 2),
                               {"Authorization": f"Bearer {token}"})
        assert status == 201, body
        for _ in range(3):  # new connections: under gunicorn, several workers may answer
            status, headers, part = call(servers["A"], "GET", f"/m/{public_id}/live", headers={"If-None-Match": etag})
            assert status == 200, f"server A answered {status} for the version before deal {number}"
            assert f'id="deal-{number}"' in part.decode()
        etag = headers["etag"]
        status, _, page = call(servers["B"], "GET", f"/m/{public_id}/live", headers={"If-None-Match": etag})
        assert status == 304, "the two servers give the same version the same ETag"


def test_writes_through_both_servers_at_once_are_all_kept(servers: dict[str, int]) -> None:
    """Deals added without a version through A and B at once: each is acknowledged once and stored once.
    Corrections sent with the version both read: one is saved, the other refused (409), none lost silently."""
    public_id, token = new_match(servers["A"])
    auth = {"Authorization": f"Bearer {token}"}
    sends = [(name, index) for index in range(12) for name in SERVERS]

    def add(send: tuple[str, int]) -> int:
        name, index = send
        status, _, body = call(servers[name], "POST", f"/api/v1/matches/{public_id}/deals", quick_deal(index % 2),
                               auth | {"Idempotency-Key": f"deal-{name}-{index:04d}"})
        assert status == 201, body
        number: int = json.loads(body)["number"]
        return number

    with ThreadPoolExecutor(max_workers=8) as pool:
        numbers = list(pool.map(add, sends))
    assert sorted(numbers) == list(range(1, len(sends) + 1))
    status, _, body = call(servers["B"], "GET", f"/api/v1/matches/{public_id}", headers=auth)
    match = json.loads(body)
    assert status == 200 and len(match["match"]["deals"]) == len(sends)

    version = match["version"]

    def correct(send: tuple[str, int]) -> int:
        name, bid = send
        deal = quick_deal(0) | {"bid": bid, "version": version}
        return call(servers[name], "PUT", f"/api/v1/matches/{public_id}/deals/1", deal, auth)[0]

    with ThreadPoolExecutor(max_workers=2) as pool:
        statuses = sorted(pool.map(correct, [("A", 55), ("B", 65)]))
    assert statuses == [200, 409]
    status, _, body = call(servers["A"], "GET", f"/api/v1/matches/{public_id}", headers=auth)
    after = json.loads(body)
    assert after["version"] == version + 1 and after["match"]["deals"][0]["bid"] in (55, 65)
