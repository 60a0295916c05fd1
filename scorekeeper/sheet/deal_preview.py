"""What a deal being entered would put on the sheet, in words, before it is saved.

The numbers come from the rules core (``explain_deal`` and ``score_match`` on the match with the deal in
place); this module only words them: "We make it: +62 → 214", "They: +3 → 96 · meld 20 lost: no trick".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.errors import ContradictionError, RulesError
from ..rules.explain import SideOutcome, explain_deal, side_meld
from ..rules.match import Deal, Match
from ..rules.matchfile import deal_from_json
from ..rules.scoring import MADE, PASSED, SET, THROWN_IN, DealScore, score_match
from .view import points, signed_points

WAITING = "The deal's score shows here as you fill it in."


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


def preview(after: Match, number: int, sides: Sequence[Side], melds: tuple[int | None, ...]) -> DealPreview:
    """The preview of deal ``number`` of ``after`` (the match with the deal in place)."""
    deal = after.deals[number - 1]
    try:
        sheet = score_match(after)
    except ContradictionError as error:
        return DealPreview(False, tuple(problem.message for _, problem in error.problems[:1]), melds)
    line = sheet.deals[number - 1]
    score, outcomes = explain_deal(after.rules, deal)
    if score.status == PASSED:
        return DealPreview(True, ("All passed: nobody scores.",), melds)
    totals = line.totals
    worded = tuple(_side_line(deal, score, index, side, outcome, totals[index] if totals else None)
                   for index, (side, outcome) in enumerate(zip(sides, outcomes, strict=True)))
    if line.after_end:
        worded += ("Played after the match was decided: it does not count.",)
    return DealPreview(True, worded, melds)


def _side_line(deal: Deal, score: DealScore, index: int, side: Side, outcome: SideOutcome, total: int | None) -> str:
    verb = ""
    if index == deal.bidder:
        verb = {
            MADE: "make it" if side.plural else "makes it",
            SET: "are set" if side.plural else "is set",
            THROWN_IN: "throw in" if side.plural else "throws in",
        }.get(score.status, "")
    head = f"{side.name} {verb}" if verb else side.name
    text = f"{head}: {signed_points(outcome.score)}"
    if total is not None:
        text += f" → {points(total)}"
    if outcome.lost is not None:
        text += f" · meld {outcome.meld} lost: {outcome.lost.value}"
    return text
