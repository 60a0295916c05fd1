"""A club night: tables entering deals while their phones follow the live sheet; and one crowded match.

Each code compared (``--code CHECKOUT``, repeatable, default this checkout; ``--cache-off`` adds this
checkout with ``SHEET_CACHE_BYTES=0``; ``--floor`` adds bench/floor_app.py, crowd only) is served in turn
on 127.0.0.1 by servers.py, on a new SQLite file under waitress as its ``scorekeeper serve`` runs it
(4 threads), or with ``--gunicorn N`` under gunicorn (N gthread workers of ``--threads``), and with
``--postgres URL`` on a new database of that PostgreSQL server. The same load is sent to each, from
this process (asyncio, plain HTTP/1.1, bounded in count and in time), and a table at the end puts the
figures side by side, with the load average of the machine (it is shared) at the start and the end.

``club``: ``--matches`` matches (50) of ``--deals`` deals (30). A run lasts ``--seconds`` (90), far less
than a night, so each match starts with some deals already played (drawn between none and as many as
leave room for the deals the run may add): the pages are of every size a night shows. Each table enters
a deal through the API every ``--interval`` seconds (20) on average (each wait drawn between half and
one and a half times it; the tables start at random moments within the first interval). ``--phones``
phones a match (4) follow the sheet as static/phone.js does: each opens the page once, with the cookie
of its first visit, then asks for the live part ``--read-every`` seconds (1.5) after each answer, on a
kept-alive connection, with ``If-None-Match`` holding the ETag it last got (nothing asks for a poll to
be held). A request on a kept-alive connection that the server closed meanwhile is sent again on a new
one, as browsers do. The live-update delay is the time from a write's answer to a phone of that match
holding that version. Goal: p99 under 50 ms over every request and no error, under waitress on
SQLite and under gunicorn with 2 workers on PostgreSQL.

    python bench/bench_club.py club --code ../before --code . --cache-off
    python bench/bench_club.py club --code ../before --code . --cache-off --gunicorn 2 \\
        --postgres postgresql+psycopg://postgres@127.0.0.1:25499/postgres

``crowd`` (no goal; it shows what was given up): ``--connections`` kept-alive connections (40) on ONE
match of ``--deals`` deals for ``--seconds`` (20), each sending a write once in ``--write-every``
requests (5; alternately adding a deal and correcting an earlier one, without a version; adds stop at
twice the deals it started with), otherwise a reload of the sheet with the cookie and the last ETag.
Its figure is the requests a second as a share of the floor's: floor_app.py answers the same requests
with the app's sizes and headers and does nothing else, the ceiling of any Flask app on this machine.

    python bench/bench_club.py crowd --code ../before --code . --floor
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import re
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from servers import Code, codes, cpu_seconds, database, load_average, served

P99_GOAL_MS = 50.0


def deal(number: int) -> dict[str, Any]:
    """A plain double-deck deal: meld and tricks per side; every third deal the bidders are set."""
    bidder = number % 2
    counters = 30 if number % 3 else 18
    sides: list[dict[str, Any]] = [{}, {}]
    sides[bidder] = {"meld": {"run": 1, "marriage": number % 3}, "tricks": {"counters": counters},
                     "last_trick": True}
    sides[1 - bidder] = {"meld": 6, "tricks": 48 - counters}
    return {"bidder": bidder, "bid": 50, "trump": "H", "sides": sides}


def match_file(deals: int, name: str) -> dict[str, Any]:
    return {
        "format": "pinochle-match/1", "name": name,
        "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
        "rules": {"target": 2000},
        "deals": [deal(n) for n in range(1, deals + 1)],
    }


# HTTP/1.1 over asyncio streams ------------------------------------------------------------------------

@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


class Connection:
    """One HTTP/1.1 connection to the server (kept alive unless ``close``)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"", close: bool = False) -> Answer:
        reused = self.writer is not None
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body or method in ("POST", "PUT"):
            lines.append(f"Content-Length: {len(body)}")
        if close:
            lines.append("Connection: close")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionResetError) as error:
            if not reused or (isinstance(error, asyncio.IncompleteReadError) and error.partial):
                raise
            await self.close()  # the server closed the idle connection: send again on a new one
            return await self.request(method, path, headers, body, close)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        answer_headers: dict[str, str] = {}
        for line in header_lines:
            if ":" in line:
                name, _, value = line.partition(":")
                answer_headers.setdefault(name.strip().lower(), value.strip())
        length = int(answer_headers.get("content-length", "0"))
        content = await self.reader.readexactly(length) if length else b""
        if close or answer_headers.get("connection", "").lower() == "close":
            await self.close()
        return Answer(status, answer_headers, content)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
        self.reader = self.writer = None


async def once(port: int, method: str, path: str, headers: dict[str, str] | None = None,
               body: bytes = b"") -> Answer:
    return await Connection(port).request(method, path, headers, body, close=True)


@dataclass
class Tally:
    """Latencies (seconds) and errors by kind of request."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    async def timed(self, kind: str, expected: tuple[int, ...], call: Any) -> Answer | None:
        start = time.perf_counter()
        try:
            answer: Answer = await asyncio.wait_for(call, timeout=30)
        except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
            self.errors[kind].append(f"{type(error).__name__}: {error}")
            return None
        self.latencies[kind].append(time.perf_counter() - start)
        self.statuses[kind][answer.status] += 1
        if answer.status not in expected:
            self.errors[kind].append(f"status {answer.status}: {answer.body[:200]!r}")
        return answer

    def report(self, title: str, seconds: float) -> dict[str, Any]:
        """Print the figures by kind of request; return them over all requests."""
        total = sum(len(values) for values in self.latencies.values())
        print(f"\n{title}: {total} requests in {seconds:.1f} s = {total / seconds:.1f} requests/s")
        print(f"  {'kind':<22}{'count':>8}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}  statuses")
        everything: list[float] = []
        for kind in sorted(self.latencies):
            values = sorted(self.latencies[kind])
            everything += values
            statuses = " ".join(f"{code}×{count}" for code, count in sorted(self.statuses[kind].items()))
            print(f"  {kind:<22}{len(values):>8}{len(values) / seconds:>8.1f}{percentile(values, 50):>9.1f}"
                  f"{percentile(values, 99):>9.1f}{values[-1] * 1000:>9.1f}  {statuses}")
        everything.sort()
        errors = sum(len(found) for found in self.errors.values())
        print(f"  errors: {errors}")
        for kind, found in self.errors.items():
            for text in found[:3]:
                print(f"    {kind}: {text}")
        return {"requests": total, "requests_per_second": total / seconds, "p50_ms": percentile(everything, 50),
                "p99_ms": percentile(everything, 99), "max_ms": everything[-1] * 1000 if everything else math.nan,
                "errors": errors, **{f"p99 {kind}": percentile(sorted(values), 99)
                                     for kind, values in self.latencies.items()}}


def percentile(values: list[float], q: int) -> float:
    """The q-th percentile of sorted seconds, in milliseconds (nearest rank)."""
    if not values:
        return math.nan
    return values[min(len(values) - 1, max(0, math.ceil(q / 100 * len(values)) - 1))] * 1000


# What phones and tables do ----------------------------------------------------------------------------

async def create_match(port: int, deals: int, name: str) -> tuple[str, str]:
    answer = await once(port, "POST", "/api/v1/matches", {"Content-Type": "application/json"},
                        json.dumps(match_file(deals, name)).encode())
    if answer.status != 201:
        raise SystemExit(f"creating a match answered {answer.status}: {answer.body[:300]!r}")
    data = json.loads(answer.body)
    return data["id"], data["edit_token"]


async def first_visit(port: int, public_id: str) -> str:
    """The cookie a phone keeps after opening the match's link."""
    answer = await once(port, "GET", f"/m/{public_id}")
    if answer.status != 200 or "set-cookie" not in answer.headers:
        raise SystemExit(f"the first visit answered {answer.status}")
    return answer.headers["set-cookie"].split(";", 1)[0]


def sheet_headers(cookie: str, etag: str | None) -> dict[str, str]:
    headers = {"Cookie": cookie, "Accept-Encoding": "gzip, deflate", "Accept": "text/html"}
    if etag:
        headers["If-None-Match"] = etag
    return headers


def etag_version(etag: str | None) -> int:
    """The match version in a sheet ETag (W/"<version>-<build>")."""
    found = re.search(r'"(\d+)-', etag or "")
    return int(found.group(1)) if found else 0


@dataclass
class Table:
    public_id: str
    token: str
    played: int  # deals entered before the run
    phones: list[Phone]


class Phone:
    """A phone showing one match's sheet: the page once, then its live part as static/phone.js asks for it."""

    def __init__(self, port: int, public_id: str, cookie: str, rng: random.Random) -> None:
        self.port, self.public_id, self.cookie, self.rng = port, public_id, cookie, rng
        self.seen: dict[int, float] = {}  # version → when this phone first held it

    async def watch(self, tally: Tally, every: float, until: float) -> None:
        await asyncio.sleep(self.rng.uniform(0, every))  # the phones open the sheet at different moments
        page = await tally.timed("read: sheet page", (200,), once(
            self.port, "GET", f"/m/{self.public_id}", sheet_headers(self.cookie, None)))
        etag = page.headers.get("etag") if page is not None else None
        self.seen.setdefault(etag_version(etag), time.monotonic())
        connection = Connection(self.port)
        try:
            while time.monotonic() + every < until:
                await asyncio.sleep(every)
                answer = await tally.timed("read: live part", (200, 304), connection.request(
                    "GET", f"/m/{self.public_id}/live", sheet_headers(self.cookie, etag)))
                if connection.writer is None:
                    connection = Connection(self.port)
                if answer is not None and answer.status == 200:
                    etag = answer.headers.get("etag", etag)
                    self.seen.setdefault(etag_version(etag), time.monotonic())
        finally:
            await connection.close()


async def play(port: int, table: Table, args: argparse.Namespace, tally: Tally, rng: random.Random,
               acknowledged: dict[int, float], until: float) -> None:
    """A table entering a deal every ``args.interval`` seconds on average until ``until``."""
    wait = rng.uniform(0, args.interval)
    number = table.played
    while time.monotonic() + wait < until and number < args.deals:
        await asyncio.sleep(wait)
        number += 1
        answer = await tally.timed("write: add deal (API)", (201,), once(
            port, "POST", f"/api/v1/matches/{table.public_id}/deals",
            {"Content-Type": "application/json", "Authorization": f"Bearer {table.token}"},
            json.dumps(deal(number)).encode()))
        if answer is not None and answer.status == 201:
            acknowledged[json.loads(answer.body)["version"]] = time.monotonic()
        wait = rng.uniform(0.5, 1.5) * args.interval


def live_delays(tables: list[Table], acknowledged: list[dict[int, float]]) -> list[float]:
    """For every write a phone of its match saw, the seconds from its answer to the phone holding that
    version or a newer one."""
    delays = []
    for table, versions in zip(tables, acknowledged):
        for phone in table.phones:
            for version, moment in versions.items():
                later = [seen_at for seen, seen_at in phone.seen.items() if seen >= version]
                if later:
                    delays.append(max(0.0, min(later) - moment))
    return sorted(delays)


async def club(port: int, args: argparse.Namespace, server_pid: int) -> dict[str, Any]:
    rng = random.Random(3)
    most_added = math.ceil(args.seconds / (args.interval / 2))  # the shortest wait is half the interval
    tables = []
    for n in range(1, args.matches + 1):
        played = rng.randint(0, max(0, args.deals - most_added))
        public_id, token = await create_match(port, played, f"Table {n}")
        phones = [Phone(port, public_id, await first_visit(port, public_id), rng) for _ in range(args.phones)]
        tables.append(Table(public_id, token, played, phones))
    tally = Tally()
    acknowledged: list[dict[int, float]] = [{} for _ in tables]
    started = time.monotonic()
    load_before, cpu_before = load_average(), cpu_seconds(server_pid)
    stop = started + args.seconds
    await asyncio.gather(
        *(play(port, table, args, tally, random.Random(index), versions, stop)
          for index, (table, versions) in enumerate(zip(tables, acknowledged))),
        *(phone.watch(tally, args.read_every, stop) for table in tables for phone in table.phones))
    seconds = time.monotonic() - started
    cpu = cpu_seconds(server_pid) - cpu_before
    result = tally.report(f"club: {args.matches} matches of {args.deals} deals, a deal every {args.interval:g} s, "
                          f"{args.phones} phones each on the live part every {args.read_every:g} s", seconds)
    delays = live_delays(tables, acknowledged)
    added = sum(len(versions) for versions in acknowledged)
    print(f"  deals entered: {added} (matches started with {min(t.played for t in tables)}–"
          f"{max(t.played for t in tables)}); live-update delay p50 {percentile(delays, 50):.0f} ms, "
          f"p99 {percentile(delays, 99):.0f} ms, max {delays[-1] * 1000 if delays else math.nan:.0f} ms")
    return result | {"cpu_ms": cpu / max(result["requests"], 1) * 1000, "cpu_share": cpu / seconds,
                     "delay_p99_ms": percentile(delays, 99), "deals_added": added,
                     "load": f"{load_before} → {load_average()}",
                     "met": result["p99_ms"] < P99_GOAL_MS and result["errors"] == 0}


async def crowd(port: int, args: argparse.Namespace, server_pid: int) -> dict[str, Any]:
    rng = random.Random(2)
    public_id, token = await create_match(port, args.deals, "Crowded table")
    cookie = await first_visit(port, public_id)
    tally = Tally()
    deals = {"count": args.deals}
    write_headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    started = time.monotonic()
    load_before, cpu_before = load_average(), cpu_seconds(server_pid)
    stop = started + args.seconds

    async def client(index: int) -> None:
        connection = Connection(port)
        etag: str | None = None
        turn = index  # the connections' writes fall at different moments
        adding = index % 2 == 0
        while time.monotonic() < stop:
            turn += 1
            if turn % args.write_every:
                answer = await tally.timed("read: sheet", (200, 304), connection.request(
                    "GET", f"/m/{public_id}", sheet_headers(cookie, etag)))
                if answer is not None and answer.status == 200:
                    etag = answer.headers.get("etag", etag)
            elif adding and deals["count"] < 2 * args.deals:
                answer = await tally.timed("write: add deal", (201,), connection.request(
                    "POST", f"/api/v1/matches/{public_id}/deals", write_headers, json.dumps(deal(turn)).encode()))
                if answer is not None and answer.status == 201:
                    deals["count"] = max(deals["count"], json.loads(answer.body)["number"])
                adding = False
            else:
                number = rng.randint(1, args.deals)
                await tally.timed("write: correct deal", (200,), connection.request(
                    "PUT", f"/api/v1/matches/{public_id}/deals/{number}", write_headers,
                    json.dumps(deal(turn)).encode()))
                adding = True
            if connection.writer is None and time.monotonic() < stop:
                connection = Connection(port)
        await connection.close()

    await asyncio.gather(*(client(index) for index in range(args.connections)))
    seconds = time.monotonic() - started
    cpu = cpu_seconds(server_pid) - cpu_before
    result = tally.report(f"crowd: {args.connections} connections on one match of {args.deals} deals "
                          f"(ended with {deals['count']})", seconds)
    return result | {"cpu_ms": cpu / max(result["requests"], 1) * 1000, "cpu_share": cpu / seconds,
                     "load": f"{load_before} → {load_average()}"}


def run(code: Code, args: argparse.Namespace) -> dict[str, Any]:
    """One code under the load, on a database of its own."""
    with tempfile.TemporaryDirectory() as folder, database(args.postgres, Path(folder)) as url:
        with served(code, url, Path(folder), args.gunicorn, args.threads) as server:
            print(f"\n== {code.label}: {server_name(args)} on {url.split(':')[0]}, load average {load_average()}")
            load = club if args.load == "club" else crowd
            return asyncio.run(load(server.port, args, server.pid))


def server_name(args: argparse.Namespace) -> str:
    if args.gunicorn:
        return f"gunicorn -w {args.gunicorn} --threads {args.threads}"
    return f"waitress ({args.threads} threads, as scorekeeper serve)"


def summary(args: argparse.Namespace, results: dict[str, dict[str, Any]]) -> None:
    """The figures side by side, as a Markdown table."""
    print(f"\n{args.load}, {server_name(args)}, {'PostgreSQL' if args.postgres else 'SQLite'}, "
          f"{args.seconds:g} s of load a code")
    if args.load == "club":
        print("| code | requests | req/s | p50 ms | p99 ms | max ms | p99 writes ms | p99 live polls ms | errors "
              "| server CPU ms/req | live delay p99 ms | load avg start → end | goal |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
        for label, r in results.items():
            print(f"| {label} | {r['requests']} | {r['requests_per_second']:.0f} | {r['p50_ms']:.1f} "
                  f"| {r['p99_ms']:.1f} | {r['max_ms']:.0f} | {r.get('p99 write: add deal (API)', math.nan):.1f} "
                  f"| {r.get('p99 read: live part', math.nan):.1f} | {r['errors']} | {r['cpu_ms']:.2f} "
                  f"| {r['delay_p99_ms']:.0f} | {r['load']} | {'met' if r['met'] else 'missed'} |")
        return
    floor = next((r for label, r in results.items() if label.startswith("floor")), None)
    print("| code | req/s | share of the floor | p99 ms | errors | server CPU ms/req | load avg start → end |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for label, r in results.items():
        share = f"{r['requests_per_second'] / floor['requests_per_second']:.2f}" if floor else "–"
        print(f"| {label} | {r['requests_per_second']:.0f} | {share} | {r['p99_ms']:.1f} | {r['errors']} "
              f"| {r['cpu_ms']:.2f} | {r['load']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("load", choices=("club", "crowd"))
    parser.add_argument("--code", action="append", metavar="CHECKOUT",
                        help="serve this checkout's app (repeatable, in this order; default: this checkout)")
    parser.add_argument("--cache-off", action="store_true", help="also this checkout with SHEET_CACHE_BYTES=0")
    parser.add_argument("--floor", action="store_true", help="crowd: also bench/floor_app.py, the ceiling")
    parser.add_argument("--gunicorn", type=int, metavar="WORKERS", default=0,
                        help="serve with gunicorn and this many gthread workers instead of waitress")
    parser.add_argument("--threads", type=int, default=4, help="threads of waitress or of each worker (4)")
    parser.add_argument("--postgres", metavar="URL", help="run each code on a new database of this server")
    parser.add_argument("--seconds", type=float, help="seconds of load a code (club 90, crowd 20)")
    parser.add_argument("--matches", type=int, default=50, help="club: matches (50)")
    parser.add_argument("--deals", type=int, default=30, help="club: deals a match; crowd: the match's deals (30)")
    parser.add_argument("--interval", type=float, default=20.0, help="club: mean seconds between a table's deals")
    parser.add_argument("--phones", type=int, default=4, help="club: phones following each match (4)")
    parser.add_argument("--read-every", type=float, default=1.5, help="club: seconds between a phone's looks")
    parser.add_argument("--connections", type=int, default=40, help="crowd: connections (40)")
    parser.add_argument("--write-every", type=int, default=5, help="crowd: one write in this many requests (5)")
    args = parser.parse_args()
    if args.floor and args.load != "crowd":
        parser.error("--floor is for the crowd")
    if args.seconds is None:
        args.seconds = 90.0 if args.load == "club" else 20.0
    results = {code.label: run(code, args) for code in codes(args.code, args.cache_off, args.floor)}
    summary(args, results)


if __name__ == "__main__":
    main()
