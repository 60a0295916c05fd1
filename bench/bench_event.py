"""A club event during a round: every table entering deals, its phones following their sheets, one big
screen following the standings; then the standings of a finished evening, warm.

The app is served as bench_club.py serves it (servers.py: waitress on a new SQLite file as ``scorekeeper
serve`` runs it, or ``--gunicorn N`` workers, and ``--postgres URL`` for a new database of that server).

``round``: a progressive event of ``--tables`` tables (25, so 4 × 25 players) whose first ``--played``
rounds (2) are already played, ``--deals`` deals a table (8) entered through the API, so the standings
cover earlier rounds too. The next round is seated and for ``--seconds`` (60) each table enters a deal
through the match API every ``--interval`` seconds (20) on average, up to the round's deals; ``--phones``
phones a table (4) follow the live part of their sheet with ETags as bench_club does; one big screen asks
for the standings (``/api/v1/standings/<id>``, with the ETag it last got: worked out anew once a deal or the director
changed them) every ``--screen-every`` seconds (2). Goal: p99 under 50 ms over every request, no error.

``finished``: the standings of 40 players after 6 rounds of ``--deals`` deals, asked ``--asks`` times (20)
once every table's match has been read once (warm). Goal: p99 under 50 ms.

    python bench/bench_event.py --cache-off
    python bench/bench_event.py --cache-off --gunicorn 2 --postgres postgresql+psycopg://postgres@127.0.0.1:25499/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_club import P99_GOAL_MS, Phone, Table, Tally, deal, first_visit, live_delays, once, percentile, play
from servers import ROOT, Code, cpu_seconds, database, load_average, served

JSON = {"Content-Type": "application/json"}


async def make_event(port: int, players: int, rounds: int, deals: int) -> dict[str, Any]:
    body = {"name": "Bench night", "format": "progressive", "rules": {"target": 2000},
            "round_end": {"deals": deals}, "rounds": rounds, "players": [f"Player {n:03}" for n in range(players)]}
    answer = await once(port, "POST", "/api/v1/events", JSON, json.dumps(body).encode())
    if answer.status != 201:
        raise SystemExit(f"making the event answered {answer.status}: {answer.body[:300]!r}")
    made: dict[str, Any] = json.loads(answer.body)
    return made


async def seat(port: int, event: dict[str, Any]) -> list[dict[str, Any]]:
    answer = await once(port, "POST", f"/api/v1/events/{event['id']}/rounds",
                        {"Authorization": f"Bearer {event['director_token']}"})
    if answer.status != 201:
        raise SystemExit(f"seating a round answered {answer.status}: {answer.body[:300]!r}")
    tables: list[dict[str, Any]] = json.loads(answer.body)["tables"]
    return tables


async def play_round(port: int, tables: list[dict[str, Any]], deals: int) -> None:
    """Every table enters its round's deals, the tables side by side."""
    async def table(match: dict[str, Any]) -> None:
        headers = JSON | {"Authorization": f"Bearer {match['edit_token']}"}
        for number in range(1, deals + 1):
            answer = await once(port, "POST", f"/api/v1/matches/{match['id']}/deals", headers,
                                json.dumps(deal(number)).encode())
            if answer.status != 201:
                raise SystemExit(f"a deal answered {answer.status}: {answer.body[:300]!r}")

    await asyncio.gather(*(table(seated["match"]) for seated in tables))


async def screen(port: int, standings_id: str, tally: Tally, every: float, until: float) -> None:
    """The big screen: the standings every ``every`` seconds, with the ETag it last got."""
    etag: str | None = None
    while time.monotonic() + every < until:
        await asyncio.sleep(every)
        answer = await tally.timed("read: standings (screen)", (200, 304), once(
            port, "GET", f"/api/v1/standings/{standings_id}", {"If-None-Match": etag} if etag else {}))
        if answer is not None and answer.status == 200:
            etag = answer.headers.get("etag", etag)


async def during_a_round(port: int, args: argparse.Namespace, server_pid: int) -> dict[str, Any]:
    event = await make_event(port, 4 * args.tables, args.played + 1, args.deals)
    for _ in range(args.played):
        await play_round(port, await seat(port, event), args.deals)
    rng = random.Random(5)
    tables = []
    for seated in await seat(port, event):
        match = seated["match"]
        phones = [Phone(port, match["id"], await first_visit(port, match["id"]), rng) for _ in range(args.phones)]
        tables.append(Table(match["id"], match["edit_token"], 0, phones))
    standings_id = event["links"]["standings_data"].rsplit("/", 1)[-1]
    tally = Tally()
    acknowledged: list[dict[int, float]] = [{} for _ in tables]
    started = time.monotonic()
    load_before, cpu_before = load_average(), cpu_seconds(server_pid)
    stop = started + args.seconds
    await asyncio.gather(
        *(play(port, table, args, tally, random.Random(index), versions, stop)
          for index, (table, versions) in enumerate(zip(tables, acknowledged))),
        *(phone.watch(tally, args.read_every, stop) for table in tables for phone in table.phones),
        screen(port, standings_id, tally, args.screen_every, stop))
    seconds = time.monotonic() - started
    cpu = cpu_seconds(server_pid) - cpu_before
    result = tally.report(f"round {args.played + 1} of an event of {args.tables} tables: a deal every "
                          f"{args.interval:g} s a table, {args.phones} phones a table, the standings every "
                          f"{args.screen_every:g} s", seconds)
    delays = live_delays(tables, acknowledged)
    per_request = cpu / max(result["requests"], 1) * 1000
    print(f"  deals entered: {sum(len(v) for v in acknowledged)}; "
          f"live-update delay p99 {percentile(delays, 99):.0f} ms; server CPU {per_request:.2f} ms a request; "
          f"load {load_before} → {load_average()}")
    return result


async def finished_standings(port: int, args: argparse.Namespace) -> dict[str, Any]:
    event = await make_event(port, 40, 6, args.deals)
    for _ in range(6):
        await play_round(port, await seat(port, event), args.deals)
    path = f"/api/v1/events/{event['id']}/standings"
    for _ in range(4 * max(1, args.gunicorn)):  # every match read once by every worker: warm
        await once(port, "GET", path)
    tally = Tally()
    started = time.monotonic()
    for _ in range(args.asks):
        await tally.timed("read: standings 40×6", (200,), once(port, "GET", path))
    return tally.report(f"finished event: 40 players, 6 rounds of {args.deals} deals, standings warm",
                        time.monotonic() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gunicorn", type=int, metavar="WORKERS", default=0,
                        help="serve with gunicorn and this many gthread workers instead of waitress")
    parser.add_argument("--threads", type=int, default=4, help="threads of waitress or of each worker (4)")
    parser.add_argument("--postgres", metavar="URL", help="run on a new database of this server")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of the round's load (60)")
    parser.add_argument("--tables", type=int, default=25, help="tables of the event (25)")
    parser.add_argument("--played", type=int, default=2, help="rounds played before the load (2)")
    parser.add_argument("--deals", type=int, default=8, help="deals a round (8)")
    parser.add_argument("--interval", type=float, default=20.0, help="mean seconds between a table's deals (20)")
    parser.add_argument("--phones", type=int, default=4, help="phones following each table's sheet (4)")
    parser.add_argument("--read-every", type=float, default=1.5, help="seconds between a phone's looks (1.5)")
    parser.add_argument("--screen-every", type=float, default=2.0, help="seconds between the screen's looks (2)")
    parser.add_argument("--asks", type=int, default=20, help="finished: times the standings are asked (20)")
    parser.add_argument("--cache-off", action="store_true",
                        help="also this checkout with EVENT_SCORES_DEALS=0 (no event table's match kept)")
    args = parser.parse_args()
    server = f"gunicorn -w {args.gunicorn}" if args.gunicorn else "waitress"
    here = Code.checkout(str(ROOT))
    chosen = [here] + ([Code(f"{here.label.split()[0]}, EVENT_SCORES_DEALS=0", ROOT, {"EVENT_SCORES_DEALS": 0})]
                       if args.cache_off else [])
    rows = []
    for code in chosen:
        with tempfile.TemporaryDirectory() as folder, database(args.postgres, Path(folder)) as url:
            with served(code, url, Path(folder), args.gunicorn, args.threads) as running:
                print(f"== {code.label}: {server} on {url.split(':')[0]}, load average {load_average()}")
                during = asyncio.run(during_a_round(running.port, args, running.pid))
                finished = asyncio.run(finished_standings(running.port, args))
        met = during["p99_ms"] < P99_GOAL_MS and during["errors"] == 0 and finished["p99_ms"] < P99_GOAL_MS
        rows.append(f"| {code.label} | {server} | {'PostgreSQL' if args.postgres else 'SQLite'} "
                    f"| {during['p99_ms']:.1f} | {during.get('p99 read: standings (screen)', float('nan')):.1f} "
                    f"| {during['errors'] + finished['errors']} | {finished['p50_ms']:.1f} / {finished['p99_ms']:.1f} "
                    f"| {'met' if met else 'missed'} |")
    print("\n| code | server | database | p99 ms during the round | p99 ms standings (screen) | errors | "
          "standings 40×6 warm p50 / p99 ms | goal |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    print("\n".join(rows))

if __name__ == "__main__":
    main()
