"""Seating a round of a progressive event: new partners every round, and no two players meeting twice (as
partners or as opponents, in any mix) wherever the numbers allow it.

Players not a multiple of four sit out in turn (see ``events.pick_byes``). The others are seated four to a
table by a search that weighs each pair by how often they met: partnering someone again costs far more
than meeting them again, and each cost grows with the times they met, so repeats are spread out rather
than piled on one pair. Knowing the event's number of rounds, the search plans all the rounds still to
come together and seats the first of the plan: a round chosen alone can leave the last rounds no way to
avoid repeats. The plan starts round by round (each the best of a few shuffles improved by swapping two
seats while that lowers the cost); where the least cost possible can be reached (``_worth_a_search``) and
the plan does not reach it, it is improved as a whole by swapping two players of one round (a search at a
fixed temperature, a bounded number of tries). While the rounds played are those planned at the first
round, the next round is that plan's. Every random choice is seeded by the round and the names (never by
Python's hash of a string, which changes from one process to the next), so the same input gives the same
seating."""

from __future__ import annotations

import heapq
import math
import random
import zlib
from collections.abc import Sequence

from .events import TABLE_SIZE, SeatedTable, Seating, pick_byes

PARTNER_WEIGHT = 64  # a partner repeat costs more than any other repeats one table can hold
SEARCH_BUDGET = 40_000  # swaps weighed in the first pass of all starts together, for a round seated alone
PLAN_BUDGET = 4_000  # the same, for each round of a plan
ANNEALING_STEPS = 40_000  # swaps tried on a whole plan that does not reach the least cost possible
STALE_STEPS = 25_000  # ... stopping sooner after this many without a cheaper plan
ATTEMPTS = 2  # searches from the plan round by round, each from its own seed, while none reaches the floor
HEAT = 0.8  # how readily a swap that costs more is taken: one that costs 1 about one time in seven
Counts = list[list[int]]


def seat_progressive(players: Sequence[str], past: Sequence[Seating], number: int,
                     rounds: int | None = None) -> Seating:
    """The round ``number`` after ``past``: byes in turn, then tables of two sides of two.

    Given ``rounds``, the event's last round, it seats the next round of the plan made at the first round
    while the rounds played follow it, else the first round of a new plan of all the rounds to come.
    """
    if rounds is None or rounds < number:
        return _seat_alone(players, past, number, SEARCH_BUDGET, 0)
    if past:
        whole = _first_plan(tuple(players), rounds)  # as planned at the first round: the same each round
        if tuple(past) == whole[:len(past)]:
            return whole[len(past)]
    if rounds == number:
        return _seat_alone(players, past, number, SEARCH_BUDGET, 0)
    return _plan(players, past, number, rounds)[len(past)]


def _first_plan(players: tuple[str, ...], rounds: int) -> tuple[Seating, ...]:
    """The plan of every round made at the first, made again: the search is seeded by its input, so the same
    players and rounds give the same plan in every process, at every round."""
    return tuple(_plan(players, [], 1, rounds))


def _plan(players: Sequence[str], past: Sequence[Seating], number: int, rounds: int) -> list[Seating]:
    """``past`` and a plan of the rounds ``number`` to ``rounds``."""
    plan = list(past)
    for ahead in range(number, rounds + 1):
        plan.append(_seat_alone(players, plan, ahead, PLAN_BUDGET, 0))
    floor = least_cost(players, past, rounds - number + 1)
    best = plan
    for attempt in range(ATTEMPTS if _worth_a_search(len(players), rounds) else 0):
        if plan_cost(players, best) <= floor:
            break
        seed = zlib.crc32("\n".join(["plan", str(attempt), str(number), str(rounds), *players]).encode("utf-8"))
        tried = _anneal(players, plan, len(past), floor, random.Random(seed))
        best = min(best, tried, key=lambda seatings: plan_cost(players, seatings))
    return best


def _worth_a_search(players: int, rounds: int) -> bool:
    """Whether the floor can be reached, worth the whole plan's search: everyone seated every round, and
    either no one meeting anyone twice fits (three others a round) or there are three tables or fewer."""
    return players % TABLE_SIZE == 0 and (3 * rounds <= players - 1 or players // TABLE_SIZE <= 3)


def plan_cost(players: Sequence[str], seatings: Sequence[Seating]) -> int:
    """What the search minimises, over ``seatings``: each meeting costs the meetings of that pair before,
    and each partnership the partnerships before times ``PARTNER_WEIGHT``."""
    return _cost_of(*_met(players, seatings))


def _pairs_cost(count: int) -> int:
    return count * (count - 1) // 2


def _cost_of(partners: Counts, meetings: Counts) -> int:
    size = len(partners)
    return sum(PARTNER_WEIGHT * _pairs_cost(partners[a][b]) + _pairs_cost(meetings[a][b])
               for a in range(size) for b in range(a + 1, size))


def least_cost(players: Sequence[str], past: Sequence[Seating], rounds: int) -> int:
    """A floor under the cost of ``past`` and ``rounds`` more rounds: each meeting to come taken by the
    pair that has met least so far (as if any pair could meet at any table), or ``crowding_floor``."""
    partners, meetings = _met(players, past)
    seated = len(players) - len(players) % TABLE_SIZE
    floor = _cost_of(partners, meetings)
    for counts, per_round, weight in ((partners, seated // 2, PARTNER_WEIGHT), (meetings, seated * 3 // 2, 1)):
        heap = [counts[a][b] for a in range(len(players)) for b in range(a + 1, len(players))]
        heapq.heapify(heap)
        for _ in range(per_round * rounds):
            count = heapq.heappop(heap)
            floor += weight * count
            heapq.heappush(heap, count + 1)
    if len(players) % TABLE_SIZE == 0 and all(len(seating.players) == len(players) and not seating.byes
                                              for seating in past):
        floor = max(floor, crowding_floor(len(players) // TABLE_SIZE, len(past) + rounds))
    return floor


SAME_TABLE_PAIRS = {1: 6, 2: 2, 3: 1}  # the fewest pairs of one table of a round at one table of another


def crowding_floor(tables: int, rounds: int) -> int:
    """With three tables or fewer, four players of a table come from at most three tables of any other
    round, so two of them met there: each two rounds share at least ``SAME_TABLE_PAIRS`` pairs a table, and
    each such pair costs one."""
    return rounds * (rounds - 1) // 2 * tables * SAME_TABLE_PAIRS.get(tables, 0)


def _seat_alone(players: Sequence[str], past: Sequence[Seating], number: int, budget: int,
                attempt: int) -> Seating:
    """The round ``number`` on its own: the cheapest seating found after ``past`` within ``budget``."""
    byes = pick_byes([(name,) for name in players], len(players) % TABLE_SIZE, past)
    out = {name for (name,) in byes}
    playing = [name for name in players if name not in out]
    partners, meetings = _met(playing, past)
    seed = zlib.crc32("\n".join([str(number), str(attempt), *playing]).encode("utf-8"))
    seats = _search(len(playing), partners, meetings, budget, random.Random(seed))
    return Seating(number, _tables([playing[seat] for seat in seats]), tuple(byes))


def _tables(seated: Sequence[str]) -> tuple[SeatedTable, ...]:
    """Names in seat order as tables: four seats a table, two partners then their two opponents."""
    return tuple(SeatedTable(index // TABLE_SIZE + 1, ((seated[index], seated[index + 1]),
                                                       (seated[index + 2], seated[index + 3])))
                 for index in range(0, len(seated), TABLE_SIZE))


def _met(playing: Sequence[str], past: Sequence[Seating]) -> tuple[Counts, Counts]:
    """How often each two of ``playing`` (by index) partnered, and met in any role, in ``past``."""
    index = {name: place for place, name in enumerate(playing)}
    size = len(playing)
    partners = [[0] * size for _ in range(size)]
    meetings = [[0] * size for _ in range(size)]
    for seating in past:
        for table in seating.tables:
            first, second = ([index[name] for name in side if name in index] for side in table.sides)
            for side in (first, second):
                for a in side:
                    for b in side:
                        partners[a][b] += a != b
            seated = first + second
            for a in seated:
                for b in seated:
                    meetings[a][b] += a != b
    return partners, meetings


def _search(size: int, partners: Counts, meetings: Counts, budget: int, rng: random.Random) -> list[int]:
    """Player indexes in seat order (four seats a table: two partners, then their two opponents)."""

    def table_cost(seats: list[int], table: int) -> int:
        start = table * TABLE_SIZE
        a, b, c, d = seats[start:start + TABLE_SIZE]
        return (PARTNER_WEIGHT * (partners[a][b] + partners[c][d]) + meetings[a][b] + meetings[c][d]
                + meetings[a][c] + meetings[a][d] + meetings[b][c] + meetings[b][d])

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


def _anneal(players: Sequence[str], plan: list[Seating], fixed: int, floor: int, rng: random.Random) -> list[Seating]:
    """``plan`` improved as a whole: its rounds after the first ``fixed`` (those played) change by swaps of
    two players of one round (one of them at a table where two met before), a swap that costs more taken
    now and then;
    the cheapest plan met is kept. Stops at ``floor``, or after ``STALE_STEPS`` without a cheaper plan."""
    index = {name: place for place, name in enumerate(players)}
    partners, meetings = _met(players, plan)
    rounds = [[index[name] for table in seating.tables for name in table.players] for seating in plan[fixed:]]
    movable = [number for number, seats in enumerate(rounds) if seats]

    def table(seats: list[int], start: int, sign: int) -> int:
        """Add (``sign`` 1) or take away (-1) the table at ``start``; the cost that adds or frees."""
        a, b, c, d = seats[start:start + TABLE_SIZE]
        total = 0
        for x, y, partnered in ((a, b, True), (c, d, True), (a, c, False), (a, d, False), (b, c, False),
                                (b, d, False)):
            if sign < 0:
                meetings[x][y] -= 1
                meetings[y][x] -= 1
            total += meetings[x][y]
            if partnered:
                if sign < 0:
                    partners[x][y] -= 1
                    partners[y][x] -= 1
                total += PARTNER_WEIGHT * partners[x][y]
                if sign > 0:
                    partners[x][y] += 1
                    partners[y][x] += 1
            if sign > 0:
                meetings[x][y] += 1
                meetings[y][x] += 1
        return total

    def clashes(seats: list[int], start: int) -> bool:
        """Whether two players of the table at ``start`` met at another table of the plan (or partnered)."""
        a, b, c, d = seats[start:start + TABLE_SIZE]
        return (partners[a][b] > 1 or partners[c][d] > 1 or meetings[a][b] > 1 or meetings[c][d] > 1
                or meetings[a][c] > 1 or meetings[a][d] > 1 or meetings[b][c] > 1 or meetings[b][d] > 1)

    cost = best_cost = _cost_of(partners, meetings)
    best = [list(seats) for seats in rounds]
    if not movable:
        return plan
    found = 0
    for step in range(ANNEALING_STEPS):
        if best_cost <= floor or step - found > STALE_STEPS:
            break
        seats = rounds[rng.choice(movable)]
        i, j = rng.randrange(len(seats)), rng.randrange(len(seats))
        if i // 2 == j // 2 or not clashes(seats, i - i % TABLE_SIZE):
            continue  # a swap that changes nothing, or moves a player whose table is fine
        starts = sorted({i - i % TABLE_SIZE, j - j % TABLE_SIZE})
        freed = sum(table(seats, start, -1) for start in starts)
        seats[i], seats[j] = seats[j], seats[i]
        added = sum(table(seats, start, 1) for start in starts)
        change = added - freed
        if change <= 0 or rng.random() < math.exp(-change / HEAT):
            cost += change
            if cost < best_cost:
                best_cost, best, found = cost, [list(seats) for seats in rounds], step
        else:
            for start in starts:
                table(seats, start, -1)
            seats[i], seats[j] = seats[j], seats[i]
            for start in starts:
                table(seats, start, 1)
    return list(plan[:fixed]) + [Seating(seating.round, _tables([players[seat] for seat in seats]), seating.byes)
                                 for seating, seats in zip(plan[fixed:], best, strict=True)]
