"""A match from preset to winner, entered on a phone as the players would."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .samples import WORKED_DEALS, worked_sheet_file
from .table import (
    add_quick_deal,
    deal_row,
    deal_scores,
    follow,
    import_match,
    new_match,
    open_new_deal,
    save_deal,
    sheet_totals,
    side_box,
    start_match,
    type_number,
    winner_banner,
)

pytestmark = pytest.mark.browser

# The phone's share sheet, which takes files (a headless browser has none): what it was given, the first bytes
# of each file.
SHARE_SHEET = """() => {
  window.sharedFiles = [];
  navigator.canShare = (data) => Boolean(data && data.files);
  navigator.share = async (data) => {
    for (const file of data.files) {
      const head = [...new Uint8Array(await file.slice(0, 24).arrayBuffer())];
      window.sharedFiles.push({ name: file.name, type: file.type, head });
    }
  };
}"""
# What a printed page still shows of the things made to be tapped.
TAPPABLE_ON_PAPER = """() => [...document.querySelectorAll("button, .button, .share, .share-result, .explain")]
    .filter(el => el.getClientRects().length).map(el => el.textContent.trim())"""
# How the sheet's header row and its box are laid out: what printing over several pages depends on.
PRINTED_SHEET = """() => { const style = (selector) => getComputedStyle(document.querySelector(selector));
    return [style(".match-sheet thead").display, style(".match-sheet thead th").position,
            style(".sheet-wrap").overflowY, style(".sheet-wrap").maxHeight]; }"""

def test_worked_sheet_entered_deal_by_deal(page: Page, shoot: Callable[[Page, str], Any]) -> None:
    start_match(page, "Double deck to 500", name="Worked sheet", rules={"Play to": "300"})
    expect(page.locator(".match-meta")).to_contain_text("Playing to 300")
    for number, (bidder, bid, taken, running) in enumerate(WORKED_DEALS, start=1):
        add_quick_deal(page, bidder, bid, taken)
        assert sheet_totals(page) == {"We": running[0], "They": running[1]}, f"after deal {number}"
    expect(deal_row(page, 2)).to_contain_text("set")
    assert deal_scores(page, 2) == [38, -55]
    expect(winner_banner(page)).to_contain_text("We won at deal 5")
    expect(winner_banner(page)).to_contain_text("1. We 318")
    expect(winner_banner(page)).to_contain_text("2. They 76")
    shoot(page, "sheet-worked-winner")


def test_correcting_and_deleting_deals_moves_the_totals(page: Page, shoot: Callable[[Page, str], Any]) -> None:
    import_match(page, worked_sheet_file())
    assert sheet_totals(page) == {"We": 318, "They": 76}

    follow(page, page.get_by_role("link", name="Edit deal 2"))
    expect(page.get_by_role("heading", name="Correct deal 2")).to_be_visible()
    they = page.locator(".sides-quick").get_by_role("textbox", name="They")
    expect(they).to_have_value("51")
    shoot(page, "deal-edit")
    type_number(they, 56)  # They now made their 55: +56 instead of −55
    save_deal(page)
    assert deal_scores(page, 2) == [38, 56]
    assert sheet_totals(page) == {"We": 318, "They": 76 + 55 + 56}
    expect(deal_row(page, 2)).to_contain_text("made")
    expect(winner_banner(page)).to_contain_text("We won at deal 5")

    follow(page, page.get_by_role("link", name="Edit deal 3"))
    follow(page, page.get_by_role("link", name="Delete this deal"))
    expect(page.get_by_role("heading", name="Delete deal 3?")).to_be_visible()
    shoot(page, "deal-delete")
    follow(page, page.get_by_role("button", name="Delete deal 3"))
    assert sheet_totals(page) == {"We": 318 - 95, "They": 187 - 15}
    expect(page.locator("tbody tr[id^=deal-]")).to_have_count(4)
    expect(winner_banner(page)).to_have_count(0)
    expect(page.get_by_role("link", name="+ Add deal 5")).to_be_visible()


def test_dead_contract_warning_and_thrown_in_deals(page: Page, shoot: Callable[[Page, str], Any]) -> None:
    start_match(page, "Double deck to 500")
    open_new_deal(page)
    page.get_by_role("radio", name="Meld + tricks").tap()
    page.get_by_role("group", name="Who won the bid?").get_by_role("radio", name="We").tap()
    bid = page.get_by_role("textbox", name="Bid")
    warning = page.locator("[data-dead-warning]")
    # Double deck, one point a counter: 48 counters + 2 for the last trick = 50 trick points at most.
    type_number(side_box(page, 0).get_by_label("Partner 1's meld"), 20)
    type_number(bid, 70)
    expect(warning).to_be_hidden()  # 70 = 20 meld + 50: still possible
    type_number(bid, 80)
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("cannot be made")
    shoot(page, "deal-new-dead-contract")

    # Played out anyway: the bidders are set; the defenders score meld and tricks.
    type_number(side_box(page, 1).get_by_label("Partner 1's meld"), 12)
    type_number(side_box(page, 0).get_by_label("Trick points"), 31)
    expect(side_box(page, 1).get_by_label("Trick points")).to_have_value("17")  # filled in from 48
    type_number(side_box(page, 0).get_by_label("Trick points"), 30)  # typed again: the other follows
    expect(side_box(page, 1).get_by_label("Trick points")).to_have_value("18")
    type_number(side_box(page, 1).get_by_label("Trick points"), 20)  # typed there too: what We typed stays
    expect(side_box(page, 0).get_by_label("Trick points")).to_have_value("30")
    type_number(side_box(page, 1).get_by_label("Trick points"), 18)
    page.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name="We").tap()
    save_deal(page)
    notice = page.locator("#dead-contract")
    expect(notice).to_contain_text("Deal 1: the contract was dead.")
    assert deal_scores(page, 1) == [-80, 12 + 18]
    shoot(page, "sheet-dead-contract")

    # Recorded as thrown in: the bidders lose the bid, the defenders keep only their meld.
    follow(page, notice.get_by_role("button", name="Record deal 1 as thrown in"))
    expect(deal_row(page, 1)).to_contain_text("thrown in")
    assert deal_scores(page, 1) == [-80, 12]
    expect(page.locator("#dead-contract")).to_have_count(0)

    # Thrown in at entry, before any trick: the defenders keep their meld without taking a trick.
    open_new_deal(page)
    page.get_by_role("radio", name="Meld + tricks").tap()
    page.get_by_role("group", name="Who won the bid?").get_by_role("radio", name="They").tap()
    type_number(page.get_by_role("textbox", name="Bid"), 60)
    type_number(side_box(page, 0).get_by_label("Partner 1's meld"), 15)
    type_number(side_box(page, 1).get_by_label("Partner 1's meld"), 10)
    page.get_by_role("checkbox", name="Thrown in").tap()
    save_deal(page)
    assert deal_scores(page, 2) == [15, -60]
    assert sheet_totals(page) == {"We": -80 + 15, "They": 12 - 60}


def test_single_deck_to_1500_plays_to_a_winner(page: Page, shoot: Callable[[Page, str], Any]) -> None:
    start_match(page, "Single deck to 1500")
    expect(page.locator(".match-meta")).to_contain_text("Playing to 1500")
    add_quick_deal(page, "We", 300, (600, 150))
    add_quick_deal(page, "They", 350, (200, 400))
    assert sheet_totals(page) == {"We": 800, "They": 550}
    expect(winner_banner(page)).to_have_count(0)
    # They are set; We reach 1500 defending, which wins here: this preset does not make a side
    # win on its own bid.
    add_quick_deal(page, "They", 300, (700, 250))
    assert deal_scores(page, 3) == [700, -300]
    expect(winner_banner(page)).to_contain_text("We won at deal 3")
    expect(winner_banner(page)).to_contain_text("1. We 1500 · 2. They 250")
    shoot(page, "sheet-single-deck-winner")
    from .test_accessibility import axe_violations, describe

    violations = axe_violations(page)  # the banner with its share link, the key behind its "?"
    assert not violations, describe(violations)
    # The result card: a phone whose share sheet takes no files downloads the image.
    share = winner_banner(page).get_by_role("link", name="Share the result")
    with page.expect_download() as download:
        share.tap()
    assert download.value.suggested_filename == "result.svg"
    card = page.request.get(share.get_attribute("href") or "")
    assert card.ok and card.headers["content-type"].startswith("image/svg+xml") and "We won" in card.text()
    # A phone whose share sheet takes files gets a picture (PNG) drawn in the page, as wide as the card says.
    page.evaluate(SHARE_SHEET)
    share.tap()
    page.wait_for_function("() => window.sharedFiles.length > 0")
    shared = page.evaluate("window.sharedFiles")
    width = int(re.search(r'<svg[^>]* width="(\d+)"', card.text()).group(1))  # type: ignore[union-attr]
    head = bytes(shared[0]["head"])
    assert (shared[0]["name"], shared[0]["type"], head[:8]) == ("result.png", "image/png", b"\x89PNG\r\n\x1a\n")
    assert int.from_bytes(head[16:20], "big") == width, head  # the PNG's header: its width
    # A share sheet that refuses (the tap's moment gone): the card is downloaded, and the sheet stays.
    page.evaluate("() => { navigator.share = async () => { throw new DOMException('too late', 'NotAllowedError'); }; }")
    sheet = page.url
    with page.expect_download() as download:
        share.tap()
    assert download.value.suggested_filename == "result.svg" and page.url == sheet
    # Printed: the sheet and the totals, nothing to tap; over several pages the header row repeats on each (a
    # table header group, not stuck to the screen), and a sheet scrolled inside after a save prints whole.
    scrolled = "(box) => { box.classList.add('sheet-scroll'); box.style.maxHeight = '5rem'; }"  # as app.js does
    page.locator(".sheet-wrap").evaluate(scrolled)
    page.emulate_media(media="print")
    expect(page.locator(".match-sheet")).to_be_visible()
    expect(page.locator(".totals")).to_be_visible()
    assert page.evaluate(TAPPABLE_ON_PAPER) == []
    assert page.evaluate(PRINTED_SHEET) == ["table-header-group", "static", "visible", "none"]
    shoot(page, "sheet-printed")
    page.emulate_media(media="screen")


def test_three_handed_match_plays_to_a_winner(page: Page, shoot: Callable[[Page, str], Any]) -> None:
    start_match(page, "Auction, three players")
    expect(page.locator(".match-meta")).to_contain_text("Playing to 1000")
    deals = [
        ("North", 300, (300, 150, 100), {"North": 300, "East": 150, "South": 100}),
        ("East", 300, (100, 350, 200), {"North": 400, "East": 500, "South": 300}),
        ("South", 300, (300, 100, 250), {"North": 700, "East": 600, "South": 0}),
        # North passes 1000 while defending: with "must win on your own bid" the match goes on.
        ("East", 300, (320, 350, 80), {"North": 1020, "East": 950, "South": 80}),
    ]
    for bidder, bid, taken, running in deals:
        add_quick_deal(page, bidder, bid, taken)
        assert sheet_totals(page) == running
    expect(winner_banner(page)).to_have_count(0)
    add_quick_deal(page, "North", 300, (310, 100, 40))
    expect(winner_banner(page)).to_contain_text("North won at deal 5")
    expect(winner_banner(page)).to_contain_text("1. North 1330 · 2. East 1050 · 3. South 120")
    shoot(page, "sheet-three-handed-winner")


# How each side's line, its legend swatch and its name at the line's end look (computed), in the chart's order.
CHART_LOOKS = """() => [...document.querySelectorAll('.chart .line')].map((line, side) => ({
  dashes: getComputedStyle(line).strokeDasharray,
  swatch: getComputedStyle(document.querySelectorAll('.legend .legend-swatch')[side]).borderTopStyle,
  name: [...document.querySelectorAll('.chart .end-label')].filter((label) => label.getBBox().width > 0
    && label.classList.contains(`series-${side}`)).map((label) => label.textContent).join(),
}))"""


def test_the_printed_chart_tells_the_sides_apart_without_colour(page: Page) -> None:
    new_match(page, "Double deck to 500", deals=[("We", 50, (60, 20)), ("They", 50, (20, 70))])
    on_screen = page.evaluate(CHART_LOOKS)
    assert [look["name"] for look in on_screen] == ["", ""]  # the legend names them on the screen
    page.emulate_media(media="print")
    printed = page.evaluate(CHART_LOOKS)
    assert len({look["dashes"] for look in printed}) == 2 and len({look["swatch"] for look in printed}) == 2
    assert [look["name"] for look in printed] == ["We", "They"]
    page.emulate_media(media="screen")
