"""Players' ratings: each player's skill worked out from the finished matches they played, never stored.

The ratings come from OpenSkill's Plackett-Luce model (Weng and Lin's Bayesian rating for teams): every
player starts at 25 with an uncertainty (a standard deviation) of 25/3; each result moves the winners up
and the losers down, by more when the result was a surprise, and shrinks the uncertainty of everyone in
it. The results are replayed in the order given, so the same results give the same ratings, and a later
result counts for more than an earlier one (skill changes with time; the latest news weighs most).

``rate`` does not care where the results come from (a table's matches, an event's tables: ``Result.ranked``
places sides by their totals); ``results_of`` reads them from stored matches, each decided by the rules
core's sheet under the match's rules as they are now, so a corrected deal or a changed house rule changes
the ratings with the sheets.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from openskill.models import PlackettLuce, PlackettLuceRating

from .models import MatchRow, aware
from .rules.errors import ContradictionError
from .rules.match import Match
from .rules.scoring import Standing, play, settle_match
from .store import reading

CAUTION = 3.0  # the cautious figure is the rating less this many uncertainties


class RatingError(ValueError):
    """A result that cannot be rated: fewer than two sides, a side with nobody on it, a player twice."""


@dataclass(frozen=True)
class Result:
    """A finished match: its sides (each its players' names) in the order they finished, the winner first.

    ``places`` gives each side's place (1 is first); equal places are a tie. Left empty, the sides
    finished 1st, 2nd, 3rd… as listed. ``finished`` is when the result was decided, when known.
    """

    sides: tuple[tuple[str, ...], ...]
    finished: datetime | None = None
    places: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.sides) < 2:
            raise RatingError(f"a result needs two sides or more, not {len(self.sides)}")
        if not all(self.sides):
            raise RatingError("every side of a result needs a player")
        names = [name for side in self.sides for name in side]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise RatingError(f"{twice[0]} plays on two sides, or twice on one")
        if not self.places:
            object.__setattr__(self, "places", tuple(range(1, len(self.sides) + 1)))
        if len(self.places) != len(self.sides) or list(self.places) != sorted(self.places) or self.places[0] < 1:
            raise RatingError(f"places {self.places} do not follow the sides' order")

    @classmethod
    def tie(cls, *sides: tuple[str, ...], finished: datetime | None = None) -> Result:
        """Sides that finished level."""
        return cls(tuple(sides), finished, (1,) * len(sides))

    @classmethod
    def of_match(cls, match: Match, finished: datetime | None = None, *, checked: bool = False) -> Result | None:
        """The result of a finished match, its winner first and the other sides by their totals (equal
        totals tie); None when it is not finished, its facts contradict its rules (it has no sheet), or a
        side names no players. ``checked``: as in ``score_match``."""
        standing = decided(match, checked=checked)
        return None if standing is None else cls.of_standing(match, standing, finished)

    @classmethod
    def of_standing(cls, match: Match, standing: Standing, finished: datetime | None = None) -> Result:
        """The result of a match decided as ``standing`` says (see ``decided``)."""
        return cls.ranked([side.players for side in match.sides], standing.totals, standing.winner, finished)

    @classmethod
    def ranked(cls, sides: Sequence[tuple[str, ...]], totals: Sequence[int], winner: int | None = None,
               finished: datetime | None = None) -> Result:
        """Sides placed by their totals, the highest first and equal totals tied; ``winner`` (an index of
        ``sides``), when given, first whatever its total (a side that bid out wins below another's)."""
        order = sorted(range(len(sides)), key=lambda i: (i != winner, -totals[i], i))
        rest = [i for i in order if i != winner]
        places = [1 if i == winner else 1 + (winner is not None) + sum(totals[j] > totals[i] for j in rest)
                  for i in order]
        return cls(tuple(sides[i] for i in order), finished, tuple(places))


def decided(match: Match, *, checked: bool = False) -> Standing | None:
    """The standing of a match that can be rated: it has a winner, a sheet, and players on every side."""
    if len(match.sides) < 2 or not all(side.players for side in match.sides):
        return None
    try:
        standing = play(match, settle_match(match, checked=checked))
    except ContradictionError:
        return None
    return None if standing.winner is None else standing


@dataclass(frozen=True)
class Rating:
    """A player's rating: ``mu`` the best guess of their skill, ``sigma`` how unsure it is (one standard
    deviation), after ``games`` rated results."""

    name: str
    mu: float
    sigma: float
    games: int

    @property
    def cautious(self) -> float:
        """A skill the player very likely has at least: the rating less three uncertainties (a newcomer's is 0)."""
        return self.mu - CAUTION * self.sigma

    def to_json(self) -> dict[str, str | float | int]:
        """As the API gives it."""
        return {"name": self.name, "mu": self.mu, "sigma": self.sigma, "cautious": self.cautious, "games": self.games}


def rate(results: Iterable[Result]) -> tuple[Rating, ...]:
    """Every player's rating after replaying ``results`` in the order given, the highest cautious figure
    first (then the highest rating, then by name)."""
    model = PlackettLuce()
    skill: dict[str, PlackettLuceRating] = {}
    games: dict[str, int] = {}
    for result in results:
        teams = [[skill[name] if name in skill else model.rating() for name in side] for side in result.sides]
        rated = model.rate(teams, ranks=[float(place) for place in result.places])
        for side, after in zip(result.sides, rated, strict=True):
            for name, rating in zip(side, after, strict=True):
                skill[name] = rating
                games[name] = games.get(name, 0) + 1
    ratings = [Rating(name, rating.mu, rating.sigma, games[name]) for name, rating in skill.items()]
    return tuple(sorted(ratings, key=lambda r: (-r.cautious, -r.mu, r.name.casefold(), r.name)))


def results_of(rows: Sequence[MatchRow], matches: Sequence[Match] | None = None,
               settled: Mapping[int, Result] | None = None) -> list[Result]:
    """The results of stored matches that can be rated, in the order they were decided: by the time the
    deal that decided each was recorded (matches decided at the same moment in the order given).
    ``matches``: the rows already read into the rules core (``reading.to_core``), one for each row;
    ``settled``: results decided elsewhere, by the row's id, in place of the sheet's (a club event's
    table, placed as the event places it), each with when it was decided."""
    if matches is None:
        matches = [reading.to_core(row) for row in rows]
    settled = settled or {}
    decided_at: list[tuple[datetime, Result]] = []
    for row, match in zip(rows, matches, strict=True):
        result = settled.get(row.id)
        if result is not None and result.finished is not None:
            decided_at.append((aware(result.finished), result))
            continue
        standing = decided(match, checked=True)
        if standing is not None and standing.ended_at is not None:
            finished = row.deals[standing.ended_at - 1].created_at
            decided_at.append((aware(finished), Result.of_standing(match, standing, finished)))
    decided_at.sort(key=lambda pair: pair[0])
    return [result for _, result in decided_at]

