"""Why a deal scores what it does, side by side: the meld each side showed and kept, and why a meld was lost.

The deal form previews a deal with these before it is saved (``deal_numbers``: the numbers its lines are
worded from); the numbers come from ``pricing`` and ``scoring``, never from a second reckoning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .house_rules import HouseRules
from .match import Deal, Match, SideDetail
from .pricing import MeldLostReason, price_meld, price_side
from .scoring import THROWN_IN, DealScore, score_deal, score_match


@dataclass(frozen=True)
class SideOutcome:
    """One side of a deal: what it scores, its meld (None for a one-number entry) and why the meld was lost
    (besides being set, which the side's line says)."""

    score: int
    meld: int | None
    lost: MeldLostReason | None


@dataclass(frozen=True)
class SideNumbers:
    """One side's numbers in a deal's preview: its score, its total after the deal (None once the match was
    decided before it), its meld (None for a one-number entry) and why that meld was lost."""

    score: int
    total: int | None
    meld: int | None
    lost: MeldLostReason | None


@dataclass(frozen=True)
class DealNumbers:
    """What a deal being entered scores, as its preview words it: how it went (made, set, thrown_in, passed,
    no_auction), who bid, whether it was played after the match was decided, and each side's numbers."""

    status: str
    bidder: int | None
    after_end: bool
    sides: tuple[SideNumbers, ...]

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "bidder": self.bidder, "after_end": self.after_end,
                "sides": [{"score": side.score, "total": side.total, "meld": side.meld,
                           "lost": None if side.lost is None else side.lost.value} for side in self.sides]}


def side_meld(rules: HouseRules, deal: Deal, side: int) -> int | None:
    """A side's meld points, every hand's meld summed; None for a one-number entry."""
    entry = deal.sides[side]
    if not isinstance(entry, SideDetail):
        return None
    return sum(price_meld(fact, deal, rules)[0] for fact in entry.meld)


def explain_deal(rules: HouseRules, deal: Deal) -> tuple[DealScore, tuple[SideOutcome, ...]]:
    """The deal's score and, for each side, its meld and the reason it was lost (a played deal only)."""
    score = score_deal(rules, deal, len(deal.sides))
    outcomes = []
    for index, entry in enumerate(deal.sides):
        priced = price_side(entry, deal, rules)
        meld = side_meld(rules, deal, index)
        reason = priced.meld_lost_because(rules, played=score.status != THROWN_IN) if meld else None
        outcomes.append(SideOutcome(score.scores[index], meld, reason))
    return score, tuple(outcomes)


def deal_numbers(match: Match, number: int) -> DealNumbers:
    """The numbers of deal ``number`` of ``match`` (the match with the deal in place) that its preview words;
    raises ContradictionError when the match's facts contradict its house rules."""
    line = score_match(match).deals[number - 1]
    deal = match.deals[number - 1]
    score, outcomes = explain_deal(match.rules, deal)
    totals = line.totals
    return DealNumbers(score.status, deal.bidder, line.after_end, tuple(
        SideNumbers(outcome.score, totals[index] if totals else None, outcome.meld, outcome.lost)
        for index, outcome in enumerate(outcomes)))
