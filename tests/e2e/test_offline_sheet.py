"""The sheet under an outbox: the server's last sheet that this phone saw, with what is not sent yet worked
out by the rules core's twin. It stays right when another phone's deal arrived just before the signal went,
after a deal saved online just before, after a reload offline, and once the outbox is sent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import Guard, LiveApp, Phones
from .offline import wait_for_worker, wait_until_kept, wait_until_kept_with
from .outbox import kept_totals, outbox, public_id_of, ready_offline, server_match, wait_until_sent
from .table import (
    add_quick_deal,
    deal_row,
    fill_quick_deal,
    new_match,
    open_new_deal,
    save_deal,
    side_box,
    type_number,
)

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


def add_offline_and_check(page: Page, sheet: str, guard: Guard) -> None:
    """With no network: a new deal (They 55: 20 and 62) kept and shown over the server's deal 1 (We 60:
    67 and 20), the same after a reload."""
    with guard.offline(page):
        open_new_deal(page)
        fill_quick_deal(page, "They", 55, (20, 62))
        page.get_by_role("button", name="Save deal").tap()
        for _reload in (False, True):
            if _reload:
                page.reload()
            expect(outbox(page).locator("li.outbox-entry")).to_have_count(1)
            expect(outbox(page)).to_contain_text("New deal 2")
            expect(page.get_by_role("link", name="Edit deal 1")).to_be_attached()  # the server's deal, on the sheet
            assert kept_totals(page) == {"We": 67 + 20, "They": 20 + 62}


def test_a_deal_from_another_phone_seen_before_the_signal_went_is_under_the_outbox(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    ann, bob = phones.open(), phones.open()
    sheet = new_match(ann, "Double deck to 500", name="Lake house")
    public_id = public_id_of(ann)
    wait_for_worker(ann)
    open_new_deal(ann)
    wait_until_kept(ann, ann.url)
    ann.get_by_role("textbox", name="Bid").focus()
    ready_offline(ann)  # the phone holds the match's facts: no deal yet
    ann.goto(sheet)
    wait_until_kept(ann, sheet)

    bob.goto(sheet)
    add_quick_deal(bob, "We", 60, (67, 20))
    expect(ann.get_by_role("link", name="Edit deal 1")).to_be_attached(timeout=10_000)  # the live sheet
    version = server_match(live_app.base_url, public_id)["version"]
    ready_offline(ann, version)  # the facts followed the live sheet ...
    wait_until_kept_with(ann, sheet, "Edit deal 1")  # ... and so did the worker's copy of the sheet

    add_offline_and_check(ann, sheet, guard)
    wait_until_sent(ann)
    assert [deal["bid"] for deal in server_match(live_app.base_url, public_id)["match"]["deals"]] == [60, 55]
    expect(ann.get_by_role("link", name="Edit deal 2")).to_be_attached()
    expect(ann.locator(".totals")).to_contain_text("87")
    expect(ann.locator(".totals")).to_contain_text("82")


def test_a_deal_saved_online_just_before_is_under_the_outbox(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    page = phones.open()
    sheet = new_match(page, "Double deck to 500", name="Cabin")
    public_id = public_id_of(page)
    wait_for_worker(page)
    page.goto(sheet)
    wait_until_kept(page, sheet)
    # Saved from the form's page: the sheet it comes back to is not kept (its one-time message) ...
    open_new_deal(page)
    fill_quick_deal(page, "We", 60, (67, 20))
    save_deal(page)
    wait_until_kept_with(page, sheet, "Edit deal 1")  # ... the worker fetches it again
    version = server_match(live_app.base_url, public_id)["version"]
    ready_offline(page, version)

    # The form kept by the worker carries the key of the save just made: kept offline, the new deal takes a
    # key of its own rather than being taken for that save.
    add_offline_and_check(page, sheet, guard)
    wait_until_sent(page)
    assert [deal["bid"] for deal in server_match(live_app.base_url, public_id)["match"]["deals"]] == [60, 55]
    with guard.offline(page):  # the server's sheet after sending is the one kept
        page.reload()
        expect(page.get_by_role("link", name="Edit deal 2")).to_be_attached()
        expect(outbox(page)).to_have_count(0)


def cells(row: Locator) -> list[str]:
    """Each cell of a sheet's row as markup, without the "not sent yet" mark (and the space before it) and the
    deal's link (a deal not sent yet links to its kept form)."""
    return list(row.evaluate("""(row) => [...row.cells].map((cell) => {
        const copy = cell.cloneNode(true);
        copy.querySelectorAll(".status-pending").forEach((mark) => mark.remove());
        copy.querySelectorAll("a[aria-label]").forEach((link) => link.removeAttribute("href"));
        return copy.innerHTML.trim();
    })"""))


def test_a_deal_not_sent_yet_is_drawn_as_the_server_draws_it_with_the_meld_it_lost(
    phones: Phones, live_app: LiveApp, guard: Guard, shoot: Callable[..., Any]
) -> None:
    """The row the phone draws for a deal not sent yet is the server's row with the twin's numbers: once the
    deal is sent, the server's row is the same markup, the reason They's meld did not count included."""
    page = phones.open()
    sheet = new_match(page, "Double deck to 500", name="Cabin")
    wait_for_worker(page)
    open_new_deal(page)
    wait_until_kept(page, page.url)
    page.get_by_role("textbox", name="Bid").focus()  # the outbox is loaded
    ready_offline(page)
    page.goto(sheet)
    wait_until_kept(page, sheet)
    with guard.offline(page):
        open_new_deal(page)
        page.get_by_role("radio", name="Meld + tricks").tap()
        page.get_by_role("group", name="Who won the bid?").get_by_role("radio", name="We").tap()
        type_number(page.get_by_role("textbox", name="Bid"), 50)
        we, they = side_box(page, 0), side_box(page, 1)
        type_number(we.get_by_role("textbox", name="Partner 1's meld"), 20)
        type_number(we.get_by_role("textbox", name="Trick points"), 48)
        type_number(they.get_by_role("textbox", name="Partner 1's meld"), 30)
        type_number(they.get_by_role("textbox", name="Trick points"), 0)
        page.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name="We").tap()
        page.get_by_role("button", name="Save deal").tap()
        row = deal_row(page, 1)
        expect(row.locator(".status-pending")).to_be_visible()
        expect(row.locator(".lost-meld")).to_contain_text("no trick")
        drawn = cells(row)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            row.scroll_into_view_if_needed()
            shoot(page, f"offline-row-meld-lost-{scheme}", full_page=False)
    wait_until_sent(page)
    expect(deal_row(page, 1).locator(".status-pending")).to_have_count(0)
    assert cells(deal_row(page, 1)) == drawn
