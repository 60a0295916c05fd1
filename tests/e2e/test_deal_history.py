"""A deal's history at the table (390×844, touch taps): a phone says who it is, corrects a deal in the panel
over the sheet, follows it to the deal's history with the values before and after and its own name, and undoes the
correction after its preview: the sheet is as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .table import follow, new_match, sheet_totals, type_number
from .test_accessibility import axe_violations, describe

pytestmark = pytest.mark.browser


def test_a_corrected_deal_shows_its_history_and_undo_brings_the_sheet_back(
    page: Page, shoot: Callable[..., Any]
) -> None:
    sheet = new_match(page, "Double deck to 500", deals=[("We", 50, (60, 20)), ("They", 50, (10, 70))])
    before = sheet_totals(page)

    follow(page, page.get_by_role("navigation", name="Match tools").get_by_role("link", name="Changes · undo"))
    expect(page.get_by_text("Changes from this phone are marked a phone")).to_be_visible()
    found = {"changes": axe_violations(page)}
    follow(page, page.get_by_role("link", name="I am …"))
    found["i am"] = axe_violations(page)
    page.get_by_role("textbox", name="I am").fill("Ann")
    follow(page, page.get_by_role("button", name="Save"))
    expect(page.get_by_text("This phone is now Ann's phone in the history.")).to_be_visible()

    page.goto(sheet)
    page.get_by_role("link", name="Edit deal 1").tap()
    panel = page.get_by_role("dialog", name="Correct deal 1")
    type_number(panel.locator(".sides-quick input").nth(0), 66)
    panel.get_by_role("button", name="Save deal").tap()
    expect(panel).to_be_hidden()
    assert sheet_totals(page) != before

    page.get_by_role("link", name="Edit deal 1").tap()  # the deal's history, from its correction form
    follow(page, page.get_by_role("dialog", name="Correct deal 1").get_by_role("link", name="History of deal 1"))
    expect(page.get_by_role("heading", name="History of deal 1")).to_be_visible()
    expect(page.locator("li.deal-change")).to_have_count(2)
    corrected = page.locator("li.deal-change").nth(1)
    expect(corrected).to_contain_text("Deal 1 corrected")
    expect(corrected).to_contain_text("Ann's phone")
    expect(corrected.locator("del")).to_have_text("We bid 50; We 60, They 20")
    expect(corrected.locator("strong").last).to_have_text("We bid 50; We 66, They 20")
    shoot(page, "deal-history")
    found["deal history"] = axe_violations(page)

    follow(page, page.get_by_role("link", name="All changes · undo"))
    expect(page.get_by_text("The last change: Corrected deal 1.")).to_be_visible()
    follow(page, page.get_by_role("button", name="Undo the last change"))
    expect(page.get_by_role("heading", name="Undo: Corrected deal 1?")).to_be_visible()
    expect(page.get_by_text("After the undo: We bid 50; We 60, They 20")).to_be_visible()
    shoot(page, "undo-preview")
    found["undo preview"] = axe_violations(page)
    assert not any(found.values()), "\n".join(f"{where}:\n{describe(v)}" for where, v in found.items() if v)
    follow(page, page.get_by_role("button", name="Undo it"))
    expect(page.get_by_text("Undone: corrected deal 1.")).to_be_visible()
    assert sheet_totals(page) == before
