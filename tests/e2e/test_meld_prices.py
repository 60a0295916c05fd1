"""A table's own meld prices, set on their page and used by the meld calculator opened from the match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE_AT_200_PERCENT, Phones
from .table import follow, new_match, open_meld_calculator, open_new_deal
from .test_meld_calculator import tap_card

pytestmark = pytest.mark.browser

# Hearts trump, double deck: a run and two pinochles. On double-small 15 + 30 = 45; with the run at 25 and no
# double pinochle (4 a set) 25 + 4 + 4 = 33.
HAND = ["AH", "10H", "KH", "QH", "JH", "QS", "JD", "QS", "JD"]


def set_prices(page: Page, sheet: str) -> None:
    """No double pinochle from its preset, the run at 25 typed by hand, previewed and applied."""
    page.goto(sheet + "/rules")
    follow(page, page.get_by_role("link", name="The table's own meld prices"))
    expect(page.get_by_role("heading", name="The table's own meld prices")).to_be_visible()
    expect(page.get_by_label("Pinochle, 2 sets")).to_have_value("30")
    follow(page, page.get_by_role("button", name="No double pinochle"))
    expect(page.get_by_label("Pinochle, 2 sets")).to_have_value("")
    expect(page.locator("input[name='pinochle-2-off']")).to_be_checked()
    page.get_by_label("Run, 1 set").fill("25")
    follow(page, page.get_by_role("button", name="Preview the change"))
    expect(page.get_by_role("heading", name="Preview the change")).to_be_visible()
    expect(page.locator("#price-preview")).to_contain_text("run 25 / 150 / 225 / 300; pinochle 4 / – / – / –")
    follow(page, page.get_by_role("button", name="Apply the change"))
    expect(page.get_by_text("House rules changed: The table's own meld prices")).to_be_visible()


def test_set_a_tables_prices_and_count_a_hand_with_them(
    page: Page, phones: Phones, shoot: Callable[..., Any]
) -> None:
    sheet = new_match(page, "Double deck to 500")
    set_prices(page, sheet)
    page.goto(sheet + "/rules/meld")
    expect(page.get_by_label("Run, 1 set")).to_have_value("25")
    shoot(page, "meld-prices")

    page.goto(sheet)
    open_new_deal(page)
    page.get_by_role("radio", name="Meld + tricks").tap()
    open_meld_calculator(page, 0, "Partner 1's meld")
    expect(page.locator("#own-prices")).to_contain_text("pinochle 4 / – / – / –")
    for code in HAND:
        tap_card(page, code)
    page.get_by_role("radio", name="♥ Hearts").check()
    breakdown = page.locator("details.meld-breakdown[open]")
    expect(breakdown.locator("summary")).to_contain_text("Hearts trump: 33")
    run = breakdown.locator("tbody tr").filter(has=page.get_by_role("cell", name="Run", exact=True))
    expect(run.locator("td").last).to_have_text("25")
    shoot(page, "meld-prices-calculator")

    for scheme in ("dark",):
        dark = phones.open(color_scheme=scheme)
        dark.goto(sheet + "/rules/meld")
        expect(dark.get_by_label("Run, 1 set")).to_have_value("25")
        shoot(dark, f"meld-prices-{scheme}")
    zoomed = phones.open(**PHONE_AT_200_PERCENT)
    zoomed.goto(sheet + "/rules/meld")
    widths = zoomed.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"the meld prices page scrolls sideways at 200%: {widths}"
    shoot(zoomed, "meld-prices-zoom-200", full_page=False)
