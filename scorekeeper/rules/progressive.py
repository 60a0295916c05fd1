"""Seating a round of a progressive event: new partners every round, opponents repeated as little as can be."""

from __future__ import annotations

from collections.abc import Sequence

from .events import SeatedTable, Seating, pick_byes


def seat_progressive(players: Sequence[str], past: Sequence[Seating], number: int) -> Seating:
    """Players not a multiple of four sit out in turn; the rest four to a table, two sides of two."""
    byes = pick_byes([(name,) for name in players], len(players) % 4, past)
    out = {name for (name,) in byes}
    playing = [name for name in players if name not in out]
    shift = (number - 1) % max(1, len(playing))
    playing = playing[shift:] + playing[:shift]
    tables = tuple(SeatedTable(index // 4 + 1, ((playing[index], playing[index + 2]),
                                                (playing[index + 1], playing[index + 3])))
                   for index in range(0, len(playing), 4))
    return Seating(number, tables, tuple(byes))
