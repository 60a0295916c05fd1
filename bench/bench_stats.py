"""How long a table's statistics take: 1,000 matches of 30 deals (30,000 deals), on one core.

The matches are played by six players in changing partnerships, with deals dealt from shuffled double
decks and entered in every form (as bench_recompute.py makes them), each naming who won the auction.
The figures are the statistics worked out from the facts already read (the stored matches, so
``checked``; nothing is remembered from one request to the next) and the scoring of 10,000 deals alone,
with and without the checks a new deal goes through. Each figure is the best of a few runs.

    python bench/bench_stats.py [--matches 1000] [--deals 30] [--repeats 5] [--seed 1]

Goals: statistics in at most 300 ms; 10,000 deals scored in at most 100 ms.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bench_recompute import played_deal

from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.match import Match, SideInfo
from scorekeeper.rules.matchfile import deal_from_json
from scorekeeper.rules.pricing import forget_hands
from scorekeeper.rules.scoring import score_match
from scorekeeper.rules.stats import table_stats

PLAYERS = ("Ann", "Bob", "Cy", "Di", "Eve", "Flo")
RULES = HouseRules(target=500)
GOALS_MS = {"statistics": 300.0, "10,000 deals scored, checked": 100.0}


def evening(rng: random.Random, deals: int) -> Match:
    """One match of ``deals`` deals between two partnerships drawn from the table's players."""
    seated = rng.sample(PLAYERS, 4)
    sides = (SideInfo(f"{seated[0]} & {seated[1]}", tuple(seated[:2])),
             SideInfo(f"{seated[2]} & {seated[3]}", tuple(seated[2:])))
    played = []
    for _ in range(deals):
        data = played_deal(rng) if rng.random() > 0.05 else {"passed": True}
        deal = deal_from_json(data, 2, rules=RULES)
        if deal.bidder is not None:
            deal = deal._replace(bid_by=rng.choice(sides[deal.bidder].players))
        played.append(deal.pinned(RULES))
    return Match(sides=sides, rules=RULES, deals=tuple(played))


def best_ms(run: Callable[[], object], repeats: int, cold: bool) -> float:
    best = float("inf")
    for _ in range(repeats):
        if cold:
            forget_hands()
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    matches = [evening(rng, args.deals) for _ in range(args.matches)]
    stats = table_stats(matches, checked=True)
    print(f"{len(matches):,} matches, {sum(len(m.deals) for m in matches):,} deals; {stats.matches:,} finished; "
          + ", ".join(f"{p.name} {p.won}/{p.matches}" for p in stats.players))
    sample = matches[: max(1, 10_000 // args.deals)]
    figures = {
        "statistics": best_ms(lambda: table_stats(matches, checked=True), args.repeats, cold=True),
        "10,000 deals scored, checked": best_ms(
            lambda: [score_match(m, checked=True) for m in sample], args.repeats, cold=True),
        "10,000 deals scored, with the checks": best_ms(
            lambda: [score_match(m) for m in sample], args.repeats, cold=True),
    }
    width = max(map(len, figures))
    for name, ms in figures.items():
        goal = GOALS_MS.get(name)
        verdict = "" if goal is None else f"  goal {goal:.0f} ms: {'met' if ms <= goal else 'not met'}"
        print(f"{name:<{width}}  {ms:8.1f} ms CPU{verdict}")


if __name__ == "__main__":
    main()
