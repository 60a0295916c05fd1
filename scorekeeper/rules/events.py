"""A club event's values: its format, how a round ends, a round's seating, and the check of its entrants.

An event is a club night or a tournament of many tables. Its *entrants* are teams of two (team format) or
single players (progressive format, each a one-name tuple). A round seats them at tables numbered from 1;
each table is an ordinary two-sided match. Players not seated in a round sit out on a bye.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from .errors import MatchFileError, RulesError
from .limits import MAX_DEALS, MAX_EVENT_ENTRANTS, MAX_PLAYER_NAME, MAX_ROUND_MINUTES
from .problems import Problem, ProblemCode
from .text import clean_name

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


class Ranking(StrEnum):
    """How a progressive event ranks its players: by points, then rounds won; or by rounds won, then points."""

    POINTS = "points"
    WINS = "wins"


class RoundEndKind(StrEnum):
    """What ends a table's game in a round: the match's target, a number of deals, or a time limit."""

    TARGET = "target"
    DEALS = "deals"
    MINUTES = "minutes"


ROUND_END_MAXIMUM = {RoundEndKind.TARGET: 0, RoundEndKind.DEALS: MAX_DEALS, RoundEndKind.MINUTES: MAX_ROUND_MINUTES}


@dataclass(frozen=True)
class RoundEnd:
    """How a round ends; ``count`` is the deals or minutes, None for a game to the target.

    Written in JSON as ``{"target": true}``, ``{"deals": 8}`` or ``{"minutes": 50}``.
    """

    kind: RoundEndKind
    count: int | None = None

    def __post_init__(self) -> None:
        if (self.count is None) != (self.kind is RoundEndKind.TARGET):
            raise ValueError(f"a round end by {self.kind} {'needs' if self.count is None else 'takes no'} count")
        if self.count is not None and not 1 <= self.count <= ROUND_END_MAXIMUM[self.kind]:
            raise ValueError(f"a round of {self.count} {self.kind} is out of range")

    @classmethod
    def from_json(cls, value: object, path: str = "round_end") -> RoundEnd:
        """Read ``{"target": true}``, ``{"deals": N}`` or ``{"minutes": M}``; ``EventError`` at ``path``."""
        if not isinstance(value, dict) or len(value) != 1:
            code = ProblemCode.WRONG_TYPE if not isinstance(value, dict) else (
                ProblemCode.MISSING_KEY if not value else ProblemCode.UNKNOWN_KEY)
            raise EventError(code, path, 'a round ends by one of {"target": true}, {"deals": N} or {"minutes": M}')
        [(key, count)] = value.items()
        here = f"{path}.{key}"
        if key not in set(RoundEndKind):
            raise EventError(ProblemCode.UNKNOWN_KEY, here, f"a round ends by target, deals or minutes, not {key!r}")
        kind = RoundEndKind(key)
        if kind is RoundEndKind.TARGET:
            if count is not True:
                raise EventError(ProblemCode.WRONG_TYPE, here, "a round to the target is written true")
            return cls(kind)
        if not isinstance(count, int) or isinstance(count, bool):
            raise EventError(ProblemCode.NOT_A_NUMBER, here, f"the {kind} of a round are a whole number")
        maximum = ROUND_END_MAXIMUM[kind]
        if not 1 <= count <= maximum:
            raise EventError(ProblemCode.OUT_OF_RANGE, here, f"a round has 1 to {maximum:,} {kind}, not {count}")
        return cls(kind, count)

    def to_json(self) -> dict[str, int | bool]:
        return {self.kind.value: True if self.count is None else self.count}

    def ends_at(self, started: datetime, clock: Clock | None = None, now: datetime | None = None) -> datetime | None:
        """When a round started at ``started`` runs out of time (None for a round without a time limit), its
        ``clock`` paused and extended by the director: while it is paused, the end moves on with ``now``."""
        if self.kind is not RoundEndKind.MINUTES or self.count is None:
            return None
        clock = clock or Clock()
        end = started + timedelta(minutes=self.count + clock.extra_minutes, seconds=clock.paused_seconds)
        if clock.paused_at is not None and now is not None and now > clock.paused_at:
            end += now - clock.paused_at
        return end


@dataclass(frozen=True)
class Clock:
    """A time-limited round's clock as the director ran it: minutes added, seconds it stood paused before, and
    when it was paused (None while it runs)."""

    extra_minutes: int = 0
    paused_seconds: int = 0
    paused_at: datetime | None = None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def paused_now(self, now: datetime) -> Clock:
        return Clock(self.extra_minutes, self.paused_seconds, now)

    def resumed(self, now: datetime) -> Clock:
        """Running again: the pause counts in ``paused_seconds`` (whole seconds, rounded up)."""
        if self.paused_at is None:
            return self
        stood = now - self.paused_at
        return Clock(self.extra_minutes, self.paused_seconds + math.ceil(stood.total_seconds()), None)

    def extended(self, minutes: int) -> Clock:
        return Clock(self.extra_minutes + minutes, self.paused_seconds, self.paused_at)


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
    """Raise ``EventError`` unless ``entrants`` can play an event of ``format`` (see ``clean_entrants``)."""
    clean_entrants(format, entrants)


def clean_entrants(format: EventFormat, entrants: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """``entrants`` with their names as a match file keeps them (NFC, spaces around stripped), or
    ``EventError``: too few to fill a table, too many, an entrant not of the format's size (two for a team,
    one otherwise), a name that is no text, empty, too long or holding a character no name may hold, or a
    name entered twice (case aside). A name taken here is taken by every table's match."""
    what = "teams" if format is EventFormat.TEAM else "players"
    if len(entrants) < format.fewest_entrants:
        raise EventError(ProblemCode.TOO_FEW_ENTRANTS, what,
                         f"an event needs at least {format.fewest_entrants} {what} to fill a table, "
                         f"not {len(entrants)}")
    if len(entrants) * format.entrant_size > MAX_EVENT_ENTRANTS:
        raise EventError(ProblemCode.TOO_MANY_ENTRANTS, what,
                         f"an event has at most {MAX_EVENT_ENTRANTS} players")
    seen: set[str] = set()
    cleaned: list[Entrant] = []
    for index, entrant in enumerate(entrants):
        path = entrant_path(format, index)
        if len(entrant) != format.entrant_size:
            message = ("a team is two players" if format is EventFormat.TEAM
                       else "each entrant of a progressive event is one player")
            raise EventError(ProblemCode.ENTRANT_SIZE, path, f"{message}, not {len(entrant)}")
        names = tuple(_clean_player(name, f"{path}[{place}]" if format is EventFormat.TEAM else path, seen)
                      for place, name in enumerate(entrant))
        cleaned.append(names)
    return tuple(cleaned)


def _clean_player(name: object, path: str, seen: set[str]) -> str:
    """One player's name cleaned, and remembered in ``seen`` (case folded)."""
    if not isinstance(name, str):
        raise EventError(ProblemCode.WRONG_TYPE, path, "a player's name is text")
    try:
        name = clean_name(name, path, MAX_PLAYER_NAME, "a player's name")
    except MatchFileError as error:
        raise EventError(error.problem.code, error.problem.path, error.problem.message) from None
    if not name:
        raise EventError(ProblemCode.NAME_MISSING, path, "a player needs a name")
    if name.casefold() in seen:
        raise EventError(ProblemCode.DUPLICATE_PLAYER, path, f"{name} is entered twice")
    seen.add(name.casefold())
    return name


def bye_counts(past: Sequence[Seating], entrants: Sequence[Entrant] = ()) -> Counter[frozenset[str]]:
    """How many rounds each entrant (as a set of names) sat out: its byes, and for each of ``entrants`` the
    rounds played before it arrived (a round where none of its names was seated nor on a bye)."""
    counts = Counter(frozenset(bye) for seating in past for bye in seating.byes)
    for entrant in entrants:
        counts[frozenset(entrant)] += sum(not set(entrant) & set(seating.players) for seating in past)
    return counts


def pick_byes(entrants: Sequence[Entrant], count: int, past: Sequence[Seating]) -> list[Entrant]:
    """The ``count`` entrants who sit out next: those who sat out least so far (a late arrival's rounds
    missed counting as sat out), then the latest in the entry list."""
    byes = bye_counts(past, entrants)
    order = sorted(range(len(entrants)), key=lambda index: (byes[frozenset(entrants[index])], -index))
    return [entrants[index] for index in order[:count]]


def still_playing(entrants: Sequence[Entrant], withdrawn: Mapping[str, int], round: int) -> list[Entrant]:
    """``entrants`` but those withdrawn (``withdrawn``: a player's name → the first round they miss) from
    ``round`` or before; a team goes with either of its players."""
    return [entrant for entrant in entrants
            if not any(name in withdrawn and withdrawn[name] <= round for name in entrant)]
