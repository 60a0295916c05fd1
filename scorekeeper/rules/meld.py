"""Meld: the best combinations a hand shows, priced on one of the three meld tables.

A card serves one meld within a class but may serve again in another class, so each class is
counted on its own. Prices of n sets for every table are worked out once, at import, so that
the meld of a hand is a handful of lookups in ``Hand.counts``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from operator import itemgetter

from .cards import Card, Deck, Hand, Rank, Suit
from .combinations import Combination, MeldClass
from .errors import RulesError
from .house_rules import MeldTableName
from .meld_prices import NO_PRICES, MeldPrices
from .messages import problem
from .problems import ProblemCode

PriceList = Mapping[Combination, Mapping[int, int]]
"""For each combination, the price of a group of 1, 2, 3 or 4 sets; a missing group is not priced."""

SINGLE_CLASSIC: PriceList = {
    Combination.RUN: {1: 150, 2: 1500},
    Combination.ROYAL_MARRIAGE: {1: 40},
    Combination.MARRIAGE: {1: 20},
    Combination.DIX: {1: 10},
    Combination.PINOCHLE: {1: 40, 2: 300},
    Combination.ACES_AROUND: {1: 100, 2: 1000},
    Combination.KINGS_AROUND: {1: 80, 2: 800},
    Combination.QUEENS_AROUND: {1: 60, 2: 600},
    Combination.JACKS_AROUND: {1: 40, 2: 400},
}

DOUBLE_SMALL: PriceList = {
    Combination.RUN: {1: 15, 2: 150, 3: 225, 4: 300},
    Combination.ROYAL_MARRIAGE: {1: 4},
    Combination.MARRIAGE: {1: 2},
    Combination.DIX: {1: 1},
    Combination.PINOCHLE: {1: 4, 2: 30, 3: 60, 4: 90},
    Combination.ACES_AROUND: {1: 10, 2: 100, 3: 150, 4: 200},
    Combination.KINGS_AROUND: {1: 8, 2: 80, 3: 120, 4: 160},
    Combination.QUEENS_AROUND: {1: 6, 2: 60, 3: 90, 4: 120},
    Combination.JACKS_AROUND: {1: 4, 2: 40, 3: 60, 4: 80},
}

LARGE_FACTOR = 10
"""The large double-deck table is the small one with every price multiplied by this."""

DOUBLE_LARGE: PriceList = {
    combination: {group: price * LARGE_FACTOR for group, price in groups.items()}
    for combination, groups in DOUBLE_SMALL.items()
}

MELD_TABLES: Mapping[MeldTableName, PriceList] = {
    MeldTableName.SINGLE_CLASSIC: SINGLE_CLASSIC,
    MeldTableName.DOUBLE_SMALL: DOUBLE_SMALL,
    MeldTableName.DOUBLE_LARGE: DOUBLE_LARGE,
}

PRECOMPUTED_SETS = 16
"""Prices of 0 to this many sets are kept ready; more than any deck allows in one hand."""


@dataclass(frozen=True, slots=True)
class MeldLine:
    """Sets of one combination and what they are worth (0 and ``on_table=False`` if unpriced)."""

    combination: Combination
    sets: int
    points: int
    on_table: bool = True

    @property
    def name(self) -> str:
        return self.combination.value

    @property
    def meld_class(self) -> MeldClass:
        return self.combination.meld_class

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "name": self.name, "sets": self.sets, "points": self.points, "class": self.meld_class,
        }
        if not self.on_table:
            data["on_table"] = False
        return data


@dataclass(frozen=True, slots=True)
class MeldResult:
    """The meld of one hand: one line per combination held, class 1 first."""

    trump: Suit | None
    lines: tuple[MeldLine, ...]

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    @property
    def class_totals(self) -> dict[int, int]:
        totals = {1: 0, 2: 0, 3: 0}
        for line in self.lines:
            totals[line.meld_class] += line.points
        return totals

    def sets(self) -> dict[Combination, int]:
        return {line.combination: line.sets for line in self.lines}

    def to_json(self) -> dict[str, object]:
        return {
            "trump": self.trump.value if self.trump is not None else None,
            "total": self.total,
            "classes": {str(meld_class): points for meld_class, points in self.class_totals.items()},
            "melds": [line.to_json() for line in self.lines],
        }


def _best_prices(groups: Mapping[int, int], most: int) -> list[int | None]:
    """Best price of n = 0..most sets as a split into priced groups (None: no split exists)."""
    best: list[int | None] = [0]
    for n in range(1, most + 1):
        options = [
            price + before
            for group, price in groups.items()
            if group <= n and (before := best[n - group]) is not None
        ]
        best.append(max(options) if options else None)
    return best


def _check_sets(combination: Combination, sets: int) -> None:
    if sets < 0:
        raise RulesError(problem(ProblemCode.OUT_OF_RANGE, "", "sets", combination=combination.label, sets=sets))


def price(
    combination: Combination, sets: int, table: MeldTableName, prices: MeldPrices = NO_PRICES
) -> int | None:
    """What ``sets`` sets of ``combination`` are worth on ``table`` with the table's own ``prices``; None if
    it cannot price them."""
    _check_sets(combination, sets)
    return _priced(table, prices).price(combination, sets)


class _PricedTable:
    """One meld table with its prices and result lines worked out for 0..PRECOMPUTED_SETS sets."""

    __slots__ = ("groups", "prices", "lines", "trump_splits", "points", "split_points", "by_combination",
                 "marriage_points", "dix_points", "pinochle_points", "aces_points", "kings_points", "queens_points",
                 "jacks_points", "holdings")

    def __init__(self, groups: PriceList) -> None:
        self.groups = groups
        self.prices = {c: _best_prices(groups[c], PRECOMPUTED_SETS) for c in Combination}
        self.lines: tuple[tuple[MeldLine, ...], ...] = tuple(
            tuple(self._make_line(c, n) for n in range(PRECOMPUTED_SETS + 1)) for c in _ORDER
        )
        self.trump_splits = tuple(
            tuple(self._split(most_runs, pairs) for pairs in range(PRECOMPUTED_SETS + 1))
            for most_runs in range(PRECOMPUTED_SETS + 1)
        )
        # The same figures as plain numbers, for pricing that needs only a hand's total.
        self.points: tuple[tuple[int, ...], ...] = tuple(tuple(line.points for line in lines) for lines in self.lines)
        self.split_points: tuple[tuple[int, ...], ...] = tuple(
            tuple(value for _, value in row) for row in self.trump_splits
        )
        self.by_combination: dict[Combination, tuple[int, ...]] = dict(zip(_ORDER, self.points))
        by_combination = self.by_combination
        self.marriage_points = by_combination[Combination.MARRIAGE]
        self.dix_points = by_combination[Combination.DIX]
        self.pinochle_points = by_combination[Combination.PINOCHLE]
        self.aces_points = by_combination[Combination.ACES_AROUND]
        self.kings_points = by_combination[Combination.KINGS_AROUND]
        self.queens_points = by_combination[Combination.QUEENS_AROUND]
        self.jacks_points = by_combination[Combination.JACKS_AROUND]
        # Counted sets already priced, by the sets as recorded: ``sets_points``'s memory (see there).
        self.holdings: dict[tuple[tuple[Combination, int], ...], int] = {}

    def price(self, combination: Combination, sets: int) -> int | None:
        prices = self.prices[combination]
        if sets < len(prices):
            return prices[sets]
        return _best_prices(self.groups[combination], sets)[sets]

    def _make_line(self, combination: Combination, sets: int) -> MeldLine:
        points = self.price(combination, sets)
        return MeldLine(combination, sets, points or 0, points is not None)

    def line(self, position: int, sets: int) -> MeldLine:
        """The line for ``sets`` sets of the combination at ``position`` in ``_ORDER``."""
        lines = self.lines[position]
        return lines[sets] if sets < len(lines) else self._make_line(_ORDER[position], sets)

    def _split(self, most_runs: int, pairs: int) -> tuple[tuple[MeldLine, ...], int]:
        """Runs and royal marriages from ``pairs`` trump K-Q pairs, ``most_runs`` of them complete.

        Every number of runs is tried; the highest value wins (the most runs among equal values).
        """
        best: tuple[tuple[MeldLine, ...], int] = ((), 0)
        for runs in range(min(most_runs, pairs) + 1):
            lines = tuple(
                self.line(position, n) for position, n in ((_RUN, runs), (_ROYAL, pairs - runs)) if n
            )
            value = sum(line.points for line in lines)
            if value >= best[1]:
                best = (lines, value)
        return best

    def trump_split(self, most_runs: int, pairs: int) -> tuple[tuple[MeldLine, ...], int]:
        if pairs < len(self.trump_splits):
            return self.trump_splits[most_runs][pairs]
        return self._split(most_runs, pairs)


_ORDER = tuple(Combination)
_RUN, _ROYAL, _MARRIAGE, _DIX, _PINOCHLE = (
    _ORDER.index(c)
    for c in (Combination.RUN, Combination.ROYAL_MARRIAGE, Combination.MARRIAGE, Combination.DIX,
              Combination.PINOCHLE)
)
_PRICED = {name: _PricedTable(groups) for name, groups in MELD_TABLES.items()}


OWN_PRICES_KEPT = 32  # tables with their own prices, each keeping at most OWN_HOLDINGS_KEPT holdings


@lru_cache(maxsize=OWN_PRICES_KEPT)
def _priced_with(table: MeldTableName, prices: MeldPrices) -> _PricedTable:
    return _PricedTable(prices.over(MELD_TABLES[table]))


def _priced(table: MeldTableName, prices: MeldPrices) -> _PricedTable:
    """The meld table with the table's own prices over it (worked out once per pair)."""
    return _priced_with(table, prices) if prices else _PRICED[table]


def price_list(table: MeldTableName, prices: MeldPrices = NO_PRICES) -> Mapping[Combination, Mapping[int, int]]:
    """Each combination's priced groups on ``table`` with ``prices`` over it."""
    return _priced(table, prices).groups

_RANKS = len(Rank)  # counted once: the length of an enum is a Python-level call in Python 3.11
_SUIT_OFFSET = {suit: suit.index * _RANKS for suit in Suit}
_SUIT_POSITION = {suit: suit.index for suit in Suit}
_RUN_RANKS = _RANKS - 1  # A 10 K Q J: the ranks from the ace down to the jack
_NINE = Rank.NINE.index


def _cards_of(rank: Rank) -> itemgetter[tuple[int, ...]]:
    """Reads the counts of ``rank`` in the four suits, in suit order."""
    return itemgetter(*(Card(suit, rank).index for suit in Suit))


_KINGS = _cards_of(Rank.KING)
_QUEENS = _cards_of(Rank.QUEEN)
_PINOCHLE_CARDS = itemgetter(Card(Suit.SPADES, Rank.QUEEN).index, Card(Suit.DIAMONDS, Rank.JACK).index)
_AROUND = tuple(
    (_ORDER.index(combination), _cards_of(rank))
    for combination, rank in (
        (Combination.ACES_AROUND, Rank.ACE),
        (Combination.KINGS_AROUND, Rank.KING),
        (Combination.QUEENS_AROUND, Rank.QUEEN),
        (Combination.JACKS_AROUND, Rank.JACK),
    )
)


def _other_classes(priced: _PricedTable, counts: tuple[int, ...]) -> tuple[list[MeldLine], int]:
    """Classes 2 and 3, which do not depend on trump."""
    lines = []
    pinochles = min(_PINOCHLE_CARDS(counts))
    if pinochles:
        lines.append(priced.line(_PINOCHLE, pinochles))
    for position, cards in _AROUND:
        sets = min(cards(counts))
        if sets:
            lines.append(priced.line(position, sets))
    return lines, sum(line.points for line in lines)


def _trump_class(
    priced: _PricedTable, counts: tuple[int, ...], trump: Suit, marriages: list[int], deck: Deck
) -> tuple[list[MeldLine], int]:
    """Class 1 for one trump; ``marriages`` holds the K-Q pairs of each suit."""
    offset = _SUIT_OFFSET[trump]
    pairs = marriages[_SUIT_POSITION[trump]]
    lines, value = priced.trump_split(min(counts[offset:offset + _RUN_RANKS]), pairs)
    result = list(lines)
    plain = sum(marriages) - pairs
    if plain:
        line = priced.line(_MARRIAGE, plain)
        result.append(line)
        value += line.points
    nines = counts[offset + _NINE] if deck is Deck.SINGLE else 0
    if nines:
        line = priced.line(_DIX, nines)
        result.append(line)
        value += line.points
    return result, value


def best_meld(hand: Hand, trump: Suit, table: MeldTableName, prices: MeldPrices = NO_PRICES) -> MeldResult:
    """The best meld of ``hand`` with ``trump``, priced on ``table`` with the table's own ``prices``."""
    priced = _priced(table, prices)
    counts = hand.counts
    marriages = list(map(min, _KINGS(counts), _QUEENS(counts)))
    trump_lines, _ = _trump_class(priced, counts, trump, marriages, hand.deck)
    other_lines, _ = _other_classes(priced, counts)
    return MeldResult(trump, tuple(trump_lines + other_lines))


def meld_points(hand: Hand, trump: Suit, table: MeldTableName, prices: MeldPrices = NO_PRICES) -> int:
    """``best_meld(hand, trump, table, prices).total``, worked out without the result's lines (the scoring
    needs only the points): the hand's counts read once, each combination a comparison or two and a lookup."""
    priced = _priced_with(table, prices) if prices.rows else _PRICED[table]
    counts = hand.counts
    (spade_ace, _, spade_king, spade_queen, spade_jack, _,
     heart_ace, _, heart_king, heart_queen, heart_jack, _,
     diamond_ace, _, diamond_king, diamond_queen, diamond_jack, _,
     club_ace, _, club_king, club_queen, club_jack, _) = counts
    offset = _SUIT_OFFSET[trump]
    ace, ten, king, queen, jack, nine = counts[offset:offset + _RANKS]
    pairs = king if king < queen else queen  # trump K-Q pairs; each is a royal marriage or part of a run
    runs = pairs  # complete runs: the fewest of the trump A, 10, K, Q and J
    if ace < runs:
        runs = ace
    if ten < runs:
        runs = ten
    if jack < runs:
        runs = jack
    marriages = (
        (spade_king if spade_king < spade_queen else spade_queen)
        + (heart_king if heart_king < heart_queen else heart_queen)
        + (diamond_king if diamond_king < diamond_queen else diamond_queen)
        + (club_king if club_king < club_queen else club_queen)
    )
    pinochles = spade_queen if spade_queen < diamond_jack else diamond_jack
    try:
        value = priced.split_points[runs][pairs]
        if marriages != pairs:
            value += priced.marriage_points[marriages - pairs]
        if nine and hand.deck is Deck.SINGLE:
            value += priced.dix_points[nine]
        if pinochles:
            value += priced.pinochle_points[pinochles]
        # Counts are never negative, so a class around is held only when no suit is missing.
        if spade_ace and heart_ace and diamond_ace and club_ace:
            value += priced.aces_points[min(spade_ace, heart_ace, diamond_ace, club_ace)]
        if spade_king and heart_king and diamond_king and club_king:
            value += priced.kings_points[min(spade_king, heart_king, diamond_king, club_king)]
        if spade_queen and heart_queen and diamond_queen and club_queen:
            value += priced.queens_points[min(spade_queen, heart_queen, diamond_queen, club_queen)]
        if spade_jack and heart_jack and diamond_jack and club_jack:
            value += priced.jacks_points[min(spade_jack, heart_jack, diamond_jack, club_jack)]
    except IndexError:  # more sets than are worked out ahead: no deck deals such a hand
        return best_meld(hand, trump, table, prices).total
    return value


def meld_all_trumps(hand: Hand, table: MeldTableName, prices: MeldPrices = NO_PRICES) -> tuple[MeldResult, ...]:
    """The best meld for each of the four trumps, highest total first (ties in suit order)."""
    priced = _priced(table, prices)
    counts = hand.counts
    marriages = list(map(min, _KINGS(counts), _QUEENS(counts)))
    other_lines, other_value = _other_classes(priced, counts)
    scored = []
    for trump in Suit:
        trump_lines, value = _trump_class(priced, counts, trump, marriages, hand.deck)
        scored.append((-value, MeldResult(trump, tuple(trump_lines + other_lines))))
    scored.sort(key=itemgetter(0))
    return tuple(result for _, result in scored)


def best_melds(
    hand: Hand, trump: Suit | None, table: MeldTableName, prices: MeldPrices = NO_PRICES
) -> tuple[MeldResult, ...]:
    """The best meld for ``trump``; with no trump named, one per trump, best first."""
    if trump is None:
        return meld_all_trumps(hand, table, prices)
    return (best_meld(hand, trump, table, prices),)


def price_sets(
    sets: Mapping[Combination, int], table: MeldTableName, trump: Suit | None = None,
    prices: MeldPrices = NO_PRICES,
) -> MeldResult:
    """Price counted sets (e.g. one run and one pinochle) as the holding of one hand."""
    priced = _priced(table, prices)
    lines = []
    for position, combination in enumerate(_ORDER):
        n = sets.get(combination, 0)
        _check_sets(combination, n)
        if n:
            lines.append(priced.line(position, n))
    return MeldResult(trump, tuple(lines))


HOLDINGS_KEPT = 4096  # by each meld table: about 640 bytes a holding, 2.6 MB a table at most
OWN_HOLDINGS_KEPT = 512  # by each table with its own prices (sent by anyone): 32 × 512 × 640 bytes, 10.5 MB at most


def sets_points(
    sets: tuple[tuple[Combination, int], ...], table: MeldTableName, prices: MeldPrices = NO_PRICES
) -> int:
    """``price_sets(dict(sets), table, prices=prices).total``, worked out without the result's lines.

    Remembered by table: a few hundred holdings (one run and a pinochle …) come back all evening, and a
    look-up takes a fraction of the pricing. Bounded: past ``HOLDINGS_KEPT`` (``OWN_HOLDINGS_KEPT`` with the
    table's own prices) a table starts afresh."""
    priced = _priced_with(table, prices) if prices.rows else _PRICED[table]
    known = priced.holdings.get(sets)
    if known is None:
        known = _sets_points(priced, sets, table, prices)
        if len(priced.holdings) >= (OWN_HOLDINGS_KEPT if prices.rows else HOLDINGS_KEPT):
            priced.holdings.clear()
        priced.holdings[sets] = known
    return known


def _sets_points(
    priced: _PricedTable, sets: tuple[tuple[Combination, int], ...], table: MeldTableName, prices: MeldPrices
) -> int:
    by_combination = priced.by_combination
    value = 0
    for combination, n in dict(sets).items() if len(sets) > 1 else sets:  # a combination named twice: the last
        if n > 0:
            points = by_combination[combination]
            value += points[n] if n < len(points) else price_sets({combination: n}, table, prices=prices).total
        elif n:
            _check_sets(combination, n)
    return value


def holdings_kept(table: MeldTableName, prices: MeldPrices = NO_PRICES) -> int:
    """How many holdings of sets the table remembers."""
    return len(_priced(table, prices).holdings)


def forget_holdings() -> None:
    """Forget every holding of sets priced (a cold start)."""
    for priced in _PRICED.values():
        priced.holdings.clear()
    _priced_with.cache_clear()


@cache
def max_sets(combination: Combination, deck: Deck) -> int:
    """The most sets of ``combination`` one hand can hold from ``deck``."""
    if combination is Combination.DIX:
        return deck.copies_of(Card(Suit.SPADES, Rank.NINE))
    if combination is Combination.MARRIAGE:
        return (len(Suit) - 1) * deck.copies
    return deck.copies


FACTORS_KEPT = 256  # 18 possible questions without the table's own prices; about 1 KB each with them


@lru_cache(maxsize=FACTORS_KEPT)  # asked for every meld typed as a number
def table_factor(
    source: MeldTableName, target: MeldTableName, deck: Deck,
    source_prices: MeldPrices = NO_PRICES, target_prices: MeldPrices = NO_PRICES,
) -> Fraction | None:
    """The factor that turns every price on ``source`` (with ``source_prices``) into the price on ``target``
    (with ``target_prices``) for ``deck``.

    Every combination and every number of sets that ``deck`` allows must agree on the same factor
    (an unpriced holding counts as 0); None when no single factor fits.
    """
    factor: Fraction | None = None
    for combination in Combination:
        for sets in range(1, max_sets(combination, deck) + 1):
            before = price(combination, sets, source, source_prices) or 0
            after = price(combination, sets, target, target_prices) or 0
            if before == 0:
                if after != 0:
                    return None
                continue
            ratio = Fraction(after, before)
            if factor is None:
                factor = ratio
            elif ratio != factor:
                return None
    return Fraction(1) if factor is None else factor

