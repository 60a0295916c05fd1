"""What the score sheet pages show about a match, worked out from its facts by the rules core."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..rules.errors import ContradictionError
from ..rules.match import Match
from ..rules.problems import Problem
from ..rules.scoring import Sheet, score_match

MINUS = "\u2212"


def points(value: int) -> str:
    """A score as the sheets print it, with a true minus sign: 318, −35."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed_points(value: int) -> str:
    """A deal's score with its sign: +24, −50, 0."""
    return f"+{value}" if value > 0 else points(value)


@dataclass(frozen=True)
class SheetView:
    """The sheet of a match, or the facts that contradict its house rules."""

    names: list[str]
    sheet: Sheet | None
    problems: list[tuple[int, Problem]]
    target: int

    @classmethod
    def of(cls, match: Match, score: Callable[[Match], Sheet] = score_match) -> SheetView:
        """The view of ``match``, its sheet worked out by ``score`` (the rules core's ``score_match``, or a
        memo of it)."""
        try:
            sheet, problems = score(match), []
        except ContradictionError as error:
            sheet, problems = None, error.problems
        return cls([side.shown_name for side in match.sides], sheet, problems, match.rules.target)

    def totals(self) -> list[tuple[str, int]]:
        totals = self.sheet.totals if self.sheet else tuple(0 for _ in self.names)
        return list(zip(self.names, totals, strict=True))

    def to_go(self, side: int) -> int:
        return self.target - (self.sheet.totals[side] if self.sheet else 0)

    def winner_name(self) -> str | None:
        if self.sheet is None or self.sheet.winner is None:
            return None
        return self.names[self.sheet.winner]

    def any_as_entered(self) -> bool:
        return self.sheet is not None and any(line.as_entered for line in self.sheet.deals)

    def any_lost_meld(self) -> bool:
        """Whether some side's meld did not count in some deal (the sheet then explains "no trick")."""
        return self.sheet is not None and any(line.lost_meld for line in self.sheet.deals)

    def ranked(self) -> list[tuple[str, int]]:
        if self.sheet is None:
            return []
        return [(self.names[side], self.sheet.totals[side]) for side in self.sheet.rank]
