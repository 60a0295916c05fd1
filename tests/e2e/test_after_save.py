"""Saving a deal at the table: one tap counts once on a slow link, and the phone lands on the sheet with
the totals and the new deal in view, "Deal N saved · Undo", and after the winning deal the next match."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, Request, expect

from .conftest import PHONE_AT_200_PERCENT, Phones, in_each_scheme
from .samples import worked_sheet_file
from .table import fill_quick_deal, follow, import_match, open_new_deal, save_deal, sheet_totals

pytestmark = pytest.mark.browser

SLOW_LINK = {"offline": False, "latency": 1500, "downloadThroughput": 40_000, "uploadThroughput": 20_000}


def slow_link(page: Page) -> None:
    """A phone on a poor connection: every request waits 1.5 s before its answer starts."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", SLOW_LINK)


def deal_posts(page: Page) -> list[Request]:
    """The deal form's sends that reach the network: the page's own, or the service worker's on its behalf
    (static/sw.js sends a match's forms itself, to keep them when no answer comes)."""
    posts: list[Request] = []
    page.context.on("request", lambda request: posts.append(request)
                    if request.method == "POST" and request.url.endswith("/deals/new") else None)
    return posts


def long_match(deals: int = 24) -> dict[str, Any]:
    match = worked_sheet_file("Long evening")
    match["rules"] = {"target": 2000}
    match["deals"] = [{"bidder": n % 2, "bid": 50, "sides": [{"total": 52}, {"total": 36}]} for n in range(deals)]
    return match


WHOLLY_IN_VIEW = """selectors => selectors.every(selector => {
    const box = document.querySelector(selector)?.getBoundingClientRect();
    return box && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
})"""


def in_viewport(page: Page, element: Locator) -> bool:
    box = element.bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] and box["height"] > 0


def shown_in_sheet(page: Page, row: Locator) -> bool:
    """The row is in the viewport and not hidden by the sheet's own scrolling."""
    wrap = page.locator(".sheet-wrap").bounding_box()
    box = row.bounding_box()
    assert wrap is not None and box is not None
    inside = box["y"] >= wrap["y"] - 1 and box["y"] + box["height"] <= wrap["y"] + wrap["height"] + 1
    return in_viewport(page, row) and inside


@pytest.mark.parametrize("scripts", [True, False], ids=["with-scripts", "without-scripts"])
def test_a_triple_tap_on_save_over_a_slow_link_saves_one_deal(
        phones: Phones, scripts: bool, shoot: Callable[..., Any]) -> None:
    page = phones.open(java_script_enabled=scripts)
    submits: list[tuple[str, str | None, bool]] = []
    if scripts:  # each time the form is sent: what its button says, and whether the page let it go
        page.expose_function("reportSubmit", lambda *seen: submits.append(tuple(seen)))
        page.add_init_script("window.addEventListener('submit', (event) => {"
                             " const button = event.target.querySelector('[data-submit-once]');"
                             " if (button) window.reportSubmit(button.textContent, button.getAttribute('aria-busy'),"
                             " event.defaultPrevented); });")
    link = import_match(page, worked_sheet_file("Slow link"))
    open_new_deal(page)
    fill_quick_deal(page, "We", 50, (40, 48))
    posts = deal_posts(page)
    slow_link(page)
    save = page.locator(".deal-form button[type=submit]")
    save.scroll_into_view_if_needed()
    box = save.bounding_box()
    assert box is not None
    for _ in range(3):  # taps on the screen, as a thumb does: each lands on the page shown
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # Without scripts the browser drops the first sends for the last; the page the last one leads to.
    # (Polled rather than awaited as one navigation: the browser aborts the earlier ones.)
    expect(page).to_have_url(re.compile(r"/m/[^/]+$"), timeout=30_000)
    expect(page.get_by_text("Deal 6 saved")).to_be_visible()
    if scripts:
        assert len(posts) == 1  # the further taps were ignored on the phone
        assert submits == [("Saving…", "true", False), ("Saving…", "true", True), ("Saving…", "true", True)]
    shoot(page, f"after-save-triple-tap-{'js' if scripts else 'nojs'}", full_page=False)
    body = page.locator("main").inner_text()
    assert "added on another phone" not in body and "While you were typing" not in body
    answer = page.request.get(link.replace("/m/", "/api/v1/matches/"))
    assert len(answer.json()["match"]["deals"]) == 6


def test_after_save_the_totals_and_the_new_deal_are_in_view_and_undo_removes_it(
        page: Page, shoot: Callable[..., Any]) -> None:
    import_match(page, long_match())
    before = sheet_totals(page)
    open_new_deal(page)
    fill_quick_deal(page, "They", 50, (20, 68))
    save_deal(page)
    notice = page.locator(".saved-notice")
    expect(notice).to_contain_text("Deal 25 saved")
    row = page.locator("tr#deal-25")
    expect(row).to_have_class(re.compile(r"\brow-changed\b"))
    assert in_viewport(page, page.locator(".totals"))
    assert in_viewport(page, page.get_by_role("link", name="+ Add deal 26"))
    assert shown_in_sheet(page, row)
    assert in_viewport(page, notice)
    shoot(page, "after-save-long-sheet", full_page=False)
    page.emulate_media(color_scheme="dark")
    shoot(page, "after-save-long-sheet-dark", full_page=False)
    page.emulate_media(color_scheme="light")
    assert sheet_totals(page) == {"We": before["We"] + 20, "They": before["They"] + 68}

    follow(page, notice.get_by_role("button", name="Undo"))
    expect(page.get_by_text("Deal 25 was removed.")).to_be_visible()
    assert sheet_totals(page) == before
    expect(page.locator("tr#deal-25")).to_have_count(0)


def test_a_short_sheet_shows_everything_after_save(page: Page) -> None:
    import_match(page, worked_sheet_file("Short sheet"))
    open_new_deal(page)
    fill_quick_deal(page, "We", 50, (40, 48))
    save_deal(page)
    expect(page.locator("tr.row-changed")).to_have_attribute("id", "deal-6")
    parts = [".totals", "table.sheet", ".saved-notice"]
    page.wait_for_function(WHOLLY_IN_VIEW, arg=parts)  # once the page has settled after the save
    for part in parts:
        assert in_viewport(page, page.locator(part)), part
    assert page.evaluate("window.scrollY") == 0


# Notes each part the outbox adds to a page (static/js/offline/view.js marks them data-outbox-view).
OUTBOX_PARTS_SHOWN = """
window.outboxPartsShown = [];
new MutationObserver((records) => records.forEach((record) => record.addedNodes.forEach((node) => {
  if (node.nodeType === 1 && node.hasAttribute("data-outbox-view")) window.outboxPartsShown.push(node.textContent);
}))).observe(document, { childList: true, subtree: true });
"""


def test_the_sheet_after_a_save_never_shows_the_saved_deal_as_waiting(page: Page) -> None:
    """The form goes through the outbox (kept "in flight" until the server is asked): the sheet it leads to
    is its answer, so no "Not sent yet" appears above the sheet, moving its links under a thumb."""
    page.context.add_init_script(OUTBOX_PARTS_SHOWN)
    import_match(page, worked_sheet_file("Saved once"))
    open_new_deal(page)
    version = int(page.locator('form[data-outbox] input[name="version"]').input_value())
    fill_quick_deal(page, "We", 50, (40, 48))
    save_deal(page)
    expect(page.locator("tr.row-changed")).to_have_attribute("id", "deal-6")
    expect(page.locator("html")).to_have_attribute("data-outbox-facts", str(version + 1))  # the server asked
    assert page.evaluate("window.outboxPartsShown") == []


def test_the_winning_deal_shows_the_winner_and_starts_the_next_match(
        page: Page, shoot: Callable[..., Any]) -> None:
    match = worked_sheet_file("Close to the end")
    match["sides"] = [{"name": "Ann & Bo", "players": ["Ann", "Bo"]}, {"name": "Cy & Di", "players": ["Cy", "Di"]}]
    match["rules"] = {"target": 300, "min_bid": 55}
    match["deals"] = [{"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]},
                      {"bidder": 1, "bid": 55, "sides": [{"total": 38}, {"total": 51}]},
                      {"bidder": 0, "bid": 80, "sides": [{"total": 95}, {"total": 15}]}]
    link = import_match(page, match)
    open_new_deal(page)
    fill_quick_deal(page, "Ann", 60, (120, 20))
    save_deal(page)
    banner = page.locator(".banner")
    expect(banner).to_contain_text("Ann & Bo won at deal 4")
    rematch = banner.get_by_role("link", name="Start the next match")
    for part in (banner, rematch, page.locator(".totals"), page.locator("tr.row-changed")):
        assert in_viewport(page, part)
    shoot(page, "after-save-winning-deal", full_page=False)

    follow(page, rematch)
    follow(page, page.get_by_role("button", name="Next match: same sides and rules"))
    expect(page.get_by_role("link", name="+ Add deal 1")).to_be_visible()
    assert page.url != link
    assert sheet_totals(page) == {"Ann & Bo": 0, "Cy & Di": 0}
    old = page.request.get(link.replace("/m/", "/api/v1/matches/")).json()["match"]
    new = page.request.get(page.url.replace("/m/", "/api/v1/matches/")).json()["match"]
    assert new["sides"] == old["sides"] and new["rules"] == old["rules"] and new["deals"] == []
    page.goto("/")
    expect(page.locator("main")).to_contain_text(new["name"])


def test_the_saved_notice_reads_well_at_200_percent(phones: Phones, shoot: Callable[..., Any]) -> None:
    page = phones.open(**PHONE_AT_200_PERCENT)
    import_match(page, long_match(8))
    open_new_deal(page)
    fill_quick_deal(page, "We", 50, (40, 48))
    save_deal(page)
    expect(page.locator(".saved-notice")).to_contain_text("Deal 9 saved")
    assert in_viewport(page, page.locator(".saved-notice"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    for scheme in in_each_scheme(page):
        shoot(page, f"after-save-200-percent-{scheme}", full_page=False)
