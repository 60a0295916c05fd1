"""Announcing going out in the deal form, and rescaling a match ×10 and undoing it, at 390×844."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .samples import worked_sheet_file
from .table import deal_row, fill_quick_deal, follow, import_match, open_new_deal, save_deal, sheet_totals

pytestmark = pytest.mark.browser


def open_house_rules(page: Page) -> None:
    follow(page, page.get_by_role("navigation", name="Match tools").get_by_role("link", name="House rules"))
    expect(page.get_by_role("heading", name="House rules", exact=True)).to_be_visible()


def test_announce_going_out_in_the_deal_form_and_see_it_on_the_sheet(
    page: Page, shoot: Callable[[Page, str], Any]
) -> None:
    match = worked_sheet_file("Bidding out") | {"rules": {"target": 300, "going_out": "announce"}}
    match["deals"] = match["deals"][:4]  # We 230, They 64: the next made bid with an announcement ends it
    import_match(page, match)
    open_new_deal(page)
    fill_quick_deal(page, "We", 75, [88, 12])
    out = page.get_by_role("checkbox", name="Announced going out")
    expect(out).to_be_visible()
    out.check()
    shoot(page, "deal-form-going-out")
    save_deal(page)
    expect(deal_row(page, 5)).to_contain_text("going out")
    expect(page.get_by_text("We won at deal 5").first).to_be_visible()
    shoot(page, "sheet-going-out")


def test_rescale_times_ten_and_undo(page: Page, shoot: Callable[[Page, str], Any]) -> None:
    import_match(page, worked_sheet_file("Rescaled"))
    assert sheet_totals(page) == {"We": 318, "They": 76}
    open_house_rules(page)
    history = page.get_by_role("region", name="Changes during this match")
    follow(page, page.get_by_role("button", name="Rescale ×10"))
    expect(page.get_by_role("heading", name="Rescale ×10?")).to_be_visible()  # its preview first
    expect(page.locator(".change-list")).to_contain_text("Play to: 300 → 3000")
    expect(page.locator(".card-after")).to_contain_text("3180")
    shoot(page, "rescale-preview")
    follow(page, page.get_by_role("link", name="Back to the house rules"))  # going back changes nothing
    expect(history.locator("li")).to_have_count(0)
    follow(page, page.get_by_role("button", name="Rescale ×10"))
    follow(page, page.get_by_role("button", name="Apply the rescale ×10"))
    expect(history.locator("li")).to_have_count(1)
    expect(history).to_contain_text("Rescaled ×10")
    expect(history).to_contain_text("Play to: 300 → 3000")
    shoot(page, "house-rules-rescaled")
    follow(page, page.get_by_role("link", name="Score sheet"))
    assert sheet_totals(page) == {"We": 3180, "They": 760}
    expect(deal_row(page, 1)).to_contain_text("600")

    open_house_rules(page)
    follow(page, history.locator("li").first.get_by_role("button", name="Undo"))
    expect(page.get_by_role("heading", name="Undo: Rescaled ×10?")).to_be_visible()  # its preview first
    expect(page.locator(".card-after")).to_contain_text("318")
    follow(page, page.get_by_role("button", name="Undo it"))
    expect(history.locator("li")).to_have_count(2)
    expect(history.locator("li").first).to_contain_text("Undo: rescaled ÷10")
    follow(page, page.get_by_role("link", name="Score sheet"))
    assert sheet_totals(page) == {"We": 318, "They": 76}
    expect(deal_row(page, 1)).to_contain_text("60")
