"""A new event as the API sends it, read and checked before anything is stored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from ..rules.errors import HouseRuleError, RulesError
from ..rules.events import Entrant, EventFormat, Ranking, RoundEnd, RoundEndKind, clean_entrants
from ..rules.house_rules import HouseRules
from ..rules.limits import MAX_TABLE_NAME
from ..rules.movements import Movement
from ..rules.problems import ProblemCode, join_path
from ..rules.refusals import Invalid
from ..rules.text import clean_name

EVENT_KEYS = frozenset({"name", "format", "rules", "auction", "round_end", "rounds", "players", "teams",
                        "movement", "ranking"})
MAX_ROUNDS = 20
MAX_ROUND_DEALS = 100  # the house rules' deal limit


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
    movement: Movement | None = None  # a team event's; None: the one its rounds choose
    ranking: Ranking = Ranking.POINTS


def refused(field: str, code: str, message: str) -> Invalid:
    return Invalid(field, code, message)


def read_new_event(body: dict[str, Any]) -> NewEvent:
    """The event ``body`` describes (an ``Invalid`` refusal naming the first field that is wrong)."""
    unknown = sorted(set(body) - EVENT_KEYS)
    if unknown:
        raise refused(unknown[0], ProblemCode.UNKNOWN_KEY, f"unknown key (allowed: {', '.join(sorted(EVENT_KEYS))})")
    format = _format(body.get("format"))
    rules = _rules(body.get("rules", {}))
    auction = body.get("auction", True)
    if not isinstance(auction, bool):
        raise refused("auction", ProblemCode.WRONG_TYPE, "auction is true or false")
    try:
        entrants = clean_entrants(format, cast(list[Entrant], _entrants(format, body)))  # it checks the names
        end = RoundEnd.from_json(body.get("round_end"))
    except RulesError as error:
        raise refused(error.problem.path, error.code, error.problem.message) from None
    if end.kind is RoundEndKind.DEALS and end.count is not None:
        if end.count > MAX_ROUND_DEALS:
            raise refused("round_end.deals", ProblemCode.OUT_OF_RANGE,
                          f"a round has at most {MAX_ROUND_DEALS} deals (the house rule deal_limit)")
        rules = rules.replace(deal_limit=end.count)  # every table's match ends after the round's deals
    return NewEvent(_name(body.get("name", "")), format, rules, auction, end, _rounds(body.get("rounds")), entrants,
                    _movement(format, body.get("movement")), _ranking(format, body))


def _movement(format: EventFormat, value: object) -> Movement | None:
    if value is None:
        return None
    if format is not EventFormat.TEAM:
        raise refused("movement", ProblemCode.UNKNOWN_KEY, "a progressive event has no movement to choose")
    try:
        return Movement(value if isinstance(value, str) else "")
    except ValueError:
        raise refused("movement", ProblemCode.WRONG_FORMAT, 'the movement is "round-robin" or "stay-move"') from None


def _ranking(format: EventFormat, body: dict[str, Any]) -> Ranking:
    if "ranking" not in body:
        return Ranking.POINTS
    if format is EventFormat.TEAM:
        raise refused("ranking", ProblemCode.UNKNOWN_KEY, "a team event ranks by games won, then points: "
                      "only a progressive event chooses its ranking")
    value = body["ranking"]
    if value not in set(Ranking):
        raise refused("ranking", ProblemCode.WRONG_FORMAT, 'the ranking is "points" (then rounds won) or "wins" '
                      "(rounds won, then points)")
    return Ranking(value)


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


def _rounds(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise refused("rounds", ProblemCode.NOT_A_NUMBER, f"rounds is a whole number from 1 to {MAX_ROUNDS}")
    if not 1 <= value <= MAX_ROUNDS:
        raise refused("rounds", ProblemCode.OUT_OF_RANGE, f"rounds is from 1 to {MAX_ROUNDS}, not {value}")
    return value


def _name(value: object) -> str:
    if not isinstance(value, str):
        raise refused("name", ProblemCode.WRONG_TYPE, "an event's name must be text")
    try:
        return clean_name(value, "name", MAX_TABLE_NAME, "an event's name")
    except RulesError as error:
        raise refused("name", error.code, error.problem.message) from None


def _entrants(format: EventFormat, body: dict[str, Any]) -> list[tuple[object, ...]]:
    """The players (progressive) or teams (team format) as given, each as a tuple of names (not checked)."""
    key, other = ("teams", "players") if format is EventFormat.TEAM else ("players", "teams")
    if other in body:
        raise refused(other, ProblemCode.UNKNOWN_KEY, f"a {format} event lists its {key}, not {other}")
    given = body.get(key)
    if not isinstance(given, list):
        shape = "a list of teams, each a list of two names" if key == "teams" else "a list of names"
        raise refused(key, ProblemCode.WRONG_TYPE, f"{key} must be {shape}")
    if format is EventFormat.PROGRESSIVE:
        return [(name,) for name in given]
    for index, team in enumerate(given):
        if not isinstance(team, list):
            raise refused(f"teams[{index}]", ProblemCode.WRONG_TYPE, "a team is a list of two names")
    return [tuple(team) for team in given]
