"""Match files the browser tests import to start from a known position."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# RULES.md, "Worked score sheet": play to 300, one number per side per deal as entered.
WORKED_DEALS = [
    # bidder, bid, (We, They) as taken, running totals after the deal
    ("We", 60, (67, 20), (67, 20)),
    ("They", 55, (38, 51), (105, -35)),
    ("We", 80, (95, 15), (200, -20)),
    ("They", 70, (30, 84), (230, 64)),
    ("We", 75, (88, 12), (318, 76)),
]
SIDE_INDEX = {"We": 0, "They": 1}


def quick_deal(bidder: int, bid: int, totals: Sequence[int]) -> dict[str, Any]:
    """A deal as the match file writes one number per side: the bidding side's index, the bid, each side's total."""
    return {"bidder": bidder, "bid": bid, "sides": [{"total": total} for total in totals]}


def worked_sheet_file(name: str = "Worked sheet") -> dict[str, Any]:
    """The worked score sheet as a match file (format pinochle-match/1)."""
    return {
        "format": "pinochle-match/1",
        "name": name,
        "sides": [{"name": "We", "players": []}, {"name": "They", "players": []}],
        "rules": {"target": 300},
        "deals": [quick_deal(SIDE_INDEX[bidder], bid, taken) for bidder, bid, taken, _ in WORKED_DEALS],
    }


def full_match_file() -> dict[str, Any]:
    """A double-deck match of twenty deals in every way of entering them: quick numbers, meld and
    tricks, counted sets, a set bidder, a thrown-in hand and a redeal. Big enough to stand for a
    whole evening's sheet when pages are measured."""
    quick = [(0, 50, 62, 26), (1, 55, 30, 58), (0, 60, 48, 40), (1, 50, 22, 66), (0, 65, 71, 17)]
    deals: list[dict[str, Any]] = []
    for round_ in range(3):
        for bidder, bid, we, they in quick:
            deals.append({"bidder": bidder, "bid": bid + round_ * 5, "sides": [{"total": we}, {"total": they}]})
        deals.append({
            "bidder": 0, "bid": 50, "trump": "H",
            "sides": [{"meld": {"run": 1, "pinochle": 1}, "tricks": 30, "last_trick": True},
                      {"meld": 12, "tricks": 18}],
        })
    deals.append({"passed": True})
    deals.append({"bidder": 1, "bid": 70, "thrown_in": True, "sides": [{"meld": 14}, {"meld": 8}]})
    return {
        "format": "pinochle-match/1",
        "name": "Friday at Ann's",
        "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
        "rules": {"target": 1000},
        "deals": deals,
    }
