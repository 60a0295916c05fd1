"""Rate limits under requests sent all at once: how many pass a limit of 10.

Each code compared (``--code CHECKOUT``, repeatable, default this checkout) is served in turn by
servers.py under gunicorn (``--gunicorn`` workers, 4, of 4 threads) on 127.0.0.1, on a new SQLite file,
counting its limits in the Redis server ``--redis URL`` (default ``SCOREKEEPER_TEST_REDIS_URL``) and
believing ``X-Forwarded-For``, so that each round is an address of its own and starts with no count
(``198.N.…``, N counting on from a random start).
``--rounds`` rounds (6) of ``--at-once`` requests (30), each on its own connection, held at a barrier and
released together, are sent against each limit set to 10 an hour:

- ``create-match``: a new match bringing in no deals (``POST /api/v1/matches``);
- ``new-deals``: a new match bringing in one deal, on a server whose limit on new matches is out of the way;
- ``edit-token``: a rule change with a wrong token (``PUT …/rules``), answered 403 while under the limit;
- ``table-file``: a table file of no matches (``POST /api/v1/tables/import``);
- ``table-file+1``: a table file of one match: it makes two (the table and its match), so 5 fit.

Goal: exactly 10 pass each round (5 of the table files of one match), whatever the number of workers.
A table of the passes per round, per code, at the end. Bounded: ``rounds`` × ``at-once`` requests per
limit, each with a 30 s timeout.

    python bench/bench_limits.py --code /tmp/limits-before --code .
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import secrets
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from servers import ROOT, Code, codes, database, served

LIMIT = 10
WORKED: dict[str, Any] = json.loads((ROOT / "seeds" / "worked-sheet.json").read_text(encoding="utf-8"))
BARE = {**WORKED, "deals": []}
ONE_DEAL = {**WORKED, "deals": [{"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 10}]}]}
FRESH = itertools.count(secrets.randbelow(256))  # addresses no earlier round or run counted against
PASSED = {"create-match": 201, "new-deals": 201, "edit-token": 403, "table-file": 201, "table-file+1": 201}
FIT = {"table-file+1": LIMIT // 2}  # how many pass where each request makes more than one


def call(port: int, method: str, path: str, body: Any, headers: dict[str, str]) -> int:
    """One request on a connection of its own (so to any worker); its status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=json.dumps(body).encode(),
                           headers={"Content-Type": "application/json", **headers})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def at_once(count: int, send: Callable[[], int]) -> list[int]:
    """``count`` calls of ``send`` released together from a barrier; their statuses."""
    start = threading.Barrier(count)

    def one(_: int) -> int:
        start.wait(timeout=60)
        return send()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(one, range(count)))


def requests_of(scope: str, port: int, address: str) -> Callable[[], int]:
    """What a request against ``scope`` sends, from ``address``."""
    headers = {"X-Forwarded-For": address}
    if scope == "edit-token":
        made = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        made.request("POST", "/api/v1/matches", body=json.dumps(BARE).encode(),
                     headers={"Content-Type": "application/json", "X-Forwarded-For": f"{address}0"})
        match_id = json.loads(made.getresponse().read())["id"]
        made.close()
        return lambda: call(port, "PUT", f"/api/v1/matches/{match_id}/rules", {"target": 200},
                            headers | {"Authorization": "Bearer wrong-token"})
    path, body = {"create-match": ("/api/v1/matches", BARE), "new-deals": ("/api/v1/matches", ONE_DEAL),
                  "table-file": ("/api/v1/tables/import",
                                 {"format": "scorekeeper-table/1", "name": "Club", "matches": []}),
                  "table-file+1": ("/api/v1/tables/import",
                                   {"format": "scorekeeper-table/1", "name": "Club", "matches": [BARE]})}[scope]
    return lambda: call(port, "POST", path, body, headers)


def limits_config(redis: str, deals_only: bool) -> dict[str, Any]:
    wide = f"{LIMIT * 1000} per hour"
    return {"RATELIMIT_ENABLED": True, "RATELIMIT_STORAGE_URI": redis, "PROXIES": 1,
            "CREATE_MATCH_LIMIT": wide if deals_only else f"{LIMIT} per hour",
            "NEW_DEALS_LIMIT": f"{LIMIT} per hour" if deals_only else wide,
            "FAILED_TOKEN_LIMIT": f"{LIMIT} per hour"}


def run(code: Code, args: argparse.Namespace, folder: Path) -> dict[str, list[int]]:
    """The passes of each round against each limit."""
    passes: dict[str, list[int]] = {}
    for deals_only, scopes in ((False, ("create-match", "edit-token", "table-file", "table-file+1")),
                                (True, ("new-deals",))):
        config = Code(code.label, code.folder, limits_config(args.redis, deals_only))
        instance = Path(tempfile.mkdtemp(dir=folder))
        with database(None, instance) as url, served(config, url, instance, gunicorn=args.gunicorn) as server:
            for number, scope in enumerate(scopes):
                passes[scope] = []
                for round_number in range(args.rounds):
                    address = f"198.{next(FRESH) % 256}.{number}.{round_number + 10}"
                    statuses = at_once(args.at_once, requests_of(scope, server.port, address))
                    unexpected = [status for status in statuses if status not in (PASSED[scope], 429)]
                    if unexpected:
                        raise SystemExit(f"{code.label} {scope}: unexpected answers {unexpected}")
                    passes[scope].append(statuses.count(PASSED[scope]))
    return passes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", action="append", help="a checkout to serve (repeatable; default: this one)")
    parser.add_argument("--redis", default=os.environ.get("SCOREKEEPER_TEST_REDIS_URL", ""))
    parser.add_argument("--gunicorn", type=int, default=4, help="workers")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--at-once", type=int, default=30)
    args = parser.parse_args()
    if not args.redis.startswith("redis://127.0.0.1:"):
        raise SystemExit("give --redis redis://127.0.0.1:PORT/N (a Redis server on this machine)")
    if not 1 <= args.rounds <= 20 or not LIMIT < args.at_once <= 100:
        raise SystemExit("--rounds 1..20, --at-once 11..100")
    with tempfile.TemporaryDirectory() as folder:
        results = {code.label: run(code, args, Path(folder)) for code in codes(args.code, False)}
    print(f"\npasses per round of {args.at_once} requests at once, limit {LIMIT}, "
          f"gunicorn {args.gunicorn} workers, Redis")
    for label, passes in results.items():
        for scope, counts in passes.items():
            verdict = "exact" if set(counts) == {FIT.get(scope, LIMIT)} else "NOT EXACT"
            print(f"{label:<34} {scope:<13} {' '.join(f'{count:>3}' for count in counts)}   {verdict}")


if __name__ == "__main__":
    main()
