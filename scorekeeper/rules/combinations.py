"""The meld combinations and the class each belongs to."""

from __future__ import annotations

from enum import Enum, IntEnum

from .cards import Deck, Rank


class MeldClass(IntEnum):
    """The three classes of meld; a card may count once in each."""

    TRUMP = 1
    PINOCHLE = 2
    AROUND = 3

    @property
    def label(self) -> str:
        return _CLASS_LABELS[self]


_CLASS_LABELS = {MeldClass.TRUMP: "Trump and marriages", MeldClass.PINOCHLE: "Pinochle", MeldClass.AROUND: "Around"}


class Combination(Enum):
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
    def meld_class(self) -> MeldClass:
        return _CLASS[self]

    def possible_in(self, deck: Deck) -> bool:
        """Whether the deck holds the cards: the dix is a nine, and a double deck has none."""
        return self is not Combination.DIX or Rank.NINE in deck.ranks

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")

    @property
    def priced_one_at_a_time(self) -> bool:
        """Marriages and royal marriages: priced per marriage (two marriages in different suits are two
        single marriages), so the table's own prices give only the price of one."""
        return self in _ONE_AT_A_TIME

    @classmethod
    def from_key(cls, key: str) -> Combination:
        from .errors import RulesError
        from .messages import problem
        from .problems import ProblemCode

        try:
            return cls(key)
        except ValueError:
            names = ", ".join(c.value for c in cls)
            raise RulesError(problem(ProblemCode.UNKNOWN_COMBINATION, "", key=key, names=names)) from None


_CLASS = {
    Combination.RUN: MeldClass.TRUMP,
    Combination.ROYAL_MARRIAGE: MeldClass.TRUMP,
    Combination.MARRIAGE: MeldClass.TRUMP,
    Combination.DIX: MeldClass.TRUMP,
    Combination.PINOCHLE: MeldClass.PINOCHLE,
    Combination.ACES_AROUND: MeldClass.AROUND,
    Combination.KINGS_AROUND: MeldClass.AROUND,
    Combination.QUEENS_AROUND: MeldClass.AROUND,
    Combination.JACKS_AROUND: MeldClass.AROUND,
}

_ONE_AT_A_TIME = frozenset({Combination.ROYAL_MARRIAGE, Combination.MARRIAGE})
