"""A phone reloading the score sheet, and a live poll that finds nothing new, beside a bare Flask route.

Each code compared (``--code CHECKOUT``, repeatable, default this checkout; ``--cache-off`` adds this
checkout with ``SHEET_CACHE_BYTES=0``) is served by servers.py on 127.0.0.1 under gunicorn with
``--workers`` gthread workers (2) of ``--threads`` threads (4), or with ``--waitress`` as its ``scorekeeper
serve`` runs it, on a new SQLite file (or a new database of the PostgreSQL server ``--postgres URL``)
holding one match of ``--deals`` deals (100). All of them are up at once, and wrk (Debian's ``wrk``,
``--connections`` connections, 8) loads each route of each code in turn, ``--rounds`` times (3), so that
other work on the shared machine weighs on every figure alike:

- bare route: ``servers.BARE_PATH``, a Flask view returning "ok", under the same server;
- sheet, reloaded: ``/m/<id>`` with the cookie of the phone's first visit, as a reload sends it
  (``Accept-Encoding: gzip``, no ETag), so the page is sent each time;
- live, unchanged (304): ``/m/<id>/live`` with the cookie and the current ETag, as static/phone.js asks
  every 1.5 s while nothing changes.

It prints requests a second (mean of the rounds), p99 (the worst round), the server's CPU time per request
(its processes' user and system time over the rounds, steadier on a busy machine) and the load average.

    python bench/bench_web.py --code ../before --code .

Goals: the sheet reloaded at least 0.5× the bare route's requests a second; the 304 costing less than the
page (more requests a second, less CPU per request).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import tempfile
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from bench_club import match_file
from servers import BARE_PATH, Served, codes, cpu_seconds, database, load_average, served

GOAL = 0.5
ROUTES = ("bare route", "sheet, reloaded", "live, unchanged (304)")


def create_match(base: str, deals: int) -> tuple[str, str, str]:
    """A match of ``deals`` deals through the API; (its link, a phone's cookie, the sheet's ETag)."""
    request = urllib.request.Request(f"{base}/api/v1/matches", json.dumps(match_file(deals, "Benchmark")).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        public_id = json.load(response)["id"]
    with urllib.request.urlopen(f"{base}/m/{public_id}", timeout=30) as response:
        response.read()
        cookie = str(response.headers["Set-Cookie"]).split(";", 1)[0]
        etag = str(response.headers["ETag"])
    return public_id, cookie, etag


def routes(server: Served, public_id: str, cookie: str, etag: str) -> dict[str, tuple[str, dict[str, str]]]:
    phone = {"Cookie": cookie, "Accept-Encoding": "gzip"}
    return {
        "bare route": (server.base + BARE_PATH, {}),
        "sheet, reloaded": (f"{server.base}/m/{public_id}", phone),
        "live, unchanged (304)": (f"{server.base}/m/{public_id}/live", phone | {"If-None-Match": etag}),
    }


def wrk(url: str, headers: dict[str, str], seconds: int, connections: int) -> tuple[int, float, float]:
    """Requests answered, requests a second and p99 latency in ms, from wrk's report."""
    options = [part for name, value in headers.items() for part in ("-H", f"{name}: {value}")]
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency", *options, url],
        capture_output=True, text=True, check=True, timeout=seconds + 60,
    ).stdout
    if "Non-2xx" in out or "Socket errors" in out:
        raise SystemExit(f"errors while loading {url}:\n{out}")
    count = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    return count, rate, float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", action="append", metavar="CHECKOUT",
                        help="serve this checkout's app (repeatable; default: this checkout)")
    parser.add_argument("--cache-off", action="store_true", help="also this checkout with SHEET_CACHE_BYTES=0")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2)")
    parser.add_argument("--threads", type=int, default=4, help="threads of each worker, or of waitress (4)")
    parser.add_argument("--waitress", action="store_true", help="serve as `scorekeeper serve` instead")
    parser.add_argument("--postgres", metavar="URL", help="a new database on this PostgreSQL server for each code")
    parser.add_argument("--deals", type=int, default=100, help="deals in the match (100)")
    parser.add_argument("--duration", type=int, default=12, help="seconds of load per route and code (12)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds the routes take turns in (3)")
    parser.add_argument("--connections", type=int, default=8, help="open connections (8)")
    args = parser.parse_args()
    seconds = max(1, round(args.duration / args.rounds))
    measured: dict[tuple[str, str], list[tuple[int, float, float]]] = {}
    cpu: dict[tuple[str, str], float] = {}
    loads = [load_average()]
    with ExitStack() as stack:
        targets: dict[str, tuple[Served, dict[str, tuple[str, dict[str, str]]]]] = {}
        for code in codes(args.code, args.cache_off):
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            url = stack.enter_context(database(args.postgres, folder))
            server = stack.enter_context(served(code, url, folder, 0 if args.waitress else args.workers,
                                                args.threads))
            targets[code.label] = (server, routes(server, *create_match(server.base, args.deals)))
        for _, paths in targets.values():  # warm every worker up before measuring
            for url, headers in paths.values():
                wrk(url, headers, 1, args.connections)
        for _ in range(args.rounds):
            for label, (server, paths) in targets.items():
                for route, (url, headers) in paths.items():
                    before = cpu_seconds(server.pid)
                    measured.setdefault((label, route), []).append(wrk(url, headers, seconds, args.connections))
                    cpu[label, route] = cpu.get((label, route), 0.0) + cpu_seconds(server.pid) - before
            loads.append(load_average())
    report(args, measured, cpu, loads, seconds)


def report(args: argparse.Namespace, measured: dict[tuple[str, str], list[tuple[int, float, float]]],
           cpu: dict[tuple[str, str], float], loads: list[str], seconds: int) -> None:
    server = (f"waitress ({args.threads} threads, as scorekeeper serve)" if args.waitress
              else f"gunicorn -w {args.workers} --threads {args.threads}")
    print(f"\n{server}, {'PostgreSQL' if args.postgres else 'SQLite'}, a match of {args.deals} deals, "
          f"wrk -c{args.connections}, {args.rounds} rounds of {seconds} s a route; load average "
          f"{' → '.join(loads)} (after each round)")
    print("| code | route | req/s | × bare | p99 ms | server CPU ms/req |")
    print("|---|---|---:|---:|---:|---:|")
    rates: dict[tuple[str, str], float] = {}
    for (label, route), rounds in measured.items():
        rates[label, route] = statistics.fmean(rate for _, rate, _ in rounds)
        ratio = rates[label, route] / rates[label, "bare route"]
        count = sum(done for done, _, _ in rounds)
        print(f"| {label} | {route} | {rates[label, route]:.0f} | {ratio:.2f} "
              f"| {max(p99 for _, _, p99 in rounds):.1f} | {cpu[label, route] / count * 1000:.2f} |")
    for label in dict.fromkeys(label for label, _ in measured):
        each = [sheet[1] / bare[1] for sheet, bare in
                     zip(measured[label, "sheet, reloaded"], measured[label, "bare route"])]
        ratio = rates[label, "sheet, reloaded"] / rates[label, "bare route"]
        polls = sum(done for done, _, _ in measured[label, "live, unchanged (304)"])
        pages = sum(done for done, _, _ in measured[label, "sheet, reloaded"])
        cheaper = (rates[label, "live, unchanged (304)"] > rates[label, "sheet, reloaded"]
                   and cpu[label, "live, unchanged (304)"] / polls < cpu[label, "sheet, reloaded"] / pages)
        print(f"{label}: sheet reloaded / bare = {ratio:.2f} (rounds {min(each):.2f}–{max(each):.2f}; "
              f"{'meets' if ratio >= GOAL else 'misses'} the goal of {GOAL}); the 304 "
              f"{'costs less than' if cheaper else 'does NOT cost less than'} the page")


if __name__ == "__main__":
    main()
