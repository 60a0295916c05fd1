"""Rate limits shared by every process of a deployment: gunicorn with several workers counts in
one Redis server (``RATELIMIT_STORAGE_URI``), so a limit of 10 new matches lets 10 through, not 10 a worker,
and requests sent all at once let exactly the limit through (each count is tested as it is made).
Needs a Redis server: ``SCOREKEEPER_TEST_REDIS_URL`` (``.ci/run`` starts one); skipped without it."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from gunicorn_starts import free_port, private_options

ROOT = Path(__file__).resolve().parent.parent

REDIS_URL = os.environ.get("SCOREKEEPER_TEST_REDIS_URL", "")
WORKERS = 4
LIMIT = 10
SENT = 40
AT_ONCE = 30
DEAL = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 10}]}
WORKED: dict[str, Any] = json.loads((ROOT / "seeds" / "worked-sheet.json").read_text(encoding="utf-8"))
BARE = {**WORKED, "deals": []}  # a match that brings in no deals: only the limit on new matches counts it

pytestmark = pytest.mark.skipif(not REDIS_URL, reason="SCOREKEEPER_TEST_REDIS_URL is not set")


def empty_counts() -> None:
    """The test server's database emptied: no count left from another run or check."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    client.flushdb()
    client.close()


def gunicorn(tmp_path: Path, storage: str, workers: int = WORKERS) -> Iterator[int]:
    """gunicorn with ``workers`` workers counting in ``storage``, a limit of ``LIMIT`` an hour on new matches,
    on deals brought in and on refused tokens; it believes ``X-Forwarded-For``, so each check is its own
    address."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SCOREKEEPER_", "RATELIMIT_"))}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'shared.sqlite'}", SECRET_KEY="shared",
               SCOREKEEPER_INSTANCE=str(tmp_path / "instance"), RATELIMIT_STORAGE_URI=storage,
               SCOREKEEPER_CREATE_LIMIT=f"{LIMIT} per hour", SCOREKEEPER_NEW_DEALS_LIMIT=f"{LIMIT} per hour",
               SCOREKEEPER_FAILED_TOKEN_LIMIT=f"{LIMIT} per hour", SCOREKEEPER_PROXIES="1")
    port = free_port()
    log_path = tmp_path / "gunicorn.log"
    with log_path.open("w") as log:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", str(workers), "-b", f"127.0.0.1:{port}",
                                    *private_options(), "scorekeeper:create_app()"],
                                   cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    assert call(port, "GET", "/rules")[0] == 200
                    break
                except OSError:
                    assert process.poll() is None and time.monotonic() < deadline, log_path.read_text()
                    time.sleep(0.1)  # waiting for the server to listen, not timing anything
            yield port
        finally:
            process.terminate()
            process.wait(timeout=30)


def call(port: int, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, bytes]:
    """One request on its own connection, so that successive requests may reach different workers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if data else {}
        connection.request(method, path, body=data, headers=sent | {name.replace("_", "-"): value
                                                                    for name, value in headers.items()})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def creations(port: int) -> Counter[int]:
    """The statuses of ``SENT`` new matches sent at once, each on its own connection (so to any worker)."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return Counter(pool.map(lambda _: call(port, "POST", "/api/v1/matches", BARE)[0], range(SENT)))


@pytest.fixture(scope="module")
def counted_in_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """One server counting in Redis for the tests of this file (a start costs its workers' imports): its port
    and its folder. Each test empties the counts first."""
    folder = tmp_path_factory.mktemp("shared-limits")
    for port in gunicorn(folder, REDIS_URL):
        yield port, folder


def test_a_limit_holds_across_every_worker_and_a_table_file_counts_its_matches(
        counted_in_redis: tuple[int, Path]) -> None:
    port, folder = counted_in_redis
    assert "counts the rate limits on its own" not in (folder / "gunicorn.log").read_text()
    empty_counts()
    assert creations(port) == Counter({201: LIMIT, 429: SENT - LIMIT})
    assert call(port, "GET", "/api/v1/matches/nothing-here")[0] == 404  # reads are not limited

    empty_counts()
    table = {"format": "scorekeeper-table/1", "name": "Club", "matches": [BARE] * (LIMIT - 2)}
    assert call(port, "POST", "/api/v1/tables/import", table)[0] == 201  # the table and 8 matches: 9
    assert creations(port) == Counter({201: 1, 429: SENT - 1})


def at_once(port: int, method: str, path: str, body: Any, address: str, **headers: str) -> Counter[int]:
    """The statuses of ``AT_ONCE`` requests from ``address``, all waiting at a barrier and then sent together."""
    start = threading.Barrier(AT_ONCE)

    def one(_: int) -> int:
        start.wait()
        return call(port, method, path, body, X_Forwarded_For=address, **headers)[0]

    with ThreadPoolExecutor(max_workers=AT_ONCE) as pool:
        return Counter(pool.map(one, range(AT_ONCE)))


def test_requests_sent_together_pass_each_limit_exactly(counted_in_redis: tuple[int, Path]) -> None:
    """New tables, deals brought in (two a match: five matches fill ten), refused tokens, table files (of no
    match, and of one)."""
    port, _ = counted_in_redis
    empty_counts()
    assert at_once(port, "POST", "/api/v1/tables", {"name": "Club", "players": []}, "192.0.2.1") == Counter(
        {201: LIMIT, 429: AT_ONCE - LIMIT})
    assert at_once(port, "POST", "/api/v1/matches", {**WORKED, "deals": [DEAL] * 2}, "192.0.2.2") == Counter(
        {201: LIMIT // 2, 429: AT_ONCE - LIMIT // 2})
    made = json.loads(call(port, "POST", "/api/v1/matches", WORKED, X_Forwarded_For="192.0.2.3")[1])
    assert at_once(port, "PUT", f"/api/v1/matches/{made['id']}/rules", {"target": 200}, "192.0.2.4",
                   Authorization="Bearer wrong-token") == Counter({403: LIMIT, 429: AT_ONCE - LIMIT})
    table = {"format": "scorekeeper-table/1", "name": "Club", "matches": []}
    assert at_once(port, "POST", "/api/v1/tables/import", table, "192.0.2.5") == Counter(
        {201: LIMIT, 429: AT_ONCE - LIMIT})
    with_a_match = {**table, "matches": [BARE]}  # the table and its match: two each, so five fit
    assert at_once(port, "POST", "/api/v1/tables/import", with_a_match, "192.0.2.6") == Counter(
        {201: LIMIT // 2, 429: AT_ONCE - LIMIT // 2})


def test_limits_counted_in_each_workers_memory_are_told_at_start(tmp_path: Path) -> None:
    """Each worker says so as it builds the app (the first answers before the last has built it). Two workers are
    already more than one to count apart, and each start of a worker costs its imports."""
    for _ in gunicorn(tmp_path, "memory://", workers=2):
        log = (tmp_path / "gunicorn.log").read_text()
        assert "memory:// and gunicorn runs 2 workers: each worker counts the rate limits on its own" in log
