"""Cards, suits, ranks, the two Pinochle decks and hands of cards."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from itertools import compress

from .errors import CardError
from .messages import say
from .problems import ProblemCode

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def number_word(n: int) -> str:
    """'two' for 2: how the messages speak of small counts."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


class Suit(Enum):
    """The four suits; the value is the letter used in card text."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def from_text(cls, text: str) -> Suit:
        """Read ``S``, ``h``, ``♦`` …; raise CardError naming the text otherwise."""
        suit = _SUIT_BY_TEXT.get(text.strip().upper())
        if suit is None:
            raise CardError(ProblemCode.NOT_A_SUIT, say(ProblemCode.NOT_A_SUIT, text=text))
        return suit


_SUITS = tuple(Suit)
_SUIT_INDEX = {suit: index for index, suit in enumerate(_SUITS)}
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {sym: s for s, sym in _SUIT_SYMBOLS.items()}


class Rank(Enum):
    """Ranks from high to low in play; the value is the letter used in card text."""

    ACE = "A"
    TEN = "T"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    NINE = "9"

    @property
    def label(self) -> str:
        """How the rank is written on a card: 'A', '10', 'K' …"""
        return "10" if self is Rank.TEN else self.value

    @property
    def spoken(self) -> str:
        """How the rank is said: 'ace', 'king' …, and the number for '10' and '9'."""
        return self.label if self.label.isdigit() else self.name.lower()

    @property
    def index(self) -> int:
        return _RANK_INDEX[self]

    @classmethod
    def from_text(cls, text: str) -> Rank:
        rank = _RANK_BY_TEXT.get(text.strip().upper())
        if rank is None:
            raise CardError(ProblemCode.NOT_A_RANK, say(ProblemCode.NOT_A_RANK, text=text))
        return rank


_RANKS = tuple(Rank)
_RANK_INDEX = {rank: index for index, rank in enumerate(_RANKS)}
_RANK_BY_TEXT = {r.value: r for r in Rank} | {"10": Rank.TEN}


@dataclass(frozen=True)
class Card:
    """One card, e.g. ``Card.from_text("10h")``; ``str()`` gives ``10♥``, ``code`` gives ``10H``."""

    suit: Suit
    rank: Rank

    @property
    def index(self) -> int:
        """Position 0–23 in a fixed order of the 24 different cards (suit major, rank minor)."""
        return self.suit.index * 6 + self.rank.index

    @property
    def code(self) -> str:
        return self.rank.label + self.suit.value

    @property
    def spoken(self) -> str:
        """The card in words, as a screen reader should say it: 'ace of hearts', '10 of spades'."""
        return f"{self.rank.spoken} of {self.suit.label}"

    def __str__(self) -> str:
        return self.rank.label + self.suit.symbol

    @classmethod
    def from_text(cls, text: str) -> Card:
        """Read a card such as ``AS``, ``10h``, ``T♦`` or ``qs``."""
        written = _CARD_BY_CODE.get(text)  # as the app writes it: the usual case, read at once
        if written is not None:
            return written
        match = _CARD_PATTERN.fullmatch(text.strip().upper())
        if match is None:
            raise CardError(ProblemCode.NOT_A_CARD, say(ProblemCode.NOT_A_CARD, text=text))
        return ALL_CARDS[_SUIT_BY_TEXT[match[2]].index * 6 + _RANK_BY_TEXT[match[1]].index]


_CARD_PATTERN = re.compile(r"(10|[ATKQJ9])([SHDC♠♥♦♣])")
ALL_CARDS: tuple[Card, ...] = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
_CARD_BY_CODE = {card.code: card for card in ALL_CARDS}
_CODES = tuple(card.code for card in ALL_CARDS)  # in ``Card.index`` order


class Deck(Enum):
    """The single (48 cards) and double (80 cards, no nines) Pinochle decks."""

    SINGLE = "single"
    DOUBLE = "double"

    @property
    def copies(self) -> int:
        """How many copies of each card the deck holds."""
        return 2 if self is Deck.SINGLE else 4

    @property
    def ranks(self) -> tuple[Rank, ...]:
        return _RANKS if self is Deck.SINGLE else _RANKS[:-1]

    @property
    def size(self) -> int:
        return self.copies * 4 * len(self.ranks)

    @property
    def label(self) -> str:
        return f"{self.value} deck"

    def copies_of(self, card: Card) -> int:
        """How many copies of ``card`` the deck holds (0 for a nine in a double deck)."""
        return self.copies if card.rank in self.ranks else 0


class Hand:
    """A multiset of cards that one deck can hold, stored as 24 counts in ``Card.index`` order."""

    __slots__ = ("counts", "deck", "_hash")

    def __init__(self, counts: Iterable[int], deck: Deck) -> None:
        self.counts: tuple[int, ...] = tuple(counts)
        self.deck = deck
        self._hash: int | None = None  # worked out on the first ``hash()``: hands key the meld look-ups
        if len(self.counts) != len(ALL_CARDS):
            raise ValueError(say("hand_counts"))

    @classmethod
    def from_cards(cls, cards: Iterable[Card], deck: Deck) -> Hand:
        """Build a hand, refusing more copies of a card than ``deck`` holds."""
        counts = [0] * len(ALL_CARDS)
        for card in cards:
            counts[card.index] += 1
        problems: list[tuple[ProblemCode, str]] = []
        for card, n in zip(ALL_CARDS, counts):
            allowed = deck.copies_of(card)
            if n > allowed:
                if allowed == 0:
                    problems.append((ProblemCode.CARD_NOT_IN_DECK,
                                     say(ProblemCode.CARD_NOT_IN_DECK, card=card, deck=deck.label)))
                else:
                    problems.append((ProblemCode.TOO_MANY_COPIES, say(ProblemCode.TOO_MANY_COPIES, held=number_word(n),
                                                                      card=card, deck=deck.label,
                                                                      copies=number_word(allowed))))
        if problems:
            raise CardError(problems[0][0], "; ".join(text for _, text in problems))
        return cls(counts, deck)

    @classmethod
    def from_text(cls, text: str | Iterable[str], deck: Deck) -> Hand:
        """Read cards separated by spaces or commas (or a list of card texts)."""
        tokens = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
        tokens = [t for t in tokens if t.strip()]
        cards: list[Card] = []
        bad: list[tuple[int, CardError]] = []
        for index, token in enumerate(tokens):
            try:
                cards.append(Card.from_text(token))
            except CardError as error:
                bad.append((index, error))
        if bad:
            index, first = bad[0]
            raise CardError(first.code, "; ".join(str(error) for _, error in bad), index)
        return cls.from_cards(cards, deck)

    def count(self, card: Card) -> int:
        return self.counts[card.index]

    def __iter__(self) -> Iterator[Card]:
        for card, n in zip(ALL_CARDS, self.counts):
            for _ in range(n):
                yield card

    def __len__(self) -> int:
        return sum(self.counts)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Hand) and self.deck is other.deck and self.counts == other.counts)

    def __hash__(self) -> int:
        cached = self._hash
        if cached is None:
            cached = self._hash = hash((self.counts, self.deck))
        return cached

    def codes(self) -> list[str]:
        """The cards as ``AS``/``10H`` codes, as written in a match file."""
        counts = self.counts
        if max(counts) <= 1:  # one copy of each card at most, as in most hands: picked out in C
            return list(compress(_CODES, counts))
        return [code for code, n in zip(_CODES, counts) if n for _ in range(n)]

    def __str__(self) -> str:
        return " ".join(str(card) for card in self)

    def __repr__(self) -> str:
        return f"Hand.from_text({' '.join(self.codes())!r}, Deck.{self.deck.name})"
