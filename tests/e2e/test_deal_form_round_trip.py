"""The deal form's script: what was typed survives a trip to the meld calculator and back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .table import follow, new_match, open_meld_calculator, open_new_deal, set_counters

pytestmark = pytest.mark.browser


def test_typed_values_come_back_with_the_meld_from_the_calculator(page: Page) -> None:
    new_match(page, "Double deck to 500")
    open_new_deal(page)
    new_deal = page.url
    page.locator('input[name="mode"][value="detail"]').check()
    page.locator('input[name="bidder"][value="1"]').check()
    page.locator('input[name="bid"]').fill("70")
    page.locator('input[name="sides-0-tricks"]').fill("30")
    page.locator('input[name="sides-1-hands-0-meld"]').fill("12")
    page.locator('input[name="sides-1-tricks"]').fill("18")
    page.locator('input[name="last_trick"][value="0"]').check()
    set_counters(page, 0, "Partner 1's meld")
    page.locator('input[name="sides-0-hands-0-sets-pinochle"]').fill("3")  # counted before, replaced by the calculator

    open_meld_calculator(page, 0, "Partner 1's meld")  # side 0: We
    page.get_by_label("Type cards").fill("AH 10H KH QH JH")
    page.get_by_role("button", name="Count meld").click()
    follow(page, page.get_by_role("link", name=re.compile(r"Use in deal \(♥ trump\)")))

    assert "side=0" in page.url and "sets=" in page.url
    expect(page.locator('input[name="sides-0-hands-0-sets-run"]')).to_have_value("1")  # from the calculator
    expect(page.locator('input[name="sides-0-hands-0-sets-pinochle"]')).to_have_value("0")
    expect(page.locator('input[name="sides-0-hands-0-meld"]')).to_have_value("")
    expect(page.locator('input[name="bidder"][value="1"]')).to_be_checked()  # as typed before
    expect(page.locator('input[name="bid"]')).to_have_value("70")
    expect(page.locator('input[name="sides-0-tricks"]')).to_have_value("30")
    expect(page.locator('input[name="sides-1-hands-0-meld"]')).to_have_value("12")
    expect(page.locator('input[name="sides-1-tricks"]')).to_have_value("18")
    expect(page.locator('input[name="last_trick"][value="0"]')).to_be_checked()
    expect(page.locator('input[name="trump"][value="H"]')).to_be_checked()

    page.goto(new_deal)  # opened afresh: nothing is put back
    expect(page.locator('input[name="sides-1-hands-0-meld"]')).to_have_value("")
