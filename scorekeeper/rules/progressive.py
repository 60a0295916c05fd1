"""Seating a round of a progressive event: new partners every round, opponents repeated as little as can be.

Players not a multiple of four sit out in turn (the fewest byes first, see ``pick_byes``). The others are
seated four to a table by a search that weighs each table by who met before: partnering someone again
costs far more than facing someone again, and each cost grows with the times they met, so repeats are
spread out rather than piled on one pair. The search starts from several shuffles of the players and
improves each by swapping two seats while that lowers the cost; the cheapest seating wins. Knowing the
event's number of rounds, it plans the rest of the event several times over, round by round, and seats the
first round of the cheapest plan. The shuffles are seeded by the round and the names (never by Python's
hash of a string, which changes from one process to the next), so the same input gives the same seating."""

from __future__ import annotations

import heapq
import random
import zlib
from collections.abc import Sequence

from .events import TABLE_SIZE, SeatedTable, Seating, pick_byes

PARTNER_WEIGHT = 64  # a partner repeat costs more than any opponent repeats one table can hold
SEARCH_BUDGET = 40_000  # swaps weighed in the first pass of all starts together, for any number of players
FUTURES = 20  # whole plans of the rounds to come tried, when the event's number of rounds is known
FUTURE_BUDGET = 4_000  # the search budget of each round of those plans
Counts = list[list[int]]


def seat_progressive(players: Sequence[str], past: Sequence[Seating], number: int,
                     rounds: int | None = None) -> Seating:
    """The round ``number`` after ``past``: byes in turn, then tables of two sides of two.

    Given ``rounds``, the event's last round, it seats the first round of the best of several plans of
    the rounds still to come (each planned round by round, from its own seed): a round chosen alone can
    leave the last rounds no way to avoid repeats.
    """
    if rounds is None or rounds <= number:
        return _seat_alone(players, past, number, SEARCH_BUDGET, 0)
    best: tuple[int, Seating] | None = None
    floor = _least_cost(players, past, rounds - number + 1)
    for attempt in range(FUTURES):
        future = list(past)
        for ahead in range(number, rounds + 1):
            future.append(_seat_alone(players, future, ahead, FUTURE_BUDGET, attempt))
        cost = _cost(players, future)
        if best is None or cost < best[0]:
            best = cost, future[len(past)]
        if cost == floor:
            break  # no plan can do better
    assert best is not None
    return best[1]


def _cost(players: Sequence[str], seatings: Sequence[Seating]) -> int:
    """What the search minimises, over ``seatings``: each meeting costs the meetings of that pair before."""
    return _cost_of(*_met(players, seatings))


def _cost_of(partners: Counts, opponents: Counts) -> int:
    """The cost of these meetings so far: each meeting of a pair costs the meetings of that pair before."""
    pairs = [(a, b) for a in range(len(partners)) for b in range(a + 1, len(partners))]
    return sum(PARTNER_WEIGHT * partners[a][b] * (partners[a][b] - 1) // 2
               + opponents[a][b] * (opponents[a][b] - 1) // 2 for a, b in pairs)


def _least_cost(players: Sequence[str], past: Sequence[Seating], rounds: int) -> int:
    """A floor under the cost of ``past`` and ``rounds`` more rounds: each meeting to come taken by the
    pair that has met least so far (as if any pair could meet at any table)."""
    partners, opponents = _met(players, past)
    seated = len(players) - len(players) % TABLE_SIZE
    floor = _cost_of(partners, opponents)
    for counts, meetings, weight in ((partners, seated // 2, PARTNER_WEIGHT), (opponents, seated, 1)):
        heap = [counts[a][b] for a in range(len(players)) for b in range(a + 1, len(players))]
        heapq.heapify(heap)
        for _ in range(meetings * rounds):
            count = heapq.heappop(heap)
            floor += weight * count
            heapq.heappush(heap, count + 1)
    return floor


def _seat_alone(players: Sequence[str], past: Sequence[Seating], number: int, budget: int,
                attempt: int) -> Seating:
    """The round ``number`` on its own: the cheapest seating found after ``past`` within ``budget``."""
    byes = pick_byes([(name,) for name in players], len(players) % TABLE_SIZE, past)
    out = {name for (name,) in byes}
    playing = [name for name in players if name not in out]
    partners, opponents = _met(playing, past)
    seed = zlib.crc32("\n".join([str(number), str(attempt), *playing]).encode("utf-8"))
    seats = _search(len(playing), partners, opponents, budget, random.Random(seed))
    tables = tuple(SeatedTable(index // TABLE_SIZE + 1,
                               ((playing[seats[index]], playing[seats[index + 1]]),
                                (playing[seats[index + 2]], playing[seats[index + 3]])))
                   for index in range(0, len(seats), TABLE_SIZE))
    return Seating(number, tables, tuple(byes))


def _met(playing: Sequence[str], past: Sequence[Seating]) -> tuple[Counts, Counts]:
    """How often each two of ``playing`` (by index) partnered and opposed in ``past``."""
    index = {name: place for place, name in enumerate(playing)}
    size = len(playing)
    partners = [[0] * size for _ in range(size)]
    opponents = [[0] * size for _ in range(size)]
    for seating in past:
        for table in seating.tables:
            first, second = ([index[name] for name in side if name in index] for side in table.sides)
            for side in (first, second):
                for a in side:
                    for b in side:
                        partners[a][b] += a != b
            for a in first:
                for b in second:
                    opponents[a][b] += 1
                    opponents[b][a] += 1
    return partners, opponents


def _search(size: int, partners: Counts, opponents: Counts, budget: int, rng: random.Random) -> list[int]:
    """Player indexes in seat order (four seats a table: two partners, then their two opponents)."""

    def cost(a: int, b: int, c: int, d: int) -> int:
        return (PARTNER_WEIGHT * (partners[a][b] + partners[c][d])
                + opponents[a][c] + opponents[a][d] + opponents[b][c] + opponents[b][d])

    def table_cost(seats: list[int], table: int) -> int:
        start = table * TABLE_SIZE
        return cost(seats[start], seats[start + 1], seats[start + 2], seats[start + 3])

    def improve(seats: list[int]) -> int:
        """Swap two seats while that lowers the cost; the cost reached."""
        costs = [table_cost(seats, table) for table in range(size // TABLE_SIZE)]
        improved = True
        while improved:
            improved = False
            for i in range(size):
                for j in range(i + 1, size):
                    if i // 2 == j // 2:
                        continue  # partners trading seats change nothing
                    first, second = i // TABLE_SIZE, j // TABLE_SIZE
                    seats[i], seats[j] = seats[j], seats[i]
                    new_first = table_cost(seats, first)
                    new_second = table_cost(seats, second) if second != first else 0
                    old = costs[first] + (costs[second] if second != first else 0)
                    if new_first + new_second < old:
                        costs[first] = new_first
                        if second != first:
                            costs[second] = new_second
                        improved = True
                    else:
                        seats[i], seats[j] = seats[j], seats[i]
        return sum(costs)

    best: list[int] = list(range(size))
    best_cost: int | None = None
    for _ in range(max(1, budget // max(1, size * size))):
        seats = list(range(size))
        rng.shuffle(seats)
        total = improve(seats)
        if best_cost is None or total < best_cost:
            best, best_cost = seats, total
        if best_cost == 0:
            break
    return best
