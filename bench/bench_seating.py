"""How good and how fast the progressive seating is: repeats against the fewest possible, and seconds.

For each number of players, every round of a progressive event is seated in turn (as the app does, each
round after the ones before) and the partner and opponent repeats are counted: a repeat is each meeting of
a pair after their first (a pair that partnered three times counts two).

The fewest possible (a lower bound, reached when the bench shows the same number):
- partners: a player who plays ``r`` rounds has ``r`` partners among ``n - 1`` others, so at least
  ``r - (n - 1)`` of them are repeats; each repeat is shared by two players. Below ``n`` rounds, 0.
- opponents: a player faces two opponents a round, ``2r`` among ``n - 1`` others, so at least
  ``2r - (n - 1)`` repeats, each shared by two players. Equivalently: the round's tables hold ``n`` pairs
  of opponents and there are only ``n(n - 1)/2`` pairs in all. For 8 players over 6 rounds that is
  48 meetings for 28 pairs: at least 20 repeats; for 12 players, 72 for 66: at least 6.

    python bench/bench_seating.py [--players 8 12 16 40] [--rounds 6] [--repeats 3]

The time is the processor time of seating every round (the best of ``--repeats``), not the time on the
clock, so that other work on a shared machine does not count. Each round is seated knowing the number of
rounds, as the app does. Goal: 40 players over 6 rounds seated in well under a second.
"""

from __future__ import annotations

import argparse
import time

from scorekeeper.rules.events import EventFormat, Seating
from scorekeeper.rules.seating import repeat_counts, seat_round


def seat_event(count: int, rounds: int) -> list[Seating]:
    players = [(f"Player {index}",) for index in range(1, count + 1)]
    past: list[Seating] = []
    for _ in range(rounds):
        past.append(seat_round(EventFormat.PROGRESSIVE, players, past, rounds))
    return past


def fewest_repeats(seatings: list[Seating]) -> tuple[int, int]:
    """The lower bounds above, for partners and for opponents, from the rounds each player plays."""
    played: dict[str, int] = {}
    for seating in seatings:
        for table in seating.tables:
            for name in table.players:
                played[name] = played.get(name, 0) + 1
    others = len(set(played) | {name for seating in seatings for name in seating.players}) - 1
    partners = sum(max(0, rounds - others) for rounds in played.values())
    opponents = sum(max(0, 2 * rounds - others) for rounds in played.values())
    return (partners + 1) // 2, (opponents + 1) // 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[8, 12, 16, 40])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    print(f"{'players':>7} {'rounds':>6}  {'partner repeats':>16}  {'opponent repeats':>17}  {'cpu s':>7}")
    for count in options.players:
        best = float("inf")
        for _ in range(options.repeats):
            start = time.process_time()
            seatings = seat_event(count, options.rounds)
            best = min(best, time.process_time() - start)
        counts = repeat_counts(seatings)
        partners, opponents = fewest_repeats(seatings)
        print(f"{count:>7} {options.rounds:>6}  {counts.partner_repeats:>6} (best {partners:>3})  "
              f"{counts.opponent_repeats:>7} (best {opponents:>3})  {best:>7.3f}")


if __name__ == "__main__":
    main()
