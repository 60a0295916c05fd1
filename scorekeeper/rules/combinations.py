"""The meld combinations and the class each belongs to."""

from __future__ import annotations

from .cards import IdentityEnum


class Combination(IdentityEnum):
    """A meld combination; the value is its key in a match file."""

    RUN = "run"
    ROYAL_MARRIAGE = "royal_marriage"
    MARRIAGE = "marriage"
    DIX = "dix"
    PINOCHLE = "pinochle"
    ACES_AROUND = "aces_around"
    KINGS_AROUND = "kings_around"
    QUEENS_AROUND = "queens_around"
    JACKS_AROUND = "jacks_around"

    @property
    def meld_class(self) -> int:
        """1: trump and marriages, 2: pinochle, 3: around."""
        return _CLASS[self]

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")

    @classmethod
    def from_key(cls, key: str) -> Combination:
        from .errors import RulesError
        from .problems import Problem, ProblemCode

        try:
            return cls(key)
        except ValueError:
            names = ", ".join(c.value for c in cls)
            message = f"'{key}' is not a meld combination (use {names})"
            raise RulesError(Problem(ProblemCode.UNKNOWN_COMBINATION, "", message)) from None


_CLASS = {
    Combination.RUN: 1,
    Combination.ROYAL_MARRIAGE: 1,
    Combination.MARRIAGE: 1,
    Combination.DIX: 1,
    Combination.PINOCHLE: 2,
    Combination.ACES_AROUND: 3,
    Combination.KINGS_AROUND: 3,
    Combination.QUEENS_AROUND: 3,
    Combination.JACKS_AROUND: 3,
}
