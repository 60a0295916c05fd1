"""A new event as the API sends it, read and checked before anything is stored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.errors import HouseRuleError, RulesError
from ..rules.events import Entrant, EventFormat, RoundEnd, RoundEndKind, check_entrants
from ..rules.house_rules import HouseRules
from ..rules.limits import MAX_PLAYER_NAME, MAX_TABLE_NAME
from ..rules.problems import ProblemCode, join_path
from ..rules.text import clean_name
from . import EventProblem

EVENT_KEYS = frozenset({"name", "format", "rules", "auction", "round_end", "rounds", "players", "teams"})
MAX_ROUNDS = 20
MAX_ROUND_DEALS = 100  # the house rules' deal limit
MAX_ROUND_MINUTES = 600


@dataclass(frozen=True)
class NewEvent:
    """What a new event is played under, checked."""

    name: str
    format: EventFormat
    rules: HouseRules
    auction: bool
    round_end: RoundEnd
    rounds: int
    entrants: tuple[Entrant, ...]


def refused(field: str, code: str, message: str) -> EventProblem:
    return EventProblem(422, field, code, message)


def read_new_event(body: dict[str, Any]) -> NewEvent:
    """The event ``body`` describes (``EventProblem`` naming the first field that is wrong)."""
    unknown = sorted(set(body) - EVENT_KEYS)
    if unknown:
        raise refused(unknown[0], ProblemCode.UNKNOWN_KEY, f"unknown key (allowed: {', '.join(sorted(EVENT_KEYS))})")
    format = _format(body.get("format"))
    rules = _rules(body.get("rules", {}))
    auction = body.get("auction", True)
    if not isinstance(auction, bool):
        raise refused("auction", ProblemCode.WRONG_TYPE, "auction is true or false")
    entrants = _entrants(format, body)
    try:
        check_entrants(format, entrants)
    except RulesError as error:
        raise refused(error.problem.path, error.code, error.problem.message) from None
    end = read_round_end(body.get("round_end"))
    if end.kind is RoundEndKind.DEALS:
        rules = rules.replace(deal_limit=end.count)  # every table's match ends after the round's deals
    return NewEvent(_name(body.get("name", ""), "name", MAX_TABLE_NAME, "an event's name", required=False),
                    format, rules, auction, end, _whole(body.get("rounds"), "rounds", MAX_ROUNDS), entrants)


def _format(value: object) -> EventFormat:
    try:
        return EventFormat(value if isinstance(value, str) else "")
    except ValueError:
        raise refused("format", ProblemCode.WRONG_FORMAT, 'the format is "progressive" or "team"') from None


def _rules(value: object) -> HouseRules:
    if not isinstance(value, dict):
        raise refused("rules", ProblemCode.WRONG_TYPE, "rules is an object of house rules")
    try:
        return HouseRules.from_mapping(value)
    except HouseRuleError as error:
        raise refused(error.problem.path, error.code, error.problem.message) from None
    except RulesError as error:
        raise refused(join_path("rules", error.problem.path), error.code, error.problem.message) from None


def read_round_end(value: object) -> RoundEnd:
    """``{"target": true}``, ``{"deals": N}`` or ``{"minutes": M}``."""
    if not isinstance(value, dict) or len(value) != 1:
        raise refused("round_end", ProblemCode.WRONG_FORMAT,
                      'how a round ends: {"target": true}, {"deals": N} or {"minutes": M}')
    (key, count), = value.items()
    if key == "target" and count is True:
        return RoundEnd(RoundEndKind.TARGET)
    if key in ("deals", "minutes"):
        most = MAX_ROUND_DEALS if key == "deals" else MAX_ROUND_MINUTES
        return RoundEnd(RoundEndKind(key), _whole(count, f"round_end.{key}", most))
    raise refused(f"round_end.{key}", ProblemCode.WRONG_FORMAT,
                  'how a round ends: {"target": true}, {"deals": N} or {"minutes": M}')


def _whole(value: object, field: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise refused(field, ProblemCode.NOT_A_NUMBER, f"{field} is a whole number from 1 to {most}")
    if not 1 <= value <= most:
        raise refused(field, ProblemCode.OUT_OF_RANGE, f"{field} is from 1 to {most}, not {value}")
    return value


def _name(value: object, field: str, maximum: int, what: str, required: bool = True) -> str:
    if not isinstance(value, str):
        raise refused(field, ProblemCode.WRONG_TYPE, f"{what} must be text")
    try:
        name = clean_name(value, field, maximum, what)
    except RulesError as error:
        raise refused(field, error.code, error.problem.message) from None
    if required and not name:
        raise refused(field, ProblemCode.NAME_MISSING, f"{what} cannot be empty")
    return name


def _entrants(format: EventFormat, body: dict[str, Any]) -> tuple[Entrant, ...]:
    """The players (progressive) or teams (team format) as one- or two-name tuples."""
    key, other = ("teams", "players") if format is EventFormat.TEAM else ("players", "teams")
    if other in body:
        raise refused(other, ProblemCode.UNKNOWN_KEY, f"a {format} event lists its {key}, not {other}")
    given = body.get(key)
    if not isinstance(given, list):
        shape = "a list of teams, each a list of two names" if key == "teams" else "a list of names"
        raise refused(key, ProblemCode.WRONG_TYPE, f"{key} must be {shape}")
    if format is EventFormat.PROGRESSIVE:
        return tuple((_name(name, f"players[{index}]", MAX_PLAYER_NAME, "a player's name"),)
                     for index, name in enumerate(given))
    teams = []
    for index, team in enumerate(given):
        if not isinstance(team, list):
            raise refused(f"teams[{index}]", ProblemCode.WRONG_TYPE, "a team is a list of two names")
        teams.append(tuple(_name(name, f"teams[{index}][{place}]", MAX_PLAYER_NAME, "a player's name")
                           for place, name in enumerate(team)))
    return tuple(teams)
