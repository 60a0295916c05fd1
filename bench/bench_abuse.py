"""One address trying to take the server's memory or its time, beside a phone at another table.

Each code compared (``--code CHECKOUT``, repeatable, default this checkout) is served by servers.py under
waitress on 127.0.0.1 (4 threads) on a new SQLite file, with the limits on one address on, as a real
server runs. All of them are up at once and are asked in turn, so that other work on the shared machine
weighs on every figure alike. Traffic goes to loopback only; each run is bounded in requests and time.

- ``memory``: one address imports a match of ``--deals`` deals (1,000), then ``--steps`` times (300) changes
  a deal with the match's edit token (a new version) and reads its sheet. It prints the server's resident
  memory (``VmRSS``) after the import, its highest while stepping and at the end. The goal: it grows by at
  most the sheet cache's budget (``--budget``, the default SHEET_CACHE_BYTES) and 50 MB.
- ``flood``: a phone at 127.0.0.1 reads a 30-deal match's sheet (as a reload: cookie, gzip, no ETag) every
  ``--every`` seconds, alone for ``--seconds`` seconds, then as long again while ``--loops`` loops (8) at
  127.0.0.2 (another address: loopback answers the whole 127/8) read the costliest answers of a 1,000-deal
  match as fast as they are answered: the API's match, one deal, the CSV export, the deal form. It prints the
  phone's p50/p99 in both halves and what the loops were answered. The goal: p99 under the flood at most 5×
  the quiet p99.

    python bench/bench_abuse.py memory --code /tmp/before --code .
    python bench/bench_abuse.py flood --code /tmp/before --code .
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import threading
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_club import deal, match_file
from servers import Code, Served, codes, database, load_average, served

MB = 2**20
FLOOD_ADDRESS = "127.0.0.2"


def request(server: Served, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
            source: str = "127.0.0.1") -> tuple[int, bytes, dict[str, str]]:
    """One request on a connection of its own from the loopback address ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if data is not None else {}
        connection.request(method, path, body=data, headers=sent | (headers or {}))
        response = connection.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        connection.close()


def import_match(server: Served, deals: int, name: str) -> tuple[str, str]:
    """A new match of ``deals`` deals through the API: (its id, its edit token)."""
    status, body, _ = request(server, "POST", "/api/v1/matches", match_file(deals, name))
    if status != 201:
        raise SystemExit(f"the match was not made: {status} {body[:200]!r}")
    answer = json.loads(body)
    return answer["id"], answer["edit_token"]


def rss(pid: int) -> float:
    """The process's resident memory, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no VmRSS for {pid}")


# memory -----------------------------------------------------------------------------------------------

def memory(servers: dict[str, Served], args: argparse.Namespace) -> None:
    made = {label: import_match(server, args.deals, "Long match") for label, server in servers.items()}
    start = {label: rss(server.pid) for label, server in servers.items()}
    highest = dict(start)
    for step in range(args.steps):
        for label, server in servers.items():
            public_id, token = made[label]
            changed = deal(2 + step % 2)  # deal 1 written as two other deals, in turn: a new version each time
            status, body, _ = request(server, "PUT", f"/api/v1/matches/{public_id}/deals/1", changed,
                                      {"Authorization": f"Bearer {token}"})
            if status != 200:
                raise SystemExit(f"{label}: the write was refused: {status} {body[:200]!r}")
            status, _, _ = request(server, "GET", f"/m/{public_id}", headers={"Accept-Encoding": "gzip"})
            if status != 200:
                raise SystemExit(f"{label}: the sheet answered {status}")
            highest[label] = max(highest[label], rss(server.pid))
        if (step + 1) % 25 == 0:
            print(f"{step + 1} versions:", ", ".join(f"{label} {rss(server.pid):.0f} MB"
                                                   for label, server in servers.items()), flush=True)
    goal = args.budget / MB + 50
    print(f"\nOne address: a {args.deals:,}-deal match, {args.steps} versions written and their sheets read "
          f"(load average {load_average()}); goal: growth at most {goal:.0f} MB")
    print(f"{'code':<34} {'after import':>13} {'highest':>9} {'at the end':>11} {'growth':>8}  goal")
    for label, server in servers.items():
        end = rss(server.pid)
        growth = highest[label] - start[label]
        print(f"{label:<34} {start[label]:>10.0f} MB {highest[label]:>6.0f} MB {end:>8.0f} MB {growth:>5.0f} MB  "
              f"{'met' if growth <= goal else 'missed'}")


# flood ------------------------------------------------------------------------------------------------

def costly_paths(public_id: str) -> list[str]:
    return [f"/api/v1/matches/{public_id}", f"/api/v1/matches/{public_id}/deals/500", f"/m/{public_id}/export.csv",
            f"/m/{public_id}/deals/500/edit"]


def flood_loop(server: Served, paths: list[str], until: float, answers: Counter[int]) -> None:
    index = 0
    while time.monotonic() < until:
        status, _, _ = request(server, "GET", paths[index % len(paths)], source=FLOOD_ADDRESS)
        answers[status] += 1
        index += 1


def phone(server: Served, public_id: str, cookie: str, every: float, until: float) -> list[float]:
    """The phone's sheet reloads until ``until``: each one's time in ms."""
    times = []
    while time.monotonic() < until:
        began = time.monotonic()
        status, _, _ = request(server, "GET", f"/m/{public_id}", headers={"Cookie": cookie, "Accept-Encoding": "gzip"})
        times.append((time.monotonic() - began) * 1000)
        if status != 200:
            raise SystemExit(f"the phone's sheet answered {status}")
        time.sleep(max(0.0, every - (time.monotonic() - began)))
    return times


def flood(servers: dict[str, Served], args: argparse.Namespace) -> None:
    rows = []
    for label, server in servers.items():
        long_id, _ = import_match(server, args.deals, "Long match")
        table_id, _ = import_match(server, 30, "At the next table")
        _, _, headers = request(server, "GET", f"/m/{table_id}")
        cookie = headers["Set-Cookie"].split(";", 1)[0]
        quiet = phone(server, table_id, cookie, args.every, time.monotonic() + args.seconds)
        answers: Counter[int] = Counter()
        until = time.monotonic() + args.seconds
        loops = [threading.Thread(target=flood_loop, args=(server, costly_paths(long_id), until, answers))
                 for _ in range(args.loops)]
        for loop in loops:
            loop.start()
        flooded = phone(server, table_id, cookie, args.every, until)
        for loop in loops:
            loop.join()
        rows.append((label, quiet, flooded, answers))
    print(f"\nA phone's sheet at 127.0.0.1, {args.seconds:.0f} s quiet then {args.seconds:.0f} s beside {args.loops} "
          f"loops at {FLOOD_ADDRESS} reading a {args.deals:,}-deal match's costliest answers (load average "
          f"{load_average()}); goal: p99 flooded at most 5× quiet")
    print(f"{'code':<34} {'quiet p50/p99 ms':>17} {'flooded p50/p99 ms':>19} {'ratio':>6}  loops' answers")
    for label, quiet, flooded, answers in rows:
        ratio = p99(flooded) / p99(quiet)
        print(f"{label:<34} {statistics.median(quiet):>7.1f}/{p99(quiet):<8.1f} "
              f"{statistics.median(flooded):>8.1f}/{p99(flooded):<9.1f} {ratio:>6.1f}  "
              f"{dict(sorted(answers.items()))} {'met' if ratio <= 5 else 'missed'}")


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bench", choices=["memory", "flood"])
    parser.add_argument("--code", action="append", help="a checkout to serve (repeatable; default this one)")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=300, help="memory: versions written and read")
    parser.add_argument("--budget", type=int, default=32 * MB, help="memory: the sheet cache's budget, in bytes")
    parser.add_argument("--loops", type=int, default=8, help="flood: read loops at the other address")
    parser.add_argument("--seconds", type=float, default=30, help="flood: quiet, then flooded, this long each")
    parser.add_argument("--every", type=float, default=0.1, help="flood: seconds between the phone's reloads")
    parser.add_argument("--read-limit", action="append", help="also the last code with this READ_LIMIT (repeatable)")
    args = parser.parse_args()
    chosen = [Code(code.label, code.folder, {"RATELIMIT_ENABLED": True}) for code in codes(args.code, False)]
    chosen += [Code(f"{chosen[-1].label.split()[0]}, READ_LIMIT={limit}", chosen[-1].folder,
                    {"RATELIMIT_ENABLED": True, "READ_LIMIT": limit}) for limit in args.read_limit or []]
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        servers = {}
        for index, code in enumerate(chosen):
            instance = Path(folder) / str(index)
            instance.mkdir()
            url = stack.enter_context(database(None, instance))
            servers[code.label] = stack.enter_context(served(code, url, instance))
        (memory if args.bench == "memory" else flood)(servers, args)


if __name__ == "__main__":
    main()
