"""A season: the events a club table holds, added up player by player, and an event's prize list.

A player's season points are the sum of their points at each event they played (their own points in a
progressive event, their team's in a team event). When the director sets *best N*, only a player's N best
events count (all of them while they have played N or fewer). Players equal on points share a rank (listed
by name).

An event's prize list: the top places of its standings (a shared rank shares the prize), and each round's
best score (every player, or team, on that round's highest points).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .standings import PlayerStanding, TeamStanding, ranks

MAX_BEST = 100  # the most events a "best N" may name
PRIZE_PLACES = 3


@dataclass(frozen=True)
class SeasonStanding:
    """A player across a season: events played, points counted (their best N events when N is set), rank."""

    name: str
    events: int
    points: int
    rank: int


def event_points(standings: Sequence[PlayerStanding | TeamStanding]) -> dict[str, int]:
    """Each player's points at one event: their own (progressive) or their team's (team format)."""
    points: dict[str, int] = {}
    for standing in standings:
        names = (standing.name,) if isinstance(standing, PlayerStanding) else standing.players
        for name in names:
            points[name] = standing.points
    return points


def season_standings(events: Sequence[Mapping[str, int]], best: int | None = None) -> tuple[SeasonStanding, ...]:
    """The season's standings from each event's points by player, first place first; ``best`` counts only
    each player's ``best`` highest events."""
    if best is not None and not 1 <= best <= MAX_BEST:
        raise ValueError(f"best is from 1 to {MAX_BEST}, not {best}")
    played: dict[str, list[int]] = defaultdict(list)
    for points in events:
        for name, value in points.items():
            played[name].append(value)
    counted = {name: sum(sorted(values, reverse=True)[:best]) for name, values in played.items()}
    names = sorted(played, key=str.casefold)
    return tuple(SeasonStanding(name, len(played[name]), counted[name], rank)
                 for name, rank in ranks(names, lambda name: (-counted[name],)))


@dataclass(frozen=True)
class Prize:
    """A place on the prize list: the players (one, or a team's two), their points, and the rank or round."""

    players: tuple[str, ...]
    points: int
    place: int  # the rank for a top place, the round's number for a round's best


@dataclass(frozen=True)
class PrizeList:
    """The top places of an event and each round's best."""

    top: tuple[Prize, ...]
    rounds: tuple[tuple[Prize, ...], ...]


def _prize(standing: PlayerStanding | TeamStanding, place: int) -> Prize:
    names = (standing.name,) if isinstance(standing, PlayerStanding) else standing.players
    return Prize(names, standing.points, place)


def prize_list(overall: Sequence[PlayerStanding | TeamStanding],
               rounds: Sequence[tuple[int, Sequence[PlayerStanding | TeamStanding]]],
               places: int = PRIZE_PLACES) -> PrizeList:
    """The standings' first ``places`` ranks (everyone sharing one of them), and for each round (its
    number, its standings) those on its highest points; a round nobody scored in has no best."""
    top = tuple(_prize(standing, standing.rank) for standing in overall if standing.rank <= places)
    bests = []
    for number, standings in rounds:
        played = [standing for standing in standings if not _on_bye(standing)]
        high = max((standing.points for standing in played), default=0)
        bests.append(tuple(_prize(standing, number) for standing in played if high > 0 and standing.points == high))
    return PrizeList(top, tuple(bests))


def _on_bye(standing: PlayerStanding | TeamStanding) -> bool:
    """A round's standing of someone who only sat out (a bye's credit is no score of theirs)."""
    if isinstance(standing, PlayerStanding):
        return standing.rounds == 0
    return standing.played == 0
