"""The Share section on a phone (the invite page, where a new match opens): the share sheet where the
browser has one, else copy with a visible
"Copied"; the QR code of each link, drawn by the server."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules.messages import PAGE_WORDS

from .conftest import PHONE_AT_200_PERCENT, MainPages, Phones, in_each_scheme
from .table import add_quick_deal, follow

pytestmark = pytest.mark.browser

NO_SHARE_SHEET = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
RECORDING_SHARE_SHEET = """
  Object.defineProperty(Navigator.prototype, "share", {configurable: true, value(data) {
    window.sharedWith = data; return Promise.resolve();
  }});
"""
NO_COPY = ("Object.defineProperty(Navigator.prototype, 'clipboard', {configurable: true, get: () => undefined});"
           "Document.prototype.execCommand = () => false;")


def absolute(page: Page, selector: str) -> str:
    return str(page.locator(selector).evaluate("link => link.href"))


def test_without_a_share_sheet_the_button_copies_the_link(phones: Phones, main_pages: MainPages) -> None:
    page = phones.open(permissions=["clipboard-read", "clipboard-write"])
    page.add_init_script(NO_SHARE_SHEET)
    page.goto(f"{main_pages.paths()['sheet']}/invite")
    button = page.get_by_role("button", name="Copy the players' link")
    button.scroll_into_view_if_needed()
    button.click()
    expect(page.locator("#share-players [data-share-done]")).to_have_text("Copied")
    expect(page.locator("#share-players [data-share-done]")).to_be_visible()
    assert page.evaluate("() => navigator.clipboard.readText()") == absolute(page, "#share-players .share-link")
    page.get_by_role("button", name="Copy the watch link").click()
    assert page.evaluate("() => navigator.clipboard.readText()") == absolute(page, "#share-watch .share-link")


def test_a_phone_that_cannot_copy_says_so_in_the_declared_words(
    phones: Phones, main_pages: MainPages, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The words are the page's, as the server drew them from their declaration (changed here)."""
    monkeypatch.setitem(PAGE_WORDS, "share.not_copied", "Not copied: hold the link above to copy it")
    page = phones.open()
    page.add_init_script(NO_SHARE_SHEET + NO_COPY)
    page.goto(f"{main_pages.paths()['sheet']}/invite")
    button = page.get_by_role("button", name="Copy the players' link")
    button.scroll_into_view_if_needed()
    button.click()
    expect(page.locator("#share-players [data-share-done]")).to_have_text("Not copied: hold the link above to copy it")


def test_with_a_share_sheet_the_button_opens_it_with_the_link(phones: Phones, main_pages: MainPages) -> None:
    page = phones.open()
    page.add_init_script(RECORDING_SHARE_SHEET)
    page.goto(f"{main_pages.paths()['sheet']}/invite")
    page.get_by_role("button", name="Share the watch link").click()
    expect(page.locator("#share-watch [data-share-done]")).to_have_text("Shared")
    shared = page.evaluate("() => window.sharedWith")
    assert shared["url"] == absolute(page, "#share-watch .share-link")
    assert shared["url"].startswith(phones.app.base_url + "/w/")
    assert "Watch link" in shared["title"]


def test_each_link_has_a_qr_code_drawn_by_the_server(
    phones: Phones, main_pages: MainPages, shoot: Callable[..., Any]
) -> None:
    page = phones.open()
    page.goto(f"{main_pages.paths()['sheet']}/invite")
    for which in ("players", "watch"):
        item = page.locator(f"#share-{which}")
        if which == "watch":  # folded away, its code fetched once opened; the players' is shown at once
            with page.expect_response(re.compile(r"/qr/watch\.svg")) as answered:
                item.locator("summary").click()
            assert answered.value.status == 200
        image = item.get_by_role("img", name=f"QR code of the {which}", exact=False)
        expect(image).to_be_visible()
        answer = page.request.get(image.get_attribute("src") or "")
        assert answer.status == 200 and answer.headers["content-type"] == "image/svg+xml; charset=utf-8"
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
        box = image.bounding_box()
        assert box is not None and box["width"] >= 150
    page.locator("#share").scroll_into_view_if_needed()
    for scheme in in_each_scheme(page):
        shoot(page, f"share-section-{scheme}", full_page=False)


def test_the_share_section_at_200_percent(phones: Phones, main_pages: MainPages, shoot: Callable[..., Any]) -> None:
    page = phones.open(**PHONE_AT_200_PERCENT)
    page.goto(f"{main_pages.paths()['sheet']}/invite")
    page.locator("#share-watch summary").click()
    page.locator("#share").scroll_into_view_if_needed()
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth")
    shoot(page, "share-section-200", full_page=False)


IN_VIEW = "(el) => { const box = el.getBoundingClientRect(); return box.top >= 0 && box.bottom <= innerHeight; }"


def test_a_new_match_opens_on_inviting_the_table_one_tap_from_the_top_of_its_sheet(
    phones: Phones, shoot: Callable[..., Any]
) -> None:
    page = phones.open()
    page.add_init_script(RECORDING_SHARE_SHEET)
    page.goto("/matches/new")
    page.locator("label.preset-choice", has_text="Double deck to 500").tap()
    follow(page, page.get_by_role("button", name="Start the match"))
    expect(page.get_by_role("heading", name="Invite the table")).to_be_visible()
    code = page.get_by_role("img", name="QR code of the players' link", exact=False)
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=code.element_handle())
    share = page.get_by_role("button", name="Share the players' link")
    assert code.evaluate(IN_VIEW) and share.evaluate(IN_VIEW)  # no scrolling: the code and Share on the screen
    shoot(page, "invite-the-table", full_page=False)
    share.tap()
    expect(page.locator("[data-share-done]").first).to_have_text("Shared")
    sheet = page.url.removesuffix("/invite")
    assert page.evaluate("() => window.sharedWith.url") == sheet
    follow(page, page.get_by_role("link", name="Go to the score sheet"))
    for _ in range(3):  # once deals fill the sheet, the invite is still at its top
        add_quick_deal(page, "We", 50, (60, 20))
    page.evaluate("() => window.scrollTo(0, 0)")
    invite = page.get_by_role("banner").get_by_role("link", name="Invite", exact=True)
    assert invite.evaluate(IN_VIEW)
    follow(page, invite)
    expect(page.get_by_role("heading", name="Invite the table")).to_be_visible()
    assert page.url == f"{sheet}/invite"
