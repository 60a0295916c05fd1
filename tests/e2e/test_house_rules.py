"""Changing a house rule mid-match: preview the recomputed sheet, apply it, change it back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .samples import worked_sheet_file
from .table import deal_row, deal_scores, follow, import_match, sheet_totals, type_number, winner_banner

pytestmark = pytest.mark.browser


def preview_target(page: Page, target: int) -> None:
    """From the score sheet: set "Play to" on the house-rules page and ask for the preview."""
    follow(page, page.get_by_role("navigation", name="Match tools").get_by_role("link", name="House rules"))
    expect(page.get_by_role("heading", name="House rules", exact=True)).to_be_visible()
    type_number(page.get_by_label("Play to", exact=True), target)
    follow(page, page.get_by_role("button", name="Preview the change"))
    expect(page.get_by_role("heading", name="Preview the change")).to_be_visible()


def test_lower_target_moves_the_winner_earlier_and_back(page: Page, shoot: Callable[[Page, str], Any]) -> None:
    import_match(page, worked_sheet_file())
    expect(winner_banner(page)).to_contain_text("We won at deal 5")

    preview_target(page, 200)
    expect(page.locator(".change-list").first).to_contain_text("Play to: 300 → 200")
    now = page.locator(".compare .card").filter(has=page.get_by_role("heading", name="Now"))
    after = page.locator(".compare .card").filter(has=page.get_by_role("heading", name="After the change"))
    expect(now).to_contain_text("We won at deal 5")
    # With 200 to reach, We made their bid at deal 3 with exactly 200.
    expect(after).to_contain_text("We won at deal 3")
    shoot(page, "house-rules-preview")
    follow(page, page.get_by_role("button", name="Apply the change"))

    expect(winner_banner(page)).to_contain_text("We won at deal 3")
    assert sheet_totals(page) == {"We": 200, "They": -20}
    for later in (4, 5):
        expect(deal_row(page, later)).to_contain_text("after the end")
        assert deal_scores(page, later) == [None, None]
    assert deal_scores(page, 3) == [95, 15]
    shoot(page, "sheet-after-rule-change")

    preview_target(page, 300)
    expect(page.locator(".compare .card").filter(has_text="After the change")).to_contain_text("We won at deal 5")
    follow(page, page.get_by_role("button", name="Apply the change"))
    expect(winner_banner(page)).to_contain_text("We won at deal 5")
    assert sheet_totals(page) == {"We": 318, "They": 76}
    expect(page.locator("tr.after-end")).to_have_count(0)

    follow(page, page.get_by_role("navigation", name="Match tools").get_by_role("link", name="House rules"))
    history = page.get_by_role("region", name="Changes during this match")
    expect(history.locator("li")).to_have_count(2)
    shoot(page, "house-rules")
