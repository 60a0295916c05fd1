"""How the teams of a team event move from round to round, and the warning when meetings must repeat.

*Round robin* (the default when the event has no more rounds than a full round robin: one fewer than the
teams, or as many as the teams with an odd count): every team meets every other once, by the circle method
(the first team stays, the others turn one place a round); with an odd count one team sits out each round,
each team once. *Stay/move* (``seating``): the first side stays, the second moves to the next table; past
half the teams' count it meets teams again.

When the rounds already played are not the round robin's (a team added at the door, one withdrawn, a
director's swap), the next round is paired on its own: the teams that sat out least sit out, and the
others are paired so that as few as possible meet again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum

from .events import Entrant, SeatedTable, Seating, bye_counts

TeamKey = frozenset[str]
Game = frozenset[TeamKey]
PAIRING_BUDGET = 20_000  # pairings weighed when a round is paired on its own


class Movement(StrEnum):
    ROUND_ROBIN = "round-robin"
    STAY_MOVE = "stay-move"


def round_robin_rounds(teams: int) -> int:
    """Rounds of a full round robin of ``teams``: each meets every other once (and sits out once if odd)."""
    return teams if teams % 2 else teams - 1


def default_movement(teams: int, rounds: int | None) -> Movement:
    """A round robin when the event's rounds fit in one, else stay/move."""
    if rounds is not None and rounds <= round_robin_rounds(teams):
        return Movement.ROUND_ROBIN
    return Movement.STAY_MOVE


def round_robin(teams: Sequence[Entrant]) -> list[Seating]:
    """The full round robin of ``teams`` by the circle method, round 1 first."""
    slots: list[Entrant | None] = [None, *teams] if len(teams) % 2 else list(teams)
    seatings = []
    for number in range(1, round_robin_rounds(len(teams)) + 1):
        games = [(slots[index], slots[-1 - index]) for index in range(len(slots) // 2)]
        tables: list[SeatedTable] = []
        byes: list[Entrant] = []
        for first, second in games:
            if first is None or second is None:
                byes.append(second or first or ())
            else:
                sides = (first, second) if number % 2 or not tables else (second, first)
                tables.append(SeatedTable(len(tables) + 1, sides))
        seatings.append(Seating(number, tuple(tables), tuple(byes)))
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return seatings


def games_of(seating: Seating) -> set[Game]:
    return {frozenset(map(frozenset, table.sides)) for table in seating.tables}


def seat_round_robin(teams: Sequence[Entrant], past: Sequence[Seating], number: int) -> Seating:
    """Round ``number`` of the round robin of ``teams`` after ``past`` (again from its first round past
    its last); paired on its own (``pair_round``) when ``past`` is not the round robin's first rounds."""
    schedule = round_robin(teams)
    if all(games_of(seating) == games_of(planned) and set(map(frozenset, seating.byes)) ==
           set(map(frozenset, planned.byes)) for seating, planned in zip(past, schedule, strict=False)):
        planned = schedule[(number - 1) % len(schedule)]
        return Seating(number, planned.tables, planned.byes)
    return pair_round(teams, past, number)


def pair_round(teams: Sequence[Entrant], past: Sequence[Seating], number: int) -> Seating:
    """Round ``number`` paired on its own: with an odd count, the team that sat out least sits out (the
    latest entered among equals); the others are paired so that the fewest meet again (a search of
    ``PAIRING_BUDGET`` pairings at most, in entry order)."""
    byes = bye_counts(past, teams)
    playing = list(teams)
    out: list[Entrant] = []
    if len(playing) % 2:
        index = min(range(len(playing)), key=lambda place: (byes[frozenset(playing[place])], -place))
        out.append(playing.pop(index))
    met: Counter[Game] = Counter(game for seating in past for game in games_of(seating))
    keys = [frozenset(team) for team in playing]
    best: tuple[int, list[tuple[int, int]]] | None = None
    tried = 0

    def search(left: list[int], chosen: list[tuple[int, int]], cost: int) -> None:
        nonlocal best, tried
        if best is not None and (cost >= best[0] or best[0] == 0):
            return
        if not left:
            best = cost, list(chosen)
            return
        first, rest = left[0], left[1:]
        for other in sorted(rest, key=lambda place: met[frozenset((keys[first], keys[place]))]):
            tried += 1
            if tried > PAIRING_BUDGET and best is not None:
                return
            chosen.append((first, other))
            search([place for place in rest if place != other], chosen,
                   cost + met[frozenset((keys[first], keys[other]))])
            chosen.pop()

    search(list(range(len(playing))), [], 0)
    assert best is not None
    tables = tuple(SeatedTable(place, (playing[first], playing[second]))
                   for place, (first, second) in enumerate(best[1], start=1))
    return Seating(number, tables, tuple(out))
