"""The score sheet at a glance: names never cut, a header that stays, large tags and numbers, a framed
bidder, the reason beside a lost meld, the rarely used tools on a More page; and the sheet of three sides at
200% does not scroll sideways (every page at 320 px: test_phone_layout.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE_AT_200_PERCENT, MainPages, Phones, in_each_scheme
from .table import follow, import_match
from .test_phone_layout import TEXT_OUTSIDE_ITS_BOX, three_sides_past_the_target

pytestmark = pytest.mark.browser


# How far the page, and any element in it, reaches past the right edge of the screen.
OVERFLOW = """() => {
  const root = document.scrollingElement;
  const width = root.clientWidth;
  const past = [...document.querySelectorAll("body *")].filter(el => el.getClientRects().length)
    .filter(el => !el.closest(".visually-hidden") && !el.closest("[tabindex][role=region]"))
    .map(el => ({el, box: el.getBoundingClientRect()}))
    .filter(({box}) => box.right > width + 0.5 || box.left < -0.5)
    .map(({el, box}) => `${el.tagName.toLowerCase()}.${el.className}: ${Math.round(box.left)}..`
                        + `${Math.round(box.right)}`);
  return {scrollWidth: root.scrollWidth, clientWidth: width, past: past.slice(0, 5)};
}"""


def assert_no_sideways_scroll(page: Page, where: str) -> None:
    found = page.evaluate(OVERFLOW)
    assert found["scrollWidth"] <= found["clientWidth"], f"{where} scrolls sideways: {found}"
    assert found["past"] == [], f"{where}: something reaches past the screen's edge: {found['past']}"


def three_sides_with_a_lost_meld() -> dict[str, Any]:
    match = three_sides_past_the_target()
    match["name"] = "Three with a long name for each side"
    match["sides"] = [{"name": "Grandmother Henrietta", "players": []}, {"name": "East", "players": []},
                      {"name": "Southwestern cousins", "players": []}]
    match["rules"] = {**match["rules"], "target": 1500}
    match["deals"].append({"bidder": 2, "bid": 250, "thrown_in": True,
                           "sides": [{"meld": 40}, {"meld": 60}, {"meld": 100}]})
    match["deals"].append({"bidder": 0, "bid": 250, "sides": [
        {"meld": 150, "tricks": 200, "last_trick": True}, {"meld": 80, "took_trick": False},
        {"meld": 40, "tricks": 40}]})
    return match


# What the sheet's cells show (their visually hidden words for screen readers sit outside on purpose).
SHEET_TEXT = ".sheet th, .sheet .deal-number, .sheet .bid, .sheet .status, .sheet .running, .sheet .hand"


def test_a_lost_meld_says_why_beside_the_score(page: Page) -> None:
    import_match(page, three_sides_with_a_lost_meld())
    cell = page.locator("#deal-4 td.num:not(.left)").nth(1)
    expect(cell.locator(".lost-meld")).to_have_text(re.compile(r"^no trick"))
    expect(cell.locator(".hand")).to_have_text("0")
    expect(page.locator("#deal-4 .lost-meld")).to_have_count(1)
    expect(page.locator(".sheet-key")).to_contain_text("no trick")


SIZES = """() => [...document.querySelectorAll(
    ".sheet .status, .sheet .hand, .sheet .running, .sheet .lost-meld, .sheet .bid")]
  .map(el => parseFloat(getComputedStyle(el).fontSize))"""


def luminance(css: str) -> float:
    red, green, blue = (int(part) / 255 for part in re.findall(r"\d+", css)[:3])

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(first: str, second: str) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


BIDDER_FRAME = """() => {
  const shown = el => {  // the background an element shows: its own, else the nearest painted one behind it
    for (; el; el = el.parentElement) {
      const colour = getComputedStyle(el).backgroundColor;
      if (!/rgba\\(.*, 0\\)$/.test(colour)) return colour;
    }
    return "rgb(255, 255, 255)";
  };
  const cell = document.querySelector("#deal-1 td.bidder");
  const plain = document.querySelector("#deal-1 td.num:not(.left):not(.bidder)");
  const frame = getComputedStyle(cell).boxShadow;
  return {frame, frameColour: frame.match(/rgba?\\([^)]*\\)/)[0], cell: shown(cell), plain: shown(plain)};
}"""


def test_tags_numbers_and_the_bidder_read_at_a_glance(
    page: Page, main_pages: MainPages, shoot: Callable[..., Any]
) -> None:
    main_pages.visit(page, "sheet")
    sizes = page.evaluate(SIZES)
    assert sizes and min(sizes) >= 15, sizes
    for scheme in in_each_scheme(page):
        look = page.evaluate(BIDDER_FRAME)
        assert re.search(r"inset", look["frame"]) and re.search(r"\b3px\b", look["frame"]), (scheme, look)
        # The frame stands out from the bidder's own shade and from a plain cell (3:1, WCAG for shapes).
        assert contrast(look["frameColour"], look["cell"]) >= 3, (scheme, look)
        assert contrast(look["frameColour"], look["plain"]) >= 3, (scheme, look)
        shoot(page, f"sheet-two-sides-{scheme}", full_page=False)


def test_the_header_stays_at_the_top_with_names_in_full(page: Page, main_pages: MainPages) -> None:
    import_match(page, three_sides_with_a_lost_meld())
    for name in ("Grandmother Henrietta", "East", "Southwestern cousins"):
        head = page.get_by_role("columnheader", name=name)
        expect(head).to_have_text(name)
    assert page.evaluate(TEXT_OUTSIDE_ITS_BOX, SHEET_TEXT) == []
    main_pages.visit(page, "sheet")
    header = page.locator(".match-sheet thead th").last
    page.locator("#deal-18").scroll_into_view_if_needed()
    page.mouse.wheel(0, 300)
    expect(page.locator("#deal-20")).to_be_in_viewport()
    box = header.bounding_box()
    assert box is not None and abs(box["y"]) < 1, box
    assert page.evaluate("() => window.scrollY") > 500


def test_three_sides_at_200_percent_fit_without_sideways_scrolling(
    phones: Phones, shoot: Callable[..., Any]
) -> None:
    page = phones.open(**PHONE_AT_200_PERCENT)
    import_match(page, three_sides_with_a_lost_meld())
    assert_no_sideways_scroll(page, "the three-sided sheet at 200%")
    wrap = page.locator(".match-sheet")
    assert wrap.evaluate("el => el.querySelector('table').getBoundingClientRect().width <= el.clientWidth + 0.5")
    assert page.evaluate(TEXT_OUTSIDE_ITS_BOX, f".total-name, .total-points, .total-to-go, {SHEET_TEXT}") == []
    for scheme in in_each_scheme(page):
        shoot(page, f"sheet-three-sides-200-{scheme}")


def test_the_tools_used_now_and_then_are_on_the_more_page(page: Page, main_pages: MainPages) -> None:
    main_pages.visit(page, "sheet")
    tools = page.get_by_role("navigation", name="Match tools")
    for name in ("House rules", "Meld calculator"):
        expect(tools.get_by_role("link", name=name)).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"^\+ Add deal"))).to_be_visible()
    expect(page.get_by_role("banner").get_by_role("link", name="Invite", exact=True)).to_be_visible()
    for gone in ("Export match file", "Import a match", "Use this match from the API",
                 "Remove from this device's list…"):
        expect(page.locator("main").get_by_role("link", name=gone)).to_have_count(0)
    follow(page, tools.get_by_role("link", name=re.compile("^More")))
    for name in ("Export match file", "Export sheet (CSV)", "Import a match", "Use this match from the API",
                 "Remove from this device's list…"):
        expect(page.locator("main").get_by_role("link", name=name)).to_be_visible()


def every_page(page: Page, main_pages: MainPages) -> dict[str, Callable[[], None]]:
    """Each page a player may open, as a step that opens it (the pages behind forms by their forms)."""
    paths = main_pages.paths()
    match = paths["sheet"]

    def go(path: str) -> Callable[[], None]:
        return lambda: page.goto(path) and None

    def three_sides() -> None:
        import_match(page, three_sides_with_a_lost_meld())

    def detailed_deal() -> None:
        page.goto(paths["deal-new"])
        page.locator("label.segment").nth(1).click()

    def preview() -> None:
        page.goto(paths["house-rules"])
        page.get_by_label("Play to", exact=True).fill("900")
        follow(page, page.get_by_role("button", name="Preview the change"))

    def watch() -> None:
        page.goto(f"{match}/invite")
        page.goto(page.locator("#share-watch .share-link").get_attribute("href") or "")

    def not_found() -> None:
        with_guard = page.goto("/m/no-such-match")
        assert with_guard is not None and with_guard.status == 404

    return {
        "home": go(paths["home"]), "new-match": go(paths["new-match"]), "sheet-2-sides": go(match),
        "sheet-3-sides": three_sides, "deal-quick": go(paths["deal-new"]), "deal-detailed": detailed_deal,
        "deal-edit": go(paths["deal-edit"]), "house-rules": go(paths["house-rules"]), "preview": preview,
        "meld": go(paths["meld"]), "import": go(paths["import"]), "more": go(f"{match}/more"),
        "api": go(f"{match}/api"), "forget": go(f"{match}/forget"), "rules": go(paths["rules"]), "watch": watch,
        "not-found": not_found,
    }


PAGE_NAMES = ["home", "new-match", "sheet-2-sides", "sheet-3-sides", "deal-quick", "deal-detailed", "deal-edit",
              "house-rules", "preview", "meld", "import", "more", "api", "forget", "rules", "watch", "not-found"]
