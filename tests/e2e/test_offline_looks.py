"""The outbox is readable on a phone: at 390×844 and at 200% zoom, light and dark, nothing runs off the
side of the screen (the screenshots land in test-artifacts/ for a person to look at)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE_AT_200_PERCENT, Guard, Phones, in_each_scheme
from .outbox import outbox, ready_offline, take_expected_errors
from .sheet_only import players_match, save_offline, sheet_only_phone
from .table import fill_quick_deal, follow, new_match, open_new_deal, type_number

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

FITS = "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"


@pytest.mark.parametrize(("look", "options"), [
    ("light", {}),
    ("dark-200", {**PHONE_AT_200_PERCENT, "color_scheme": "dark"}),
])
def test_the_outbox_fits_the_phone(phones: Phones, guard: Guard, shoot: Callable[..., Any], look: str,
                                   options: dict[str, Any]) -> None:
    page = phones.open(**options)
    new_match(page, "Double deck to 500", name="Lake house with a long name", deals=[("We", 60, (67, 20))])
    follow(page, page.get_by_role("link", name="Edit deal 1", exact=True))
    type_number(page.locator(".sides-quick").get_by_role("textbox", name="They"), 25)
    ready_offline(page)
    with guard.offline(page):
        page.get_by_role("button", name="Save deal").tap()
        expect(outbox(page)).to_contain_text("Deal 1 corrected")
        expect(outbox(page)).to_contain_text("Not sent yet")
        assert page.evaluate(FITS)
        shoot(page, f"offline-outbox-{look}", full_page=False)


def test_the_screens_of_a_sheet_only_phone_read_well_offline(
    phones: Phones, guard: Guard, shoot: Callable[..., Any]
) -> None:
    """A sheet with deals not sent yet, and the correction and delete forms made on the phone, at 390×844."""
    deals = [{"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]},
             {"bidder": 1, "bid": 55, "sides": [{"total": 38}, {"total": 51}]}]
    page, sheet = sheet_only_phone(phones, players_match(deals))
    with guard.offline(page):
        open_new_deal(page)
        fill_quick_deal(page, "Cy", 65, (20, 70))
        save_offline(page, "New deal 3")
        assert page.evaluate(FITS)
        for scheme in in_each_scheme(page):
            shoot(page, f"offline-sheet-only-top-{scheme}", full_page=False)
        page.locator(".chart-card").scroll_into_view_if_needed()
        for scheme in in_each_scheme(page):
            shoot(page, f"offline-sheet-only-chart-{scheme}", full_page=False)
        follow(page, page.get_by_role("link", name="Edit deal 2"))
        expect(page.get_by_role("heading", name="Correct deal 2")).to_be_visible()
        assert page.evaluate(FITS)
        for scheme in in_each_scheme(page):
            shoot(page, f"offline-correct-deal-{scheme}", full_page=False)
        follow(page, page.get_by_role("link", name="Delete this deal"))
        assert page.evaluate(FITS)
        for scheme in in_each_scheme(page):
            shoot(page, f"offline-delete-deal-{scheme}", full_page=False)
    take_expected_errors(guard, r"ERR_INTERNET_DISCONNECTED")


def test_a_decided_match_and_its_next_match_page_read_well(phones: Phones, shoot: Callable[..., Any]) -> None:
    deals = [{"bidder": 0, "bid": 60, "sides": [{"total": 300}, {"total": 20}]},
             {"bidder": 0, "bid": 60, "sides": [{"total": 250}, {"total": 20}]}]
    page, _ = sheet_only_phone(phones, players_match(deals))
    for scheme in in_each_scheme(page):
        shoot(page, f"decided-sheet-{scheme}", full_page=False)
    follow(page, page.get_by_role("link", name="Start the next match"))
    assert page.evaluate(FITS)
    for scheme in in_each_scheme(page):
        shoot(page, f"next-match-{scheme}", full_page=False)
