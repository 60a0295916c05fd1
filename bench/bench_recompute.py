"""How long the whole score sheet of a very long match takes to recompute, on one core.

The match has two partnerships on a double deck to 2000 and 10,000 deals entered in every form the
match file allows: one number per side, meld as a number, as sets or as the cards of each hand, tricks
as points, counters or cards by rank, passes and throw-ins. Hands are dealt from shuffled decks with a
fixed seed. Whenever bidders would make their bid and reach the target, the bid is raised past what they
took, so they are set and the match never ends: every deal counts. Each figure is the best of a few runs,
in process CPU time (``time.process_time``, as bench_stats.py), so figures stay comparable on a shared machine.

Cold scoring is timed twice: with every deal's entry checks run again, as for a match file read for the
first time, and as a stored match is scored (its deals were checked when recorded: every page and the
statistics score it so).

    python bench/bench_recompute.py [--deals 10000] [--repeats 5] [--seed 1]

Goals: the whole sheet in 30 ms; 10,000 deals scored cold as a stored match in at most 100 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from bench_meld import deal_hands

from scorekeeper.rules.cards import Deck, Hand, Rank, Suit
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.match import Match
from scorekeeper.rules.matchfile import FORMAT, deal_from_json, match_from_json
from scorekeeper.rules.meld import best_meld
from scorekeeper.rules.pricing import forget_hands
from scorekeeper.rules.scoring import preview_rules, score_deal, score_match
from scorekeeper.rules.tricks import CARD_POINTS, COUNTER_RANKS, cards_of_rank

RULES = HouseRules(target=2000)
SIDES = 2
TARGET_MS = 30.0
COLD_GOAL_MS = 100.0  # 10,000 deals scored cold, as the statistics score stored matches
EVENING = 30  # deals in a long evening at the table


def split(total: int, rng: random.Random) -> tuple[int, int]:
    """``total`` cards of one rank shared between the two partnerships, most often evenly."""
    ours = min(total, max(0, round(rng.gauss(total / 2, total / 5))))
    return ours, total - ours


def meld_entry(hands: list[Hand], trump: Suit, rng: random.Random) -> Any:
    """A partnership's meld in one of the forms: a number, sets or cards, for both hands or each."""
    form = rng.choice(["number", "sets", "cards", "per hand"])
    if form == "number":
        return sum(best_meld(hand, trump, RULES.meld_table).total for hand in hands)
    if form == "sets":
        return [{c.value: n for c, n in best_meld(hand, trump, RULES.meld_table).sets().items()} for hand in hands]
    if form == "cards":
        return [{"cards": hand.codes()} for hand in hands]
    return [best_meld(hand, trump, RULES.meld_table).total for hand in hands]


def tricks_entry(taken: dict[Rank, int], rng: random.Random) -> Any:
    """What a partnership took, as points, counters or cards by rank."""
    form = rng.choice(["points", "counters", "cards"])
    if form == "points":
        return sum(CARD_POINTS[RULES.trick_scale][rank] * n for rank, n in taken.items())
    if form == "counters":
        return {"counters": sum(taken[rank] for rank in COUNTER_RANKS)}
    return {"cards": {rank.value: n for rank, n in taken.items() if n}}


def played_deal(rng: random.Random) -> dict[str, Any]:
    """One deal of a double-deck match as the match file writes it."""
    hands = deal_hands(Deck.DOUBLE, 4, rng)
    trump = rng.choice(list(Suit))
    bidder = rng.randrange(SIDES)
    deal: dict[str, Any] = {"bidder": bidder, "bid": rng.randrange(50, 80), "trump": trump.value}
    partnerships = [hands[0::2], hands[1::2]]
    if rng.random() < 0.03:
        deal["thrown_in"] = True
        deal["sides"] = [{"meld": meld_entry(pair, trump, rng)} for pair in partnerships]
        return deal
    shares = [split(cards_of_rank(Deck.DOUBLE, rank), rng) for rank in Deck.DOUBLE.ranks]
    taken = [{rank: share[side] for rank, share in zip(Deck.DOUBLE.ranks, shares)} for side in range(SIDES)]
    last = rng.randrange(SIDES)
    sides = []
    for side, pair in enumerate(partnerships):
        bonus = RULES.last_trick if side == last else 0
        if rng.random() < 0.25:
            meld = sum(best_meld(hand, trump, RULES.meld_table).total for hand in pair)
            points = sum(CARD_POINTS[RULES.trick_scale][rank] * n for rank, n in taken[side].items())
            sides.append({"total": meld + points + bonus})
            continue
        entry = {"meld": meld_entry(pair, trump, rng), "tricks": tricks_entry(taken[side], rng)}
        if side == last:
            entry["last_trick"] = True
        sides.append(entry)
    deal["sides"] = sides
    return deal


def build_match_file(count: int, rng: random.Random) -> dict[str, Any]:
    """A match file of ``count`` deals in which no bidder ever reaches the target on a made bid."""
    deals: list[dict[str, Any]] = []
    totals = [0] * SIDES
    while len(deals) < count:
        data = {"passed": True} if rng.random() < 0.05 else played_deal(rng)
        deal = deal_from_json(data, SIDES, rules=RULES)
        result = score_deal(RULES, deal, SIDES)
        if result.made and totals[deal.bidder or 0] + result.scores[deal.bidder or 0] >= RULES.target:
            data["bid"] = result.scores[deal.bidder or 0] + 1  # just out of reach: set
            result = score_deal(RULES, deal_from_json(data, SIDES, rules=RULES), SIDES)
        totals = [t + s for t, s in zip(totals, result.scores)]
        deals.append(data)
    return {
        "format": FORMAT,
        "name": "A very long evening",
        "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
        "rules": RULES.to_mapping(),
        "deals": deals,
    }


def best_ms(run: Callable[[], object], repeats: int, cold: bool = False) -> float:
    """The best CPU time of ``repeats`` runs, in milliseconds; ``cold`` forgets every hand priced first."""
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
    parser.add_argument("--deals", type=int, default=10_000, help="deals in the match (default 10000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs, best kept (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the shuffles (default 1)")
    args = parser.parse_args()
    data = build_match_file(args.deals, random.Random(args.seed))
    text = json.dumps(data)
    match: Match = match_from_json(data, stored=True)  # past the 1,000 deals a new match file may hold
    sheet = score_match(match)
    large = match.rules.replace(meld_table="double-large")
    preview = preview_rules(match, large)
    played = sum(1 for deal in match.deals if not deal.passed)
    print(f"{len(match.deals):,} deals ({played:,} played), {len(text) / 1e6:.1f} MB of JSON; "
          f"winner: {sheet.winner}, totals {sheet.totals}; a double-large table changes {len(preview.changed):,} deals")

    evening = match.with_deals(match.deals[:EVENING])
    n = len(match.deals)
    figures = [
        ("score_match, cold: every deal worked out", n, best_ms(lambda: score_match(match), args.repeats, True)),
        ("score_match, cold, as a stored match (checked at entry)", n,
         best_ms(lambda: score_match(match, checked=True), args.repeats, True)),
        (f"score_match, cold, first {EVENING} deals only", EVENING,
         best_ms(lambda: score_match(evening), args.repeats * 20, True)),
        ("preview_rules, cold (meld table → large)", n,
         best_ms(lambda: preview_rules(match, large), args.repeats, True)),
        ("match_from_json (decoded file → facts)", n,
         best_ms(lambda: match_from_json(data, stored=True), args.repeats)),
        ("JSON text → facts", n, best_ms(lambda: match_from_json(json.loads(text), stored=True), args.repeats)),
    ]
    width = max(len(name) for name, _, _ in figures)
    for name, deals, ms in figures:
        print(f"{name:<{width}}  {ms:8.2f} ms CPU  {1000 * ms / deals:6.2f} µs a deal")
    verdict = "met" if figures[0][2] <= TARGET_MS else "not met"
    print(f"target {TARGET_MS:.0f} ms for the whole match, every deal worked out: {verdict}")
    checked = figures[1][2] * 10_000 / n
    print(f"cold scoring as a stored match, for 10,000 deals: {checked:.1f} ms (goal {COLD_GOAL_MS:.0f} ms: "
          f"{'met' if checked <= COLD_GOAL_MS else 'not met'}); with the entry checks run again: "
          f"{figures[0][2] * 10_000 / n:.1f} ms")


if __name__ == "__main__":
    main()
