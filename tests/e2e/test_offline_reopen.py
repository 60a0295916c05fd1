"""The table's whole evening with no signal: deals entered offline (quick, with meld and tricks per
partner, with meld from cards through the meld calculator), one of them changed, the page reloaded and the
browser closed and opened again offline; back online, the server holds exactly those deals, once each."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Guard, LiveApp
from .offline import persistent_phone, wait_for_worker, wait_until_kept
from .outbox import (
    kept_totals,
    outbox,
    public_id_of,
    ready_offline,
    server_match,
    wait_until_sent,
)
from .table import fill_quick_deal, follow, new_match, open_meld_calculator, open_new_deal, side_box, type_number
from .test_meld_calculator import tap_card

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


def save_kept(page: Page, what: str) -> None:
    page.get_by_role("button", name="Save deal").tap()
    expect(outbox(page).locator("li", has_text=what)).to_contain_text("Not sent yet")


def detailed_deal(page: Page) -> None:
    """We bid 50: partners' meld 20 and 12, 30 trick points and the last trick; They meld 8, 18 tricks."""
    page.get_by_role("radio", name="Meld + tricks").tap()
    page.get_by_role("group", name="Who won the bid?").get_by_role("radio", name="We").tap()
    type_number(page.get_by_role("textbox", name="Bid"), 50)
    we, they = side_box(page, 0), side_box(page, 1)
    type_number(we.get_by_role("textbox", name="Partner 1's meld"), 20)
    type_number(we.get_by_role("textbox", name="Partner 2's meld"), 12)
    type_number(we.get_by_role("textbox", name="Trick points"), 30)
    type_number(they.get_by_role("textbox", name="Partner 1's meld"), 8)
    type_number(they.get_by_role("textbox", name="Trick points"), 18)
    page.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name="We").tap()


def deal_from_cards(page: Page) -> None:
    """They bid 60; their first partner's meld comes from the meld calculator, tapped in with no network (a
    run and a pinochle in hearts), and goes back into the form with what was typed before."""
    page.get_by_role("radio", name="Meld + tricks").tap()
    page.get_by_role("group", name="Who won the bid?").get_by_role("radio", name="They").tap()
    type_number(page.get_by_role("textbox", name="Bid"), 60)
    open_meld_calculator(page, 1, "Partner 1's meld")
    for code in ("AH", "10H", "KH", "QH", "JH", "QS", "JD"):
        tap_card(page, code)
    page.get_by_role("radio", name="♥ Hearts").check()
    follow(page, page.get_by_role("link", name="Use in deal"))
    expect(page.get_by_role("textbox", name="Bid")).to_have_value("60")  # typed before, kept on the way
    expect(page.get_by_role("radio", name="Meld + tricks")).to_be_checked()
    counted = side_box(page, 1).locator("details.count-meld[data-hand='0']")
    expect(counted).to_have_attribute("open", "")
    expect(counted.get_by_label("Run", exact=True)).to_have_value("1")
    expect(counted.get_by_label("Pinochle", exact=True)).to_have_value("1")
    we, they = side_box(page, 0), side_box(page, 1)
    type_number(they.get_by_role("textbox", name="Trick points"), 40)
    type_number(we.get_by_role("textbox", name="Trick points"), 8)
    page.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name="They").tap()


def test_deals_entered_offline_survive_reload_and_reopening_and_arrive_once(
    browser: Browser, live_app: LiveApp, guard: Guard, tmp_path: Path, shoot: Callable[..., Any]
) -> None:
    profile = tmp_path / "profile"
    with persistent_phone(browser, live_app, guard, profile) as page:
        # Deal 1 is on the server before the signal goes.
        sheet = new_match(page, "Double deck to 500", name="At the cabin", deals=[("We", 60, (67, 20))])
        public_id = public_id_of(page)
        wait_for_worker(page)
        for address in (f"/m/{public_id}/deals/new", sheet):
            page.goto(address)
            wait_until_kept(page, address)
        open_new_deal(page)
        page.get_by_role("radio", name="Meld + tricks").tap()
        open_meld_calculator(page, 0, "Partner 1's meld")  # the calculator, once
        wait_until_kept(page, page.url)
        page.goto(sheet)
        open_new_deal(page)
        page.get_by_role("textbox", name="Bid").focus()  # a form in use: the phone reads the match's facts
        ready_offline(page)
        page.goto(sheet)

        with guard.offline(page, back_online=False):  # closed with no signal
            open_new_deal(page)
            fill_quick_deal(page, "They", 55, (20, 62))
            save_kept(page, "New deal 2")
            open_new_deal(page)
            detailed_deal(page)
            save_kept(page, "New deal 3")
            open_new_deal(page)
            deal_from_cards(page)
            save_kept(page, "New deal 4")
            # Deal 2 was typed wrong: changed before it was ever sent, in its place.
            outbox(page).locator("li", has_text="New deal 2").get_by_role("link", name="Change").tap()
            they_total = page.locator(".sides-quick").get_by_role("textbox", name="They")
            expect(they_total).to_have_value("62")  # the kept deal is back in the form before it is typed over
            type_number(they_total, 58)
            save_kept(page, "New deal 2")
            expect(outbox(page).locator("li", has_text="New deal 2")).to_contain_text("They 58")
            kept = kept_totals(page)
            shoot(page, "offline-three-deals")

            page.reload()  # from the service worker's copy, with what the phone kept
            expect(outbox(page).locator("li.outbox-entry")).to_have_count(3)
            assert kept_totals(page) == kept

    with persistent_phone(browser, live_app, guard, profile, offline=True) as page:
        with guard.offline(page):  # opened offline: online again at the end of this
            page.goto(sheet)
            expect(outbox(page).locator("li.outbox-entry")).to_have_count(3)
            assert kept_totals(page) == kept
            assert len(server_match(live_app.base_url, public_id)["match"]["deals"]) == 1  # nothing sent yet
        wait_until_sent(page)
        held = server_match(live_app.base_url, public_id)
        assert [deal.get("bid") for deal in held["match"]["deals"]] == [60, 55, 50, 60]
        assert held["match"]["deals"][1]["sides"] == [{"total": 20}, {"total": 58}]
        assert held["match"]["deals"][2]["sides"][0]["meld"] == [20, 12]
        assert held["match"]["deals"][3]["sides"][1]["meld"] == {"run": 1, "pinochle": 1}
        assert dict(zip(["We", "They"], held["sheet"]["totals"], strict=True)) == kept
