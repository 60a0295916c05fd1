"""How long the standings of a progressive event take to work out from its matches, in the rules core.

Every table of every round is a match of ``--deals`` deals (each side's total entered, the bidders making
their bid), seated as the app seats it. One run reads each table's outcome from its match's sheet
(``table_outcome``) and adds the outcomes up (``progressive_standings``), as a standings page does on
every load. The figure is the best of ``--repeats`` runs, in processor time.

    python bench/bench_standings.py [--players 40] [--rounds 6] [--deals 8] [--repeats 20]

Goal: 40 players over 6 rounds in under 50 ms.
"""

from __future__ import annotations

import argparse
import random
import time

from scorekeeper.rules.events import EventFormat, RoundEnd, RoundEndKind, Seating
from scorekeeper.rules.match import Match
from scorekeeper.rules.matchfile import FORMAT, match_from_json
from scorekeeper.rules.seating import seat_round
from scorekeeper.rules.standings import TableOutcome, progressive_standings, table_outcome


def table_match(deals: int, rng: random.Random) -> Match:
    played = [{"bidder": rng.randrange(2), "bid": 50, "sides": [{"total": rng.randrange(50, 90)},
                                                                    {"total": rng.randrange(50, 90)}]}
              for _ in range(deals)]
    return match_from_json({"format": FORMAT, "name": "Table", "sides": [{"name": "North"}, {"name": "East"}],
                            "rules": {}, "deals": played})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=20)
    options = parser.parse_args()
    players = [(f"Player {index}",) for index in range(1, options.players + 1)]
    seatings: list[Seating] = []
    for _ in range(options.rounds):
        seatings.append(seat_round(EventFormat.PROGRESSIVE, players, seatings, options.rounds))
    rng = random.Random(1)
    tables = [(seating.round, table, table_match(options.deals, rng)) for seating in seatings
              for table in seating.tables]
    end = RoundEnd(RoundEndKind.DEALS, options.deals)
    best = float("inf")
    for _ in range(options.repeats):
        start = time.process_time()
        outcomes: list[TableOutcome] = [table_outcome(number, table, match, end) for number, table, match in tables]
        standings = progressive_standings(outcomes, seatings)
        best = min(best, time.process_time() - start)
    print(f"{options.players} players, {options.rounds} rounds, {len(tables)} tables of {options.deals} deals: "
          f"{best * 1000:.1f} ms (leader {standings[0].name}, {standings[0].points} points)")


if __name__ == "__main__":
    main()
