"""A table's rule cards (named sets of every house rule) and the starting points the new-match form offers."""

from __future__ import annotations

from dataclasses import dataclass

from ..db import get_session
from ..models import RuleCardRow, TableRow
from ..rules.house_rules import PRESETS, HouseRules
from ..rules.limits import MAX_RULE_CARD_NAME, MAX_RULE_CARDS
from ..rules.problems import ProblemCode
from ..rules.refusals import Invalid
from .names import clean_text, name_key


def rule_card_name(text: object, table: TableRow, field: str = "name") -> str:
    name = clean_text(text, field, MAX_RULE_CARD_NAME, "a rule card's name")
    if any(name_key(card.name) == name_key(name) for card in table.rule_cards):
        raise Invalid(field, ProblemCode.DUPLICATE_NAME, f"this table already has a rule card named {name}")
    if len(table.rule_cards) >= MAX_RULE_CARDS:
        raise Invalid(field, ProblemCode.OUT_OF_RANGE, f"a table keeps at most {MAX_RULE_CARDS} rule cards")
    return name


def add_rule_card(table: TableRow, name: str, rules: HouseRules, auction: bool = True) -> RuleCardRow:
    """Save a named set of every house rule (``name`` checked by ``rule_card_name``)."""
    start = max((card.position for card in table.rule_cards), default=-1) + 1
    card = RuleCardRow(position=start, name=name, name_key=name_key(name), auction=auction,
                       rules=rules.to_mapping())
    table.rule_cards.append(card)
    get_session().commit()
    return card


def remove_rule_card(table: TableRow, position: int) -> bool:
    for card in table.rule_cards:
        if card.position == position:
            table.rule_cards.remove(card)
            get_session().commit()
            return True
    return False


@dataclass(frozen=True)
class StartingRules:
    """A rule card or a preset, as the new-match form offers it: ``key`` is ``card-N`` or ``preset-KEY``."""

    key: str
    label: str
    rules: HouseRules
    auction: bool


def starting_rules(table: TableRow) -> list[StartingRules]:
    """The table's rule cards first, then the presets."""
    cards = [StartingRules(f"card-{card.position}", card.name, HouseRules.from_mapping(card.rules, stored=True),
                           card.auction) for card in table.rule_cards]
    presets = [StartingRules(f"preset-{preset.key}", preset.label, preset.rules, preset.auction)
               for preset in PRESETS]
    return cards + presets
