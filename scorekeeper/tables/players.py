"""A table's players, added and removed: a match keeps its players' names in its own sides, so removing a
player changes none of the matches they played."""

from __future__ import annotations

from collections.abc import Sequence

from ..db import get_session
from ..models import TablePlayerRow, TableRow
from ..rules.match import SideInfo
from ..rules.refusals import Invalid
from .names import name_key, player_names
from .reading import player_list

NOT_AT_TABLE = "not_at_table"  # a match's player who is not one of its table's players


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


def check_players_at_table(table: TableRow, sides: Sequence[SideInfo], field: str = "sides") -> None:
    """Every player of the match must be one of the table's players (``NOT_AT_TABLE`` otherwise)."""
    known = {name_key(name) for name in player_list(table)}
    for i, side in enumerate(sides):
        for j, name in enumerate(side.players):
            if name_key(name) not in known:
                raise Invalid(f"{field}[{i}].players[{j}]", NOT_AT_TABLE,
                                   f"{name} is not a player of this table")
