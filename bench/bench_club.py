"""A club night: many tables writing deals while their phones read the score sheet, and one crowded match.

One waitress process serves the app as ``scorekeeper serve`` runs it (4 threads) on 127.0.0.1, from a
temporary SQLite database or the PostgreSQL database given with ``--database-url`` (new matches are
added to it; nothing is dropped). The load is generated in this process with asyncio (plain HTTP/1.1
over loopback), bounded in count and in time.

``club``: ``--matches`` matches (default 50), each getting ``--deals`` deals (default 30), one every
``--interval`` seconds on average (spread: each wait is drawn between half and one and a half times
it; the tables start at random moments within the first interval), sent to the API without a version
(or with the version last seen: ``--versioned``). Meanwhile ``--phones`` phones per match (default 4)
show its score sheet as the page's script does: each opens the page once, then asks for the sheet's
live part every ``--read-every`` seconds (default 1.5, the page's own interval) on a kept-alive
connection, with ``If-None-Match`` holding the ETag it last got. With ``--reload`` the phones reload the
whole page instead, each time on a new connection with the cookie of their first visit, as a phone
without scripts would.

``live``: what watching phones cost. The tables (one deal every ``--interval`` seconds, here 30 by
default) write for ``--seconds`` (here 60) with no phone watching, then for as long again with
``--phones`` phones a match following the live part as the page's script does: each look asks to be held
(``Prefer: wait=25``) and the next follows at once after a held answer, 1.5 s after any other. The server
holds them in ``--hold-slots`` slots (default as ``scorekeeper serve``; 0 turns holding off: plain
polling every ``--read-every`` seconds). The server's CPU time in each half gives the watchers' share of
one core and their CPU per look, and each write's acknowledgement against the moment each phone first
holds that version gives the live-update delay.

``crowd``: ``--connections`` keep-alive connections (default 40) on ONE match of ``--deals`` deals,
each looping for ``--seconds`` seconds: a write once in ``--write-every`` requests (default 5;
alternately adding a deal and correcting a random earlier one, both without a version, adds stopping
at twice the deals it started with), otherwise a reload of the sheet with the cookie and the last
ETag. Under waitress the server's CPU is split into the app's (its threads' CPU time inside the app) and
the rest (waitress reading, queueing and sending, and the threads taking turns).

With ``--floor`` the crowd is sent to ``floor_app.py``, which answers each request with the sizes and headers
of the app's answer and does nothing else: the server's, Flask's and this load generator's own cost, the
ceiling of any Flask app on this machine.

    python bench/bench_club.py [club|crowd|live|both] [--database-url URL] [--threads 4] [--hold-slots 256] [...]

The crowd's figure before (54–90 requests a second) was measured on another machine. To compare on this
one, check out the code of before (ad2e48d, where this script was added) elsewhere and serve it with
``--code`` under gunicorn (e.g. ``crowd --gunicorn 1 --threads 2 --code ../before``); under waitress, run
that checkout's own ``bench/bench_club.py crowd``, which sends the same load. With ``--code`` the server
runs in that folder, so a SQLite ``--database-url`` must be absolute.

Goals: p99 under 50 ms and no error for the club; for the crowd, five times the requests a second
measured before the writes were made to redo less (54–90 requests a second); for live, 200 watching
phones under 10% of one core, writes' p99 under 50 ms while they watch, and a delay under 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_start import private_options
from bench_web import free_port, wait_until_up

HOLD_SLOTS = 0  # the server holds no poll any more

P99_GOAL_MS = 50.0
WATCHERS_CPU_GOAL = 0.10  # of one core
LIVE_DELAY_GOAL_S = 2.0
HOLD_WAIT_S = 25  # what a phone asks to be held at most (static/phone.js)
CROWD_BEFORE = 90.0  # requests a second of the crowd before (the best of the measured range)


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


def app_config(database_url: str, instance: str) -> dict[str, Any]:
    # One address plays every table here, so the limit on starting matches from one address is lifted.
    return {"DATABASE_URL": database_url, "SECRET_KEY": "bench", "INSTANCE_PATH": instance, "RATELIMIT_ENABLED": False}


def serve(database_url: str, instance: str, port: int, threads: int, hold_slots: int, floor: bool) -> None:
    """Child process: the app (or with ``floor``, ``floor_app``) under waitress, as ``scorekeeper serve
    --threads T --hold-slots H`` runs it."""
    from waitress import serve as waitress_serve

    from scorekeeper import cli, create_app

    logging.getLogger("waitress").setLevel(logging.ERROR)  # a full queue is the point of a load test
    if floor:
        from floor_app import app
    else:
        app = create_app(app_config(database_url, instance) | cli.serving_config(threads, hold_slots))
    cli.settle_for_serving()  # as ``scorekeeper serve`` does
    timed = AppCpu(app, Path(instance) / APP_CPU_FILE)
    signal.signal(signal.SIGUSR1, lambda *_: timed.tell())
    waitress_serve(timed, **cli.server_options("127.0.0.1", port, threads, hold_slots))


APP_CPU_FILE = "app-cpu"


class AppCpu:
    """The app, counting the CPU time its threads spend in it (the rest of the server's is waitress's: reading,
    parsing and queueing requests, handing them to threads, sending answers). ``tell`` writes the count so far
    to ``path`` (on SIGUSR1), after a number that goes up by one each time."""

    def __init__(self, app: Any, path: Path) -> None:
        self.app, self.path = app, path
        self.seconds, self.told = 0.0, 0
        self.lock = threading.Lock()

    def __call__(self, environ: Any, start_response: Any) -> Any:
        start = time.thread_time()
        try:
            return self.app(environ, start_response)
        finally:
            used = time.thread_time() - start
            with self.lock:
                self.seconds += used

    def tell(self) -> None:
        self.told += 1
        self.path.write_text(f"{self.told} {self.seconds}")


def app_cpu_seconds(server_pid: int, folder: str) -> float | None:
    """The CPU seconds the waitress server's threads have spent in the app so far (``AppCpu``), or None."""
    path = Path(folder) / APP_CPU_FILE
    told = path.read_text().split()[0] if path.exists() else "0"
    os.kill(server_pid, signal.SIGUSR1)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        if path.exists() and (text := path.read_text().split()) and len(text) == 2 and text[0] != told:
            return float(text[1])
        time.sleep(0.01)
    return None


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
        head = await self.reader.readuntil(b"\r\n\r\n")
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
        print(f"  {'all':<22}{len(everything):>8}{len(everything) / seconds:>8.1f}"
              f"{percentile(everything, 50):>9.1f}{percentile(everything, 99):>9.1f}")
        print(f"  errors: {errors}")
        for kind, found in self.errors.items():
            for text in found[:3]:
                print(f"    {kind}: {text}")
        return {"requests_per_second": total / seconds, "p99_ms": percentile(everything, 99), "errors": errors}


def percentile(values: list[float], q: int) -> float:
    """The q-th percentile of sorted seconds, in milliseconds (nearest rank)."""
    if not values:
        return float("nan")
    return values[min(len(values) - 1, max(0, round(q / 100 * len(values) + 0.5) - 1))] * 1000


# The two loads -----------------------------------------------------------------------------------------

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
    found = re.search(r'"(?:watch-)?(\d+)-', etag or "")
    return int(found.group(1)) if found else 0


class Tables:
    """Matches getting a deal every ``interval`` seconds on average, each write timed and its version's
    acknowledgement moment kept (match → version → monotonic seconds)."""

    def __init__(self, port: int, args: argparse.Namespace, tally: Tally, seed: int) -> None:
        self.port, self.args, self.tally = port, args, tally
        self.rng = random.Random(seed)
        self.acknowledged: dict[str, dict[int, float]] = defaultdict(dict)

    async def play(self, public_id: str, token: str, until: float, first_deal: int = 1) -> None:
        args = self.args
        await asyncio.sleep(min(self.rng.uniform(0, args.interval), max(0.0, until - time.monotonic())))
        version: int | None = None
        for number in range(first_deal, first_deal + args.deals):
            if time.monotonic() >= until:
                return
            body = deal(number) | ({"version": version} if args.versioned and version else {})
            answer = await self.tally.timed("write: add deal (API)", (201,), once(
                self.port, "POST", f"/api/v1/matches/{public_id}/deals",
                {"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
                json.dumps(body).encode()))
            if answer is not None and answer.status == 201:
                version = json.loads(answer.body)["version"]
                self.acknowledged[public_id][version] = time.monotonic()
            wait = self.rng.uniform(0.5, 1.5) * args.interval
            if time.monotonic() + wait >= until:
                return  # no write after the end: the phones have stopped looking
            await asyncio.sleep(wait)


class Phone:
    """A phone showing one match's sheet: the page once, then its live part every ``every`` seconds on
    a kept-alive connection (or, with ``reload``, the whole page each time on a new connection)."""

    def __init__(self, port: int, public_id: str, cookie: str, tally: Tally, rng: random.Random) -> None:
        self.port, self.public_id, self.cookie, self.tally, self.rng = port, public_id, cookie, tally, rng
        self.seen: dict[int, float] = {}  # version → when this phone first held it
        self.held = 0  # answers the server held

    async def watch(self, every: float, until: float, reload: bool = False, hold: bool = False) -> None:
        """Open the sheet, then follow it (``follow``)."""
        await asyncio.sleep(self.rng.uniform(0, every))  # the phones open the sheet at different moments
        etag = await self.open()
        await self.follow(etag, every, until, reload, hold)

    async def open(self) -> str | None:
        """The sheet's page, as the phone opens it; returns its ETag."""
        page = await self.tally.timed("read: sheet page", (200,), once(
            self.port, "GET", f"/m/{self.public_id}", sheet_headers(self.cookie, None)))
        etag = page.headers.get("etag") if page is not None else None
        self.seen.setdefault(etag_version(etag), time.monotonic())
        return etag

    async def follow(self, etag: str | None, every: float, until: float, reload: bool = False,
                     hold: bool = False) -> None:
        """Ask for the sheet until ``until``. With ``hold``, each look asks to be held (``Prefer: wait``)
        and, as the page's script does, the next one follows at once after a held answer, ``every``
        seconds after any other."""
        connection = Connection(self.port)
        asking = {"Prefer": f"wait={HOLD_WAIT_S}"} if hold else {}
        try:
            while time.monotonic() < until:
                if reload:
                    answer = await self.tally.timed("read: sheet page", (200, 304), once(
                        self.port, "GET", f"/m/{self.public_id}", sheet_headers(self.cookie, etag)))
                else:
                    answer = await self.tally.timed("read: live part", (200, 304), connection.request(
                        "GET", f"/m/{self.public_id}/live", sheet_headers(self.cookie, etag) | asking))
                    if connection.writer is None:
                        connection = Connection(self.port)
                if answer is not None and answer.status == 200:
                    etag = answer.headers.get("etag", etag)
                    self.seen.setdefault(etag_version(etag), time.monotonic())
                if answer is not None and "preference-applied" in answer.headers:
                    self.held += 1
                    continue
                await asyncio.sleep(self.rng.uniform(0.8, 1.2) * every if reload else every)
        finally:
            await connection.close()


def live_delays(tables: Tables, phones: list[Phone]) -> list[float]:
    """For every write a phone of its match saw, the seconds from its acknowledgement to the phone
    holding that version or a newer one."""
    delays = []
    for phone in phones:
        for version, acknowledged in tables.acknowledged[phone.public_id].items():
            later = [moment for seen, moment in phone.seen.items() if seen >= version]
            if later:
                delays.append(max(0.0, min(later) - acknowledged))
    return sorted(delays)


async def open_tables(port: int, args: argparse.Namespace, tally: Tally) -> list[tuple[str, str, list[Phone]]]:
    rng = random.Random(3)
    opened = []
    for n in range(1, args.matches + 1):
        public_id, token = await create_match(port, 0, f"Table {n}")
        phones = [Phone(port, public_id, await first_visit(port, public_id), tally, rng) for _ in range(args.phones)]
        opened.append((public_id, token, phones))
    return opened


def report_cpu(server_pid: int, cpu_before: float, seconds: float, requests: int) -> float:
    """Print the server's CPU time over the load (all its processes): per request and as a share of one
    core; the figure to compare between runs on a busy machine, where requests a second vary."""
    used = cpu_seconds(server_pid) - cpu_before
    print(f"  server CPU: {used:.1f} s = {used / max(requests, 1) * 1000:.2f} ms a request, "
          f"{used / seconds:.0%} of one core")
    return used


async def club(port: int, args: argparse.Namespace, server_pid: int) -> dict[str, Any]:
    tally = Tally()
    opened = await open_tables(port, args, tally)
    tally = Tally()  # the first visits are not part of the load
    for _, _, phones in opened:
        for phone in phones:
            phone.tally = tally
    tables = Tables(port, args, tally, seed=1)
    started = time.monotonic()
    cpu_before = cpu_seconds(server_pid)
    stop = started + args.max_seconds
    writers = [asyncio.create_task(tables.play(public_id, token, stop)) for public_id, token, _ in opened]

    async def until_written() -> None:
        await asyncio.gather(*writers)

    done = asyncio.create_task(until_written())
    phones = [phone for _, _, match_phones in opened for phone in match_phones]

    async def watch(phone: Phone) -> None:
        watching = asyncio.create_task(phone.watch(args.read_every, stop, reload=args.reload))
        await asyncio.wait([done, watching], return_when=asyncio.FIRST_COMPLETED)
        watching.cancel()

    await asyncio.gather(done, *(watch(phone) for phone in phones), return_exceptions=True)
    seconds = time.monotonic() - started
    how = "reloading the page" if args.reload else "on the live part"
    result = tally.report(f"club: {args.matches} matches × {args.deals} deals, {args.phones} phones each "
                          f"{how} every {args.read_every:g} s", seconds)
    report_cpu(server_pid, cpu_before, seconds, sum(len(values) for values in tally.latencies.values()))
    report_delays(live_delays(tables, phones))
    return result


def report_delays(delays: list[float]) -> None:
    if delays:
        print(f"  live-update delay (a write acknowledged → a phone of that match holds it): "
              f"p50 {percentile(delays, 50):.0f} ms, p99 {percentile(delays, 99):.0f} ms, "
              f"max {delays[-1] * 1000:.0f} ms over {len(delays)}")


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds the process and its children (gunicorn's workers) have used so far
    (Linux /proc)."""
    split = CpuSplit.of(pid)
    return split.user + split.system


@dataclass
class CpuSplit:
    """Where a server's CPU time went so far (Linux /proc; the process and its children): user and system
    time, the part of it spent by each process's main thread (waitress's I/O loop: reading and parsing
    requests, sending what the threads could not), and its threads' context switches."""

    user: float = 0.0
    system: float = 0.0
    main_thread: float = 0.0
    switches: int = 0

    @classmethod
    def of(cls, pid: int) -> CpuSplit:
        tick = os.sysconf("SC_CLK_TCK")
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        main = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        split = cls(int(fields[11]) / tick, int(fields[12]) / tick, (int(main[11]) + int(main[12])) / tick)
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                status = (task / "status").read_text()
            except OSError:  # a thread that ended meanwhile
                continue
            split.switches += sum(int(line.split()[1]) for line in status.splitlines() if "ctxt_switches" in line)
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            split += cls.of(int(child))
        return split

    def __add__(self, other: CpuSplit) -> CpuSplit:
        return CpuSplit(self.user + other.user, self.system + other.system, self.main_thread + other.main_thread,
                        self.switches + other.switches)

    def __sub__(self, other: CpuSplit) -> CpuSplit:
        return CpuSplit(self.user - other.user, self.system - other.system, self.main_thread - other.main_thread,
                        self.switches - other.switches)

    def report(self, requests: int) -> None:
        used = self.user + self.system
        print(f"  of which: system {self.system / used:.0%}, the main threads (the server's I/O loop) "
              f"{self.main_thread / used:.0%}; {self.switches / max(requests, 1):.0f} context switches a request")


async def until(stop: float, work: Any) -> None:
    """Run ``work`` until the moment ``stop`` (a look held at that moment is left, not waited for)."""
    try:
        await asyncio.wait_for(work, max(0.0, stop - time.monotonic()))
    except TimeoutError:
        pass


async def follow_from(phone: Phone, etag: str | None, args: argparse.Namespace, stop: float, hold: bool) -> None:
    """A phone that has its page open starts following at a moment of its own."""
    await asyncio.sleep(phone.rng.uniform(0, args.read_every))
    await phone.follow(etag, args.read_every, stop, hold=hold)


async def live(port: int, args: argparse.Namespace, server_pid: int) -> dict[str, Any]:
    opened = await open_tables(port, args, Tally())
    hold = args.hold_slots > 0
    results = {}
    for half, watching in (("writes alone", False), ("writes with phones watching", True)):
        phones = [phone for _, _, match_phones in opened for phone in match_phones] if watching else []
        etags = await asyncio.gather(*(phone.open() for phone in phones))  # opening the page is not watching
        tally = Tally()
        for phone in phones:
            phone.tally = tally
        tables = Tables(port, args, tally, seed=4 if watching else 5)
        started = time.monotonic()
        cpu_before = cpu_seconds(server_pid)
        stop = started + args.seconds
        tasks = [tables.play(public_id, token, stop, first_deal=1000 * watching) for public_id, token, _ in opened]
        tasks += [until(stop, follow_from(phone, etag, args, stop, hold)) for phone, etag in zip(phones, etags)]
        await asyncio.gather(*tasks)
        seconds = time.monotonic() - started
        cpu = cpu_seconds(server_pid) - cpu_before
        tally.report(f"live, {half} ({len(phones)} phones)", seconds)
        writes = sorted(tally.latencies["write: add deal (API)"])
        print(f"  server CPU: {cpu / seconds:.1%} of one core; writes p99 {percentile(writes, 99):.1f} ms")
        report_delays(live_delays(tables, phones))
        results[half] = {"cpu": cpu / seconds, "cpu_seconds": cpu, "seconds": seconds,
                         "writes_p99_ms": percentile(writes, 99),
                         "errors": sum(len(found) for found in tally.errors.values()),
                         "delays": live_delays(tables, phones),
                         "looks": len(tally.latencies["read: live part"]),
                         "held": sum(phone.held for phone in phones)}
    alone, watchers = results["writes alone"], results["writes with phones watching"]
    cost = watchers["cpu"] - alone["cpu"]
    extra_cpu = cost * watchers["seconds"]  # CPU seconds the phones added
    looks = watchers["looks"]
    delays = watchers["delays"]
    met = (cost < WATCHERS_CPU_GOAL and watchers["writes_p99_ms"] < P99_GOAL_MS and watchers["errors"] == 0
           and bool(delays) and delays[-1] < LIVE_DELAY_GOAL_S)
    how = (f"looks held up to {HOLD_WAIT_S} s ({args.hold_slots} hold slots)" if hold
           else f"plain polling every {args.read_every:g} s (no hold slots)")
    print(f"""
live: {args.matches * args.phones} phones ({args.phones} a table, {args.matches} tables, a deal every \
{args.interval:g} s on average), {how}, {args.threads} working threads
  watchers' share of one core   {cost:7.1%}   (goal under {WATCHERS_CPU_GOAL:.0%}; \
{watchers['cpu']:.1%} with them, {alone['cpu']:.1%} without)
  writes p99 while watching     {watchers['writes_p99_ms']:7.1f} ms (goal under {P99_GOAL_MS:.0f} ms; \
{alone['writes_p99_ms']:.1f} ms without them)
  delivery delay                p50 {percentile(delays, 50):.0f} ms, p99 {percentile(delays, 99):.0f} ms, \
max {delays[-1] * 1000 if delays else float('nan'):.0f} ms over {len(delays)} (goal under {LIVE_DELAY_GOAL_S:g} s)
  looks answered                {looks} in {watchers['seconds']:.0f} s = {looks / watchers['seconds']:.1f}/s, \
{watchers['held']} of them held
  server CPU per look           {extra_cpu / looks * 1e6 if looks else float('nan'):7.0f} µs \
(the phones' extra CPU seconds {extra_cpu:.2f} / looks; steadier than the share on a shared machine)
  errors                        {watchers['errors']}
  {'meets' if met else 'misses'} the goal""")
    return {"watchers_cpu": cost, **watchers}


async def crowd(port: int, args: argparse.Namespace, server_pid: int) -> dict[str, Any]:
    rng = random.Random(2)
    public_id, token = await create_match(port, args.deals, "Crowded table")
    cookie = await first_visit(port, public_id)
    tally = Tally()
    deals = {"count": args.deals}
    write_headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    started = time.monotonic()
    cpu_before = cpu_seconds(server_pid)
    split_before = CpuSplit.of(server_pid)
    app_before = app_cpu_seconds(server_pid, args.folder) if not args.gunicorn else None
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
                    "POST", f"/api/v1/matches/{public_id}/deals", write_headers,
                    json.dumps(deal(turn)).encode()))
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
    result = tally.report(f"crowd: {args.connections} connections on one match of {args.deals} deals "
                          f"(ended with {deals['count']})", seconds)
    requests = sum(len(values) for values in tally.latencies.values())
    used = report_cpu(server_pid, cpu_before, seconds, requests)
    (CpuSplit.of(server_pid) - split_before).report(requests)
    app_after = app_cpu_seconds(server_pid, args.folder) if app_before is not None else None
    if app_before is not None and app_after is not None:
        in_app = app_after - app_before
        print(f"  in the app: {in_app / max(requests, 1) * 1000:.2f} ms a request ({in_app / used:.0%}); "
              f"the rest, {(used - in_app) / max(requests, 1) * 1000:.2f} ms, is waitress's and the threads'")
    print(f"  load average at the end (the machine is shared): {os.getloadavg()[0]:.1f}")
    if not args.floor:
        ratio = result["requests_per_second"] / CROWD_BEFORE
        print(f"  {ratio:.1f}× the {CROWD_BEFORE:.0f} requests/s measured before (goal: 5×)")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("load", nargs="?", choices=("club", "crowd", "live", "both"), default="both")
    parser.add_argument("--database-url", help="PostgreSQL (postgresql+psycopg://…) instead of a temporary SQLite file")
    parser.add_argument("--threads", type=int, default=4, help="threads of the server (default 4)")
    parser.add_argument("--gunicorn", type=int, metavar="WORKERS", default=0,
                        help="serve with gunicorn and this many workers (gthread) instead of waitress")
    parser.add_argument("--matches", type=int, default=50, help="club: matches (default 50)")
    parser.add_argument("--deals", type=int, default=30, help="deals a club match gets; the crowded match's deals")
    parser.add_argument("--interval", type=float,
                        help="club, live: mean seconds between a table's deals (default 2; live 30)")
    parser.add_argument("--hold-slots", type=int, default=HOLD_SLOTS,
                        help=f"waitress: live looks held at once (default {HOLD_SLOTS}, as `scorekeeper serve`; "
                             "0: plain polling)")
    parser.add_argument("--phones", type=int, default=4, help="club: phones reading each match (default 4)")
    parser.add_argument("--read-every", type=float, default=1.5,
                        help="club, live: seconds between a phone's looks at the sheet (default 1.5)")
    parser.add_argument("--reload", action="store_true", help="club: phones reload the whole page")
    parser.add_argument("--versioned", action="store_true", help="club: send the version last seen with each deal")
    parser.add_argument("--max-seconds", type=float, default=120, help="club: stop after this long (default 120)")
    parser.add_argument("--connections", type=int, default=40, help="crowd: connections (default 40)")
    parser.add_argument("--seconds", type=float,
                        help="crowd, live: seconds of load (default 20; live 60, each half)")
    parser.add_argument("--write-every", type=int, default=5, help="crowd: one write in this many requests")
    parser.add_argument("--code", metavar="CHECKOUT",
                        help="with --gunicorn: serve the app of this checkout (older code, on the same machine)")
    parser.add_argument("--floor", action="store_true",
                        help="crowd: serve bench/floor_app.py, which only answers, instead of the app")
    parser.add_argument("--serve", nargs=3, metavar=("URL", "INSTANCE", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], args.serve[1], int(args.serve[2]), args.threads, args.hold_slots, args.floor)
        return
    if args.code and not args.gunicorn:
        parser.error("--code needs --gunicorn (an older checkout's own `serve` may differ)")
    if args.floor and (args.load != "crowd" or args.code):
        parser.error("--floor is for the crowd, without --code")
    if args.interval is None:
        args.interval = 30.0 if args.load == "live" else 2.0
    if args.seconds is None:
        args.seconds = 60.0 if args.load == "live" else 20.0

    with tempfile.TemporaryDirectory() as folder:
        database_url = args.database_url or f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        port = free_port()
        args.folder = folder
        code = Path(args.code).resolve() if args.code else Path(__file__).resolve().parent.parent
        paths = [str(code), *([str(Path(__file__).resolve().parent)] if args.floor else [])]  # floor_app.py is here
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        if args.gunicorn:
            env.update(DATABASE_URL=database_url, SECRET_KEY="bench", SCOREKEEPER_INSTANCE=folder,
                       SCOREKEEPER_CREATE_LIMIT="100000 per minute", SCOREKEEPER_FAILED_TOKEN_LIMIT="100000 per minute")
            command = [sys.executable, "-m", "gunicorn", "-w", str(args.gunicorn), "--threads", str(args.threads),
                       "-b", f"127.0.0.1:{port}", *private_options(),
                       "floor_app:app" if args.floor else "scorekeeper:create_app()"]
        else:
            command = [sys.executable, __file__, "--serve", database_url, folder, str(port),
                       "--threads", str(args.threads), "--hold-slots", str(args.hold_slots),
                       *(["--floor"] if args.floor else [])]
        server = subprocess.Popen(command, env=env, cwd=code)  # `python -m` looks in its folder first
        try:
            wait_until_up(f"http://127.0.0.1:{port}/", server, seconds=60)
            print(json.dumps({"database": re.sub(r"//[^@/]*@", "//", database_url.split("?")[0]).split(":")[0],
                              "server": f"gunicorn -w {args.gunicorn}" if args.gunicorn else "waitress",
                              "threads": args.threads, "load": args.load,
                              "code": "bench/floor_app.py" if args.floor else str(code)}))
            results = {}
            if args.load in ("club", "both"):
                results["club"] = asyncio.run(club(port, args, server.pid))
            if args.load in ("crowd", "both"):
                results["crowd"] = asyncio.run(crowd(port, args, server.pid))
            if args.load == "live":
                results["live"] = asyncio.run(live(port, args, server.pid))
        finally:
            server.terminate()
            server.wait(timeout=10)
    club_result = results.get("club")
    if club_result is not None:
        met = club_result["p99_ms"] < P99_GOAL_MS and club_result["errors"] == 0
        print(f"\nclub: p99 {club_result['p99_ms']:.1f} ms, {club_result['errors']} errors: "
              f"{'meets' if met else 'misses'} the goal (p99 under {P99_GOAL_MS:.0f} ms, no error)")


if __name__ == "__main__":
    main()
