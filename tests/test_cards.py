"""Cards, decks and hands as RULES.md describes them: the card text, the two decks, copy limits."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scorekeeper.rules.cards import ALL_CARDS, Card, Deck, Hand, Rank, Suit
from scorekeeper.rules.errors import CardError, RulesError

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


@pytest.mark.parametrize(
    ("text", "suit", "rank"),
    [
        ("AS", S, Rank.ACE),
        ("10h", H, Rank.TEN),
        ("10H", H, Rank.TEN),
        ("T♦", D, Rank.TEN),
        ("t♦", D, Rank.TEN),
        ("Q♠", S, Rank.QUEEN),
        ("qs", S, Rank.QUEEN),
        ("kc", C, Rank.KING),
        ("J♣", C, Rank.JACK),
        ("9♥", H, Rank.NINE),
        (" jd ", D, Rank.JACK),
    ],
)
def test_card_text(text: str, suit: Suit, rank: Rank) -> None:
    assert Card.from_text(text) == Card(suit, rank)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1X", "'1X' is not a card"),
        ("AX", "'AX' is not a card"),
        ("11H", "'11H' is not a card"),
        ("A", "'A' is not a card"),
        ("ASS", "'ASS' is not a card"),
        ("8H", "'8H' is not a card"),
        ("SA", "'SA' is not a card"),
        ("", "'' is not a card"),
    ],
)
def test_card_text_refused(text: str, fragment: str) -> None:
    with pytest.raises(CardError, match=fragment):
        Card.from_text(text)


@pytest.mark.parametrize(
    ("text", "code", "shown"),
    [("as", "AS", "A♠"), ("t♥", "10H", "10♥"), ("10d", "10D", "10♦"), ("9c", "9C", "9♣"), ("Q♠", "QS", "Q♠")],
)
def test_card_prints_back(text: str, code: str, shown: str) -> None:
    card = Card.from_text(text)
    assert card.code == code
    assert str(card) == shown
    assert Card.from_text(card.code) == card
    assert Card.from_text(str(card)) == card


@pytest.mark.parametrize(
    ("text", "spoken"),
    [("AH", "ace of hearts"), ("KH", "king of hearts"), ("10H", "10 of hearts"), ("QS", "queen of spades"),
     ("JD", "jack of diamonds"), ("9C", "9 of clubs")],
)
def test_card_in_words(text: str, spoken: str) -> None:
    assert Card.from_text(text).spoken == spoken


@pytest.mark.parametrize(
    ("text", "suit"), [("S", S), ("h", H), ("♦", D), ("c", C), ("♣", C)],
)
def test_suit_text(text: str, suit: Suit) -> None:
    assert Suit.from_text(text) is suit


@pytest.mark.parametrize(
    ("parse", "text", "fragment"),
    [
        (Suit.from_text, "X", "'X' is not a suit"),
        (Suit.from_text, "spade", "'spade' is not a suit"),
        (Rank.from_text, "B", "'B' is not a rank"),
        (Rank.from_text, "11", "'11' is not a rank"),
    ],
)
def test_suit_and_rank_text_refused(parse: Callable[[str], object], text: str, fragment: str) -> None:
    with pytest.raises(CardError, match=fragment):
        parse(text)


def test_every_card_has_its_own_index() -> None:
    cards = [Card(suit, rank) for suit in Suit for rank in Rank]
    assert sorted(card.index for card in cards) == list(range(24))


# --- the two decks ---

@pytest.mark.parametrize(
    ("deck", "size", "copies", "different_cards", "hand_size"),
    [(Deck.SINGLE, 48, 2, 24, 12), (Deck.DOUBLE, 80, 4, 20, 20)],
)
def test_deck_sizes(deck: Deck, size: int, copies: int, different_cards: int, hand_size: int) -> None:
    assert deck.size == size
    assert deck.copies == copies
    assert sum(1 for card in ALL_CARDS if deck.copies_of(card)) == different_cards
    assert different_cards * copies == size == 4 * hand_size


def test_a_double_deck_has_no_nines() -> None:
    assert Rank.NINE not in Deck.DOUBLE.ranks
    assert Deck.DOUBLE.copies_of(Card(H, Rank.NINE)) == 0
    assert Deck.SINGLE.copies_of(Card(H, Rank.NINE)) == 2


# --- hands ---

@pytest.mark.parametrize(
    ("text", "deck", "codes"),
    [
        ("AS 10h T♦ qs", Deck.SINGLE, ["AS", "QS", "10H", "10D"]),
        ("AS,KS, QS", Deck.SINGLE, ["AS", "KS", "QS"]),
        ("  9h\n9H ", Deck.SINGLE, ["9H", "9H"]),
        ("AS AS AS AS", Deck.DOUBLE, ["AS", "AS", "AS", "AS"]),
        (["JD", "q♠"], Deck.DOUBLE, ["QS", "JD"]),
        ("", Deck.SINGLE, []),
    ],
)
def test_hand_text(text: str | list[str], deck: Deck, codes: list[str]) -> None:
    hand = Hand.from_text(text, deck)
    assert hand.codes() == codes
    assert len(hand) == len(codes)
    assert hand.deck is deck


@pytest.mark.parametrize(
    ("text", "deck", "fragments"),
    [
        ("AS 1X KS", Deck.SINGLE, ["'1X' is not a card"]),
        ("1X AS 2Y", Deck.SINGLE, ["'1X' is not a card", "'2Y' is not a card"]),
        ("AS AS AS", Deck.SINGLE, ["three A♠ but a single deck has two"]),
        ("AS AS AS AS AS", Deck.DOUBLE, ["five A♠ but a double deck has four"]),
        ("9S", Deck.DOUBLE, ["9♠ is not in a double deck"]),
        ("QH QH QH 9D", Deck.SINGLE, ["three Q♥ but a single deck has two"]),
        ("9D 10C 10C 10C 10C 10C", Deck.DOUBLE, ["9♦ is not in a double deck", "five 10♣"]),
    ],
)
def test_hand_text_refused_naming_each_bad_token(text: str, deck: Deck, fragments: list[str]) -> None:
    with pytest.raises(CardError) as caught:
        Hand.from_text(text, deck)
    for fragment in fragments:
        assert fragment in str(caught.value)


def test_card_errors_are_rules_errors() -> None:
    assert issubclass(CardError, RulesError)
    assert issubclass(RulesError, ValueError)


def test_hand_counts_and_equality() -> None:
    hand = Hand.from_text("AS QS AS", Deck.SINGLE)
    assert hand.count(Card(S, Rank.ACE)) == 2
    assert hand.count(Card(S, Rank.QUEEN)) == 1
    assert hand.count(Card(H, Rank.ACE)) == 0
    assert hand.counts[Card(S, Rank.ACE).index] == 2
    assert sum(hand.counts) == 3
    assert hand == Hand.from_text("qs as as", Deck.SINGLE)
    assert hand != Hand.from_text("AS QS AS", Deck.DOUBLE)
    assert len({hand, Hand.from_text("QS AS AS", Deck.SINGLE)}) == 1



def test_a_hands_hash_kept_from_its_first_asking_stays_that_of_an_equal_hand_made_otherwise() -> None:
    hand = Hand.from_text("AS QS AS 10H", Deck.DOUBLE)
    first = hash(hand)
    assert hash(hand) == first  # the second asking reads the kept hash
    counts = [0] * len(ALL_CARDS)
    for card in (Card(H, Rank.TEN), Card(S, Rank.QUEEN), Card(S, Rank.ACE), Card(S, Rank.ACE)):
        counts[card.index] += 1
    same = Hand(counts, Deck.DOUBLE)
    assert same == hand and hash(same) == first
    assert {hand: 1}[same] == 1
    other_deck = Hand(counts, Deck.SINGLE)
    assert other_deck != hand and hand != other_deck

def test_hand_prints_back() -> None:
    hand = Hand.from_text("10h AS qs", Deck.DOUBLE)
    assert str(hand) == "A♠ Q♠ 10♥"
    assert Hand.from_text(str(hand), Deck.DOUBLE) == hand
    assert Hand.from_text(hand.codes(), Deck.DOUBLE) == hand
    assert list(hand) == [Card(S, Rank.ACE), Card(S, Rank.QUEEN), Card(H, Rank.TEN)]
