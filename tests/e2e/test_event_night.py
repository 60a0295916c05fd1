"""A club night in the browser: the director makes an event on a phone (390×844) and seats round 1; the four
phones of table 1 open its players' link, see where they play (from their seat once they tap their name) and
the round's countdown, and each enters a deal in the entry panel; the big screen (1920×1080) shows each change
within 2 s, and the director's page follows; at the time limit the director's countdown says to finish the deal
in play.
Axe finds nothing serious on the new event's form, the director's page, a table's sheet, the standings and the
big screen; 40 players fit the big screen unscrolled."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones
from .event import make_event
from .table import type_number
from .test_accessibility import axe_violations, describe

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
BIG_SCREEN = {"viewport": {"width": 1920, "height": 1080}, "device_scale_factor": 1, "is_mobile": False,
              "has_touch": False}
SCROLLS = """() => [document.documentElement.scrollWidth > innerWidth,
                    document.documentElement.scrollHeight > innerHeight]"""


def enter_deal_in_the_panel(phone: Page, number: int, bidder: str, totals: tuple[int, int]) -> None:
    phone.get_by_role("link", name=f"+ Add deal {number}").tap()
    panel = phone.get_by_role("dialog", name=f"Deal {number}")
    expect(panel).to_be_visible()
    who = panel.get_by_role("group", name="Who bid?")
    who.get_by_role("radio", name=bidder, exact=True).tap()
    type_number(panel.get_by_role("textbox", name="Bid"), 50)
    for index, total in enumerate(totals):
        type_number(panel.locator(".sides-quick input").nth(index), total)
    panel.get_by_role("button", name="Save deal").tap()
    expect(panel).to_be_hidden()


def test_the_director_seats_a_round_four_phones_play_and_the_big_screen_follows(
        phones: Phones, shoot: Callable[..., Any]) -> None:
    director = phones.open()
    director.clock.install()  # the phone's clock, moved on at the end to the round's time limit
    director.goto("/events/new")
    assert (violations := axe_violations(director)) == [], describe(violations)
    director.get_by_label("Event name").fill("Thursday club night")
    director.get_by_role("radio", name="A time limit in minutes").tap()
    type_number(director.get_by_label("Deals or minutes a round"), 50)
    director.get_by_label("Players, one per line").fill("\n".join(PLAYERS))
    director.get_by_role("button", name="Create the event").tap()
    director.get_by_role("button", name="Seat round 1").tap()
    tables = director.locator(".event-table")
    expect(tables).to_have_count(2)
    expect(director.locator(".countdown")).to_have_text(re.compile(r"^(50:00|49:[0-5]\d) left$"))
    assert (violations := axe_violations(director)) == [], describe(violations)
    shoot(director, "event-director")

    big = phones.open(**BIG_SCREEN)
    big.goto(director.get_by_role("link", name="Big screen").get_attribute("href") or "")
    expect(big.locator(".big-round")).to_have_text("Round 1 of 6: where to sit")  # until the first deal
    expect(big.locator(".big-list.seating li")).to_have_count(2)
    shoot(big, "event-big-screen-seating", full_page=False)
    first_points = big.locator(".big-list li").first.locator(".big-points")

    sheet = tables.first.get_by_role("link", name="Players' link").get_attribute("href") or ""
    line = tables.first.locator(".table-sides th")
    sides = [line.nth(0).inner_text(), line.nth(1).inner_text()]
    players = [name for side in sides for name in side.split(" & ")]
    table_phones = [phones.open() for _ in players]
    for phone in table_phones:
        phone.goto(sheet)
    expect(table_phones[1].locator(".event-line")).to_contain_text(f"Round 1: table 1, {sides[0]} against {sides[1]}.")
    assert (violations := axe_violations(table_phones[1])) == [], describe(violations)  # with its "I am:" choice
    expect(table_phones[0].locator("[data-ends-at]")).to_have_text(re.compile(r"^\d\d:\d\d left$"))
    table_phones[0].get_by_role("button", name=players[0], exact=True).tap()  # "I am: …"
    partner, *opponents = players[1:]
    expect(table_phones[0].locator(".event-line")).to_contain_text(
        f"Round 1: table 1, with {partner}, against {' and '.join(opponents)}.")

    for number, (phone, bidder) in enumerate(zip(table_phones, players, strict=True), start=1):
        phone.reload()  # the sheet as it is now: the deals the other phones entered
        enter_deal_in_the_panel(phone, number, bidder, (70, 20) if number <= 2 else (20, 60))
        if number == 1:  # the big screen asks every 1.5 s: it shows the deal within 2 s
            expect(first_points).to_have_text("70", timeout=2_000)
    expect(director.locator("#table-1")).to_contain_text("4 deals")
    expect(director.locator("#table-1 .table-sides td").first).to_have_text("180")
    expect(first_points).to_have_text("180")
    director.clock.fast_forward("50:00")
    expect(director.locator(".countdown")).to_have_text("Time: finish the deal in play")
    director.goto(director.locator("#links a[href*='/standings/']").first.get_attribute("href") or "")
    expect(director.locator("#overall tbody tr").first).to_contain_text("180")
    assert (violations := axe_violations(director)) == [], describe(violations)

    assert big.evaluate(SCROLLS) == [False, False]
    assert (violations := axe_violations(big)) == [], describe(violations)
    crowd = make_event(big, players=40, round_end={"minutes": 50}, seated=False)
    seated = big.request.post(f"/api/v1/events/{crowd.public_id}/rounds",
                              headers={"Authorization": f"Bearer {crowd.token}"}).json()
    big.goto(f"{crowd.standings}?screen=big")
    expect(big.locator(".big-list.seating li")).to_have_count(10)
    assert big.evaluate(SCROLLS) == [False, False], "10 tables do not fit the big screen"
    match = seated["tables"][0]["match"]
    entered = big.request.post(f"/api/v1/matches/{match['id']}/deals",
                               data={"bidder": 0, "bid": 50, "sides": [{"total": 70}, {"total": 20}]},
                               headers={"Authorization": f"Bearer {match['edit_token']}"})
    assert entered.status == 201, entered.text()
    big.reload()
    expect(big.locator(".big-list li")).to_have_count(40)
    assert big.evaluate(SCROLLS) == [False, False], "40 players do not fit the big screen"
    shoot(big, "event-big-screen", full_page=False)
