"""A table's phone follows the director: the clock paused shows standing still, and once the round is closed
the sheet says its results are locked and a deal saved from the entry panel is refused with that message."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .conftest import Guard, Phones
from .event import make_event
from .outbox import take_expected_errors
from .table import type_number

pytestmark = pytest.mark.browser


def test_a_tables_phone_shows_the_paused_clock_and_the_closed_tables_lock(phones: Phones, guard: Guard) -> None:
    phone = phones.open()
    event = make_event(phone, round_end={"minutes": 30})
    director = {"Authorization": f"Bearer {event.token}"}
    played = phone.request.get(f"/api/v1/events/{event.public_id}").json()["played"][0]
    table = played["tables"][0]
    phone.goto(urlsplit(table["match"]["links"]["sheet"]).path)
    expect(phone.locator(".countdown")).to_have_text(re.compile(r"^\d\d:\d\d left$"))
    paused = phone.request.post(f"/api/v1/events/{event.public_id}/rounds/1/clock", data={"action": "pause"},
                                headers=director)
    assert paused.status == 200, paused.text()
    expect(phone.locator("[data-clock-paused]")).to_contain_text("Clock paused", timeout=4_000)  # the live part
    closed = phone.request.post(f"/api/v1/events/{event.public_id}/rounds/1/close", data={"late": True},
                                headers=director)
    assert closed.status == 200, closed.text()
    expect(phone.locator("[data-event-state]")).to_contain_text("closed: the results are locked", timeout=4_000)
    bidder = table["sides"][0][0]
    phone.get_by_role("link", name="+ Add deal 1").tap()
    panel = phone.get_by_role("dialog", name="Deal 1")
    expect(panel).to_be_visible()
    panel.get_by_role("group", name="Who bid?").get_by_role("radio", name=bidder, exact=True).tap()
    type_number(panel.get_by_role("textbox", name="Bid"), 50)
    for index, total in enumerate((60, 20)):
        type_number(panel.locator(".sides-quick input").nth(index), total)
    panel.get_by_role("button", name="Save deal").tap()
    expect(panel.locator(".entry-status")).to_contain_text("is closed: its results are locked")
    assert take_expected_errors(guard, r"status of 409 .*/deals/new") == 1  # the panel's refused save, once
