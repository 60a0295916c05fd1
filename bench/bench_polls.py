"""What one look of a phone following a score sheet costs the server, against what any request costs it.

A phone showing a sheet asks for its live part every 1.5 s; nearly every answer is 304. This measures the
server's CPU time (user + system, from /proc) per such look, one connection kept alive, asked one after
another (``--requests`` times): through ``scorekeeper serve``'s waitress and the app, and through the same
waitress with a bare WSGI app that answers 304 at once (the floor: what waitress itself costs a request).
It also measures a look that finds a newer version (200 with the live part, drawn once and then taken
from the cache): with held looks (docs/live.md) that is what each phone asks when a deal is saved.

    python bench/bench_polls.py [--requests 3000] [--threads 4]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_club import cpu_seconds
from bench_web import free_port, wait_until_up

ROOT = Path(__file__).resolve().parent.parent
BARE = """
import sys
from waitress import serve
from scorekeeper.cli import server_options

def app(environ, start_response):
    start_response("304 Not Modified", [("ETag", 'W/"1-x"'), ("Cache-Control", "private, no-cache")])
    return []

serve(app, **server_options("127.0.0.1", int(sys.argv[1]), int(sys.argv[2])))
"""


def wait_listening(port: int, server: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)


def cpu_per_request(pid: int, port: int, path: str, headers: dict[str, str], count: int,
                    expected: int = 304) -> float:
    """Server CPU microseconds per request, ``count`` requests one after another on one connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    before = cpu_seconds(pid)
    for _ in range(count):
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        answer.read()
        if answer.status != expected:
            raise SystemExit(f"{path} answered {answer.status}, not {expected}")
    connection.close()
    return (cpu_seconds(pid) - before) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        app = subprocess.Popen([sys.executable, str(ROOT / "bench" / "bench_club.py"), "--serve",
                                f"sqlite:///{folder}/bench.sqlite", folder, str(port), "--threads", str(args.threads)],
                               env=env)
        try:
            wait_until_up(f"http://127.0.0.1:{port}/", app, seconds=60)
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("POST", "/api/v1/matches", headers={"Content-Type": "application/json"},
                               body=json.dumps({"format": "pinochle-match/1", "sides": [{"name": "A"}, {"name": "B"}]}))
            public_id = json.loads(connection.getresponse().read())["id"]
            connection.request("GET", f"/m/{public_id}/live")
            answer = connection.getresponse()
            answer.read()
            etag = answer.getheader("ETag") or ""
            app_cost = cpu_per_request(app.pid, port, f"/m/{public_id}/live", {"If-None-Match": etag}, args.requests)
            woken_cost = cpu_per_request(app.pid, port, f"/m/{public_id}/live",
                                         {"If-None-Match": 'W/"0-older"', "Accept-Encoding": "gzip"},
                                         args.requests // 3, expected=200)
        finally:
            app.terminate()
            app.wait(timeout=10)
    port = free_port()
    bare = subprocess.Popen([sys.executable, "-c", BARE, str(port), str(args.threads)], env=env)
    try:
        wait_listening(port, bare)
        floor = cpu_per_request(bare.pid, port, "/m/x/live", {}, args.requests)
    finally:
        bare.terminate()
        bare.wait(timeout=10)
    print(f"a phone's look at an unchanged sheet: {app_cost:.0f} µs of server CPU")
    print(f"a look that finds a newer version (what a held look woken by a deal costs): {woken_cost:.0f} µs")
    print(f"any request to the same waitress, answered at once by a bare app: {floor:.0f} µs")
    print(f"200 phones looking every 1.5 s: {200 / 1.5 * app_cost / 1e6:.1%} of one core at this rate "
          f"(requests one after another; spread out in time each costs more)")


if __name__ == "__main__":
    main()
