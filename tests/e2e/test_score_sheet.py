"""A match from preset to winner, entered on a phone as the players would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .table import add_quick_deal, deal_row, deal_scores, sheet_totals, start_match, winner_banner

pytestmark = pytest.mark.browser

# RULES.md, "Worked score sheet": play to 300, one number per side per deal as entered.
WORKED_SHEET = [
    # bidder, bid, (We, They), running totals after the deal
    ("We", 60, (67, 20), (67, 20)),
    ("They", 55, (38, 51), (105, -35)),
    ("We", 80, (95, 15), (200, -20)),
    ("They", 70, (30, 84), (230, 64)),
    ("We", 75, (88, 12), (318, 76)),
]


def test_worked_sheet_entered_deal_by_deal(page: Page, shoot: Callable[[Page, str], Any]) -> None:
    start_match(page, "Double deck to 500", name="Worked sheet", rules={"Play to": "300"})
    expect(page.locator(".match-meta")).to_contain_text("Playing to 300")
    for number, (bidder, bid, taken, running) in enumerate(WORKED_SHEET, start=1):
        add_quick_deal(page, bidder, bid, taken)
        assert sheet_totals(page) == {"We": running[0], "They": running[1]}, f"after deal {number}"
    expect(deal_row(page, 2)).to_contain_text("set")
    assert deal_scores(page, 2) == [38, -55]
    expect(winner_banner(page)).to_contain_text("We won at deal 5")
    expect(winner_banner(page)).to_contain_text("1. We 318")
    expect(winner_banner(page)).to_contain_text("2. They 76")
    shoot(page, "sheet-worked-winner")
