"""Standings of a club event, worked out from each table's outcome (never stored), and when a table is done.

``table_outcome`` reads a table's outcome from its match's sheet; the standings add the outcomes up.

Progressive: a player's points are the sum, over rounds, of their side's total at their table. Ranked by
points, ties broken by rounds won (or, ranking by wins, by rounds won, ties broken by points), then the best
single round; players equal on all three share a rank (listed by name). A player on a bye is credited that
round's average side total over the tables done (rounded, halves up; never below 0).

Team: games won, then total points, then head-to-head (games won against the other teams so tied); teams
equal on all three share a rank (listed by name). A bye counts as a game won worth the average of that
round's winning scores (tables done with a winner, rounded, halves up; 0 while there is none).

A late table closed by the director keeps its score as it stands: it is done, and the side ahead wins
(no one on a tie). A table the director gives an adjusted score counts those points instead, the same way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from .events import Ranking, RoundEnd, RoundEndKind, SeatedTable, Seating
from .match import Match
from .scoring import PASSED, score_match

T = TypeVar("T")


@dataclass(frozen=True)
class TableOutcome:
    """One table's match in one round, as the sheet scores it: the sides' totals, the winning side (an index,
    None while playing or on a tie), the deals played, and whether the table is done."""

    round: int
    table: int
    sides: tuple[tuple[str, ...], tuple[str, ...]]
    totals: tuple[int, int]
    winner: int | None
    deals: int
    done: bool


def close_table(outcome: TableOutcome) -> TableOutcome:
    """A late table closed by the director with its score as it stands: done, won by the side ahead."""
    first, second = outcome.totals
    winner = None if first == second else (0 if first > second else 1)
    return replace(outcome, winner=winner, done=True)


def adjusted(outcome: TableOutcome, totals: tuple[int, int]) -> TableOutcome:
    """A table given an adjusted score by the director (an arbitral score): those points count for the event
    in place of its sheet's, it is done, and the side ahead wins (no one on a tie)."""
    return close_table(replace(outcome, totals=totals))


def round_is_done(end: RoundEnd, target_reached: bool, deals: int, minutes_elapsed: float | None,
                  deal_in_play: bool = False, level: bool = False) -> bool:
    """Whether a table has finished its game of the round: its match reached the target (whatever ends
    the round), or it played the round's deals with one side ahead (``level``: the sides are level, and a
    level table plays on, as its match's deal limit says, until a deal breaks the tie), or the time is up
    with no deal in play (the deal being played when time runs out is finished first).

    The one definition of "done": the event's standings and the table's phone both ask it."""
    if target_reached:
        return True
    if end.kind is RoundEndKind.DEALS:
        return end.count is not None and deals >= end.count and not level
    if end.kind is RoundEndKind.MINUTES:
        return end.count is not None and minutes_elapsed is not None and minutes_elapsed >= end.count \
            and not deal_in_play
    return False


def table_outcome(round: int, seated: SeatedTable, match: Match, end: RoundEnd, minutes_elapsed: float | None = None,
                  deal_in_play: bool = False, closed: bool = False) -> TableOutcome:
    """A table's outcome from its match's recorded deals, scored by the sheet: the deals counted are those
    played (not passed) up to the match's end; a table done without a winner of its match (its deals or its
    time up), or ``closed`` by the director, is won by the side ahead."""
    sheet = score_match(match)
    deals = sum(1 for line in sheet.deals if not line.after_end and line.status != PASSED)
    level = sheet.totals[0] == sheet.totals[1]
    done = round_is_done(end, sheet.winner is not None, deals, minutes_elapsed, deal_in_play, level)
    outcome = TableOutcome(round, seated.number, seated.sides, (sheet.totals[0], sheet.totals[1]), sheet.winner,
                           deals, done)
    return close_table(outcome) if closed or (done and sheet.winner is None) else outcome


def average(values: Sequence[int]) -> int:
    """The mean of ``values`` rounded to a whole point, halves up; 0 for none."""
    return (2 * sum(values) + len(values)) // (2 * len(values)) if values else 0


@dataclass(frozen=True)
class PlayerStanding:
    """A player of a progressive event: points over all rounds, rank (shared on a full tie), rounds played,
    rounds won, best single round, byes."""

    name: str
    points: int
    rank: int
    rounds: int
    won: int
    best: int | None
    byes: int


def progressive_standings(outcomes: Sequence[TableOutcome], seatings: Sequence[Seating] = (),
                          ranking: Ranking = Ranking.POINTS) -> tuple[PlayerStanding, ...]:
    """Each player's standing, first place first; ``seatings`` (optional) give the byes to credit. Ranked by
    points, then rounds won (``Ranking.POINTS``), or by rounds won, then points (``Ranking.WINS``)."""
    rounds: dict[str, list[int]] = defaultdict(list)
    won: dict[str, int] = defaultdict(int)
    credit: dict[str, list[int]] = defaultdict(list)
    for outcome in outcomes:
        for index, side in enumerate(outcome.sides):
            for name in side:
                rounds[name].append(outcome.totals[index])
                won[name] += outcome.done and outcome.winner == index
    for seating in seatings:
        value = max(0, average([total for outcome in outcomes if outcome.round == seating.round and outcome.done
                                for total in outcome.totals]))  # a bye never costs points
        for name in (name for bye in seating.byes for name in bye):
            credit[name].append(value)
    names = sorted(set(rounds) | set(credit), key=str.casefold)
    points = {name: sum(rounds[name]) + sum(credit[name]) for name in names}
    best = {name: max(rounds[name], default=None) for name in names}

    def key(name: str) -> tuple[int, int, bool, int]:
        first, second = (won[name], points[name]) if ranking is Ranking.WINS else (points[name], won[name])
        return -first, -second, best[name] is None, -(best[name] or 0)

    return tuple(PlayerStanding(name, points[name], rank, len(rounds[name]), won[name], best[name], len(credit[name]))
                 for name, rank in ranks(names, key))


@dataclass(frozen=True)
class TeamStanding:
    """A team of a team event: games won (byes included), total points, rank (shared on a full tie), games
    played at a table, byes."""

    players: tuple[str, ...]
    won: int
    points: int
    rank: int
    played: int
    byes: int


def team_standings(outcomes: Sequence[TableOutcome], seatings: Sequence[Seating]) -> tuple[TeamStanding, ...]:
    """Each team's standing, first place first; the seatings give the teams on a bye."""
    teams: dict[frozenset[str], tuple[str, ...]] = {}
    won: dict[frozenset[str], int] = defaultdict(int)
    points: dict[frozenset[str], int] = defaultdict(int)
    played: dict[frozenset[str], int] = defaultdict(int)
    byes: dict[frozenset[str], int] = defaultdict(int)
    beat: dict[frozenset[str], list[frozenset[str]]] = defaultdict(list)
    for outcome in outcomes:
        keys = [frozenset(side) for side in outcome.sides]
        for index, side in enumerate(outcome.sides):
            teams.setdefault(keys[index], side)
            points[keys[index]] += outcome.totals[index]
            played[keys[index]] += 1
        if outcome.done and outcome.winner is not None:
            won[keys[outcome.winner]] += 1
            beat[keys[outcome.winner]].append(keys[1 - outcome.winner])
    for seating in seatings:
        value = max(0, average([outcome.totals[outcome.winner] for outcome in outcomes
                                if outcome.round == seating.round and outcome.done and outcome.winner is not None]))
        for bye in seating.byes:
            key = frozenset(bye)
            teams.setdefault(key, bye)
            won[key] += 1
            points[key] += value
            byes[key] += 1
    tied: dict[tuple[int, int], set[frozenset[str]]] = defaultdict(set)
    for key in teams:
        tied[won[key], points[key]].add(key)

    def order(key: frozenset[str]) -> tuple[int, int, int]:
        rivals = tied[won[key], points[key]] - {key}
        return -won[key], -points[key], -sum(loser in rivals for loser in beat[key])

    names = sorted(teams, key=lambda key: [name.casefold() for name in teams[key]])
    return tuple(TeamStanding(teams[key], won[key], points[key], rank, played[key], byes[key])
                 for key, rank in ranks(names, order))


def ranks(items: Sequence[T], key: Callable[[T], tuple[int | bool, ...]]) -> list[tuple[T, int]]:
    """``items`` (already in name order) sorted by ``key``, each with its rank: equal keys share a rank, and
    the next rank counts everyone above (1, 2, 2, 4)."""
    ordered = sorted(items, key=key)
    ranked: list[tuple[T, int]] = []
    for place, item in enumerate(ordered):
        shares = place and key(item) == key(ordered[place - 1])
        ranked.append((item, ranked[-1][1] if shares else place + 1))
    return ranked
