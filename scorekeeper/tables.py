"""Tables: the people who play together, their rule cards and their matches, read and recorded.

A table is found by its link (``public_id``) as a match is; its matches point at it (``MatchRow.table_id``).
Players are names, unique within a table whatever their case, kept in the order they were added. A
match keeps its players' names in its own sides, so removing a player from a table changes none of the
matches they played. The statistics are worked out on request from the matches' facts, never stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, NamedTuple

from flask import abort
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .db import get_session
from .events.loading import results_at_table
from .models import MatchRow, RuleCardRow, TablePlayerRow, TableRow, utc_now
from .ratings import Rating, rate, results_of
from .rules.errors import ContradictionError, HouseRuleError, MatchFileError, RulesError
from .rules.house_rules import PRESETS, HouseRules
from .rules.limits import (
    MAX_MATCH_NAME,
    MAX_PLAYER_NAME,
    MAX_RULE_CARD_NAME,
    MAX_RULE_CARDS,
    MAX_SIDE_NAME,
    MAX_TABLE_DEALS,
    MAX_TABLE_MATCHES,
    MAX_TABLE_NAME,
    MAX_TABLE_PLAYERS,
)
from .rules.match import Match, SideInfo
from .rules.matchfile import match_from_json, sent_deals
from .rules.numbers import whole_number_or_none
from .rules.problems import ProblemCode, join_path
from .rules.rotation import next_dealer, rotated_sides, side_name
from .rules.scoring import play, settle_match
from .rules.stats import TableStats, table_stats
from .rules.text import clean_name, dated_name, dumps_lines, fit_name
from .store import reading, writing

TABLE_FORMAT = "scorekeeper-table/1"
NOT_AT_TABLE = "not_at_table"  # a match's player who is not one of its table's players


class TableProblem(Exception):
    """Input a table refuses: the field it concerns (a path as the API names it), a code and a message."""

    def __init__(self, field: str, code: str, message: str) -> None:
        super().__init__(message)
        self.field, self.code, self.message = field, code, message


# Names -------------------------------------------------------------------------------------------------

def name_key(name: str) -> str:
    """What makes two names the same player: case does not count."""
    return name.casefold()


def _clean(text: object, field: str, maximum: int, what: str, required: bool = True) -> str:
    if not isinstance(text, str):
        raise TableProblem(field, ProblemCode.WRONG_TYPE, f"{what} must be text")
    try:
        name = clean_name(text, field, maximum, what)
    except RulesError as error:
        raise TableProblem(field, error.code, error.problem.message) from None
    if required and not name:
        raise TableProblem(field, ProblemCode.NAME_MISSING, f"{what} cannot be empty")
    return name


def table_name(text: object, field: str = "name") -> str:
    return _clean(text, field, MAX_TABLE_NAME, "a table's name", required=False)


def player_name(text: object, field: str) -> str:
    return _clean(text, field, MAX_PLAYER_NAME, "a player's name")


def player_names(values: object, field: str = "players", taken: Sequence[str] = ()) -> list[str]:
    """A list of new players' names, checked: text, none empty, none twice (case aside, nor among
    ``taken``), at most ``MAX_TABLE_PLAYERS`` in all."""
    if not isinstance(values, list):
        raise TableProblem(field, ProblemCode.WRONG_TYPE, "players must be a list of names")
    if len(values) + len(taken) > MAX_TABLE_PLAYERS:
        raise TableProblem(field, ProblemCode.TOO_MANY_PLAYERS, f"a table has at most {MAX_TABLE_PLAYERS} players")
    seen = {name_key(name) for name in taken}
    names = []
    for index, value in enumerate(values):
        path = f"{field}[{index}]"
        name = player_name(value, path)
        if name_key(name) in seen:
            raise TableProblem(path, ProblemCode.DUPLICATE_NAME, f"{name} is already a player at this table")
        seen.add(name_key(name))
        names.append(name)
    return names


# Reading -----------------------------------------------------------------------------------------------

def find_table(public_id: str) -> TableRow | None:
    if not reading.is_public_id(public_id):
        return None
    return get_session().scalars(select(TableRow).where(TableRow.public_id == public_id)).first()


def get_table_or_404(public_id: str) -> TableRow:
    row = find_table(public_id)
    if row is None:
        abort(404, "There is no table at this link.")
    return row


def tables_by_public_id(public_ids: Iterable[str]) -> list[TableRow]:
    """The tables with these links, in the order given; unknown links are skipped."""
    wanted = [public_id for public_id in public_ids if reading.is_public_id(public_id)]
    if not wanted:
        return []
    rows = get_session().scalars(select(TableRow).where(TableRow.public_id.in_(wanted))).all()
    by_id = {row.public_id: row for row in rows}
    return [by_id[public_id] for public_id in wanted if public_id in by_id]


def table_of(match: MatchRow) -> TableRow | None:
    return None if match.table_id is None else get_session().get(TableRow, match.table_id)


def table_matches(table: TableRow) -> list[MatchRow]:
    """The table's matches in the order they were started, with their sides and deals read at once."""
    query = (select(MatchRow).where(MatchRow.table_id == table.id)
             .options(selectinload(MatchRow.sides), selectinload(MatchRow.deals))
             .order_by(MatchRow.created_at, MatchRow.id))
    return list(get_session().scalars(query).all())


def player_list(table: TableRow) -> list[str]:
    return [player.name for player in table.players]


def stats_of(table: TableRow, matches: Sequence[Match] | None = None) -> TableStats:
    """Every figure of the table, worked out from its matches' facts (``matches``: its matches read into the
    rules core, when they are)."""
    if matches is None:
        matches = [reading.to_core(row) for row in table_matches(table)]
    return table_stats(matches, tuple(player_list(table)))


@dataclass(frozen=True)
class StatsAndRatings:
    """The table's statistics and its players' ratings; ``rated``: how many finished matches were rated."""

    stats: TableStats
    ratings: tuple[Rating, ...]
    rated: int


def stats_and_ratings(table: TableRow) -> StatsAndRatings:
    """The statistics and the ratings, from one reading of the table's matches (the tables of the events
    it holds rated as their events place them)."""
    rows = table_matches(table)
    matches = [reading.to_core(row) for row in rows]
    results = results_of(rows, matches, results_at_table(table.id, utc_now()))
    return StatsAndRatings(stats_of(table, matches), rate(results), len(results))


@dataclass(frozen=True)
class MatchState:
    """What a table's list shows of one of its matches: each side's total and the winner."""

    names: tuple[str, ...]
    points: tuple[int, ...]
    winner: int | None
    target: int

    def totals(self) -> list[tuple[str, int]]:
        return list(zip(self.names, self.points, strict=True))

    def winner_name(self) -> str | None:
        return None if self.winner is None else self.names[self.winner]


def match_states(table: TableRow, known: Mapping[int, Match] | None = None) -> list[tuple[MatchRow, MatchState]]:
    """The table's matches in the order they were started, each with its state (``known``: matches already
    read into the rules core, by their row's id, as an import has them)."""
    known = known or {}
    states = []
    for row in table_matches(table):
        match = known[row.id] if row.id in known else reading.to_core(row)
        try:
            points, winner, _ = play(match, settle_match(match))  # the totals and winner, no sheet drawn
        except ContradictionError:
            points, winner = tuple(0 for _ in match.sides), None
        names = tuple(side.shown_name for side in match.sides)
        states.append((row, MatchState(names, points, winner, match.rules.target)))
    return states


# Writing -----------------------------------------------------------------------------------------------

def create_table(name: str, players: Sequence[str], commit: bool = True) -> TableRow:
    """Store a new table with its players (names already checked by ``player_names``); ``commit=False``
    leaves it in the session's transaction."""
    row = TableRow(name=name)
    row.players = [TablePlayerRow(position=index, name=player, name_key=name_key(player))
                   for index, player in enumerate(players)]
    session = get_session()
    session.add(row)
    if commit:
        session.commit()
    return row


def add_players(table: TableRow, given: object, field: str = "players") -> list[str]:
    """Add new players (a list of names, checked against the table's) and commit; returns their names."""
    names = player_names(given, field, player_list(table))
    start = max((player.position for player in table.players), default=-1) + 1
    for offset, name in enumerate(names):
        table.players.append(TablePlayerRow(position=start + offset, name=name, name_key=name_key(name)))
    get_session().commit()
    return names


def remove_player(table: TableRow, name: str) -> bool:
    """Remove a player from the table's list (their matches keep their name); False when not there."""
    for player in table.players:
        if name_key(player.name) == name_key(name):
            table.players.remove(player)
            get_session().commit()
            return True
    return False


def rule_card_name(text: object, table: TableRow, field: str = "name") -> str:
    name = _clean(text, field, MAX_RULE_CARD_NAME, "a rule card's name")
    if any(name_key(card.name) == name_key(name) for card in table.rule_cards):
        raise TableProblem(field, ProblemCode.DUPLICATE_NAME, f"this table already has a rule card named {name}")
    if len(table.rule_cards) >= MAX_RULE_CARDS:
        raise TableProblem(field, ProblemCode.OUT_OF_RANGE, f"a table keeps at most {MAX_RULE_CARDS} rule cards")
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


# Starting points ---------------------------------------------------------------------------------------

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


def side_name_of(typed: str, players: Sequence[str], field: str) -> str:
    """The side's name as typed, else after its players (shortened to fit: "Ann & Bob"), else "Side"."""
    name = _clean(typed, field, MAX_SIDE_NAME, "a side's name", required=False)
    if name:
        return name
    joined = side_name(players)
    return fit_name(joined, MAX_SIDE_NAME) or "Side"


def check_players_at_table(table: TableRow, sides: Sequence[SideInfo], field: str = "sides") -> None:
    """Every player of the match must be one of the table's players (``NOT_AT_TABLE`` otherwise)."""
    known = {name_key(name) for name in player_list(table)}
    for i, side in enumerate(sides):
        for j, name in enumerate(side.players):
            if name_key(name) not in known:
                raise TableProblem(f"{field}[{i}].players[{j}]", NOT_AT_TABLE,
                                   f"{name} is not a player of this table")


def default_match_name(sides: Sequence[SideInfo], day: date | None = None) -> str:
    """"We v They, 01 Dec 2026": the sides and the day (the phone's, when it said; else UTC's)."""
    return dated_name([side.shown_name for side in sides], day or datetime.now(UTC).date())


def next_match(finished_name: str, match: Match, rotate: bool) -> Match:
    """The match after ``match`` (named ``finished_name``): its sides and players (``rotate``: in new
    partnerships), the house rules in force at its end, today's name, and as its first dealer the player after
    its last dealer."""
    sides = rotated_sides(match.sides) if rotate else match.sides
    default = default_match_name(sides)
    name = _numbered_name(finished_name, default) if sides == match.sides else default
    return Match(sides=sides, rules=match.rules, name=name, auction=match.auction, first_dealer=next_dealer(match))


def _numbered_name(finished: str, default: str) -> str:
    """Today's default name, numbered when the finished match already has it: "We v They, 01 Dec 2026 (2)"."""
    if finished == default:
        return f"{default} (2)"
    head, _, tail = finished.rpartition(" (")
    count = whole_number_or_none(tail.removesuffix(")")) if tail.endswith(")") else None
    if head == default and count is not None and len(f"{default} ({count + 1})") <= MAX_MATCH_NAME:
        return f"{default} ({count + 1})"
    return default


# The table file ----------------------------------------------------------------------------------------

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
    """Check a decoded table file; raises ``TableProblem`` naming the field. ``within_limits``: at most
    ``MAX_TABLE_MATCHES`` matches and ``MAX_TABLE_DEALS`` deals in all, as a request may bring in (the
    ``scorekeeper table import`` command takes the file of a table that grew larger by play). ``count`` is
    given the matches and deals the file brings once they are counted, before any match is read (a limit on
    what one address may make refuses the file there)."""
    if not isinstance(data, dict):
        raise TableProblem("", ProblemCode.WRONG_TYPE, "a table file is a JSON object")
    unknown = sorted(set(data) - {"format", "name", "players", "rule_cards", "matches"})
    if unknown:
        raise TableProblem(unknown[0], ProblemCode.UNKNOWN_KEY, "unknown key")
    if data.get("format", TABLE_FORMAT) != TABLE_FORMAT:
        raise TableProblem("format", ProblemCode.WRONG_FORMAT, f"a table file's format is {TABLE_FORMAT}")
    name = table_name(data.get("name", "")) or "Our table"
    players = player_names(data.get("players", []))
    cards_data = data.get("rule_cards", [])
    if not isinstance(cards_data, list):
        raise TableProblem("rule_cards", ProblemCode.WRONG_TYPE, "rule cards must be a list")
    if len(cards_data) > MAX_RULE_CARDS:
        raise TableProblem("rule_cards", ProblemCode.OUT_OF_RANGE, f"a table keeps at most {MAX_RULE_CARDS} rule cards")
    cards: list[tuple[str, bool, HouseRules]] = []
    for index, card in enumerate(cards_data):
        path = f"rule_cards[{index}]"
        if not isinstance(card, dict) or not isinstance(card.get("rules", {}), dict):
            raise TableProblem(path, ProblemCode.WRONG_TYPE, "a rule card is an object with a name and rules")
        card_name = _clean(card.get("name"), f"{path}.name", MAX_RULE_CARD_NAME, "a rule card's name")
        if any(name_key(card_name) == name_key(other) for other, _, _ in cards):
            raise TableProblem(f"{path}.name", ProblemCode.DUPLICATE_NAME, "another rule card has this name")
        auction = card.get("auction", True)
        if not isinstance(auction, bool):
            raise TableProblem(f"{path}.auction", ProblemCode.WRONG_TYPE, "auction is true or false")
        try:
            rules = HouseRules.from_mapping(card.get("rules", {}))
        except HouseRuleError as error:
            raise TableProblem(join_path(f"{path}.rules", error.key), error.code, str(error)) from None
        cards.append((card_name, auction, rules))
    matches_data = data.get("matches", [])
    if not isinstance(matches_data, list):
        raise TableProblem("matches", ProblemCode.WRONG_TYPE, "matches must be a list of match files")
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
            raise TableProblem(join_path(path, error.path), error.code, error.detail) from None
        except RulesError as error:
            raise TableProblem(path, error.code, str(error)) from None
    return TableFile(name, players, cards, matches)


def _check_table_size(matches_data: list[Any]) -> None:
    """At most ``MAX_TABLE_MATCHES`` matches and ``MAX_TABLE_DEALS`` deals, counted before any is read."""
    if len(matches_data) > MAX_TABLE_MATCHES:
        raise TableProblem("matches", ProblemCode.OUT_OF_RANGE,
                           f"a table file holds at most {MAX_TABLE_MATCHES:,} matches; this one has "
                           f"{len(matches_data):,} (`scorekeeper table import` loads a larger one)")
    deals = sum(sent_deals(match) for match in matches_data)
    if deals > MAX_TABLE_DEALS:
        raise TableProblem("matches", ProblemCode.TOO_MANY_DEALS,
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
