"""What captured cards are worth on each trick point scale, and what a deck holds.

The answers depend only on a deck and a scale and are asked for every deal of a match, so they are cached.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from .cards import Deck, Rank
from .house_rules import HouseRules, TrickScale

CARD_POINTS: dict[TrickScale, dict[Rank, int]] = {
    TrickScale.ONE_POINT: {Rank.ACE: 1, Rank.TEN: 1, Rank.KING: 1, Rank.QUEEN: 0, Rank.JACK: 0, Rank.NINE: 0},
    TrickScale.TEN_POINT: {Rank.ACE: 10, Rank.TEN: 10, Rank.KING: 10, Rank.QUEEN: 0, Rank.JACK: 0, Rank.NINE: 0},
    TrickScale.CLASSIC: {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 0},
}

COUNTER_RANKS = (Rank.ACE, Rank.TEN, Rank.KING)


@cache
def cards_of_rank(deck: Deck, rank: Rank) -> int:
    """How many cards of one rank the deck holds (8 in a single deck, 16 in a double, no nines there)."""
    return deck.copies * 4 if rank in deck.ranks else 0


@cache
def deck_counters(deck: Deck) -> int:
    """Aces, tens and kings in the deck: 24 in a single deck, 48 in a double."""
    return sum(cards_of_rank(deck, rank) for rank in COUNTER_RANKS)


@cache
def deck_card_points(deck: Deck, scale: TrickScale) -> int:
    """All card points in the deck, without the last trick: 24/240 single, 48/480 double."""
    return sum(cards_of_rank(deck, rank) * points for rank, points in CARD_POINTS[scale].items())


def trick_total(rules: HouseRules) -> int:
    """Every trick point a deal can give: the deck's card points plus the last trick."""
    return deck_card_points(rules.deck, rules.trick_scale) + rules.last_trick


@cache  # asked for every side whose counters were recorded
def counter_value(scale: TrickScale) -> int | None:
    """What one counter is worth when all counters are worth the same; None on the classic scale."""
    values = {CARD_POINTS[scale][rank] for rank in COUNTER_RANKS}
    return values.pop() if len(values) == 1 else None


@cache
def scale_factor(source: TrickScale, target: TrickScale) -> Fraction | None:
    """The factor that turns card points on ``source`` into ``target``; None when none does."""
    if source is target:
        return Fraction(1)
    ratios = {
        Fraction(CARD_POINTS[target][rank], CARD_POINTS[source][rank]) if CARD_POINTS[source][rank] else None
        for rank in Rank
        if CARD_POINTS[source][rank] or CARD_POINTS[target][rank]
    }
    if len(ratios) == 1:
        (ratio,) = ratios
        return ratio
    return None
