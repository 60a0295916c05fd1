"""The meld calculator: tap a hand, choose trump, read the breakdown, send it into a deal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .samples import worked_sheet_file
from .table import (
    deal_scores,
    follow,
    import_match,
    new_match,
    open_meld_calculator,
    open_new_deal,
    save_deal,
    side_box,
    type_number,
)

pytestmark = pytest.mark.browser

# RULES.md, "Worked meld": single deck, trump hearts, single-classic table.
WORKED_HAND = ["AH", "10H", "KH", "QH", "JH", "KH", "QH", "9H", "QS", "JD", "AS", "AC"]
WORKED_BREAKDOWN = {"Run": 150, "Royal marriage": 40, "Dix": 10, "Pinochle": 40}
WORKED_TOTAL = 240


def tap_card(page: Page, code: str) -> None:
    """Tap a card's face (on the calculator or in the deal form's dialog): each tap adds one copy."""
    page.locator(f"[data-code='{code}'] .face-add").tap()


def test_tapped_hand_is_counted_and_sent_into_a_deal(page: Page, shoot: Callable[[Page, str], Any]) -> None:
    new_match(page, "Single deck to 1500")
    open_new_deal(page)
    page.get_by_role("radio", name="Meld + tricks").tap()
    open_meld_calculator(page, 0, "Partner 1's meld")
    expect(page.get_by_role("heading", name="Meld calculator")).to_be_visible()
    # The calculator takes the match's deck and meld values.
    expect(page.get_by_label("Deck")).to_have_value("single")
    expect(page.get_by_label("Meld values")).to_have_value("single-classic")

    for code in WORKED_HAND:
        tap_card(page, code)
    for code in set(WORKED_HAND):
        expect(page.locator(f"select[name='n_{code}']")).to_have_value(str(WORKED_HAND.count(code)))
    page.get_by_role("radio", name="♥ Hearts").check()

    breakdown = page.locator("details.meld-breakdown[open]")
    expect(breakdown.locator("summary")).to_contain_text(f"Hearts trump: {WORKED_TOTAL}")
    for name, points in WORKED_BREAKDOWN.items():
        line = breakdown.locator("tbody tr").filter(has=page.get_by_role("cell", name=name, exact=True))
        expect(line.locator("td").last).to_have_text(str(points))
    expect(breakdown.locator("tfoot")).to_contain_text(str(WORKED_TOTAL))
    shoot(page, "meld-calculator-worked-hand")

    follow(page, page.get_by_role("link", name="Use in deal"))
    expect(page.get_by_role("radio", name="Meld + tricks")).to_be_checked()
    expect(page.locator("summary", has_text="Trump")).to_contain_text("Hearts")
    counted = side_box(page, 0).locator("details.count-meld").first
    expect(counted).to_have_attribute("open", "")
    for label, sets in {"Run": 1, "Royal marriage": 1, "Dix": 1, "Pinochle": 1, "Aces around": 0}.items():
        expect(counted.get_by_label(label, exact=True)).to_have_value(str(sets))

    # Finish the deal: We bid 250, take 150 in cards and the last trick (10) on the ten-point scale.
    page.get_by_role("group", name="Who won the bid?").get_by_role("radio", name="We").tap()
    type_number(page.get_by_role("textbox", name="Bid"), 250)
    type_number(side_box(page, 0).get_by_label("Trick points"), 150)
    expect(side_box(page, 1).get_by_label("Trick points")).to_have_value("90")
    page.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name="We").tap()
    save_deal(page)
    assert deal_scores(page, 1) == [WORKED_TOTAL + 150 + 10, 90]


def test_typed_hand_goes_back_to_the_deal_being_corrected(page: Page) -> None:
    import_match(page, worked_sheet_file())
    follow(page, page.get_by_role("link", name="Edit deal 4"))
    page.get_by_role("radio", name="Meld + tricks").tap()
    open_meld_calculator(page, 1, "Partner 1's meld")
    # Double deck, small numbers: a run in spades (15) and a pinochle (4).
    page.get_by_label("Type cards").fill("AS 10S KS QS JS JD")
    page.get_by_role("radio", name="♠ Spades").check()
    page.get_by_role("button", name="Count meld").tap()
    expect(page.locator("details.meld-breakdown[open] summary")).to_contain_text("Spades trump: 19")

    follow(page, page.get_by_role("link", name="Use in deal"))
    expect(page.get_by_role("heading", name="Correct deal 4")).to_be_visible()
    counted = side_box(page, 1).locator("details.count-meld").first
    expect(counted.get_by_label("Run", exact=True)).to_have_value("1")
    expect(counted.get_by_label("Pinochle", exact=True)).to_have_value("1")
    expect(page.locator("summary", has_text="Trump")).to_contain_text("Spades")
