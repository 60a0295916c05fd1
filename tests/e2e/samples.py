"""Match files the browser tests import to start from a known position."""

from __future__ import annotations

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


def worked_sheet_file(name: str = "Worked sheet") -> dict[str, Any]:
    """The worked score sheet as a match file (format pinochle-match/1)."""
    return {
        "format": "pinochle-match/1",
        "name": name,
        "sides": [{"name": "We", "players": []}, {"name": "They", "players": []}],
        "rules": {"target": 300},
        "deals": [
            {"bidder": SIDE_INDEX[bidder], "bid": bid, "sides": [{"total": taken[0]}, {"total": taken[1]}]}
            for bidder, bid, taken, _ in WORKED_DEALS
        ],
    }
