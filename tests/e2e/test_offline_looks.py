"""The outbox is readable on a phone: at 390×844 and at 200% zoom, light and dark, nothing runs off the
side of the screen (the screenshots land in test-artifacts/ for a person to look at)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE_AT_200_PERCENT, Guard, Phones
from .outbox import outbox, ready_offline
from .table import add_quick_deal, follow, start_match, type_number

pytestmark = pytest.mark.browser

FITS = "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"


@pytest.mark.parametrize(("look", "options"), [
    ("light", {}),
    ("dark-200", {**PHONE_AT_200_PERCENT, "color_scheme": "dark"}),
])
def test_the_outbox_fits_the_phone(phones: Phones, guard: Guard, shoot: Callable[..., Any], look: str,
                                   options: dict[str, Any]) -> None:
    page = phones.open(**options)
    start_match(page, "Double deck to 500", name="Lake house with a long name")
    add_quick_deal(page, "We", 60, (67, 20))
    follow(page, page.get_by_role("link", name="Edit deal 1", exact=True))
    type_number(page.locator(".sides-quick").get_by_role("textbox", name="They"), 25)
    ready_offline(page)
    with guard.offline(page):
        page.get_by_role("button", name="Save deal").tap()
        expect(outbox(page)).to_contain_text("Deal 1 corrected")
        expect(outbox(page)).to_contain_text("Not sent yet")
        assert page.evaluate(FITS)
        shoot(page, f"offline-outbox-{look}", full_page=False)
