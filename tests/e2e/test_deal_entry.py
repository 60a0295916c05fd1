"""Entering a deal on a phone (390×844): the bid chips, Save in reach, the score shown before saving,
a meld line per partner (one from the calculator) and a trick worth no points."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones
from .table import (
    MINUS,
    add_quick_deal,
    deal_row,
    deal_scores,
    follow,
    import_match,
    open_meld_calculator,
    open_new_deal,
    save_deal,
    sheet_totals,
    side_box,
    type_number,
    type_quick_numbers,
)

pytestmark = pytest.mark.browser

PARTNERS = {
    "format": "pinochle-match/1", "name": "Friday",
    "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
    "rules": {},
    "deals": [{"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]},
              {"bidder": 1, "bid": 55, "sides": [{"total": 38}, {"total": 62}]}],
}
WE, THEY = "Ann & Bob", "Cy & Di"  # the sides "We" and "They", named after their players


def printed(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else printed(value)


def preview_lines(page: Page) -> list[str]:
    return [line.strip() for line in page.locator("#deal-preview.ready p").all_inner_texts()]


def test_the_bid_starts_empty_and_a_chip_fills_it(page: Page) -> None:
    import_match(page, PARTNERS)
    open_new_deal(page)
    bid = page.get_by_role("textbox", name="Bid")
    expect(bid).to_have_value("")
    chips = page.get_by_role("group", name="Likely bids").get_by_role("button")
    expect(chips).to_have_text(["50", "55", "60"])  # the minimum, then this match's bids
    chips.filter(has_text="55").tap()
    expect(bid).to_have_value("55")


def stored_deals(page: Page) -> list[dict[str, Any]]:
    public_id = page.url.split("/m/", 1)[1].split("/", 1)[0].split("#", 1)[0]
    deals: list[dict[str, Any]] = page.request.get(f"/api/v1/matches/{public_id}").json()["match"]["deals"]
    return deals


def test_who_bid_is_one_row_of_the_players_and_their_side_follows(page: Page) -> None:
    """Sides that name their players: "Who bid?" asks once, a button a player, on the form page and in the panel."""
    import_match(page, PARTNERS)
    open_new_deal(page)
    expect(page.get_by_role("group", name="Who won the bid?")).to_have_count(0)
    row = page.get_by_role("group", name="Who bid?")
    expect(row.get_by_role("radio")).to_have_count(4)
    row.get_by_role("radio", name="Di").tap()
    type_quick_numbers(page, 50, (20, 62))
    save_deal(page)
    expect(deal_row(page, 3)).to_be_visible()
    assert {key: stored_deals(page)[2][key] for key in ("bidder", "bid_by")} == {"bidder": 1, "bid_by": "Di"}
    page.get_by_role("link", name="+ Add deal 4").tap()
    panel = page.get_by_role("dialog", name="Deal 4")
    expect(panel.get_by_role("group", name="Who won the bid?")).to_have_count(0)
    panel.get_by_role("group", name="Who bid?").get_by_role("radio", name="Bob").tap()
    type_quick_numbers(panel, 55, (60, 20))
    panel.get_by_role("button", name="Save deal").tap()
    expect(deal_row(page, 4)).to_be_visible()
    assert {key: stored_deals(page)[3][key] for key in ("bidder", "bid_by")} == {"bidder": 0, "bid_by": "Bob"}


def test_the_way_of_entry_is_the_phones_own_and_plus_ten_starts_at_the_minimum_bid(phones: Phones) -> None:
    page = phones.open()
    sheet = import_match(page, PARTNERS | {"rules": {"min_bid": 55}})  # its deals entered as one number each
    page.get_by_role("link", name="+ Add deal 3").tap()
    panel = page.get_by_role("dialog", name="Deal 3")
    panel.get_by_role("radio", name="Meld + tricks").tap()
    bid = panel.get_by_role("textbox", name="Bid")
    expect(bid).to_have_value("")
    plus_ten = panel.locator(".bid-field").get_by_role("button", name="plus 10")
    plus_ten.tap()
    expect(bid).to_have_value("55")  # the match's minimum bid, not 10
    plus_ten.tap()
    expect(bid).to_have_value("65")
    panel.get_by_role("group", name="Who bid?").get_by_role("radio", name="Ann").tap()
    type_number(panel.get_by_role("textbox", name="Ann's meld"), 20)
    type_number(panel.locator("fieldset[data-side='0']").get_by_role("textbox", name="Trick points"), 40)
    panel.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name=WE).tap()
    panel.get_by_role("button", name="Save deal").tap()
    expect(deal_row(page, 3)).to_be_visible()
    other = phones.open()  # another phone enters the next deal as one number
    other.goto(sheet)
    add_quick_deal(other, "Cy", 55, (20, 62))
    page.reload()
    page.get_by_role("link", name="+ Add deal 5").tap()  # this phone starts as it entered its own last deal
    expect(page.get_by_role("dialog", name="Deal 5").get_by_role("radio", name="Meld + tricks")).to_be_checked()
    page.goto(f"{sheet}/deals/new")  # the form page too
    expect(page.get_by_role("radio", name="Meld + tricks")).to_be_checked()
    other.goto(f"{sheet}/deals/new")
    expect(other.get_by_role("radio", name="One number")).to_be_checked()
    page.goto(f"{sheet}/deals/1/edit")  # a deal's correction shows the way it was entered
    expect(page.get_by_role("radio", name="One number")).to_be_checked()


def test_save_is_in_view_without_scrolling_in_quick_mode(page: Page, shoot: Callable[..., Any]) -> None:
    import_match(page, PARTNERS)
    open_new_deal(page)
    save = page.get_by_role("button", name="Save deal")
    expect(save).to_be_in_viewport(ratio=1)
    assert page.evaluate("window.scrollY") == 0
    box = save.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844
    shoot(page, "deal-form-quick", full_page=False)
    for name in ("sides-0-total", "sides-1-total"):
        expect(page.locator(f'input[name="{name}"]')).to_have_attribute("inputmode", "numeric")
    expect(page.locator('input[name="bid"]')).to_have_attribute("enterkeyhint", "next")
    expect(page.locator('input[name="sides-0-total"]')).to_have_attribute("enterkeyhint", "next")
    expect(page.locator('input[name="sides-1-total"]')).to_have_attribute("enterkeyhint", "done")


def test_the_preview_shows_the_score_before_saving_and_matches_the_sheet(page: Page) -> None:
    sheet = import_match(page, PARTNERS)
    before = sheet_totals(page)
    open_new_deal(page)
    page.get_by_role("radio", name="One number").tap()
    page.get_by_role("group", name="Who bid?").get_by_role("radio", name="Cy").tap()
    type_number(page.get_by_role("textbox", name="Bid"), 60, key_by_key=True)  # the preview follows each key
    fields = page.locator(".sides-quick input")
    type_number(fields.nth(0), 42, key_by_key=True)
    type_number(fields.nth(1), 51, key_by_key=True)  # below the bid: set
    expect(page.locator("#deal-preview.ready p")).to_have_text([
        f"{WE}: +42 → {before[WE] + 42}",
        f"{THEY} are set: {MINUS}60 → {before[THEY] - 60}",
    ])
    shown = preview_lines(page)
    save_deal(page)
    assert page.url.split("#")[0] == sheet
    we, they = deal_scores(page, 3)
    totals = sheet_totals(page)
    assert we is not None and they is not None
    assert shown == [f"{WE}: {signed(we)} → {printed(totals[WE])}",
                     f"{THEY} are set: {signed(they)} → {printed(totals[THEY])}"]


def test_two_partners_melds_add_up_one_from_the_calculator(page: Page, shoot: Callable[..., Any]) -> None:
    import_match(page, PARTNERS)
    open_new_deal(page)
    page.get_by_role("radio", name="Meld + tricks").tap()
    page.get_by_role("group", name="Who bid?").get_by_role("radio", name="Ann").tap()
    page.get_by_role("group", name="Likely bids").get_by_role("button", name="50").tap()
    we, they = side_box(page, 0), side_box(page, 1)
    type_number(we.get_by_label("Ann's meld"), 24)
    we_total = we.locator("output[data-meld-total]")
    expect(we_total).to_have_text("24")

    open_meld_calculator(page, 0, "Bob's meld")
    page.get_by_label("Type cards").fill("AH 10H KH QH JH QS JD")
    page.get_by_role("button", name="Count meld").click()
    follow(page, page.get_by_role("link", name=re.compile(r"Use in deal \(♥ trump\)")))

    expect(we.get_by_label("Ann's meld")).to_have_value("24")  # the partner's meld is kept
    bob = we.locator("details.count-meld[data-hand='1']")
    expect(bob.get_by_label("Run", exact=True)).to_have_value("1")
    expect(bob.get_by_label("Pinochle", exact=True)).to_have_value("1")
    expect(we_total).to_have_text("43")  # 24 + run 15 + pinochle 4, priced on the server
    type_number(we.get_by_label("Trick points"), 30)
    type_number(they.get_by_label("Cy's meld"), 4)
    type_number(they.get_by_label("Trick points"), 18)
    page.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name=WE).tap()
    expect(page.locator("#deal-preview.ready p").first).to_have_text(f"{WE} make it: +75 → 180")  # 43 + 30 + 2, on 105
    shoot(page, "deal-form-partners", full_page=False)
    save_deal(page)
    assert deal_scores(page, 3) == [75, 22]


def test_a_trick_worth_no_points_keeps_the_meld(page: Page) -> None:
    import_match(page, PARTNERS)
    before = sheet_totals(page)
    open_new_deal(page)
    page.get_by_role("radio", name="Meld + tricks").tap()
    page.get_by_role("group", name="Who bid?").get_by_role("radio", name="Ann").tap()
    type_number(page.get_by_role("textbox", name="Bid"), 50)
    we, they = side_box(page, 0), side_box(page, 1)
    type_number(we.get_by_label("Ann's meld"), 20)
    type_number(we.get_by_label("Trick points"), 48)
    type_number(they.get_by_label("Di's meld"), 6)
    page.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name=WE).tap()
    took = they.get_by_role("group", name=f"In play, {THEY} took")
    took.get_by_role("radio", name="No trick").tap()
    expect(page.locator("#deal-preview.ready p").nth(1)).to_have_text(
        f"{THEY}: 0 → {before[THEY]} · meld 6 lost: no trick")
    took.get_by_role("radio", name="Tricks, no points").tap()
    expect(page.locator("#deal-preview.ready p").nth(1)).to_have_text(f"{THEY}: +6 → {before[THEY] + 6}")
    save_deal(page)
    expect(deal_row(page, 3)).to_be_visible()
    assert deal_scores(page, 3) == [70, 6]
    assert sheet_totals(page)[THEY] == before[THEY] + 6
    follow(page, deal_row(page, 3).get_by_role("link", name="Edit deal 3"))
    expect(side_box(page, 1).get_by_role("radio", name="Tricks, no points")).to_be_checked()
