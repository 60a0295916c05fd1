"""The server's CPU time for each kind of request the crowd test sends, measured one request at a time.

In this process, through the app's WSGI callable (Flask's test client: no HTTP server), on one match
of ``--deals`` deals (default 30): a round adds a deal (or, every other round and once the match has
twice the deals it started with, corrects a random earlier one; both through the API without a
version, as ``bench_club.py crowd`` does), then reloads the sheet page as a phone with its cookie and last ETag
(the page of a new version), reloads it again without an ETag (the same version: from the sheet
cache), with it (304), and asks for the live part (304). Each request's CPU time (user + system of
this process, ``time.process_time``) is kept; the median and the 90th percentile per kind are printed,
so a busy machine disturbs the figures less than it does requests a second. The test client's own
work is in the figures too (a few tenths of a millisecond); waitress's is not.

    python bench/bench_request_cpu.py [--rounds 300] [--deals 30] [--database-url URL]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_club import app_config, deal, match_file  # noqa: E402

from scorekeeper import create_app  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--database-url", help="PostgreSQL (postgresql+psycopg://…) instead of a temporary SQLite file")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-cpu-")
    app = create_app(app_config(args.database_url or f"sqlite:///{folder}/bench.sqlite", folder))
    client = app.test_client()
    created = client.post("/api/v1/matches", json=match_file(args.deals, "CPU")).get_json()
    public_id, auth = created["id"], {"Authorization": f"Bearer {created['edit_token']}"}
    client.get(f"/m/{public_id}")  # the phone's first visit: its cookie
    page = f"/m/{public_id}"
    gzip = {"Accept-Encoding": "gzip"}
    cpu: dict[str, list[float]] = defaultdict(list)
    rng = random.Random(1)

    def timed(kind: str, expected: int, method: str, path: str, **options: Any) -> Any:
        start = time.process_time()
        answer = client.open(path, method=method, buffered=True, **options)  # closed once read, as a server does
        cpu[kind].append(time.process_time() - start)
        if answer.status_code != expected:
            raise SystemExit(f"{kind}: {answer.status_code} {answer.get_data()[:300]!r}")
        return answer

    etag = ""
    deals = args.deals
    for turn in range(args.rounds):
        if turn % 2 == 0 and deals < 2 * args.deals:
            deals += 1
            timed("write: add deal", 201, "POST", f"/api/v1/matches/{public_id}/deals", json=deal(turn), headers=auth)
        else:
            number = rng.randint(1, args.deals)
            timed("write: correct deal", 200, "PUT", f"/api/v1/matches/{public_id}/deals/{number}", json=deal(turn),
                  headers=auth)
        answer = timed("read: sheet, new version", 200, "GET", page, headers=gzip | {"If-None-Match": etag})
        etag = answer.headers["ETag"]
        timed("read: sheet, from the cache", 200, "GET", page, headers=gzip)
        timed("read: sheet, unchanged (304)", 304, "GET", page, headers=gzip | {"If-None-Match": etag})
        timed("read: live part, unchanged", 304, "GET", f"{page}/live", headers={"If-None-Match": etag})
    print(f"CPU a request, {args.rounds} rounds on a match of {args.deals} deals growing to {deals} "
          f"({app.extensions['scorekeeper.engine'].dialect.name}):")
    print(f"  {'kind':<32}{'median ms':>10}{'p90 ms':>9}")
    for kind, values in cpu.items():
        values.sort()
        print(f"  {kind:<32}{statistics.median(values) * 1000:>10.2f}{values[int(len(values) * 0.9)] * 1000:>9.2f}")
    app.extensions["scorekeeper.engine"].dispose()


if __name__ == "__main__":
    main()
