"""The match after a decided one: its sides (the same partnerships or rotated ones), its name and its first
dealer, from the rules core's seats (``rules.rotation``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime

from ..rules.limits import MAX_MATCH_NAME
from ..rules.match import Match, SideInfo
from ..rules.numbers import whole_number_or_none
from ..rules.rotation import next_dealer, rotated_sides
from ..rules.text import dated_name


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
