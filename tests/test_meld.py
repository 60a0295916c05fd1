"""The meld calculator against RULES.md: three classes, the run/royal marriage choice, the tables."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import meld as meld_module
from scorekeeper.rules.cards import ALL_CARDS, CardError, Deck, Hand, Suit
from scorekeeper.rules.combinations import Combination, MeldClass
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.house_rules import MeldTableName
from scorekeeper.rules.meld import (
    MeldLine,
    MeldResult,
    best_meld,
    forget_holdings,
    holdings_kept,
    max_sets,
    meld_all_trumps,
    meld_points,
    price,
    price_sets,
    sets_points,
    table_factor,
)
from scorekeeper.rules.price_presets import PRICE_PRESETS, preset_prices

C = Combination
SINGLE_CLASSIC = MeldTableName.SINGLE_CLASSIC
DOUBLE_SMALL = MeldTableName.DOUBLE_SMALL
DOUBLE_LARGE = MeldTableName.DOUBLE_LARGE


def meld(
    text: str, trump: str = "H", table: MeldTableName = SINGLE_CLASSIC, deck: Deck = Deck.SINGLE
) -> MeldResult:
    return best_meld(Hand.from_text(text, deck), Suit.from_text(trump), table)


# --- the price table of RULES.md, including the best split of n sets into priced groups ---

PRICES = [
    # single-classic prices groups of 1 and 2
    (C.RUN, 1, SINGLE_CLASSIC, 150),
    (C.RUN, 2, SINGLE_CLASSIC, 1500),
    (C.RUN, 3, SINGLE_CLASSIC, 1650),  # double + single
    (C.RUN, 4, SINGLE_CLASSIC, 3000),  # double + double
    (C.ROYAL_MARRIAGE, 1, SINGLE_CLASSIC, 40),
    (C.ROYAL_MARRIAGE, 3, SINGLE_CLASSIC, 120),
    (C.MARRIAGE, 1, SINGLE_CLASSIC, 20),
    (C.MARRIAGE, 6, SINGLE_CLASSIC, 120),
    (C.DIX, 1, SINGLE_CLASSIC, 10),
    (C.DIX, 2, SINGLE_CLASSIC, 20),
    (C.PINOCHLE, 1, SINGLE_CLASSIC, 40),
    (C.PINOCHLE, 2, SINGLE_CLASSIC, 300),
    (C.PINOCHLE, 3, SINGLE_CLASSIC, 340),
    (C.ACES_AROUND, 1, SINGLE_CLASSIC, 100),
    (C.ACES_AROUND, 2, SINGLE_CLASSIC, 1000),
    (C.ACES_AROUND, 3, SINGLE_CLASSIC, 1100),  # no triple aces: double + single
    (C.KINGS_AROUND, 1, SINGLE_CLASSIC, 80),
    (C.KINGS_AROUND, 2, SINGLE_CLASSIC, 800),
    (C.QUEENS_AROUND, 1, SINGLE_CLASSIC, 60),
    (C.QUEENS_AROUND, 2, SINGLE_CLASSIC, 600),
    (C.JACKS_AROUND, 1, SINGLE_CLASSIC, 40),
    (C.JACKS_AROUND, 2, SINGLE_CLASSIC, 400),
    # double-small prices groups of 1 to 4
    (C.RUN, 1, DOUBLE_SMALL, 15),
    (C.RUN, 2, DOUBLE_SMALL, 150),
    (C.RUN, 3, DOUBLE_SMALL, 225),
    (C.RUN, 4, DOUBLE_SMALL, 300),
    (C.RUN, 5, DOUBLE_SMALL, 375),  # double + triple beats quadruple + single
    (C.ROYAL_MARRIAGE, 1, DOUBLE_SMALL, 4),
    (C.ROYAL_MARRIAGE, 4, DOUBLE_SMALL, 16),
    (C.MARRIAGE, 1, DOUBLE_SMALL, 2),
    (C.MARRIAGE, 12, DOUBLE_SMALL, 24),
    (C.DIX, 1, DOUBLE_SMALL, 1),
    (C.PINOCHLE, 1, DOUBLE_SMALL, 4),
    (C.PINOCHLE, 2, DOUBLE_SMALL, 30),
    (C.PINOCHLE, 3, DOUBLE_SMALL, 60),
    (C.PINOCHLE, 4, DOUBLE_SMALL, 90),
    (C.ACES_AROUND, 1, DOUBLE_SMALL, 10),
    (C.ACES_AROUND, 2, DOUBLE_SMALL, 100),
    (C.ACES_AROUND, 3, DOUBLE_SMALL, 150),
    (C.ACES_AROUND, 4, DOUBLE_SMALL, 200),
    (C.KINGS_AROUND, 1, DOUBLE_SMALL, 8),
    (C.KINGS_AROUND, 2, DOUBLE_SMALL, 80),
    (C.KINGS_AROUND, 3, DOUBLE_SMALL, 120),
    (C.KINGS_AROUND, 4, DOUBLE_SMALL, 160),
    (C.QUEENS_AROUND, 1, DOUBLE_SMALL, 6),
    (C.QUEENS_AROUND, 2, DOUBLE_SMALL, 60),
    (C.QUEENS_AROUND, 3, DOUBLE_SMALL, 90),
    (C.QUEENS_AROUND, 4, DOUBLE_SMALL, 120),
    (C.JACKS_AROUND, 1, DOUBLE_SMALL, 4),
    (C.JACKS_AROUND, 2, DOUBLE_SMALL, 40),
    (C.JACKS_AROUND, 3, DOUBLE_SMALL, 60),
    (C.JACKS_AROUND, 4, DOUBLE_SMALL, 80),
    # double-large is ten times double-small
    (C.RUN, 1, DOUBLE_LARGE, 150),
    (C.RUN, 2, DOUBLE_LARGE, 1500),
    (C.RUN, 3, DOUBLE_LARGE, 2250),
    (C.RUN, 4, DOUBLE_LARGE, 3000),
    (C.ROYAL_MARRIAGE, 2, DOUBLE_LARGE, 80),
    (C.MARRIAGE, 3, DOUBLE_LARGE, 60),
    (C.DIX, 2, DOUBLE_LARGE, 20),
    (C.PINOCHLE, 1, DOUBLE_LARGE, 40),
    (C.PINOCHLE, 2, DOUBLE_LARGE, 300),
    (C.PINOCHLE, 3, DOUBLE_LARGE, 600),
    (C.PINOCHLE, 4, DOUBLE_LARGE, 900),
    (C.ACES_AROUND, 1, DOUBLE_LARGE, 100),
    (C.ACES_AROUND, 2, DOUBLE_LARGE, 1000),
    (C.ACES_AROUND, 3, DOUBLE_LARGE, 1500),
    (C.ACES_AROUND, 4, DOUBLE_LARGE, 2000),
    (C.KINGS_AROUND, 4, DOUBLE_LARGE, 1600),
    (C.QUEENS_AROUND, 3, DOUBLE_LARGE, 900),
    (C.JACKS_AROUND, 2, DOUBLE_LARGE, 400),
]


@pytest.mark.parametrize(("combination", "sets", "table", "points"), PRICES)
def test_price_table(combination: Combination, sets: int, table: MeldTableName, points: int) -> None:
    assert price(combination, sets, table) == points


@pytest.mark.parametrize("table", list(MeldTableName))
def test_no_sets_are_worth_nothing(table: MeldTableName) -> None:
    assert all(price(combination, 0, table) == 0 for combination in Combination)


def test_more_sets_than_precomputed_are_still_priced() -> None:
    assert price(C.MARRIAGE, 40, SINGLE_CLASSIC) == 800
    assert price(C.RUN, 20, DOUBLE_SMALL) == 4 * 375


def test_negative_sets_are_refused() -> None:
    with pytest.raises(RulesError, match="run"):
        price(C.RUN, -1, SINGLE_CLASSIC)


# --- meld of a hand ---

def test_worked_meld_from_the_rules() -> None:
    result = meld("AH TH KH QH JH KH QH 9H QS JD AS AC", trump="H")
    assert result.sets() == {C.RUN: 1, C.ROYAL_MARRIAGE: 1, C.DIX: 1, C.PINOCHLE: 1}
    assert [(line.combination, line.points) for line in result.lines] == [
        (C.RUN, 150), (C.ROYAL_MARRIAGE, 40), (C.DIX, 10), (C.PINOCHLE, 40),
    ]
    assert result.class_totals == {1: 200, 2: 40, 3: 0}
    assert result.total == 240


@pytest.mark.parametrize(
    ("text", "table", "deck", "expected"),
    [
        # a run uses its K and Q: no royal marriage beside it
        ("AH TH KH QH JH", SINGLE_CLASSIC, Deck.SINGLE, {C.RUN: 1}),
        # a run plus one extra K Q of trump is a run and a royal marriage
        ("AH TH KH QH JH KH QH", SINGLE_CLASSIC, Deck.SINGLE, {C.RUN: 1, C.ROYAL_MARRIAGE: 1}),
        # K Q of trump without the rest of the run
        ("KH QH TH", SINGLE_CLASSIC, Deck.SINGLE, {C.ROYAL_MARRIAGE: 1}),
        # two of every run card: a double run
        ("AH AH TH TH KH KH QH QH JH JH", SINGLE_CLASSIC, Deck.SINGLE, {C.RUN: 2}),
        # one ace short of a double run: one run, and the second K Q is a royal marriage
        ("AH TH TH KH KH QH QH JH JH", SINGLE_CLASSIC, Deck.SINGLE, {C.RUN: 1, C.ROYAL_MARRIAGE: 1}),
        # double deck: three runs and one more K Q of trump
        ("AH AH AH TH TH TH KH KH KH KH QH QH QH QH JH JH JH", DOUBLE_SMALL, Deck.DOUBLE,
         {C.RUN: 3, C.ROYAL_MARRIAGE: 1}),
    ],
)
def test_runs_and_royal_marriages_share_the_trump_king_and_queen(
    text: str, table: MeldTableName, deck: Deck, expected: dict[Combination, int]
) -> None:
    assert meld(text, trump="H", table=table, deck=deck).sets() == expected


def test_three_runs_and_a_royal_marriage_on_the_small_table() -> None:
    result = meld("AH AH AH TH TH TH KH KH KH KH QH QH QH QH JH JH JH", table=DOUBLE_SMALL, deck=Deck.DOUBLE)
    assert result.total == 225 + 4


@pytest.mark.parametrize(
    ("text", "marriages"),
    [
        ("KS QS", 1),
        ("KS QS KS QS", 2),
        ("KS QS KS KD QD KC", 2),  # a lone second K♠ and a lone K♣ marry nobody
        ("KS QD KD QC", 1),  # a king and a queen of different suits are no marriage
        ("KS QS KD QD KC QC", 3),
    ],
)
def test_marriages_are_counted_per_suit(text: str, marriages: int) -> None:
    result = meld(text, trump="H")
    assert result.sets() == {C.MARRIAGE: marriages}
    assert result.total == 20 * marriages


def test_a_trump_marriage_is_royal_not_plain() -> None:
    assert meld("KS QS KH QH", trump="S").sets() == {C.ROYAL_MARRIAGE: 1, C.MARRIAGE: 1}


def test_dix_is_the_nine_of_trump_only() -> None:
    assert meld("9H 9H 9S", trump="H").sets() == {C.DIX: 2}
    assert meld("9S", trump="H").sets() == {}


def test_single_deck_dix_is_priced_on_the_double_deck_tables() -> None:
    assert meld("9D", trump="D", table=DOUBLE_SMALL).total == 1
    assert meld("9D", trump="D", table=DOUBLE_LARGE).total == 10


def test_a_double_deck_has_no_dix() -> None:
    with pytest.raises(CardError):
        Hand.from_text("9H", Deck.DOUBLE)
    # even counts that slip a nine into a double-deck hand make no dix
    nine_of_hearts = Hand.from_text("9H", Deck.SINGLE).counts
    assert best_meld(Hand(nine_of_hearts, Deck.DOUBLE), Suit.HEARTS, DOUBLE_SMALL).lines == ()
    assert max_sets(C.DIX, Deck.DOUBLE) == 0


def test_a_card_serves_again_in_another_class() -> None:
    # Q♠ in a spade marriage, in the pinochle and in queens around
    result = meld("KS QS JD QH QD QC", trump="H")
    assert result.sets() == {C.MARRIAGE: 1, C.PINOCHLE: 1, C.QUEENS_AROUND: 1}
    assert result.class_totals == {1: 20, 2: 40, 3: 60}


def test_within_a_class_a_card_serves_once() -> None:
    # one Q♠ with two J♦ is one pinochle; one ace of clubs makes one aces around
    assert meld("QS JD JD", trump="H").sets() == {C.PINOCHLE: 1}
    assert meld("AS AS AH AH AD AD AC", trump="H").sets() == {C.ACES_AROUND: 1}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS AH AD AC", {C.ACES_AROUND: 1}),
        ("KS KH KD KC", {C.KINGS_AROUND: 1}),
        ("QS QH QD QC JS JH JD JC", {C.QUEENS_AROUND: 1, C.JACKS_AROUND: 1, C.PINOCHLE: 1}),
        ("AS AH AD AC AS AH AD AC", {C.ACES_AROUND: 2}),
        ("AS AH AD", {}),
    ],
)
def test_around_needs_the_rank_in_every_suit(text: str, expected: dict[Combination, int]) -> None:
    assert meld(text, trump="C").sets() == expected


def test_empty_hand_has_no_meld() -> None:
    result = meld("", trump="S")
    assert result.lines == ()
    assert result.total == 0
    assert result.class_totals == {1: 0, 2: 0, 3: 0}


# --- every trump at once ---

def test_meld_all_trumps_puts_the_best_trump_first() -> None:
    hand = Hand.from_text("AD TD KD QD JD KC QC QS JD", Deck.SINGLE)
    results = meld_all_trumps(hand, SINGLE_CLASSIC)
    assert results[0].trump is Suit.DIAMONDS
    assert results[0].total == 150 + 20 + 40
    assert [r.total for r in results] == sorted((r.total for r in results), reverse=True)


def test_meld_all_trumps_breaks_ties_in_suit_order() -> None:
    hand = Hand.from_text("KD QD KC QC", Deck.SINGLE)
    results = meld_all_trumps(hand, SINGLE_CLASSIC)
    assert [(r.trump, r.total) for r in results] == [
        (Suit.DIAMONDS, 60), (Suit.CLUBS, 60), (Suit.SPADES, 40), (Suit.HEARTS, 40),
    ]


# --- counted sets, as a match file gives them ---

def test_price_sets_prices_one_hands_holding() -> None:
    result = price_sets({C.PINOCHLE: 1, C.RUN: 1}, SINGLE_CLASSIC, trump=Suit.SPADES)
    assert [line.combination for line in result.lines] == [C.RUN, C.PINOCHLE]
    assert result.total == 190
    assert result.trump is Suit.SPADES


def test_price_sets_groups_sets_of_one_combination() -> None:
    assert price_sets({C.ACES_AROUND: 3}, SINGLE_CLASSIC).total == 1100
    assert price_sets({C.ACES_AROUND: 3}, DOUBLE_SMALL).total == 150


def test_price_sets_skips_zero_and_refuses_negative_counts() -> None:
    assert price_sets({C.RUN: 0}, SINGLE_CLASSIC).lines == ()
    with pytest.raises(RulesError, match="pinochle"):
        price_sets({C.PINOCHLE: -2}, SINGLE_CLASSIC)


# --- what a deck allows, and converting between tables ---

@pytest.mark.parametrize(
    ("combination", "deck", "most"),
    [
        (C.RUN, Deck.SINGLE, 2), (C.RUN, Deck.DOUBLE, 4),
        (C.ROYAL_MARRIAGE, Deck.DOUBLE, 4),
        (C.MARRIAGE, Deck.SINGLE, 6), (C.MARRIAGE, Deck.DOUBLE, 12),
        (C.DIX, Deck.SINGLE, 2), (C.DIX, Deck.DOUBLE, 0),
        (C.PINOCHLE, Deck.SINGLE, 2), (C.JACKS_AROUND, Deck.DOUBLE, 4),
    ],
)
def test_max_sets(combination: Combination, deck: Deck, most: int) -> None:
    assert max_sets(combination, deck) == most


@pytest.mark.parametrize(
    ("source", "target", "deck", "factor"),
    [
        (DOUBLE_SMALL, DOUBLE_LARGE, Deck.SINGLE, Fraction(10)),
        (DOUBLE_SMALL, DOUBLE_LARGE, Deck.DOUBLE, Fraction(10)),
        (DOUBLE_LARGE, DOUBLE_SMALL, Deck.DOUBLE, Fraction(1, 10)),
        (SINGLE_CLASSIC, DOUBLE_LARGE, Deck.SINGLE, Fraction(1)),
        (SINGLE_CLASSIC, DOUBLE_SMALL, Deck.SINGLE, Fraction(1, 10)),
        (SINGLE_CLASSIC, DOUBLE_LARGE, Deck.DOUBLE, None),  # three runs: 1650 against 2250
        (DOUBLE_SMALL, SINGLE_CLASSIC, Deck.DOUBLE, None),
        (SINGLE_CLASSIC, SINGLE_CLASSIC, Deck.DOUBLE, Fraction(1)),
    ],
)
def test_table_factor(
    source: MeldTableName, target: MeldTableName, deck: Deck, factor: Fraction | None
) -> None:
    assert table_factor(source, target, deck) == factor


# --- the JSON shape other parts read ---

def test_to_json_shape() -> None:
    data = meld("AH TH KH QH JH KH QH 9H QS JD AS AC", trump="H").to_json()
    assert data == {
        "trump": "H",
        "total": 240,
        "classes": {"1": 200, "2": 40, "3": 0},
        "melds": [
            {"name": "run", "sets": 1, "points": 150, "class": 1},
            {"name": "royal_marriage", "sets": 1, "points": 40, "class": 1},
            {"name": "dix", "sets": 1, "points": 10, "class": 1},
            {"name": "pinochle", "sets": 1, "points": 40, "class": 2},
        ],
    }


def test_a_line_off_the_table_says_so_in_json() -> None:
    line = MeldLine(C.DIX, 1, 0, on_table=False)
    assert line.to_json() == {"name": "dix", "sets": 1, "points": 0, "class": 1, "on_table": False}
    assert (line.name, line.meld_class) == ("dix", 1)
    assert MeldResult(None, (line,)).to_json()["trump"] is None


# --- invariants ---

@st.composite
def hand_and_one_more_card(draw: st.DrawFn) -> tuple[Hand, Hand]:
    """A hand dealt from a deck, and the same hand with one more card from what is left."""
    deck = draw(st.sampled_from(Deck))
    pool = [card for card in ALL_CARDS for _ in range(deck.copies_of(card))]
    picked = draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=21, unique=True))
    cards = [pool[i] for i in picked]
    return Hand.from_cards(cards[:-1], deck), Hand.from_cards(cards, deck)


@given(hand_and_one_more_card())
def test_one_more_card_never_lowers_the_meld(hands: tuple[Hand, Hand]) -> None:
    smaller, larger = hands
    for table in MeldTableName:
        for trump in Suit:
            assert best_meld(larger, trump, table).total >= best_meld(smaller, trump, table).total


@given(hand_and_one_more_card())
def test_meld_all_trumps_agrees_with_best_meld(hands: tuple[Hand, Hand]) -> None:
    hand = hands[1]
    for table in MeldTableName:
        results = meld_all_trumps(hand, table)
        assert {r.trump for r in results} == set(Suit)
        assert results[0].total == max(best_meld(hand, trump, table).total for trump in Suit)
        for result in results:
            assert result.trump is not None
            assert result == best_meld(hand, result.trump, table)


@given(
    st.sampled_from(Combination), st.sampled_from(MeldTableName),
    st.integers(0, 12), st.integers(0, 12),
)
def test_n_plus_m_sets_are_worth_at_least_n_sets_and_m_sets(
    combination: Combination, table: MeldTableName, n: int, m: int
) -> None:
    together = price(combination, n + m, table)
    apart = (price(combination, n, table), price(combination, m, table))
    assert together is not None and None not in apart
    assert together >= sum(p for p in apart if p is not None)


# --- facts the web pages ask of the core ---

def test_the_meld_classes_are_named_and_numbered_as_on_the_sheets() -> None:
    assert [(c.value, c.label) for c in MeldClass] == [(1, "Trump and marriages"), (2, "Pinochle"), (3, "Around")]
    assert Combination.DIX.meld_class is MeldClass.TRUMP and Combination.JACKS_AROUND.meld_class is MeldClass.AROUND


def test_only_a_deck_with_nines_can_show_a_dix() -> None:
    assert [c for c in Combination if not c.possible_in(Deck.DOUBLE)] == [Combination.DIX]
    assert all(c.possible_in(Deck.SINGLE) for c in Combination)


@pytest.mark.parametrize(("deck", "table"), [(Deck.SINGLE, MeldTableName.SINGLE_CLASSIC),
                                             (Deck.DOUBLE, MeldTableName.DOUBLE_SMALL)])
def test_each_deck_has_its_usual_meld_table(deck: Deck, table: MeldTableName) -> None:
    assert MeldTableName.natural_for(deck) is table


@given(hand_and_one_more_card())
def test_the_points_only_meld_is_the_best_melds_total(hands: tuple[Hand, Hand]) -> None:
    hand = hands[1]
    for table in MeldTableName:
        for trump in Suit:
            assert meld_points(hand, trump, table) == best_meld(hand, trump, table).total


@given(st.lists(st.integers(0, 20), min_size=len(ALL_CARDS), max_size=len(ALL_CARDS)), st.sampled_from(Deck))
def test_the_points_only_meld_is_the_best_melds_total_past_what_is_worked_out_ahead(
    counts: list[int], deck: Deck
) -> None:
    """Up to 20 copies of a card: more sets than the tables ready for any deck, priced all the same."""
    hand = Hand(counts, deck)
    for table in MeldTableName:
        for trump in Suit:
            assert meld_points(hand, trump, table) == best_meld(hand, trump, table).total


@given(st.dictionaries(st.sampled_from(list(Combination)), st.integers(0, 20), max_size=len(Combination)))
def test_the_points_only_sets_are_the_priced_sets_total(sets: dict[Combination, int]) -> None:
    for table in MeldTableName:
        assert sets_points(tuple(sets.items()), table) == price_sets(sets, table).total


@given(hand_and_one_more_card(), st.sampled_from([key for key, _ in PRICE_PRESETS]))
def test_the_points_only_meld_follows_a_tables_own_prices(hands: tuple[Hand, Hand], preset: str) -> None:
    hand = hands[1]
    for table in MeldTableName:
        prices = preset_prices(preset, table)
        for trump in Suit:
            assert meld_points(hand, trump, table, prices) == best_meld(hand, trump, table, prices).total
        sets = tuple((combination, 2) for combination in Combination)
        assert sets_points(sets, table, prices) == price_sets(dict(sets), table, prices=prices).total


def test_the_points_only_sets_refuse_negative_counts() -> None:
    with pytest.raises(RulesError):
        sets_points(((C.PINOCHLE, -2),), SINGLE_CLASSIC)


@given(st.lists(st.dictionaries(st.sampled_from(list(Combination)), st.integers(0, 6), max_size=4), max_size=12),
       st.sampled_from([key for key, _ in PRICE_PRESETS]))
def test_sets_priced_again_from_memory_answer_as_priced_anew(holdings: list[dict[Combination, int]],
                                                             preset: str) -> None:
    for table in MeldTableName:
        prices = preset_prices(preset, table)
        for sets in holdings + holdings:  # each holding twice: the second time from memory
            expected = price_sets(sets, table, prices=prices).total
            assert sets_points(tuple(sets.items()), table, prices) == expected
            assert sets_points(tuple(sets.items()), table) == price_sets(sets, table).total


def test_a_holding_remembered_under_one_table_is_priced_anew_under_another() -> None:
    sets = ((C.RUN, 1), (C.PINOCHLE, 2))
    forget_holdings()
    assert sets_points(sets, DOUBLE_SMALL) == 15 + 30
    assert sets_points(sets, DOUBLE_LARGE) == 150 + 300
    assert sets_points(sets, DOUBLE_SMALL) == 15 + 30


def test_the_memory_of_holdings_is_bounded_and_forgotten_on_a_cold_start(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = 16  # the bound's logic with a small bound: HOLDINGS_KEPT (4096) holdings take seconds to price
    monkeypatch.setattr(meld_module, "HOLDINGS_KEPT", kept)
    forget_holdings()
    for runs in range(kept + 10):
        assert sets_points(((C.RUN, runs % 4 + 1), (C.MARRIAGE, runs)), DOUBLE_SMALL) == \
            price_sets({C.RUN: runs % 4 + 1, C.MARRIAGE: runs}, DOUBLE_SMALL).total
        assert holdings_kept(DOUBLE_SMALL) <= kept
    assert 0 < holdings_kept(DOUBLE_SMALL) < kept + 10
    forget_holdings()
    assert holdings_kept(DOUBLE_SMALL) == 0
