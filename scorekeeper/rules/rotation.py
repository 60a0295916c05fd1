"""Who sits where, how many hands each side plays, who deals next and new partnerships for a rematch: the
seats of one match's table.

The players sit round the table in turn from each side (each side's first player, then each side's second
…), and the deal passes one seat on each time. The browser's twin is ``static/js/rules/rotation.js``, held to
this module by ``tests/vectors/dealers.json``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .limits import MAX_SIDE_NAME
from .match import Match, SideInfo
from .text import fit_name


def seat_order(sides: Sequence[SideInfo]) -> list[str]:
    """The players in their seats around the table: each side's first player, then each side's second…"""
    most = max((len(side.players) for side in sides), default=0)
    return [side.players[seat] for seat in range(most) for side in sides if seat < len(side.players)]


def side_hands(match: Match) -> tuple[int, ...]:
    """How many hands each side plays: one per player it names; a side that names none is a partnership of
    two in a match of two sides with an auction (the four-handed games), else one hand."""
    partnerships = len(match.sides) == 2 and match.auction
    return tuple(len(side.players) or (2 if partnerships else 1) for side in match.sides)


def next_dealer(match: Match) -> str | None:
    """Who deals the next deal: the player after the last recorded dealer, else the seat the deal count
    reaches from the match's first dealer (its first player unless it names another); None when the sides
    name no players."""
    seats = seat_order(match.sides)
    if not seats:
        return None
    for since, deal in enumerate(reversed(match.deals)):
        if deal.dealt_by in seats:  # a passed deal records no dealer, but the deal still moved on
            return seats[(seats.index(deal.dealt_by) + 1 + since) % len(seats)]
    first = seats.index(match.first_dealer) if match.first_dealer in seats else 0
    return seats[(first + len(match.deals)) % len(seats)]


def side_name(players: Sequence[str]) -> str:
    """A side named after its players: "Ann & Bob"."""
    return " & ".join(players)


def fitted_side_name(players: Sequence[str]) -> str:
    """A side named after its players, shortened to fit ("Ann & Bob"), else "Side"."""
    return fit_name(side_name(players), MAX_SIDE_NAME) or "Side"


def rotated_sides(sides: Sequence[SideInfo]) -> tuple[SideInfo, ...]:
    """New partnerships for a rematch: the first player stays, every other moves one seat along the
    list of players, so that with two pairs each partnership comes round in turn."""
    names = [name for side in sides for name in side.players]
    if len(names) < 3:
        return tuple(sides)
    names = [names[0], *names[2:], names[1]]
    result, start = [], 0
    for side in sides:
        players = tuple(names[start:start + len(side.players)])
        start += len(side.players)
        result.append(SideInfo(name=side_name(players) if players else side.name, players=players))
    return tuple(result)
