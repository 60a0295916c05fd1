"""The deal entry panel on the score sheet (390×844): "+ Add deal" and a deal's number open the deal form over
the sheet with no page load; Save says "Saving…" until the server answers, a refusal keeps the panel with the
message at its field, a double tap saves once; the next deals start from the kept form (no request, a key of
their own) until another phone changes the match; tapping who bid picks their side; offline the deal is kept on
the phone, shown "not sent yet", and sent once back online; a deal's correction opens in the panel offline too,
and its card faces count a hand with no network."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from .conftest import PHONE_AT_200_PERCENT, Guard, LiveApp, Phones
from .outbox import public_id_of, server_match, take_expected_errors, wait_until_sent
from .sheet_only import players_match, sheet_only_phone
from .table import (
    add_quick_deal,
    deal_row,
    follow,
    import_match,
    set_counters,
    sheet_totals,
    type_number,
    type_quick_numbers,
    use_cards,
)
from .taps import count_clicks, double_tap
from .test_deal_entry import PARTNERS, THEY, WE
from .test_meld_calculator import tap_card
from .test_phone_layout import browser_text_size

pytestmark = pytest.mark.browser

# Every text the panel's Save button and status line show, in order (recorded in the page).
RECORD_STATES = """() => {
  window.savedStates = [];
  const note = (text) => { if (text && window.savedStates.at(-1) !== text) window.savedStates.push(text); };
  new MutationObserver(() => {
    const button = document.querySelector(".entry-panel [data-submit-once]");
    if (button) note(button.textContent.trim());
    const status = document.querySelector(".entry-panel .entry-status");
    if (status) note(status.textContent.trim());
    if (document.querySelector("main > .flashes .saved-notice")) note("notice");
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


# How the wash of the rows and totals just saved goes ("running", "paused"), one state per cell or total.
WASH = """() => document.getAnimations().filter((wash) => wash.animationName === "row-changed")
  .map((wash) => wash.playState)"""

PHONE_320_AT_200_PERCENT = {**PHONE_AT_200_PERCENT, "viewport": {"width": 160, "height": 320}, "device_scale_factor": 4}
# The open panel's content width, the width it shows and its right edge. (The page behind is the layout's
# to fit: its top bar is checked at 200% by test_accessibility.py.)
WIDTHS = """() => { const panel = document.querySelector("dialog[open]");
  return [panel.scrollWidth, panel.clientWidth, panel.getBoundingClientRect().right]; }"""


def count_navigations(page: Page) -> list[str]:
    """The main frame's navigations from now on (a page load each)."""
    loads: list[str] = []
    page.on("framenavigated", lambda frame: loads.append(frame.url) if frame == page.main_frame else None)
    return loads


def record_requests(page: Page) -> list[str]:
    """The page's requests from now on: method, path and body (a form's fields)."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(
        f"{request.method} {urlsplit(request.url).path} {request.post_data or ''}"))
    return asked


def write_keys(asked: list[str]) -> list[str]:
    """The write keys of the new deals sent among ``asked`` (``record_requests``)."""
    return [key for line in asked if line.startswith("POST ") and "/deals/new " in line
            for key in parse_qs(line.split(" ", 2)[2]).get("write_key", [])]


def type_in_panel(page: Page, number: int, bidder: str, bid: int, totals: tuple[int, int]) -> Locator:
    """A quick deal typed in the panel opened by "+ Add deal" (``bidder`` bids), not saved yet: the panel."""
    page.get_by_role("link", name=f"+ Add deal {number}").tap()
    panel = page.get_by_role("dialog", name=f"Deal {number}")
    panel.get_by_role("radio", name=bidder, exact=True).tap()
    type_quick_numbers(panel, bid, totals)
    return panel


def add_in_panel(page: Page, number: int, bid: int, totals: tuple[int, int]) -> None:
    """A quick deal added in the panel (Di bids) and seen on the sheet."""
    panel = type_in_panel(page, number, "Di", bid, totals)
    panel.get_by_role("button", name="Save deal").tap()
    expect(page.locator(".match-meta")).to_have_text(f"Playing to 500 · {number} deals")
    expect(page.locator("main > .flashes .saved-notice")).to_contain_text(f"Deal {number} saved")


def test_a_deal_is_added_refused_and_corrected_in_the_panel_with_no_page_load(
    page: Page, phones: Phones, guard: Guard, shoot: Callable[..., Any]
) -> None:
    import_match(page, PARTNERS)
    loads = count_navigations(page)
    page.evaluate(RECORD_STATES)

    page.get_by_role("link", name="+ Add deal 3").tap()
    panel = page.get_by_role("dialog", name="Deal 3")
    expect(panel).to_be_visible()
    bid = panel.get_by_role("textbox", name="Bid")
    expect(bid).to_be_focused()  # the number pad is up for the first number
    assert bid.get_attribute("inputmode") == "numeric"
    panel.get_by_role("group", name="Who bid?").get_by_role("radio", name="Cy").tap()
    expect(panel.get_by_role("group", name="Who bid?").get_by_role("radio", name="Cy")).to_be_checked()
    expect(bid).to_be_focused()  # a choice tapped leaves the number pad up
    type_quick_numbers(panel, 40, (20, 70))
    panel.get_by_role("button", name="Save deal").tap()  # below the minimum bid: refused
    expect(bid).to_have_attribute("aria-invalid", "true")
    assert take_expected_errors(guard, r"status of 422") == 1
    expect(panel.locator(".bid-field .field-error")).to_contain_text("40")
    expect(bid).to_be_focused()
    expect(panel.get_by_role("radio", name="Cy", exact=True)).to_be_checked()  # what was typed stays
    expect(panel.locator(".form-errors")).to_have_text("Nothing was saved yet: check the fields marked in red below.")
    expect(panel.locator(".entry-status")).to_be_hidden()  # said once, by the form
    shoot(page, "entry-panel-refused")

    page.evaluate("window.savedStates = []")
    deal_3 = record_requests(page)
    type_number(bid, 60)
    save = panel.get_by_role("button", name="Save deal")
    save.evaluate("(button) => { button.click(); button.click(); }")  # a double tap
    expect(panel).to_be_hidden()
    notice = page.locator("main > .flashes .saved-notice")
    expect(notice).to_contain_text("Deal 3 saved")
    expect(notice.get_by_role("button", name="Undo")).to_be_visible()
    states = page.evaluate("window.savedStates")
    assert states.index("Saving…") < states.index("Saved") < states.index("notice"), states
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 3 deals")  # saved once
    expect(deal_row(page, 3)).to_have_class("row-changed")
    assert set(page.evaluate(WASH)) == {"running"}
    assert sheet_totals(page) == {WE: 67 + 38 + 20, THEY: 20 + 62 + 70}
    expect(page.get_by_role("link", name="+ Add deal 4")).to_be_visible()
    saved_keys = write_keys(deal_3)
    assert len(saved_keys) == 1  # the double tap sent it once

    page.get_by_role("link", name="Edit deal 3").tap()  # the same panel, filled in
    panel = page.get_by_role("dialog", name="Correct deal 3")
    expect(panel).to_be_visible()
    assert set(page.evaluate(WASH)) == {"paused"}  # the sheet is under the panel: its wash waits
    expect(panel.locator(".sides-quick input").nth(1)).to_have_value("70")
    expect(panel.get_by_role("radio", name="Cy", exact=True)).to_be_checked()
    type_number(panel.locator(".sides-quick input").nth(1), 80)
    shoot(page, "entry-panel-correction")
    panel.get_by_role("button", name="Save deal").tap()
    expect(panel).to_be_hidden()
    expect(page.locator(".totals")).to_contain_text(str(20 + 62 + 80))
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 3 deals")
    assert loads == []

    # The next deals start from the form kept from deal 3: no request for it, each with a key of its own.
    asked = record_requests(page)
    add_in_panel(page, 4, 65, (20, 10))
    # Deal 5's form is made ready in the closed panel once the phone is idle: the link only shows it.
    expect(page.locator(".entry-panel:not([open]) #entry-title")).to_have_text("Deal 5")
    page.get_by_role("link", name="+ Add deal 5").tap()
    panel = page.get_by_role("dialog", name="Deal 5")
    expect(panel.get_by_role("group", name="Likely bids").get_by_role("button")).to_have_text(["50", "55", "60", "65"])
    dealer = page.locator("[data-dealer]").inner_text().removesuffix(" deals")
    expect(panel.locator("summary", has_text="dealt")).to_have_text(f"{dealer} dealt")  # as the sheet says
    expect(panel.get_by_role("radio", name="One number")).to_be_checked()
    panel.get_by_role("button", name="Close").tap()
    expect(panel).to_be_hidden()
    assert set(page.evaluate(WASH)) == {"running"}  # deal 4's wash goes on where it waited
    assert [line for line in asked if line.startswith("GET ") and "/deals/" in line] == []
    keys = write_keys(asked)
    assert len(keys) == 1 and keys[0] not in saved_keys, (keys, saved_keys)

    # Another phone adds deal 5 while this sheet's "?" is open: the sheet follows and the explanation stays
    # open; the kept form, older than deal 5, is asked for again, and deal 6 is saved on the match as it is.
    page.locator("summary[aria-label='How to read the sheet']").tap()
    other = phones.open()
    other.goto(page.url)
    add_quick_deal(other, "Ann", 50, (30, 30))
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 5 deals", timeout=10_000)
    expect(page.locator("details.sheet-key")).to_have_attribute("open", "")
    add_in_panel(page, 6, 50, (25, 25))
    assert [line for line in asked if line.startswith("GET ") and "/deals/new" in line] != []
    assert loads == []

    small = phones.open(**PHONE_320_AT_200_PERCENT)  # 320×640 with 200% text: 160×320 CSS pixels
    small.goto(page.url)
    small.get_by_role("link", name="+ Add deal 7").tap()
    panel = small.get_by_role("dialog", name="Deal 7")
    save = panel.get_by_role("button", name="Save deal")
    save.scroll_into_view_if_needed()
    expect(save).to_be_in_viewport()
    shoot(small, "entry-panel-320-at-200-percent", full_page=False)
    content, shown, right = small.evaluate(WIDTHS)
    assert content <= shown and right <= 160.5, f"the panel scrolls sideways at 160 CSS px: {content, shown, right}"
    box = save.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 160.5, box

    big_text = phones.open(viewport={"width": 320, "height": 640}, has_touch=True, is_mobile=True)
    with browser_text_size(big_text, 32):  # the browser's own text size at 200%: the Save bar, the heading
        big_text.goto(page.url)
        big_text.get_by_role("link", name="+ Add deal 7").tap()
        panel = big_text.get_by_role("dialog", name="Deal 7")
        bar = panel.locator(".action-bar").bounding_box()
        assert bar is not None and bar["height"] <= 640 / 4, bar
        heading = panel.locator("#entry-title").bounding_box()
        close = panel.get_by_role("button", name="Close").bounding_box()
        assert heading and close and abs(heading["y"] - close["y"]) < close["height"], (heading, close)  # one line


def test_a_deal_closed_unsaved_opens_again_as_it_was_left_until_cancelled(page: Page, guard: Guard) -> None:
    import_match(page, PARTNERS)
    panel = type_in_panel(page, 3, "Cy", 40, (20, 70))
    bid = panel.get_by_role("textbox", name="Bid")
    panel.get_by_role("button", name="Save deal").tap()  # below the minimum bid: refused, then closed
    expect(bid).to_have_attribute("aria-invalid", "true")
    assert take_expected_errors(guard, r"status of 422") == 1
    panel.get_by_role("button", name="Close").tap()
    page.get_by_role("link", name="+ Add deal 3").tap()
    expect(bid).to_have_value("40")
    type_number(bid, 60)
    panel.get_by_role("button", name="Close").tap()
    expect(panel).to_be_hidden()
    page.get_by_role("link", name="Edit deal 2").tap()  # another deal looked at in between
    page.get_by_role("dialog", name="Correct deal 2").get_by_role("button", name="Close").tap()
    page.on("dialog", lambda dialog: dialog.dismiss())  # leaving the sheet with the deal typed: asked first
    with page.expect_event("dialog") as leaving:  # (the one at the foot: the top bar's was under Close just now)
        page.get_by_role("link", name="House rules").last.tap()
    assert leaving.value.type == "beforeunload"
    expect(page.get_by_role("link", name="+ Add deal 3")).to_be_visible()  # the player stayed
    for close in ("Escape", "Cancel"):  # the phone's Back closes the panel as Escape does
        page.get_by_role("link", name="+ Add deal 3").tap()
        expect(panel.get_by_role("textbox", name="Bid")).to_have_value("60")
        expect(panel.get_by_role("radio", name="Cy", exact=True)).to_be_checked()
        if close == "Escape":
            page.keyboard.press("Escape")
        else:
            panel.get_by_role("link", name="Cancel").tap()
        expect(panel).to_be_hidden()
    page.get_by_role("link", name="+ Add deal 3").tap()  # Cancel dropped it
    expect(panel.get_by_role("textbox", name="Bid")).to_have_value("")
    expect(panel.get_by_role("radio", name="Cy", exact=True)).not_to_be_checked()
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 2 deals")


def test_the_second_tap_of_a_double_tap_on_save_opens_nothing(page: Page) -> None:
    import_match(page, PARTNERS)
    count_clicks(page)
    panel = type_in_panel(page, 3, "Cy", 60, (38, 62))
    double_tap(page, panel.get_by_role("button", name="Save deal"), 120, lambda: expect(panel).to_be_hidden())
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 3 deals")
    expect(page.get_by_role("dialog")).to_have_count(0)
    page.get_by_role("link", name="+ Add deal 4").tap()  # a tap of its own opens the next deal
    expect(page.get_by_role("dialog", name="Deal 4")).to_be_visible()


def test_a_deal_closed_while_it_is_saved_is_saved_once_and_a_draft_outlives_a_correction(page: Page) -> None:
    import_match(page, PARTNERS)
    panel = type_in_panel(page, 3, "Di", 55, (20, 62))
    panel.get_by_role("button", name="Close").tap()
    page.get_by_role("link", name="Edit deal 2").tap()  # corrected on this phone while deal 3 waits
    correction = page.get_by_role("dialog", name="Correct deal 2")
    type_number(correction.locator(".sides-quick input").nth(1), 70)
    correction.get_by_role("button", name="Save deal").tap()
    expect(page.locator(".totals")).to_contain_text(str(20 + 70))
    page.get_by_role("link", name="+ Add deal 3").tap()
    expect(panel.get_by_role("textbox", name="Bid")).to_have_value("55")
    panel.get_by_role("button", name="Save deal").tap()  # on the match as this phone changed it: no conflict
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 3 deals")
    expect(page.locator(".totals")).to_contain_text(str(20 + 70 + 62))

    held: list[Route] = []  # deal 4's save, answered once the panel is closed with the phone's Back
    page.route("**/deals/new", lambda route: held.append(route) if route.request.method == "POST" else route.fallback())
    page.get_by_role("link", name="+ Add deal 4").tap()
    panel = page.get_by_role("dialog", name="Deal 4")
    panel.get_by_role("radio", name="Di", exact=True).tap()
    type_quick_numbers(panel, 50, (30, 52))
    panel.get_by_role("button", name="Save deal").tap()
    expect(panel.locator("[data-submit-once]")).to_have_text("Saving…")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    held[0].fallback()
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 4 deals")
    page.get_by_role("link", name="+ Add deal 5").tap()  # the deal saved is not kept as a draft
    panel = page.get_by_role("dialog", name="Deal 5")
    expect(panel.get_by_role("textbox", name="Bid")).to_have_value("")
    panel.get_by_role("button", name="Close").tap()  # and Close is not taken for Cancel
    expect(panel).to_be_hidden()


def test_a_draft_saved_after_another_phone_added_a_deal_is_refused_on_top_then_saved_dealt_on(
    page: Page, phones: Phones, guard: Guard
) -> None:
    import_match(page, PARTNERS)
    panel = type_in_panel(page, 3, "Di", 55, (20, 62))
    panel.get_by_role("button", name="Close").tap()
    other = phones.open()
    other.goto(page.url)
    add_quick_deal(other, "Ann", 50, (30, 30))
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 3 deals", timeout=10_000)
    dealer = page.locator("[data-dealer]").inner_text().removesuffix(" deals")
    page.get_by_role("link", name="+ Add deal 4").tap()
    panel.get_by_role("button", name="Save deal").tap()
    panel = page.get_by_role("dialog", name="Deal 4")
    alert = panel.locator(".form-errors")
    expect(alert).to_contain_text("deal 3 was added on another phone")
    expect(alert).to_be_in_viewport()  # said on top, not under the fields
    assert take_expected_errors(guard, r"status of 409") == 1
    expect(panel.locator("summary", has_text="dealt")).to_have_text(f"{dealer} dealt")  # the deal after deal 3's
    expect(panel.locator("#deal-preview.ready p").first).to_contain_text("+")  # its score, worked out again
    expect(panel.get_by_role("textbox", name="Bid")).to_have_value("55")  # what was typed, kept
    panel.get_by_role("button", name="Save deal").tap()
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 4 deals")


def test_a_correction_saved_after_another_phone_deleted_a_deal_before_it_is_not_saved_over_another(
    page: Page, phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    import_match(page, PARTNERS)
    public_id = public_id_of(page)
    other = phones.open()
    other.goto(page.url)
    add_quick_deal(other, "Ann", 50, (30, 30))  # deal 3
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 3 deals", timeout=10_000)
    page.get_by_role("link", name="Edit deal 2").tap()
    panel = page.get_by_role("dialog", name="Correct deal 2")
    type_number(panel.get_by_role("textbox", name="Bid"), 65)
    stored = server_match(live_app.base_url, public_id)["match"]["deals"]
    other.goto(f"/m/{public_id}/deals/1/delete")
    follow(other, other.get_by_role("button", name="Delete deal 1"))  # meanwhile: deal 2 becomes deal 1
    for _ in range(2):  # the message read, Save tapped again
        panel.get_by_role("button", name="Save deal").tap()
        expect(panel).to_contain_text("deal 2 is now deal 1")
    assert take_expected_errors(guard, r"status of 409") == 2
    assert server_match(live_app.base_url, public_id)["match"]["deals"] == stored[1:]  # nothing saved over it


# The versions the sheet's live part shows, in order (recorded in the page from now on).
RECORD_VERSIONS = """() => {
  const live = document.querySelector(".live-sheet");
  window.versionsShown = [live.dataset.etag.split("-")[0]];
  new MutationObserver(() => window.versionsShown.push(live.dataset.etag.split("-")[0]))
    .observe(live, { attributes: true, attributeFilter: ["data-etag"] });
}"""


def test_a_save_answered_after_the_sheet_followed_another_phone_leaves_the_newer_sheet(
    page: Page, phones: Phones
) -> None:
    import_match(page, PARTNERS)
    page.evaluate(RECORD_VERSIONS)
    answers: list[tuple[Route, Any]] = []  # deal 3's save, done by the server, its answer held on the way back
    page.route("**/deals/new", lambda route: answers.append((route, route.fetch()))
               if route.request.method == "POST" else route.fallback())
    panel = type_in_panel(page, 3, "Di", 55, (20, 62))
    panel.get_by_role("button", name="Save deal").tap()
    other = phones.open()
    other.goto(page.url)
    expect(other.locator(".match-meta")).to_have_text("Playing to 500 · 3 deals")
    add_quick_deal(other, "Ann", 50, (30, 30))  # deal 4, saved meanwhile on another phone
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 4 deals", timeout=10_000)  # followed
    route, answer = answers[0]
    route.fulfill(response=answer)
    expect(page.locator("main > .flashes .saved-notice")).to_contain_text("Deal 3 saved")
    expect(panel).to_be_hidden()
    versions = [int(version) for version in page.evaluate("window.versionsShown")]
    assert versions == sorted(versions)  # never back to the sheet as deal 3's save left it
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 4 deals")


def test_a_hand_counted_in_sets_in_the_panel_is_saved_as_counted(page: Page, live_app: LiveApp) -> None:
    import_match(page, PARTNERS)
    page.get_by_role("link", name="+ Add deal 3").tap()
    panel = page.get_by_role("dialog", name="Deal 3")
    panel.get_by_role("radio", name="Meld + tricks").tap()
    panel.get_by_role("group", name="Who bid?").get_by_role("radio", name="Ann").tap()
    type_number(panel.get_by_role("textbox", name="Bid"), 50)
    we = panel.locator("fieldset[data-side='0']")
    folds = panel.locator("details.count-meld")
    expect(folds).to_have_count(4)
    expect(folds.locator("input")).to_have_count(0)  # the counts are left out of the page until asked for
    expect(panel.locator("details.count-meld:visible")).to_have_count(0)  # behind each hand's card faces
    bob = set_counters(page, 0, "Bob's meld")
    pinochles = bob.get_by_label("Pinochle", exact=True)
    expect(pinochles).to_have_value("0")
    bob.locator(".set-field", has_text="Pinochle").get_by_role("button", name="plus 1").tap()
    type_number(we.get_by_label("Ann's meld"), 20)
    type_number(we.get_by_label("Trick points"), 30)
    panel.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name=WE).tap()
    panel.get_by_role("button", name="Save deal").tap()
    expect(page.locator(".match-meta")).to_have_text("Playing to 500 · 3 deals")
    deal = server_match(live_app.base_url, public_id_of(page))["match"]["deals"][2]
    assert deal["sides"][0]["meld"] == [20, {"pinochle": 1}], deal


def one_deal_sheet_only_phone(phones: Phones) -> Page:
    """A phone that opened only the sheet of a match of one deal (We bid 60: Ann & Bo 67, Cy & Di 20)."""
    first = {"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]}
    return sheet_only_phone(phones, players_match([first]))[0]


@pytest.mark.service_worker
def test_offline_a_deal_entered_in_the_panel_waits_and_is_sent_once(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    page = one_deal_sheet_only_phone(phones)
    public_id = public_id_of(page)
    loads = count_navigations(page)
    with guard.offline(page):
        enter_offline(page)
        page.get_by_role("link", name="+ Add deal 3").tap()  # the deal not sent yet counts: its number, the dealer
        dealer = page.locator("[data-dealer]").inner_text().removesuffix(" deals")
        panel = page.get_by_role("dialog", name="Deal 3")
        expect(panel.locator("summary", has_text="dealt")).to_have_text(f"{dealer} dealt")
        panel.get_by_role("button", name="Close").tap()
        page.get_by_role("link", name="Edit deal 1").tap()  # the kept deal form, filled in as deal 1
        panel = page.get_by_role("dialog", name="Correct deal 1")
        expect(panel.get_by_role("textbox", name="Bid")).to_have_value("60")
        # Its card faces count a hand with no network: the dialog's script and look came with the kit.
        panel.get_by_role("radio", name="Meld + tricks").tap()
        panel.get_by_role("button", name="Count by cards (Ann's meld)").tap()
        faces = page.get_by_role("dialog", name="Ann's meld by cards")
        for code in ("QS", "JD"):  # a pinochle
            tap_card(page, code)
        use_cards(page, faces, "Use 4")
        expect(panel.locator("[data-cards-of]")).to_contain_text("Ann's meld by cards: pinochle 4 = 4 (♠ trump).")
        panel.get_by_role("button", name="Close").tap()
    wait_until_sent(page)
    held = server_match(live_app.base_url, public_id)
    assert [(deal["bid"], deal.get("bid_by"), deal["bidder"]) for deal in held["match"]["deals"]] == [
        (60, None, 0), (55, "Di", 1)]
    assert loads == []  # sent, the server's sheet is swapped in where it is: no page load


def enter_offline(page: Page) -> None:
    """With no signal: the panel opens from the kit's deal form, and the deal is kept as not sent yet."""
    loads = count_navigations(page)
    count_clicks(page)
    page.get_by_role("link", name="+ Add deal 2").tap()
    panel = page.get_by_role("dialog")
    expect(panel.get_by_role("button", name="Save deal")).to_be_visible()  # the kit's deal form
    panel.get_by_role("group", name="Who bid?").get_by_role("radio", name="Di").tap()
    type_quick_numbers(panel, 55, (20, 62))
    # The server cannot work the preview out now: the phone does, as the server words it (test_offline_preview.py).
    expect(panel.locator("#deal-preview p")).to_have_text(["Ann & Bo: +20 → 87", "Cy & Di make it: +62 → 82"])
    double_tap(page, panel.get_by_role("button", name="Save deal"), 120, lambda: expect(panel).to_be_hidden())
    expect(page.get_by_role("dialog")).to_have_count(0)  # kept once, nothing opened
    expect(page.locator("main > .flashes")).to_contain_text("not sent yet")
    expect(deal_row(page, 2)).to_contain_text("not sent yet")
    expect(page.locator(".totals")).to_contain_text("87")
    assert loads == []


@pytest.mark.service_worker
def test_offline_a_deal_not_sent_yet_tapped_on_the_sheet_opens_to_be_changed_not_as_a_new_deal(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    page = one_deal_sheet_only_phone(phones)
    public_id = public_id_of(page)
    with guard.offline(page):
        enter_offline(page)  # deal 2, Di bid 55: Ann & Bo 20, Cy & Di 62; not sent yet
        page.get_by_role("link", name="Edit deal 2").tap()  # typed wrong: changed before it is ever sent
        they_total = page.locator(".sides-quick").get_by_role("textbox", name="Cy & Di")
        expect(they_total).to_have_value("62")  # the kept deal, not a blank deal 3
        expect(page.get_by_role("textbox", name="Bid")).to_have_value("55")
        type_number(they_total, 58)
        page.get_by_role("button", name="Save deal").tap()
        expect(page.locator("section.outbox li.outbox-entry")).to_have_count(1)
        expect(page.locator("section.outbox li.outbox-entry")).to_contain_text("Cy & Di 58")
    wait_until_sent(page)
    held = server_match(live_app.base_url, public_id)["match"]["deals"]
    assert [(deal["bid"], [side["total"] for side in deal["sides"]]) for deal in held] == [
        (60, [67, 20]), (55, [20, 58])]


@pytest.mark.service_worker
def test_offline_a_deal_not_sent_yet_opened_to_be_changed_is_headed_and_scored_as_its_own_deal(
    phones: Phones, live_app: LiveApp, guard: Guard
) -> None:
    page = one_deal_sheet_only_phone(phones)
    dealer = page.locator("[data-dealer]").inner_text().removesuffix(" deals")  # who deals deal 2
    with guard.offline(page):
        enter_offline(page)  # deal 2
        panel = type_in_panel(page, 3, "Ann", 50, (60, 20))
        panel.get_by_role("button", name="Save deal").tap()
        expect(deal_row(page, 3)).to_contain_text("not sent yet")
        page.get_by_role("link", name="Edit deal 2").tap()
        expect(page.locator(".sides-quick").get_by_role("textbox", name="Cy & Di")).to_have_value("62")
        expect(page.get_by_role("heading", level=1)).to_have_text("Deal 2")  # not deal 4, after the deals kept
        expect(page.locator("summary", has_text="dealt")).to_have_text(f"{dealer} dealt")
        # Its score and running totals as deal 2, before deal 3 (worked out on this phone: no network).
        expect(page.locator("#deal-preview p")).to_have_text(["Ann & Bo: +20 → 87", "Cy & Di make it: +62 → 82"])
