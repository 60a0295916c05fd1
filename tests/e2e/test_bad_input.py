"""Bad input in every kind of field: a message at the field, and everything typed is still there."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import Guard
from .samples import worked_sheet_file
from .table import follow, import_match, new_match, open_new_deal, save_deal, set_counters, side_box, type_number

pytestmark = pytest.mark.browser

DESCRIPTIONS = """field => (field.getAttribute("aria-describedby") || "").split(/\\s+/)
    .map(id => (document.getElementById(id) || {}).textContent || "").join(" ")"""


def expect_error_at(field: Locator, message: str) -> None:
    """The field is marked invalid and its description (what a screen reader reads) holds the message."""
    expect(field).to_have_attribute("aria-invalid", "true")
    described = " ".join(field.evaluate(DESCRIPTIONS).split())
    assert message in described, f"{message!r} is not among the field's descriptions: {described!r}"
    expect(field.page.locator(".field-error", has_text=message).first).to_be_visible()


def expect_error_in(box: Locator, message: str) -> None:
    """A group of choices (or a check box) shows the message inside its own box."""
    expect(box.locator(".field-error")).to_contain_text(message)


def test_new_match_form(page: Page, shoot: Callable[[Page, str], Any]) -> None:
    page.goto("/matches/new")
    page.get_by_label("Match name").fill("Friday <b>at</b> Ann's")
    sides = page.locator(".side-name input")
    sides.nth(0).fill("Ann")
    sides.nth(1).fill("ann")
    page.locator("summary", has_text="House rules").tap()
    type_number(page.get_by_label("Play to", exact=True), "125")
    follow(page, page.get_by_role("button", name="Start the match"))

    expect(page.get_by_label("Match name")).to_have_value("Friday <b>at</b> Ann's")
    expect(page.locator(".field-error", has_text="Give each side a different name.")).to_be_visible()
    expect(sides.nth(0)).to_have_value("Ann")
    expect(sides.nth(1)).to_have_value("ann")
    play_to = page.get_by_label("Play to", exact=True)
    expect(play_to).to_be_visible()  # the folded house rules open to show their error
    expect_error_at(play_to, "Play to: '125' is not allowed; use a whole number from 100 to 5000 in steps of 50")
    expect(play_to).to_have_value("125")
    shoot(page, "new-match-errors")


def test_deal_form_quick_entry(page: Page, guard: Guard, shoot: Callable[[Page, str], Any]) -> None:
    new_match(page, "Double deck to 500")
    open_new_deal(page)
    bid = page.get_by_role("textbox", name="Bid")
    we = page.locator(".sides-quick").get_by_role("textbox", name="We")
    they = page.locator(".sides-quick").get_by_role("textbox", name="They")
    type_number(bid, "6o")
    we.fill("")
    type_number(they, 20)
    with guard.expect_refusal(422):
        save_deal(page)
    expect_error_in(page.get_by_role("group", name="Who won the bid?"), "Who won the bid? Tap a side.")
    expect_error_at(bid, "'6o' is not a whole number.")
    expect_error_at(we, "Type the side's points (0 if none).")
    expect(bid).to_have_value("6o")
    expect(they).to_have_value("20")
    shoot(page, "deal-new-errors")

    page.get_by_role("group", name="Who won the bid?").get_by_role("radio", name="We").tap()
    type_number(bid, 40)
    type_number(we, 67)
    with guard.expect_refusal(422):
        save_deal(page)
    expect_error_at(bid, "Bid 40 is below the minimum opening bid of 50.")
    expect(page.get_by_role("group", name="Who won the bid?").get_by_role("radio", name="We")).to_be_checked()
    expect(we).to_have_value("67")
    expect(they).to_have_value("20")


def test_deal_form_detailed_entry(page: Page, guard: Guard) -> None:
    new_match(page, "Double deck to 500")
    open_new_deal(page)
    page.get_by_role("radio", name="Meld + tricks").tap()
    page.get_by_role("group", name="Who won the bid?").get_by_role("radio", name="We").tap()
    type_number(page.get_by_role("textbox", name="Bid"), 50)
    we, they = side_box(page, 0), side_box(page, 1)
    we_meld = we.get_by_label("Partner 1's meld")
    type_number(we_meld, 20)
    we_hand = set_counters(page, 0, "Partner 1's meld")
    type_number(we_hand.get_by_label("Run", exact=True), 1)
    type_number(we.get_by_label("Trick points"), 30)
    type_number(they.get_by_label("Trick points"), 60)  # more than the 48 in the deck: not filled in
    with guard.expect_refusal(422):
        save_deal(page)
    expect_error_at(we_meld, "Type the meld or count it, not both")
    expect(we_meld).to_have_value("20")
    expect(we_hand.get_by_label("Run", exact=True)).to_have_value("1")
    expect(they.get_by_label("Trick points")).to_have_value("60")

    type_number(we_hand.get_by_label("Run", exact=True), 0)
    with guard.expect_refusal(422):
        save_deal(page)
    they_tricks = they.get_by_label("Trick points")
    expect(they_tricks).to_have_attribute("aria-invalid", "true")
    expect(they.locator(".field-error")).to_contain_text("add up")
    expect(they_tricks).to_have_value("60")

    type_number(they_tricks, 18)
    they.get_by_role("radio", name="No trick").tap()
    with guard.expect_refusal(422):
        save_deal(page)
    expect_error_in(they.locator(".took-trick"), "They took no trick but has trick points")
    expect(they.get_by_role("radio", name="No trick")).to_be_checked()
    expect(we_meld).to_have_value("20")
    expect(we.get_by_label("Trick points")).to_have_value("30")


def test_house_rules_form(page: Page, guard: Guard) -> None:
    import_match(page, worked_sheet_file())
    follow(page, page.get_by_role("navigation", name="Match tools").get_by_role("link", name="House rules"))
    play_to = page.get_by_label("Play to", exact=True)
    last_trick = page.get_by_label("Last trick worth")
    type_number(play_to, "3OO")
    type_number(last_trick, 25)
    page.get_by_label("Deck").select_option("single")
    with guard.expect_refusal(422):
        follow(page, page.get_by_role("button", name="Preview the change"))
    expect_error_at(play_to, "Play to: '3OO' is not allowed")
    expect_error_at(last_trick, "Last trick worth: '25' is not allowed; use a whole number from 0 to 20")
    expect(play_to).to_have_value("3OO")
    expect(last_trick).to_have_value("25")
    expect(page.get_by_label("Deck")).to_have_value("single")


def test_meld_calculator_typed_cards(page: Page) -> None:
    page.goto("/meld")
    cards = page.get_by_label("Type cards")
    cards.fill("AH 10H ZZ KH")
    page.get_by_role("button", name="Count meld").tap()
    expect_error_at(page.get_by_label("Type cards"), "ZZ")
    expect(page.get_by_label("Type cards")).to_have_value("AH 10H ZZ KH")


def test_import_form(page: Page, tmp_path: Any) -> None:
    page.goto("/import")
    pasted = page.get_by_label("Or paste the match file")
    broken = '{"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}], "deals": [{"bidder": 0'
    pasted.fill(broken)
    follow(page, page.get_by_role("button", name="Import"))
    expect(pasted).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".field-error")).to_be_visible()
    expect(pasted).to_have_value(broken)

    wrong_deal = worked_sheet_file()
    wrong_deal["deals"][3]["sides"][1] = {"total": "eighty-four"}
    pasted.fill(json.dumps(wrong_deal))
    follow(page, page.get_by_role("button", name="Import"))
    expect_error_at(pasted, "deals[3].sides[1]")

    not_text = tmp_path / "match.json"
    not_text.write_bytes(b"\xff\xfe\x00\x01 not a match file")
    pasted.fill("")
    page.get_by_label("Match file", exact=True).set_input_files(str(not_text))
    follow(page, page.get_by_role("button", name="Import"))
    expect_error_at(page.get_by_label("Match file", exact=True), "This file is not a text file in UTF-8.")
