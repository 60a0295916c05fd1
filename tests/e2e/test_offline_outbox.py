"""A phone with no signal keeps what it enters, shows it on the sheet marked "not sent yet", and sends
each entry once when the network is back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import LiveApp, Phones
from .outbox import kept_totals, outbox, public_id_of, server_match, wait_until_sent
from .table import fill_quick_deal, open_new_deal, start_match

pytestmark = pytest.mark.browser


def test_a_deal_saved_offline_is_kept_shown_and_sent_once(phones: Phones, live_app: LiveApp) -> None:
    page = phones.open()
    start_match(page, "Double deck to 500", name="Lake house")
    open_new_deal(page)
    fill_quick_deal(page, "We", 60, (67, 20))
    page.context.set_offline(True)
    page.get_by_role("button", name="Save deal").tap()
    expect(outbox(page)).to_contain_text("Not sent yet")
    assert kept_totals(page) == {"We": 67, "They": 20}
    page.context.set_offline(False)
    wait_until_sent(page)
    deals = server_match(live_app.base_url, public_id_of(page))["match"]["deals"]
    assert [deal["bid"] for deal in deals] == [60]
