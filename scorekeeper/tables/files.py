"""The table file: a whole table (players, rule cards, every match in the match file format) written out,
read back and checked, and stored as a new table in one transaction."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..db import get_session
from ..models import RuleCardRow, TableRow
from ..rules.errors import HouseRuleError, MatchFileError, RulesError
from ..rules.house_rules import HouseRules
from ..rules.limits import MAX_RULE_CARD_NAME, MAX_RULE_CARDS, MAX_TABLE_DEALS, MAX_TABLE_MATCHES
from ..rules.match import Match
from ..rules.matchfile import match_from_json, sent_deals
from ..rules.problems import ProblemCode, join_path
from ..rules.refusals import Invalid
from ..rules.text import dumps_lines
from ..store import reading, writing
from .names import clean_text, name_key, player_names, table_name
from .players import create_table
from .reading import player_list, table_matches

TABLE_FORMAT = "scorekeeper-table/1"


def table_file(table: TableRow) -> dict[str, Any]:
    """The whole table: its players, rule cards and every match in the match file format."""
    return {
        "format": TABLE_FORMAT,
        "name": table.name,
        "players": player_list(table),
        "rule_cards": [{"name": card.name, "auction": card.auction, "rules": dict(card.rules)}
                       for card in table.rule_cards],
        "matches": [reading.match_json(row) for row in table_matches(table)],
    }


TABLE_LISTED = frozenset({"rule_cards", "matches", "deals"})  # lists a table file writes one item a line


def dumps_table(table: TableRow) -> str:
    """The table file as JSON text: a key, a rule card, a match's key and a deal a line."""
    return dumps_lines(table_file(table), TABLE_LISTED) + "\n"


@dataclass(frozen=True)
class TableFile:
    """A table file read and checked: nothing stored yet."""

    name: str
    players: list[str]
    rule_cards: list[tuple[str, bool, HouseRules]]
    matches: list[Match]


def read_table_file(data: object, within_limits: bool = True,
                    count: Callable[[int, int], None] | None = None) -> TableFile:
    """Check a decoded table file; raises ``Invalid`` refusal naming the field. ``within_limits``: at most
    ``MAX_TABLE_MATCHES`` matches and ``MAX_TABLE_DEALS`` deals in all, as a request may bring in (the
    ``scorekeeper table import`` command takes the file of a table that grew larger by play). ``count`` is
    given the matches and deals the file brings once they are counted, before any match is read (a limit on
    what one address may make refuses the file there)."""
    if not isinstance(data, dict):
        raise Invalid("", ProblemCode.WRONG_TYPE, "a table file is a JSON object")
    unknown = sorted(set(data) - {"format", "name", "players", "rule_cards", "matches"})
    if unknown:
        raise Invalid(unknown[0], ProblemCode.UNKNOWN_KEY, "unknown key")
    if data.get("format", TABLE_FORMAT) != TABLE_FORMAT:
        raise Invalid("format", ProblemCode.WRONG_FORMAT, f"a table file's format is {TABLE_FORMAT}")
    name = table_name(data.get("name", "")) or "Our table"
    players = player_names(data.get("players", []))
    cards_data = data.get("rule_cards", [])
    if not isinstance(cards_data, list):
        raise Invalid("rule_cards", ProblemCode.WRONG_TYPE, "rule cards must be a list")
    if len(cards_data) > MAX_RULE_CARDS:
        raise Invalid("rule_cards", ProblemCode.OUT_OF_RANGE, f"a table keeps at most {MAX_RULE_CARDS} rule cards")
    cards: list[tuple[str, bool, HouseRules]] = []
    for index, card in enumerate(cards_data):
        path = f"rule_cards[{index}]"
        if not isinstance(card, dict) or not isinstance(card.get("rules", {}), dict):
            raise Invalid(path, ProblemCode.WRONG_TYPE, "a rule card is an object with a name and rules")
        card_name = clean_text(card.get("name"), f"{path}.name", MAX_RULE_CARD_NAME, "a rule card's name")
        if any(name_key(card_name) == name_key(other) for other, _, _ in cards):
            raise Invalid(f"{path}.name", ProblemCode.DUPLICATE_NAME, "another rule card has this name")
        auction = card.get("auction", True)
        if not isinstance(auction, bool):
            raise Invalid(f"{path}.auction", ProblemCode.WRONG_TYPE, "auction is true or false")
        try:
            rules = HouseRules.from_mapping(card.get("rules", {}))
        except HouseRuleError as error:
            raise Invalid(join_path(f"{path}.rules", error.key), error.code, str(error)) from None
        cards.append((card_name, auction, rules))
    matches_data = data.get("matches", [])
    if not isinstance(matches_data, list):
        raise Invalid("matches", ProblemCode.WRONG_TYPE, "matches must be a list of match files")
    if within_limits:
        _check_table_size(matches_data)
    if count is not None:
        count(len(matches_data), sum(sent_deals(match) for match in matches_data))
    matches = []
    for index, match_data in enumerate(matches_data):
        path = f"matches[{index}]"
        try:
            matches.append(match_from_json(match_data))
        except MatchFileError as error:
            raise Invalid(join_path(path, error.path), error.code, error.detail) from None
        except RulesError as error:
            raise Invalid(path, error.code, str(error)) from None
    return TableFile(name, players, cards, matches)


def _check_table_size(matches_data: list[Any]) -> None:
    """At most ``MAX_TABLE_MATCHES`` matches and ``MAX_TABLE_DEALS`` deals, counted before any is read."""
    if len(matches_data) > MAX_TABLE_MATCHES:
        raise Invalid("matches", ProblemCode.OUT_OF_RANGE,
                           f"a table file holds at most {MAX_TABLE_MATCHES:,} matches; this one has "
                           f"{len(matches_data):,} (`scorekeeper table import` loads a larger one)")
    deals = sum(sent_deals(match) for match in matches_data)
    if deals > MAX_TABLE_DEALS:
        raise Invalid("matches", ProblemCode.TOO_MANY_DEALS,
                           f"a table file holds at most {MAX_TABLE_DEALS:,} deals in all; this one has {deals:,} "
                           "(`scorekeeper table import` loads a larger one)")


class ImportedTable(NamedTuple):
    """A table file stored: the new table, and its matches as read from the file by their rows' ids."""

    row: TableRow
    matches: dict[int, Match]


def import_table(file: TableFile) -> ImportedTable:
    """Store a checked table file as a new table (new links, new token) with its matches, in one
    transaction: a failure halfway leaves no table at all."""
    row = create_table(file.name, file.players, commit=False)
    for position, (name, auction, rules) in enumerate(file.rule_cards):
        row.rule_cards.append(RuleCardRow(position=position, name=name, name_key=name_key(name), auction=auction,
                                          rules=rules.to_mapping()))
    session = get_session()
    session.flush()
    made = [(writing.create_match(match, table_id=row.id, commit=False), match) for match in file.matches]
    session.flush()
    matches = {match_row.id: match for match_row, match in made}
    session.commit()
    return ImportedTable(row, matches)
