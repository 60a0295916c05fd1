"""The meld calculator's form: deck, meld table, trump and a hand as a count per card or typed cards."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.validators import NumberRange, Optional, ValidationError

from ..rules.cards import ALL_CARDS, Card, Deck, Hand, Suit
from ..rules.errors import CardError, RulesError
from ..rules.house_rules import RULE_SPECS_BY_KEY, HouseRules, MeldTableName
from ..rules.limits import MAX_DIGITS
from ..rules.meld import price_list
from ..rules.numbers import parse_whole_number
from .common import SelectChoice, sentence

ALL_TRUMPS = "all"
_DECK = RULE_SPECS_BY_KEY["deck"]
_TABLE = RULE_SPECS_BY_KEY["meld_table"]


def count_field_name(card: Card) -> str:
    return f"n_{card.code}"


class CountField(IntegerField):
    """How many copies of a card: read by the rules core's number parser, and never more than a deck
    holds (the picker lists every count up to the one shown)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        try:
            count = parse_whole_number(str(valuelist[0]), max_digits=MAX_DIGITS)
        except RulesError as error:
            self.data = None
            raise ValueError(sentence(error.problem.message)) from None
        if count > Deck.DOUBLE.copies:
            self.data = None
            raise ValueError(f"A deck holds at most {Deck.DOUBLE.copies} copies of a card.")
        self.data = count


class MeldForm(FlaskForm):
    """Deck, meld table, trump and the hand: a count per card plus optional typed cards."""

    deck = SelectField(_DECK.label, choices=[SelectChoice(d.value, label) for d, label in _DECK.choices])
    table = SelectField(_TABLE.label, choices=[SelectChoice(t.value, label) for t, label in _TABLE.choices])
    trump = RadioField(
        "Trump",
        choices=[SelectChoice(ALL_TRUMPS, "All four trumps")]
        + [SelectChoice(s.value, f"{s.symbol} {s.label.capitalize()}") for s in Suit],
    )
    cards = StringField("Type cards", validators=[Optional()])
    match = HiddenField()
    side = HiddenField()
    player = HiddenField()  # which meld line of the side: a partner
    deal = HiddenField()

    def chosen_deck(self) -> Deck:
        return _DECK.parse(self.deck.data)  # type: ignore[no-any-return]

    def chosen_table(self) -> MeldTableName:
        return _TABLE.parse(self.table.data)  # type: ignore[no-any-return]

    def chosen_trump(self) -> Suit | None:
        return None if self.trump.data == ALL_TRUMPS else Suit(self.trump.data)

    def count_fields(self) -> list[tuple[Card, IntegerField]]:
        return [(card, self[count_field_name(card)]) for card in ALL_CARDS]

    def validate_cards(self, field: StringField) -> None:
        if self.deck.errors:
            return
        try:
            Hand.from_text(field.data or "", self.chosen_deck())
        except CardError as error:
            raise ValidationError(str(error)) from None

    def hand(self) -> Hand:
        """The tapped counts plus the typed cards; raises CardError for more copies than the deck has."""
        typed = Hand.from_text(self.cards.data or "", self.chosen_deck())
        tapped = [card for card, field in self.count_fields() for _ in range(field.data or 0)]
        return Hand.from_cards([*tapped, *typed], self.chosen_deck())

    def tapped_count(self) -> int:
        return sum(field.data or 0 for _, field in self.count_fields())

    def show_hand(self, hand: Hand) -> None:
        """Move the typed cards into the counts, so that the next count does not add them twice."""
        for card, field in self.count_fields():
            field.data = hand.count(card)
        self.cards.data = ""


def own_price_groups(rules: HouseRules) -> dict[str, dict[str, int]]:
    """The match's meld table with its own prices over it, for the pages' scripts (group → size → price)."""
    groups = price_list(rules.meld_table, rules.meld_prices)
    return {combination.value: {str(size): price for size, price in prices.items()}
            for combination, prices in groups.items()}


def hand_size(deck: Deck) -> int:
    """The cards of one hand when four play: 12 from a single deck, 20 from a double deck."""
    return sum(deck.copies_of(card) for card in ALL_CARDS) // 4


for _card in ALL_CARDS:
    setattr(MeldForm, count_field_name(_card),
            CountField(str(_card), default=0, validators=[Optional(), NumberRange(0, Deck.DOUBLE.copies)]))
