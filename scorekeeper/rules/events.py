"""A club event's values: its format, how a round ends, a round's seating, and the check of its entrants.

An event is a club night or a tournament of many tables. Its *entrants* are teams of two (team format) or
single players (progressive format, each a one-name tuple). A round seats them at tables numbered from 1;
each table is an ordinary two-sided match. Players not seated in a round sit out on a bye.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import RulesError
from .limits import MAX_EVENT_ENTRANTS
from .problems import Problem, ProblemCode

Entrant = tuple[str, ...]  # a team's two names, or one player's name

TEAM_SIZE = 2
TABLE_SIZE = 4  # players at a table: two sides of two


class EventFormat(StrEnum):
    """Team: fixed partnerships move between tables. Progressive: partners change every round."""

    TEAM = "team"
    PROGRESSIVE = "progressive"

    @property
    def entrant_size(self) -> int:
        """Players in one entrant: a team of two, or one player."""
        return TEAM_SIZE if self is EventFormat.TEAM else 1

    @property
    def fewest_entrants(self) -> int:
        """Entrants needed to fill one table."""
        return TABLE_SIZE // self.entrant_size


class RoundEndKind(StrEnum):
    """What ends a table's game in a round: the match's target, a number of deals, or a time limit."""

    TARGET = "target"
    DEALS = "deals"
    MINUTES = "minutes"


@dataclass(frozen=True)
class RoundEnd:
    """How a round ends; ``count`` is the deals or minutes, None for a game to the target."""

    kind: RoundEndKind
    count: int | None = None

    def __post_init__(self) -> None:
        if (self.count is None) != (self.kind is RoundEndKind.TARGET):
            raise ValueError(f"a round end by {self.kind} {'needs' if self.count is None else 'takes no'} count")
        if self.count is not None and self.count < 1:
            raise ValueError(f"a round of {self.count} {self.kind} is no round")


@dataclass(frozen=True)
class SeatedTable:
    """One table of a round: its number (from 1) and its two sides' players."""

    number: int
    sides: tuple[tuple[str, ...], tuple[str, ...]]

    @property
    def players(self) -> tuple[str, ...]:
        return self.sides[0] + self.sides[1]


@dataclass(frozen=True)
class Seating:
    """Where everyone sits in one round (numbered from 1), and who sits out (each bye an entrant)."""

    round: int
    tables: tuple[SeatedTable, ...]
    byes: tuple[tuple[str, ...], ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        """Every name of the round, seated or on a bye, tables first."""
        return tuple(name for table in self.tables for name in table.players) + tuple(
            name for bye in self.byes for name in bye)

    def table_of(self, name: str) -> SeatedTable | None:
        """The table where ``name`` sits this round; None on a bye (or not in the event)."""
        return next((table for table in self.tables if name in table.players), None)


class EventError(RulesError):
    """Entrants, a seating or a swap that an event cannot take; ``problem`` says what and where."""

    def __init__(self, code: ProblemCode, path: str, message: str) -> None:
        super().__init__(Problem(code, path, message))


def entrant_path(format: EventFormat, index: int) -> str:
    """Where an entrant is in the API's request: ``players[3]`` or ``teams[3]``."""
    return f"{'teams' if format is EventFormat.TEAM else 'players'}[{index}]"


def check_entrants(format: EventFormat, entrants: Sequence[Entrant]) -> None:
    """Raise ``EventError`` unless ``entrants`` can play an event of ``format``: enough to fill a table, not
    too many, each entrant of the format's size (two for a team, one otherwise), no empty name, no name twice
    (case and surrounding spaces aside)."""
    what = "teams" if format is EventFormat.TEAM else "players"
    if len(entrants) < format.fewest_entrants:
        raise EventError(ProblemCode.TOO_FEW_ENTRANTS, what,
                         f"an event needs at least {format.fewest_entrants} {what} to fill a table, "
                         f"not {len(entrants)}")
    if len(entrants) * format.entrant_size > MAX_EVENT_ENTRANTS:
        raise EventError(ProblemCode.TOO_MANY_ENTRANTS, what,
                         f"an event has at most {MAX_EVENT_ENTRANTS} players")
    seen: set[str] = set()
    for index, entrant in enumerate(entrants):
        path = entrant_path(format, index)
        if len(entrant) != format.entrant_size:
            message = ("a team is two players" if format is EventFormat.TEAM
                       else "each entrant of a progressive event is one player")
            raise EventError(ProblemCode.ENTRANT_SIZE, path, f"{message}, not {len(entrant)}")
        for place, name in enumerate(entrant):
            name_path = f"{path}[{place}]" if format is EventFormat.TEAM else path
            key = name.strip().casefold()
            if not key:
                raise EventError(ProblemCode.NAME_MISSING, name_path, "a player needs a name")
            if key in seen:
                raise EventError(ProblemCode.DUPLICATE_PLAYER, name_path, f"{name.strip()} is entered twice")
            seen.add(key)


def bye_counts(past: Sequence[Seating]) -> Counter[frozenset[str]]:
    """How many rounds each entrant (as a set of names) sat out."""
    return Counter(frozenset(bye) for seating in past for bye in seating.byes)


def pick_byes(entrants: Sequence[Entrant], count: int, past: Sequence[Seating]) -> list[Entrant]:
    """The ``count`` entrants who sit out next: fewest byes so far, then the latest in the entry list."""
    byes = bye_counts(past)
    order = sorted(range(len(entrants)), key=lambda index: (byes[frozenset(entrants[index])], -index))
    return [entrants[index] for index in order[:count]]
