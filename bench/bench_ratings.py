"""How long a table's ratings take: a table with hundreds of stored matches, on one core.

The table's six players play ``--matches`` matches (300) of ``--deals`` deals (30) in changing
partnerships (bench_stats.py's evenings), stored in a new SQLite file. Timed in process CPU time, each
the best of ``--repeats`` runs (5), each run in a new app context as a request has, nothing kept from
one to the next:

- the rows read (``table_matches``) and read into the rules core (``reading.to_core``): what the
  statistics page does once for every figure on it, the ratings included;
- from those, the results (``results_of``: each match's sheet played to the deal that decided it) and the
  ratings replayed (``rate``): what the ratings add to the page;
- ``rate`` alone, over the results already worked out;
- the whole statistics page (``GET /t/<id>/stats``) through the test client.

    python bench/bench_ratings.py [--matches 300] [--deals 30] [--repeats 5] [--seed 1]

Goal: the ratings add at most 100 ms to the page of a table of 300 matches (no cache until they do).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_stats import PLAYERS, evening
from flask import Flask

from scorekeeper import create_app, ratings, tables
from scorekeeper.models import MatchRow
from scorekeeper.rules.match import Match
from scorekeeper.store import reading, writing

GOAL_MS = 100.0
RATINGS = "results and ratings, from the matches read"


def filled_table(app: Flask, matches: int, deals: int, seed: int) -> str:
    """A new table of ``matches`` stored matches; returns its link."""
    rng = random.Random(seed)
    with app.app_context():
        table = tables.create_table("Bench", PLAYERS)
        for _ in range(matches):
            writing.create_match(evening(rng, deals), table_id=table.id)
        return table.public_id


def best_ms(app: Flask, run: Callable[[Any], object], repeats: int, prepare: Callable[[], Any] = lambda: None) -> float:
    """The best CPU time of ``run(prepare())`` (``prepare`` untimed), each in a new app context."""
    best = float("inf")
    for _ in range(repeats):
        with app.app_context():
            given = prepare()
            start = time.process_time()
            run(given)
            best = min(best, time.process_time() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE_URL": f"sqlite:///{Path(folder) / 'bench.sqlite'}", "SECRET_KEY": "bench",
                          "RATELIMIT_ENABLED": False})
        table_id = filled_table(app, args.matches, args.deals, args.seed)

        def read() -> tuple[list[MatchRow], list[Match]]:
            rows = tables.table_matches(tables.get_table_or_404(table_id))
            return rows, [reading.to_core(row) for row in rows]

        with app.app_context():
            results = ratings.results_of(*read())
            top = ratings.rate(results)[:3]
        print(f"{args.matches:,} matches of {args.deals} deals; {len(results):,} rated; top: "
              + ", ".join(f"{r.name} {r.mu:.1f} ± {r.sigma:.1f}" for r in top))
        client = app.test_client()
        figures = {
            "rows read into the rules core": best_ms(app, lambda _: read(), args.repeats),
            RATINGS: best_ms(app, lambda given: ratings.rate(ratings.results_of(*given)), args.repeats, read),
            "rate alone": best_ms(app, lambda _: ratings.rate(results), args.repeats),
            "the whole statistics page": best_ms(app, lambda _: client.get(f"/t/{table_id}/stats"), args.repeats),
        }
        app.extensions["scorekeeper.engine"].dispose()
    width = max(map(len, figures))
    for name, ms in figures.items():
        verdict = f"  goal {GOAL_MS:.0f} ms: {'met' if ms <= GOAL_MS else 'not met'}" if name == RATINGS else ""
        print(f"{name:<{width}}  {ms:8.1f} ms CPU{verdict}")


if __name__ == "__main__":
    main()
