"""The movement sheet of a club event: for each entrant, the table they sit at in each round seated."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .events import Entrant, Seating


@dataclass(frozen=True)
class MovementLine:
    """An entrant (a player, or a team's two) and their table in each round: a number, or None on a bye
    (or when not yet entered)."""

    entrant: Entrant
    tables: tuple[int | None, ...]


def movement_sheet(entrants: Sequence[Entrant], seatings: Sequence[Seating]) -> tuple[MovementLine, ...]:
    """One line an entrant, by name, with the table of the entrant's first player in each of ``seatings``."""
    ordered = sorted(entrants, key=lambda entrant: [name.casefold() for name in entrant])
    lines = []
    for entrant in ordered:
        tables = []
        for seating in seatings:
            table = seating.table_of(entrant[0])
            tables.append(None if table is None else table.number)
        lines.append(MovementLine(entrant, tuple(tables)))
    return tuple(lines)
