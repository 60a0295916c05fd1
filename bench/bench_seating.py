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
- meetings in any role (a pair that partnered once and opposed once met twice): a player meets three
  others a round, ``3r`` among ``n - 1``, so at least ``3r - (n - 1)`` repeats, each shared by two. For
  40 players over 6 rounds, 0; for 16 over 5, 0 (15 meetings for 15 others: everyone meets everyone once);
  for 12 over 4, 12 meetings for 11 others: at least 6.
- met again: each pair counts, for every two rounds, whether it met in both (a pair that met twice counts
  1, three times 3): what the search minimises. A player's meetings spread as evenly as can be over the
  others give the least for them; and with three tables or fewer, the four players of a table come from
  at most three tables of any other round, so two of them met there: 12 players over 4 rounds, 6 pairs
  of rounds × 3 tables, at least 18 (``progressive.crowding_floor``). The larger of the two is the bound.

    python bench/bench_seating.py [--events 40x6 16x5 12x4 8x6] [--teams 4 … 12] [--repeats 3]

The team round robin (``--teams``: 4 to 12 teams, each over a full round robin, one round fewer than
the teams, or as many rounds as teams with an odd count) counts the meetings of two teams after their first.

The time is the processor time of seating every round (the best of ``--repeats``), not the time on the
clock, so that other work on a shared machine does not count. Each round is seated knowing the number of
rounds, as the app does (a server process keeps the plan made at an event's first round; each repeat here starts
without it). Goals: 40 × 6, 16 × 5 and 12 × 4 at the bound of
meetings in any role; 0 repeated meetings in every round robin; 40 × 6 seated in well under a second.
"""

from __future__ import annotations

import argparse
import time

from scorekeeper.rules.events import EventFormat, Seating
from scorekeeper.rules.movements import Movement, round_robin_rounds
from scorekeeper.rules.progressive import crowding_floor
from scorekeeper.rules.seating import repeat_counts, seat_round


def seat_event(count: int, rounds: int) -> list[Seating]:
    players = [(f"Player {index}",) for index in range(1, count + 1)]
    past: list[Seating] = []
    for _ in range(rounds):
        past.append(seat_round(EventFormat.PROGRESSIVE, players, past, rounds))
    return past


def seat_teams(count: int) -> list[Seating]:
    teams = [(f"A{index}", f"B{index}") for index in range(1, count + 1)]
    rounds = round_robin_rounds(count)
    past: list[Seating] = []
    for _ in range(rounds):
        past.append(seat_round(EventFormat.TEAM, teams, past, rounds, Movement.ROUND_ROBIN))
    return past


def team_repeats(seatings: list[Seating]) -> tuple[int, int]:
    """Meetings of two teams after their first, and the pairs of teams that never met."""
    met: dict[frozenset[frozenset[str]], int] = {}
    teams: set[frozenset[str]] = set()
    for seating in seatings:
        teams |= {frozenset(bye) for bye in seating.byes}
        for table in seating.tables:
            key = frozenset(map(frozenset, table.sides))
            teams |= key
            met[key] = met.get(key, 0) + 1
    return sum(count - 1 for count in met.values()), len(teams) * (len(teams) - 1) // 2 - len(met)


def met_again(seatings: list[Seating]) -> tuple[int, int]:
    """Each pair's meetings counted against each before, and its bound (above)."""
    counts = repeat_counts(seatings)
    found = sum(count * (count - 1) // 2 for count in counts.meetings.values())
    names = {name for seating in seatings for name in seating.players}
    spread = 0
    for name in names:
        meetings, others = 3 * sum(seating.table_of(name) is not None for seating in seatings), len(names) - 1
        each, more = divmod(meetings, others)
        spread += more * (each + 1) * each // 2 + (others - more) * each * (each - 1) // 2
    byes = any(seating.byes for seating in seatings)
    crowded = 0 if byes else crowding_floor(len(seatings[0].tables), len(seatings))
    return found, max((spread + 1) // 2, crowded)


def fewest_repeats(seatings: list[Seating]) -> tuple[int, int, int]:
    """The lower bounds above, for partners, opponents and meetings, from the rounds each player plays."""
    played: dict[str, int] = {}
    for seating in seatings:
        for table in seating.tables:
            for name in table.players:
                played[name] = played.get(name, 0) + 1
    others = len(set(played) | {name for seating in seatings for name in seating.players}) - 1
    partners = sum(max(0, rounds - others) for rounds in played.values())
    opponents = sum(max(0, 2 * rounds - others) for rounds in played.values())
    meetings = sum(max(0, 3 * rounds - others) for rounds in played.values())
    return (partners + 1) // 2, (opponents + 1) // 2, (meetings + 1) // 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", nargs="+", default=["40x6", "16x5", "12x4", "8x6"])
    parser.add_argument("--teams", type=int, nargs="+", default=list(range(4, 13)))
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    print(f"{'players':>7} {'rounds':>6}  {'partner repeats':>16}  {'opponent repeats':>17}  "
          f"{'meeting repeats':>16}  {'met again':>14}  {'cpu s':>7}")
    for event in options.events:
        count, rounds = map(int, event.lower().split("x"))
        best = float("inf")
        for _ in range(options.repeats):
            start = time.process_time()
            seatings = seat_event(count, rounds)
            best = min(best, time.process_time() - start)
        counts = repeat_counts(seatings)
        partners, opponents, meetings = fewest_repeats(seatings)
        again, bound = met_again(seatings)
        print(f"{count:>7} {rounds:>6}  {counts.partner_repeats:>6} (best {partners:>3})  "
              f"{counts.opponent_repeats:>7} (best {opponents:>3})  "
              f"{counts.meeting_repeats:>6} (best {meetings:>3})  {again:>4} (best {bound:>3})  {best:>7.3f}")
    print(f"\n{'teams':>5} {'rounds':>6}  {'repeated meetings':>17}  {'pairs never met':>15}  {'cpu s':>7}")
    for count in options.teams:
        start = time.process_time()
        seatings = seat_teams(count)
        spent = time.process_time() - start
        repeated, unmet = team_repeats(seatings)
        print(f"{count:>5} {len(seatings):>6}  {repeated:>17}  {unmet:>15}  {spent:>7.3f}")


if __name__ == "__main__":
    main()
