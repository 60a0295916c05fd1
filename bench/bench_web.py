"""Requests a second and p99 latency of the score sheet of a 100-deal match, beside a bare route.

Both are served in the same run by one waitress process on 127.0.0.1, from a temporary SQLite
database, and loaded with wrk (``--latency``) when it is installed, otherwise with a small Python
load generator. Goal: the sheet answers at least half as many requests a second as the bare route.

The sheet is loaded twice: as a new phone opening the link (no cookie, so every answer also writes
the cookie that remembers the match on the device) and as a phone at the table reloading it (it
sends the cookie it was given on its first visit, as a browser does).

    python bench/bench_web.py [--deals 100] [--duration 12] [--rounds 3] [--connections 8] [--threads 4]
                              [--breakdown]

``--breakdown`` also times one sheet request in-process, served from the sheet cache and drawn
afresh (the first view of a version), with the parts of drawing: database, parsing the stored
facts, scoring them (checks included), and the rest (template and chart).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

GOAL = 0.5
BARE_PATH = "/bench/bare"
HANDS = (  # one player's cards for meld from cards, cycled through the deals (double deck)
    "AH 10H KH QH JH KH QH QS JD AS AC AD KS QC JC 10D 10S KD QD JS",
    "AS 10S KS QS JS QS JD JD AC AH AD KH QH KC QC 10C JH KD 10H AS",
    "KH QH KS QS KD QD KC QC AH AS AD AC JD QS JH JC JS 10H 10D 10C",
)


def deal(number: int) -> dict[str, Any]:
    """A varied, consistent double-deck deal: sets, cards, counters and plain numbers; some set."""
    bidder = number % 2
    other = 1 - bidder
    counters = 30 if number % 3 else 18  # every third deal the bidders are set
    sides: list[dict[str, Any]] = [{}, {}]
    if number % 5 == 0:
        sides[bidder] = {"meld": {"cards": HANDS[number % len(HANDS)].split(), "trump": "H"}}
    else:
        sides[bidder] = {"meld": {"run": 1, "pinochle": 1, "marriage": number % 3}}
    sides[bidder].update({"tricks": {"counters": counters}, "last_trick": True})
    sides[other] = {"meld": 6 if number % 4 else {"aces_around": 1}, "tricks": 48 - counters}
    return {"bidder": bidder, "bid": 50, "trump": "H", "sides": sides}


def match_file(deals: int) -> dict[str, Any]:
    return {
        "format": "pinochle-match/1",
        "name": "Benchmark",
        "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
        "rules": {"target": 2000},
        "deals": [deal(n) for n in range(1, deals + 1)],
    }


def app_config(database: Path) -> dict[str, Any]:
    return {"DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "bench", "INSTANCE_PATH": str(database.parent)}


def create_match(database: Path, deals: int) -> str:
    """Store the match through the app's store; returns its public id."""
    from scorekeeper import create_app
    from scorekeeper.rules.matchfile import match_from_json
    from scorekeeper.store import writing

    app = create_app(app_config(database))
    with app.app_context():
        public_id = writing.create_match(match_from_json(match_file(deals))).public_id
    app.extensions["scorekeeper.engine"].dispose()
    return public_id


def serve(database: Path, port: int, threads: int) -> None:
    """Child process: the app plus one bare route, under waitress as ``scorekeeper serve`` runs it."""
    from waitress import serve as waitress_serve

    from scorekeeper import create_app
    from scorekeeper.cli import server_options

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # a full queue is the point of a load test
    app = create_app(app_config(database))
    app.add_url_rule(BARE_PATH, "bench_bare", lambda: "ok")
    waitress_serve(app, **server_options("127.0.0.1", port, threads))


def breakdown(database: Path, public_id: str, repeats: int = 10) -> dict[str, float]:
    """Milliseconds per sheet request in-process: served from the sheet cache, and drawn (the first
    view of a version) with its parts: DB, parsing, scoring, and the rest."""
    from scorekeeper import create_app
    from scorekeeper.db import get_session
    from scorekeeper.rules.scoring import score_match
    from scorekeeper.store import reading
    from scorekeeper.views.matches import _draw_sheet

    app = create_app(app_config(database))
    client = app.test_client(use_cookies=False)

    def per_call(run: Any) -> float:
        """The best of five batches, so that other work on the machine shows less."""
        run()
        batches = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(repeats):
                run()
            batches.append((time.perf_counter() - start) / repeats * 1000)
        return min(batches)

    parts = {"view, page cached": per_call(lambda: client.get(f"/m/{public_id}"))}
    with app.test_request_context(f"/m/{public_id}"):
        parts["view drawing the page"] = per_call(lambda: _draw_sheet(public_id))

        def load_rows() -> None:
            get_session().expire_all()
            row = reading.get_match_or_404(public_id)
            _ = (row.deals, row.sides)

        parts["  DB: match, deals, sides"] = per_call(load_rows)
        row = reading.get_match_or_404(public_id)
        # each step on freshly parsed facts, as in a request (nothing cached on the objects)
        parse = per_call(lambda: reading.to_core(row))
        parts["  rows to Match (parse)"] = parse
        parts["  score_match (with its checks)"] = per_call(lambda: score_match(reading.to_core(row))) - parse
    drawn = [ms for label, ms in parts.items() if label.startswith("  ")]
    parts["  rest: template and chart"] = parts["view drawing the page"] - sum(drawn)
    app.extensions["scorekeeper.engine"].dispose()
    return parts


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(url: str, server: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                response.read()
                return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)


def device_cookie(url: str) -> str:
    """The cookie a phone keeps after opening ``url`` once (``name=value``)."""
    with urllib.request.urlopen(url, timeout=10) as response:
        response.read()
        return str(response.headers["Set-Cookie"]).split(";", 1)[0]


def load_with_wrk(url: str, duration: int, connections: int, cookie: str = "") -> tuple[float, float]:
    """Requests a second and p99 latency in ms, from wrk's report."""
    headers = ["-H", f"Cookie: {cookie}"] if cookie else []
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--timeout", "10s", "--latency", *headers, url],
        capture_output=True, text=True, check=True, timeout=duration + 60,
    ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    p99 = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    if "Non-2xx" in out or "Socket errors" in out:
        raise SystemExit(f"errors while loading {url}:\n{out}")
    return rate, p99


def load_with_python(url: str, duration: int, connections: int, cookie: str = "") -> tuple[float, float]:
    """The same figures from ``connections`` threads looping on urllib (slower than wrk)."""
    latencies: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + duration
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})

    def worker() -> None:
        mine = []
        while time.monotonic() < stop:
            start = time.perf_counter()
            with urllib.request.urlopen(request, timeout=10) as response:
                response.read()
                if response.status != 200:
                    raise SystemExit(f"{url} answered {response.status}")
            mine.append(time.perf_counter() - start)
        with lock:
            latencies.extend(mine)

    workers = [threading.Thread(target=worker) for _ in range(connections)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    p99 = statistics.quantiles(latencies, n=100)[98] * 1000
    return len(latencies) / duration, p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals in the match (default 100)")
    parser.add_argument("--duration", type=int, default=12, help="seconds of load per route (default 12)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds the routes take turns in (default 3)")
    parser.add_argument("--connections", type=int, default=8, help="open connections (default 8)")
    parser.add_argument("--threads", type=int, default=4, help="waitress threads (default 4)")
    parser.add_argument("--breakdown", action="store_true",
                        help="also time the parts of one sheet request in-process")
    parser.add_argument("--serve", nargs=2, metavar=("DATABASE", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(Path(args.serve[0]), int(args.serve[1]), args.threads)
        return

    load = load_with_wrk if shutil.which("wrk") else load_with_python
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite"
        public_id = create_match(database, args.deals)
        parts = breakdown(database, public_id) if args.breakdown else {}
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(database), str(port), "--threads", str(args.threads)],
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
        )
        try:
            base = f"http://127.0.0.1:{port}"
            sheet_url, bare_url = f"{base}/m/{public_id}", base + BARE_PATH
            for url in (sheet_url, bare_url):
                wait_until_up(url, server)
            cookie = device_cookie(sheet_url)
            load(sheet_url, 1, args.connections)  # warm up both before measuring
            load(bare_url, 1, args.connections)
            runs: dict[str, tuple[str, str]] = {
                "sheet, new phone": (sheet_url, ""),
                "sheet, reloaded": (sheet_url, cookie),
                "bare route": (bare_url, ""),
            }
            # Rounds take turns, so that other work on the machine weighs on every route alike.
            seconds = max(1, round(args.duration / args.rounds))
            measured: dict[str, list[tuple[float, float]]] = {label: [] for label in runs}
            for _ in range(args.rounds):
                for label, (url, with_cookie) in runs.items():
                    measured[label].append(load(url, seconds, args.connections, with_cookie))
        finally:
            server.terminate()
            server.wait(timeout=10)

    print(json.dumps({"load": load.__name__, "deals": args.deals, "connections": args.connections,
                      "seconds_per_route": seconds * args.rounds, "rounds": args.rounds}))
    print(f"{'route':<22}{'requests/s':>12}{'p99 ms':>10}")
    rates = {label: statistics.fmean(rate for rate, _ in rounds) for label, rounds in measured.items()}
    for label, rounds in measured.items():
        print(f"{label:<22}{rates[label]:>12.0f}{max(p99 for _, p99 in rounds):>10.1f}")
    print("(requests/s: mean of the rounds; p99: the worst round)")
    for label in ("sheet, new phone", "sheet, reloaded"):
        ratio = rates[label] / rates["bare route"]
        each = [sheet[0] / bare[0] for sheet, bare in zip(measured[label], measured["bare route"])]
        verdict = "meets" if ratio >= GOAL else "misses"
        print(f"{label} / bare = {ratio:.2f} ({verdict} the goal of {GOAL:.2f}; rounds "
              f"{min(each):.2f}–{max(each):.2f})")
    if parts:
        print("\none sheet request in-process, ms:")
        for label, ms in parts.items():
            print(f"  {label:<32}{ms:>8.2f}")


if __name__ == "__main__":
    main()
