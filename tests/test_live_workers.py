"""The live sheet behind gunicorn with several workers: whichever worker a phone's poll reaches, it never
answers "unchanged" for a version older than the newest write, made through any worker."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
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


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[int]:
    env = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DATABASE_URL")}
    env.update(SCOREKEEPER_INSTANCE=str(tmp_path / "instance"), SCOREKEEPER_CREATE_LIMIT="1000 per minute")
    if request.param == "postgresql":
        if not POSTGRES_URL:
            pytest.skip("SCOREKEEPER_TEST_DATABASE_URL is not set")
        env["DATABASE_URL"] = POSTGRES_URL
    port = free_port()
    log = (tmp_path / "gunicorn.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", str(WORKERS), "-b", f"127.0.0.1:{port}", *private_options(),
         "scorekeeper:create_app()"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
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
