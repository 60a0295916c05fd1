"""The table's own meld prices, a rescale and an undo made with no signal: kept on the phone, shown on the
sheet "not sent yet" (the prices worked out by the rules core's twin), and each sent once when back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import Guard, LiveApp, Phones
from .offline import wait_for_worker, wait_until_kept
from .outbox import kept_totals, outbox, public_id_of, ready_offline, server_match, wait_until_sent
from .table import import_match

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

PINOCHLE_BEFORE, PINOCHLE_AFTER = 4, 20  # double deck, small numbers: a pinochle is 4; this table says 20


def counted_meld_match() -> dict[str, Any]:
    """One deal whose meld was counted as sets (a run and a pinochle), so that its score follows the prices."""
    return {
        "format": "pinochle-match/1",
        "name": "Lake house",
        "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
        "rules": {"target": 500},
        "deals": [{"bidder": 0, "bid": 50, "trump": "H",
                   "sides": [{"meld": {"run": 1, "pinochle": 1}, "tricks": 34, "last_trick": True},
                             {"meld": 12, "tricks": 14}]}],
    }


def totals_on_server(live_app: LiveApp, public_id: str) -> dict[str, int]:
    answer = server_match(live_app.base_url, public_id)
    names = [side["name"] for side in answer["match"]["sides"]]
    return dict(zip(names, answer["sheet"]["totals"], strict=True))


def history_items(page: Page, sheet: str) -> Any:
    page.goto(sheet + "/rules")
    return page.locator(".change-list > li")


def keep_sheet(page: Page, sheet: str) -> None:
    """The sheet opened again once the service worker runs: it keeps a copy (the import's answer was not)."""
    wait_for_worker(page)
    page.goto(sheet)
    wait_until_kept(page, sheet)


def open_kept(page: Page, address: str, field: Any) -> None:
    """A page the phone holds a copy of, with a form in use: the phone has read the match's facts."""
    page.goto(address)
    wait_until_kept(page, address)
    field.focus()
    ready_offline(page)


def test_meld_prices_changed_offline_are_worked_out_kept_over_a_reload_and_sent_once(
    phones: Phones, live_app: LiveApp, guard: Guard, shoot: Callable[..., Any]
) -> None:
    page = phones.open()
    sheet = import_match(page, counted_meld_match())
    public_id = public_id_of(page)
    keep_sheet(page, sheet)
    before = totals_on_server(live_app, public_id)
    open_kept(page, sheet + "/rules/meld", page.get_by_label("Pinochle, 1 set"))
    expect(page.get_by_label("Pinochle, 1 set")).to_have_value(str(PINOCHLE_BEFORE))
    page.get_by_label("Pinochle, 1 set").fill(str(PINOCHLE_AFTER))
    with guard.offline(page):
        page.get_by_role("button", name="No double pinochle").tap()  # a preset is filled in by the server
        expect(page.get_by_role("alert")).to_contain_text("Presets need a connection")
        expect(page.get_by_label("Pinochle, 1 set")).to_have_value(str(PINOCHLE_AFTER))  # nothing typed is lost
        shoot(page, "offline-meld-prices-preset")
        page.get_by_role("button", name="Preview the change").tap()
        kept = outbox(page).locator("li", has_text="Meld prices changed")
        expect(kept).to_contain_text("Not sent yet")
        # The counted pinochle is worth 16 more to We; They's number-typed meld does not move.
        worked_out = {"We": before["We"] + PINOCHLE_AFTER - PINOCHLE_BEFORE, "They": before["They"]}
        assert kept_totals(page) == worked_out
        page.reload()
        expect(outbox(page).locator("li", has_text="Meld prices changed")).to_contain_text("Not sent yet")
        assert kept_totals(page) == worked_out
        shoot(page, "offline-meld-prices-kept", full_page=False)
        assert totals_on_server(live_app, public_id) == before
    wait_until_sent(page)
    assert server_match(live_app.base_url, public_id)["match"]["rules"]["meld_prices"]["pinochle"][0] == PINOCHLE_AFTER
    assert totals_on_server(live_app, public_id) == worked_out
    expect(history_items(page, sheet)).to_have_count(1)


def test_a_rescale_and_an_undo_made_offline_are_kept_and_each_sent_once(
    phones: Phones, live_app: LiveApp, guard: Guard, shoot: Callable[..., Any]
) -> None:
    page = phones.open()
    sheet = import_match(page, counted_meld_match())
    public_id = public_id_of(page)
    keep_sheet(page, sheet)
    open_kept(page, sheet + "/rules", page.get_by_label("Play to", exact=True))
    with guard.offline(page):
        page.get_by_role("button", name="Rescale ×10").tap()
        kept = outbox(page).locator("li", has_text="Rescaled ×10")
        expect(kept).to_contain_text("Not sent yet")
        expect(kept).not_to_contain_text("null")  # an entry with no form to change shows no stray word
        expect(page.locator("[data-outbox-totals]")).to_contain_text("New totals once sent")
        shoot(page, "offline-rescale-kept", full_page=False)
        assert server_match(live_app.base_url, public_id)["match"]["deals"][0]["bid"] == 50
    wait_until_sent(page)
    assert server_match(live_app.base_url, public_id)["match"]["deals"][0]["bid"] == 500
    expect(history_items(page, sheet)).to_have_count(1)

    open_kept(page, sheet + "/rules", page.get_by_label("Play to", exact=True))
    with guard.offline(page):
        page.locator(".change-list").get_by_role("button", name="Undo").tap()
        expect(outbox(page).locator("li", has_text="A rules change undone")).to_contain_text("Not sent yet")
    wait_until_sent(page)
    assert server_match(live_app.base_url, public_id)["match"]["deals"][0]["bid"] == 50
    expect(history_items(page, sheet)).to_have_count(2)
