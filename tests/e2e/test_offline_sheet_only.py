"""Offline from the sheet alone: a phone that opened a match's sheet and nothing else enters, corrects and
deletes deals with no signal from the first deal on; its sheet counts them (totals, deal count, the next
deal's number, rows, chart) marked "not sent yet"; a bidder picked by tapping a player scores as online;
back online, each is stored once."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Guard, LiveApp, Phones
from .offline import wait_until_kept_with
from .outbox import outbox, public_id_of, server_match, take_expected_errors, wait_until_sent
from .samples import quick_deal
from .sheet_only import big_totals, players_match, save_offline, sheet_only_phone
from .table import add_quick_deal, deal_row, fill_quick_deal, follow, open_new_deal, type_number
from .test_meld_calculator import tap_card

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


def test_a_sheet_only_phone_enters_corrects_and_deletes_deals_with_no_signal(
    phones: Phones, live_app: LiveApp, guard: Guard, shoot: Callable[..., Any]
) -> None:
    first = {"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]}
    page, sheet = sheet_only_phone(phones, players_match([first]))
    public_id = public_id_of(page)
    with guard.offline(page):
        open_new_deal(page)  # the kit's deal form
        expect(page.get_by_role("heading", name="Deal 2")).to_be_visible()
        page.get_by_role("radio", name="One number").tap()
        page.get_by_role("group", name="Who bid?").get_by_role("radio", name="Cy").tap()
        type_number(page.get_by_role("textbox", name="Bid"), 55)
        fields = page.locator(".sides-quick input")
        type_number(fields.nth(0), 20)
        type_number(fields.nth(1), 62)
        save_offline(page, "New deal 2")
        expect(page.locator(".totals")).to_contain_text("87")  # 67 + 20 and 20 + 62, not sent yet
        assert big_totals(page) == [87, 82]
        expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 2 deals")
        expect(page.get_by_role("link", name="+ Add deal 3")).to_be_visible()
        expect(deal_row(page, 2)).to_contain_text("not sent yet")
        expect(deal_row(page, 2).locator(".bid-cell")).to_contain_text("55")
        expect(page.locator(".chart-card")).to_contain_text("The chart with 1 change not sent yet.")
        expect(page.get_by_role("heading", name="How the match went")).to_be_visible()
        expect(page.locator("#chart-desc")).to_have_text(
            "Running totals after each deal; the dashed line is the target of 500.")
        expect(page.locator(".totals + .notice")).to_have_text(
            "Totals with 1 change not sent yet: kept on this phone and sent once the network is back.")
        shoot(page, "offline-sheet-only-one-deal")

        follow(page, page.get_by_role("link", name="Edit deal 1"))  # a correction form never opened
        expect(page.get_by_role("heading", name="Correct deal 1")).to_be_visible()
        quick = page.locator(".sides-quick input")
        expect(quick.nth(0)).to_have_value("67")
        type_number(quick.nth(0), 77)
        save_offline(page, "Deal 1 corrected")
        assert big_totals(page) == [97, 82]

        open_new_deal(page)
        expect(page.get_by_role("heading", name="Deal 3")).to_be_visible()
        fill_quick_deal(page, "Ann", 50, (30, 10))
        save_offline(page, "New deal 3")
        assert big_totals(page) == [97 - 50, 92]
        follow(page, page.get_by_role("link", name="Edit deal 1"))
        follow(page, page.get_by_role("link", name="Delete this deal"))
        expect(page.get_by_role("heading", name="Delete deal 1?")).to_be_visible()
        page.get_by_role("button", name="Delete deal 1").tap()
        expect(outbox(page).locator("li", has_text="Deal 1 deleted")).to_contain_text("Not sent yet")
        assert big_totals(page) == [20 - 50, 72]
        expect(page.get_by_role("link", name="+ Add deal 3")).to_be_visible()
        shoot(page, "offline-sheet-only-deleted")

    wait_until_sent(page)
    held = server_match(live_app.base_url, public_id)
    assert [(deal["bid"], deal.get("bid_by"), deal["bidder"]) for deal in held["match"]["deals"]] == [
        (55, "Cy", 1), (50, "Ann", 0)]
    assert held["sheet"]["totals"] == [20 - 50, 72]
    # The correction and the delete were made on the match as the phone had it (version 1): the server says the
    # match moved on (409, by the phone's own deal 2), the deal is as the phone saw it, and they are applied.
    assert take_expected_errors(guard, r"status of 409") == 2


def test_a_sheet_only_phone_changes_the_house_rules_and_counts_meld_with_no_signal(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    first = {"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]}
    page, sheet = sheet_only_phone(phones, players_match([first]))
    public_id = public_id_of(page)
    with guard.offline(page):
        tools = page.get_by_role("navigation", name="Match tools")
        follow(page, tools.get_by_role("link", name="Meld calculator"))  # never opened for this match
        expect(page.get_by_role("heading", name="No connection")).to_have_count(0)
        for code in ("AH", "10H", "KH", "QH", "JH"):
            tap_card(page, code)
        expect(page.locator("[data-meld-status]")).to_contain_text("5 of 20 cards")
        expect(page.get_by_role("link", name=re.compile("Use in deal"))).to_have_count(1)

        page.goto(sheet)
        follow(page, tools.get_by_role("link", name="House rules"))  # never opened either
        type_number(page.get_by_label("Play to", exact=True), 600)
        page.get_by_role("button", name="Preview the change").tap()
        expect(outbox(page).locator("li", has_text="House rules changed")).to_contain_text("Not sent yet")
        expect(page.locator(".totals")).to_contain_text("533 to go")  # 67 of 600, not sent yet
        expect(page.locator(".match-meta")).to_have_text("Playing to 600 · 1 deal")

    wait_until_sent(page)
    held = server_match(live_app.base_url, public_id)
    assert held["match"]["rules"]["target"] == 600 and len(held["match"]["deals"]) == 1


def test_a_decided_match_is_read_with_no_signal(phones: Phones, guard: Guard) -> None:
    deals = [{"bidder": 0, "bid": 60, "sides": [{"total": 300}, {"total": 20}]},
             {"bidder": 0, "bid": 60, "sides": [{"total": 250}, {"total": 20}]}]
    page, sheet = sheet_only_phone(phones, players_match(deals))
    kept = page.evaluate("async (address) => (await (await caches.match(address)).text())", sheet)
    assert "won at deal 2" in kept and "csrf_token" not in kept and "write_key" not in kept
    with guard.offline(page):
        page.reload()
        expect(page.locator(".banner")).to_contain_text("Ann & Bo won at deal 2")
        expect(page.get_by_role("link", name="Start the next match")).to_be_visible()
        follow(page, page.get_by_role("link", name="Edit deal 2"))  # a deal can still be corrected
        expect(page.get_by_role("heading", name="Correct deal 2")).to_be_visible()


def test_a_deal_that_decides_the_match_offline_is_drawn_as_the_server_draws_it(phones: Phones, guard: Guard) -> None:
    """Sides still called "We" and "They" are named after their players by the phone as by the server, and
    the deal that decides the match offline turns "+ Add deal" into the small link a decided sheet has."""
    match = players_match([{"bidder": 0, "bid": 60, "sides": [{"total": 300}, {"total": 20}]}])
    match["sides"] = [{"name": "We", "players": ["Ann", "Bo"]}, {"name": "They", "players": ["Cy", "Di"]}]
    page, _ = sheet_only_phone(phones, match)
    expect(page.locator(".totals .total-name")).to_have_text(["Ann & Bo", "Cy & Di"])  # the server's
    with guard.offline(page):
        open_new_deal(page)
        fill_quick_deal(page, "Ann", 60, (250, 20))
        save_offline(page, "New deal 2")
        banner = page.locator(".banner")  # the phone's
        expect(banner).to_contain_text("★ Ann & Bo won at deal 2")
        expect(banner).to_contain_text("1. Ann & Bo 550 · 2. Cy & Di 40")
        expect(page.locator(".chart-card .legend-name")).to_have_text(["Ann & Bo", "Cy & Di"])
        expect(page.get_by_role("link", name="Add deal 3 after the end (it will not count)")).to_be_visible()
        expect(page.locator("a.button.add-deal")).to_have_count(0)
    take_expected_errors(guard, r"ERR_INTERNET_DISCONNECTED")


@pytest.mark.parametrize("followed", [True, False], ids=["copies-followed", "right-after"])
def test_a_deal_entered_offline_after_one_saved_online_is_a_deal_of_its_own(
    phones: Phones, live_app: LiveApp, guard: Guard, followed: bool
) -> None:
    """After one deal saved in the panel the phone's copies follow (the deal form, the facts); a deal entered
    with no signal, even before they have, goes with a key of its own and is stored."""
    page, sheet = sheet_only_phone(phones, players_match([quick_deal(0, 60, (67, 20))]))
    public_id = public_id_of(page)
    add_quick_deal(page, "Cy", 50, (10, 60))
    if followed:
        wait_until_kept_with(page, f"{sheet}/deals/new", "Deal 3")
    totals = [67 + 10 - 50, 20 + 60 + 10]  # Ann & Bo set: the bid off
    with guard.offline(page):
        open_new_deal(page)
        if followed:
            expect(page.get_by_role("heading", name="Deal 3")).to_be_visible()
        fill_quick_deal(page, "Ann", 50, (30, 10))
        save_offline(page, "New deal")
        if followed:
            assert big_totals(page) == totals
    wait_until_sent(page)
    held = server_match(live_app.base_url, public_id)
    assert [deal["bid"] for deal in held["match"]["deals"]] == [60, 50, 50]
    assert held["sheet"]["totals"] == totals
