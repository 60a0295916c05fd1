"""How many hands a second the meld calculator works out on one core.

Hands are dealt from shuffled decks with a fixed seed, four hands a deal (12 cards from a single
deck, 20 from a double deck). Each figure is the best of a few plain timed loops.

    python bench/bench_meld.py [--hands 50000] [--repeats 3] [--seed 1]

Goal: ``best_meld`` works out at least 50,000 hands a second.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from scorekeeper.rules.cards import ALL_CARDS, Deck, Hand, Suit
from scorekeeper.rules.house_rules import MeldTableName
from scorekeeper.rules.meld import best_meld, meld_all_trumps

CASES = (
    (Deck.SINGLE, MeldTableName.SINGLE_CLASSIC),
    (Deck.DOUBLE, MeldTableName.DOUBLE_SMALL),
)
PLAYERS = 4
TARGET_PER_SECOND = 50_000


def deal_hands(deck: Deck, count: int, rng: random.Random) -> list[Hand]:
    """``count`` hands, dealt four at a time from a freshly shuffled deck."""
    cards = [card for card in ALL_CARDS if card.rank in deck.ranks for _ in range(deck.copies)]
    size = deck.size // PLAYERS
    hands: list[Hand] = []
    while len(hands) < count:
        rng.shuffle(cards)
        hands.extend(Hand.from_cards(cards[i * size:(i + 1) * size], deck) for i in range(PLAYERS))
    return hands[:count]


def hands_per_second(run: Callable[[], None], count: int, repeats: int) -> float:
    """The best rate over ``repeats`` timed runs of ``run``, which handles ``count`` hands."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000, help="hands per deck (default 50000)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs, best kept (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the shuffles (default 1)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    suits = list(Suit)

    header = f"{'deck':<8}{'table':<16}{'hands':>8}{'best_meld/s':>14}{'µs':>7}{'all_trumps/s':>15}{'µs':>7}"
    print(header)
    print("-" * len(header))
    for deck, table in CASES:
        hands = deal_hands(deck, args.hands, rng)
        deals = [(hand, rng.choice(suits)) for hand in hands]

        def one_trump(deals: list[tuple[Hand, Suit]] = deals, table: MeldTableName = table) -> None:
            for hand, trump in deals:
                best_meld(hand, trump, table)

        def all_trumps(hands: list[Hand] = hands, table: MeldTableName = table) -> None:
            for hand in hands:
                meld_all_trumps(hand, table)

        single = hands_per_second(one_trump, len(hands), args.repeats)
        every = hands_per_second(all_trumps, len(hands), args.repeats)
        print(
            f"{deck.value:<8}{table.value:<16}{len(hands):>8}"
            f"{single:>14,.0f}{1e6 / single:>7.2f}{every:>15,.0f}{1e6 / every:>7.2f}"
        )
    print(f"target for best_meld: {TARGET_PER_SECOND:,} hands/s ({1e6 / TARGET_PER_SECOND:.0f} µs a hand)")


if __name__ == "__main__":
    main()
