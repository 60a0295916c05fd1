"""The director's printables as printed (print media, and as a PDF on A4): table cards two a sheet with their QR
codes, the director's page with its tables' QR codes shown, the movement sheet and score slips without the page's
controls; the big screen between two rounds."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones
from .event import make_event
from .test_accessibility import axe_violations, describe

pytestmark = pytest.mark.browser

A4 = {"viewport": {"width": 794, "height": 1123}, "device_scale_factor": 1, "is_mobile": False, "has_touch": False}
BIG_SCREEN = {"viewport": {"width": 1920, "height": 1080}, "device_scale_factor": 1, "is_mobile": False,
              "has_touch": False}
MM = 96 / 25.4  # CSS pixels a millimetre


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_table_cards_print_two_a_sheet_with_their_qr_codes(phones: Phones, shoot: Callable[..., Path | None]) -> None:
    page = phones.open(**A4)
    event = make_event(page, players=24)  # six tables
    page.goto(f"{event.director}/print/cards")
    assert (violations := axe_violations(page)) == [], describe(violations)
    page.emulate_media(media="print")
    cards = page.locator(".table-card")
    expect(cards).to_have_count(6)
    expect(page.locator("h1")).to_be_hidden()
    expect(page.locator("header, nav, footer").first).to_be_hidden()
    for index in range(6):
        card = cards.nth(index)
        expect(card.locator(".card-number strong")).to_have_text(str(index + 1))
        qr = card.locator(".card-qr")
        expect(qr).to_be_visible()
        assert qr.evaluate("image => image.complete && image.naturalWidth > 0")  # drawn with the page
        assert abs((qr.bounding_box() or {"width": 0})["width"] - 48 * MM) < 2
        assert abs((card.bounding_box() or {"height": 0})["height"] - 128 * MM) < 2
        assert card.evaluate("card => card.scrollHeight <= card.clientHeight")  # all of it on the card
    assert _pages(page.pdf(format="A4")) == 3
    shoot(page, "event-table-cards-print", full_page=True)


def test_the_directors_page_prints_its_tables_qr_codes(page: Page) -> None:
    event = make_event(page)
    page.goto(event.director)
    codes = page.locator(".event-table .qr")
    expect(codes.first).to_be_hidden()  # on the screen, folded away
    page.emulate_media(media="print")
    expect(codes).to_have_count(2)
    for index in range(2):
        expect(codes.nth(index)).to_be_visible()
    expect(page.locator(".qr-fold > summary").first).to_be_hidden()


@pytest.mark.parametrize(("path", "item"), [("print/movement", ".movement tbody tr"),
                                            ("print/slips", ".score-slip")])
def test_the_movement_sheet_and_score_slips_print_without_the_pages_controls(phones: Phones, path: str,
                                                                              item: str) -> None:
    page = phones.open(**A4)
    event = make_event(page, players=16)
    page.goto(f"{event.director}/{path}")
    assert (violations := axe_violations(page)) == [], describe(violations)
    page.emulate_media(media="print")
    expect(page.locator(item).first).to_be_visible()
    expect(page.locator(".hint").first).to_be_hidden()
    expect(page.locator("header, nav, footer").first).to_be_hidden()
    if path == "print/slips":  # a slip is never cut across two sheets; two a sheet
        assert page.locator(".score-slip").first.evaluate("e => getComputedStyle(e).breakInside") == "avoid"
        assert _pages(page.pdf(format="A4")) == 2


def test_the_big_screen_between_rounds(phones: Phones, shoot: Callable[..., Path | None]) -> None:
    big = phones.open(**BIG_SCREEN)
    names = ["Małgorzata Kowalczyk", "Ann", "Bartholomew Featherstone", "Cy", "Di", "Ed", "Flo", "Gus", "Hal",
             "Ivy", "Jo", "Kit"]
    event = make_event(big, seated=False, names=names, round_end={"deals": 1})
    token = {"Authorization": f"Bearer {event.token}"}
    seated = big.request.post(f"/api/v1/events/{event.public_id}/rounds", headers=token)
    assert seated.status == 201, seated.text()
    for table in seated.json()["tables"]:  # one deal a table ends the round
        match = table["match"]
        played = big.request.post(f"/api/v1/matches/{match['id']}/deals", headers={
            "Authorization": f"Bearer {match['edit_token']}"}, data={
            "bidder": 0, "bid": 50, "sides": [{"total": 40 + 15 * table["table"]}, {"total": 30}]})
        assert played.status == 201, played.text()
    closed = big.request.post(f"/api/v1/events/{event.public_id}/rounds/1/close", headers=token)
    assert closed.status == 200, closed.text()
    big.goto(f"{event.standings}?screen=big")
    expect(big.locator(".big-round")).to_have_text("Round 1 of 3: closed")
    expect(big.locator(".big-list li")).to_have_count(12)
    expect(big.locator(".big-list li").first.locator(".big-points")).to_have_text("85")
    shoot(big, "event-big-screen-between-rounds", full_page=False)
