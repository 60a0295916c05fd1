"""The names a table is given: its own, its players' (unique at the table whatever their case) and its
sides'; each checked, or refused with a ``Invalid`` refusal naming the field."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.errors import RulesError
from ..rules.limits import MAX_PLAYER_NAME, MAX_SIDE_NAME, MAX_TABLE_NAME, MAX_TABLE_PLAYERS
from ..rules.problems import ProblemCode
from ..rules.refusals import Invalid
from ..rules.rotation import fitted_side_name
from ..rules.text import clean_name


def name_key(name: str) -> str:
    """What makes two names the same player: case does not count."""
    return name.casefold()


def clean_text(text: object, field: str, maximum: int, what: str, required: bool = True) -> str:
    """``text`` as a name of at most ``maximum`` characters (``what``: "a player's name"), else a
    ``Invalid`` refusal at ``field``; empty only when not ``required``."""
    if not isinstance(text, str):
        raise Invalid(field, ProblemCode.WRONG_TYPE, f"{what} must be text")
    try:
        name = clean_name(text, field, maximum, what)
    except RulesError as error:
        raise Invalid(field, error.code, error.problem.message) from None
    if required and not name:
        raise Invalid(field, ProblemCode.NAME_MISSING, f"{what} cannot be empty")
    return name


def table_name(text: object, field: str = "name") -> str:
    return clean_text(text, field, MAX_TABLE_NAME, "a table's name", required=False)


def player_name(text: object, field: str) -> str:
    return clean_text(text, field, MAX_PLAYER_NAME, "a player's name")


def player_names(values: object, field: str = "players", taken: Sequence[str] = ()) -> list[str]:
    """A list of new players' names, checked: text, none empty, none twice (case aside, nor among
    ``taken``), at most ``MAX_TABLE_PLAYERS`` in all."""
    if not isinstance(values, list):
        raise Invalid(field, ProblemCode.WRONG_TYPE, "players must be a list of names")
    if len(values) + len(taken) > MAX_TABLE_PLAYERS:
        raise Invalid(field, ProblemCode.TOO_MANY_PLAYERS, f"a table has at most {MAX_TABLE_PLAYERS} players")
    seen = {name_key(name) for name in taken}
    names = []
    for index, value in enumerate(values):
        path = f"{field}[{index}]"
        name = player_name(value, path)
        if name_key(name) in seen:
            raise Invalid(path, ProblemCode.DUPLICATE_NAME, f"{name} is already a player at this table")
        seen.add(name_key(name))
        names.append(name)
    return names


def side_name_of(typed: str, players: Sequence[str], field: str) -> str:
    """The side's name as typed, else after its players (shortened to fit: "Ann & Bob"), else "Side"."""
    name = clean_text(typed, field, MAX_SIDE_NAME, "a side's name", required=False)
    return name or fitted_side_name(players)
