"""What a deal being entered would put on the sheet, in words, before it is saved.

The numbers come from the rules core (``deal_numbers``: ``explain_deal`` and ``score_match`` on the match with
the deal in place); this module only words them with messages.py's ``preview.…`` words: "We make it: +62 → 214",
"They: +3 → 96 · meld 20 lost: no trick". With no network the phone words the twin's numbers with the same words
in the same way (static/js/offline/preview.js), held to these lines by tests/vectors/previews.json.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.errors import ContradictionError, RulesError
from ..rules.explain import DealNumbers, deal_numbers, side_meld
from ..rules.match import Match
from ..rules.matchfile import deal_from_json
from ..rules.messages import say
from ..rules.rotation import side_hands
from ..rules.scoring import MADE, PASSED, SET, THROWN_IN
from .view import points, signed_points

WAITING = say("preview.waiting")
VERBS = {MADE: "preview.made", SET: "preview.set", THROWN_IN: "preview.thrown_in"}  # the bidders' head


@dataclass(frozen=True)
class Side:
    """A side as the preview names it: its name, and whether it takes 'make' or 'makes'."""

    name: str
    plural: bool


@dataclass(frozen=True)
class DealPreview:
    """The lines to show (one per side when the deal can be scored) and each side's meld total."""

    ready: bool
    lines: tuple[str, ...]
    melds: tuple[int | None, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"ready": self.ready, "lines": list(self.lines), "melds": list(self.melds)}


def meld_totals(match: Match, melds: Sequence[Any], trump: str, entered_under: Any = None) -> tuple[int | None, ...]:
    """Each side's meld points from the form's meld facts (match file form; None where unreadable)."""
    totals: list[int | None] = []
    for index, meld in enumerate(melds):
        sides: list[dict[str, Any]] = [{} for _ in melds]
        if meld is not None:
            sides[index] = {"meld": meld}
        data: dict[str, Any] = {"bidder": None, "sides": sides, "entered_under": entered_under}
        if trump:
            data["trump"] = trump
        try:
            deal = deal_from_json(data, len(melds), rules=match.rules)
        except RulesError:
            totals.append(None)
            continue
        totals.append(side_meld(match.rules, deal, index) if meld is not None else 0)
    return tuple(totals)


def preview_sides(match: Match) -> tuple[Side, ...]:
    """Each side as the preview names it: a side of more than one hand (``side_hands``) takes 'make'."""
    return tuple(Side(side.shown_name, hands > 1) for side, hands in zip(match.sides, side_hands(match), strict=True))


def preview(after: Match, number: int, sides: Sequence[Side], melds: tuple[int | None, ...]) -> DealPreview:
    """The preview of deal ``number`` of ``after`` (the match with the deal in place)."""
    try:
        numbers = deal_numbers(after, number)
    except ContradictionError as error:
        return DealPreview(False, tuple(problem.message for _, problem in error.problems[:1]), melds)
    return DealPreview(True, preview_lines(numbers, sides), melds)


def preview_lines(numbers: DealNumbers, sides: Sequence[Side]) -> tuple[str, ...]:
    """The deal's numbers in words: a line for each side, and a line after them when it does not count."""
    if numbers.status == PASSED:
        return (say("preview.passed"),)
    lines = tuple(_side_line(numbers, index, side) for index, side in enumerate(sides))
    return lines + (say("preview.after_end"),) if numbers.after_end else lines


def _side_line(numbers: DealNumbers, index: int, side: Side) -> str:
    shown = numbers.sides[index]
    verb = VERBS.get(numbers.status) if index == numbers.bidder else None
    head = say(verb if side.plural else f"{verb}.one", side=side.name) if verb else side.name
    text = say("preview.score", head=head, score=signed_points(shown.score))
    if shown.total is not None:
        text = say("preview.total", line=text, total=points(shown.total))
    if shown.lost is not None:
        text = say("preview.lost", line=text, meld=shown.meld, reason=say(f"preview.lost.{shown.lost.value}"))
    return text
