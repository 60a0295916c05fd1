"""Why a deal scores what it does, side by side: the meld each side showed and kept, and why a meld was lost.

The deal form previews a deal with these before it is saved; the numbers come from ``pricing`` and
``scoring``, never from a second reckoning.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .house_rules import HouseRules
from .match import Deal, SideDetail
from .pricing import MeldLostReason, price_meld, price_side
from .scoring import THROWN_IN, DealScore, score_deal


class LostMeld(StrEnum):
    """Why a side's meld did not count (besides being set, which the side's line says)."""

    NO_TRICK = "no trick"
    NO_TRICK_POINTS = "no trick points"
    BELOW_MIN_MELD = "below the minimum meld"


_LOST = {MeldLostReason.NO_TRICK: LostMeld.NO_TRICK, MeldLostReason.NO_TRICK_POINTS: LostMeld.NO_TRICK_POINTS,
         MeldLostReason.BELOW_MIN_MELD: LostMeld.BELOW_MIN_MELD}


@dataclass(frozen=True)
class SideOutcome:
    """One side of a deal: what it scores, its meld (None for a one-number entry) and why the meld was lost."""

    score: int
    meld: int | None
    lost: LostMeld | None


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
        outcomes.append(SideOutcome(score.scores[index], meld, None if reason is None else _LOST[reason]))
    return score, tuple(outcomes)
