"""Seating a round of a club event, the director's swaps, and how often people met before.

Team format (a *stay/move* movement): at every table the team on the first side stays, and the team on the
second side moves on to the next table (from the last table back to the first). With an odd number of teams
one team sits out each round, one of those with the fewest byes so far: not the team that sat out the round
before when another will do, then the one whose bye leaves the fewest tables of teams that met before, then
the latest in the entry list. The team back from its bye takes the seat of the team that now sits out, so
no team sits out twice while another has not.

A team event of no more rounds than a round robin's is a round robin by default (``movements.py``).

Progressive format: see ``progressive.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from .events import TABLE_SIZE, Entrant, EventError, EventFormat, SeatedTable, Seating, bye_counts, check_entrants
from .movements import Movement, default_movement, games_of, round_robin_rounds, seat_round_robin
from .problems import ProblemCode
from .progressive import seat_progressive

Pair = tuple[str, str]


def seat_round(format: EventFormat, entrants: Sequence[Entrant], past: Sequence[Seating],
               rounds: int | None = None, movement: Movement | None = None) -> Seating:
    """The next round's seating of ``entrants`` after the rounds ``past`` (as played, swaps included).

    ``rounds``, the event's number of rounds, lets a progressive seating plan ahead for fewer repeats, and
    chooses a team event's movement when ``movement`` is None (``movements.default_movement``).
    The same input always gives the same seating. Raises ``EventError`` for entrants the format cannot take.
    """
    check_entrants(format, entrants)
    number = past[-1].round + 1 if past else 1
    if format is EventFormat.TEAM:
        teams = [tuple(team) for team in entrants]
        if (movement or default_movement(len(teams), rounds)) is Movement.ROUND_ROBIN:
            return seat_round_robin(teams, past, number)
        return _seat_teams(teams, past, number)
    return seat_progressive([name for (name,) in entrants], past, number, rounds)


def _seat_teams(teams: list[Entrant], past: Sequence[Seating], number: int) -> Seating:
    """The stay/move movement; with an odd count, of the teams with the fewest byes, one that did not sit
    out the round before and whose bye makes the fewest games of teams that met before sits out (the
    latest entered among equals)."""
    if len(teams) % 2 == 0:
        return _move_teams(teams, None, past, number)
    byes = bye_counts(past, teams)
    fewest = min(byes[frozenset(team)] for team in teams)
    candidates = [team for team in reversed(teams) if byes[frozenset(team)] == fewest]  # the latest entered first
    last_byes = past[-1].byes if past else ()
    met = {frozenset(map(frozenset, table.sides)) for seating in past for table in seating.tables}

    def cost(seating: Seating) -> tuple[bool, int]:
        """Sitting out twice running, then games of teams that met before."""
        return seating.byes[0] in last_byes, sum(frozenset(map(frozenset, table.sides)) in met
                                                  for table in seating.tables)

    return min((_move_teams(teams, team, past, number) for team in candidates), key=cost)


def _move_teams(teams: list[Entrant], bye: Entrant | None, past: Sequence[Seating], number: int) -> Seating:
    """Round ``number`` by the movement, ``bye`` sitting out: teams back from a bye or new take the seats
    left free, in entry order, else a new table; the tables close up over seats still free."""
    playing = [team for team in teams if team != bye]
    seats = _moved_seats(past[-1]) if past else []
    keys = {frozenset(team): team for team in playing}
    seated = [keys.pop(frozenset(team), None) for team in seats]  # None: a team on a bye now, or gone
    waiting = iter(list(keys.values()))  # back from a bye, or new, in entry order
    seated = [team if team is not None else next(waiting, None) for team in seated]
    order = [team for team in seated if team is not None] + list(waiting)
    tables = tuple(SeatedTable(index // 2 + 1, (order[index], order[index + 1]))
                   for index in range(0, len(order), 2))
    return Seating(number, tables, () if bye is None else (bye,))


def _moved_seats(last: Seating) -> list[Entrant]:
    """The teams of ``last`` in their seats after the movement, side by side, table by table."""
    seats: list[Entrant] = []
    for index, table in enumerate(last.tables):
        seats += [table.sides[0], last.tables[index - 1].sides[1]]
    return seats


def swap_players(seating: Seating, first: str, second: str) -> Seating:
    """``seating`` with ``first`` and ``second`` in each other's seats (a table's side, or a bye): the
    director's change before a round starts. Raises ``EventError`` for a name not in the round or one
    name twice."""
    _check_swap(seating, first, second)
    swapped = {first: second, second: first}
    return _reseat(seating, lambda names: tuple(swapped.get(name, name) for name in names))


def swap_teams(seating: Seating, first: str, second: str) -> Seating:
    """``seating`` with the teams of ``first`` and ``second`` in each other's seats: the swap of a team
    event, where partnerships are fixed. Raises ``EventError`` as ``swap_players`` does, or when the two
    are partners."""
    _check_swap(seating, first, second)
    units = [side for table in seating.tables for side in table.sides] + list(seating.byes)
    one = next(unit for unit in units if first in unit)
    other = next(unit for unit in units if second in unit)
    if one == other:
        raise EventError(ProblemCode.DUPLICATE_PLAYER, "second", f"{first} and {second} are partners")
    swapped = {one: other, other: one}
    return _reseat(seating, lambda unit: swapped.get(unit, unit))


def _reseat(seating: Seating, change: Callable[[Entrant], Entrant]) -> Seating:
    """``seating`` with every side and bye changed by ``change``."""
    tables = tuple(SeatedTable(table.number, (change(table.sides[0]), change(table.sides[1])))
                   for table in seating.tables)
    return Seating(seating.round, tables, tuple(change(bye) for bye in seating.byes))


def _check_swap(seating: Seating, first: str, second: str) -> None:
    names = set(seating.players)
    for path, name in (("first", first), ("second", second)):
        if name not in names:
            raise EventError(ProblemCode.PLAYER_UNKNOWN, path, f"{name} does not play round {seating.round}")
    if first == second:
        raise EventError(ProblemCode.DUPLICATE_PLAYER, "second", "a swap needs two different players")


@dataclass(frozen=True)
class RepeatCounts:
    """How many times each pair of players partnered and opposed; a *repeat* is every meeting after the
    first, so a pair that partnered three times counts two partner repeats, and a pair that partnered once
    and opposed once one meeting repeat."""

    partners: Mapping[Pair, int]
    opponents: Mapping[Pair, int]

    @property
    def meetings(self) -> Mapping[Pair, int]:
        """How many times each pair met, in any role."""
        return dict(Counter(self.partners) + Counter(self.opponents))

    @property
    def meeting_repeats(self) -> int:
        """Every meeting of a pair after their first, whether as partners or as opponents."""
        return sum(count - 1 for count in self.meetings.values())

    @property
    def partner_repeats(self) -> int:
        return sum(count - 1 for count in self.partners.values())

    @property
    def opponent_repeats(self) -> int:
        return sum(count - 1 for count in self.opponents.values())


def repeat_counts(seatings: Sequence[Seating]) -> RepeatCounts:
    """Each pair's partnerships and oppositions over ``seatings``; a pair is its two names in sorted order."""
    partners: Counter[Pair] = Counter()
    opponents: Counter[Pair] = Counter()
    for seating in seatings:
        for table in seating.tables:
            for side in table.sides:
                partners.update(pair(a, b) for a, b in combinations(side, 2))
            opponents.update(pair(a, b) for a in table.sides[0] for b in table.sides[1])
    return RepeatCounts(dict(partners), dict(opponents))


def repeats_warning(format: EventFormat, entrants: int, rounds: int, movement: Movement | None) -> str | None:
    """Why meetings will repeat in an event of ``entrants`` over ``rounds`` (None when they need not): more
    meetings than others to meet (progressive: three a round; team: a round robin's rounds), or a stay/move
    movement that meets teams again where a round robin would not."""
    if format is EventFormat.PROGRESSIVE:
        most = -(-rounds * (entrants - entrants % TABLE_SIZE) // entrants)  # rounds played by the most seated
        if 3 * most > entrants - 1:
            return (f"{entrants} players over {rounds} rounds meet up to {3 * most} others among "
                    f"{entrants - 1}: some will meet twice")
        return None
    full = round_robin_rounds(entrants)
    if rounds > full:
        return f"{entrants} teams meet each other once in {full} rounds: over {rounds} some meet again"
    if (movement or default_movement(entrants, rounds)) is Movement.STAY_MOVE:
        teams: list[Entrant] = [(f"{index}a", f"{index}b") for index in range(entrants)]
        past: list[Seating] = []
        for _ in range(rounds):
            past.append(_seat_teams(teams, past, len(past) + 1))
        games = [game for seating in past for game in games_of(seating)]
        if len(games) > len(set(games)):
            return (f"the stay/move movement meets teams again over {rounds} rounds: a round robin "
                    f'("movement": "round-robin") would not')
    return None


def pair(a: str, b: str) -> Pair:
    return (a, b) if a <= b else (b, a)
