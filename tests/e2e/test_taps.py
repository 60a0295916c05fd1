"""Every tap means what it says (390×844, touch taps): the second tap of a double tap on what opens or closes the
deal panel lands on nothing new; a deal's whole row opens it and every control is a finger wide; the outbox brings
the sheet up to date in place; a "saved · Undo" notice goes once the match moves on; "not sent yet" has its own
look."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import Guard, Phones, in_each_scheme
from .offline import wait_until_kept_with
from .outbox import wait_until_sent
from .samples import quick_deal
from .sheet_only import players_match, sheet_only_phone
from .table import deal_row, import_match, open_folds, type_number
from .taps import count_clicks, double_tap
from .test_deal_entry import PARTNERS
from .test_entry_panel import add_in_panel, count_navigations, enter_offline, type_in_panel

pytestmark = pytest.mark.browser

# Thirty deals, Ann & Bob against Cy & Di, far from the end: a long sheet.
LONG_MATCH: dict[str, Any] = {
    "format": "pinochle-match/1", "name": "Long night",
    "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
    "rules": {"target": 5000},
    "deals": [quick_deal(number % 2, 50, (30, 20)) for number in range(30)],
}
# What a form holds, field by field (what Save would send).
FORM_VALUES = "(form) => [...new FormData(form)].filter(([name]) => name !== 'csrf_token').map(([n, v]) => `${n}=${v}`)"


def form_values(panel: Locator) -> list[str]:
    return list(panel.locator("form.deal-form").evaluate(FORM_VALUES))


def open_long_sheet(page: Page) -> None:
    import_match(page, LONG_MATCH)
    count_clicks(page)


@pytest.mark.parametrize("number", [4, 7])  # under a side's −10 in the panel, and under "Save deal"
def test_the_second_tap_on_a_deal_changes_nothing_in_the_panel_it_opened(page: Page, number: int) -> None:
    open_long_sheet(page)
    panel = page.get_by_role("dialog", name=f"Correct deal {number}")
    opened: list[list[str]] = []

    def answered() -> None:
        expect(panel.get_by_role("button", name="Save deal")).to_be_visible()
        opened.append(form_values(panel))

    double_tap(page, page.get_by_role("link", name=f"Edit deal {number}", exact=True), 120, answered)
    expect(panel).to_be_visible()  # not saved, not closed
    assert form_values(panel) == opened[0]
    expect(page.locator("main > .flashes")).to_have_count(0)


@pytest.mark.parametrize("gap_ms", [80, 250])
def test_the_second_tap_on_add_deal_after_the_page_loads_picks_no_bidder(page: Page, gap_ms: int) -> None:
    open_long_sheet(page)
    panel = page.get_by_role("dialog", name="Deal 31")
    add = page.get_by_role("link", name="+ Add deal 31")
    double_tap(page, add, gap_ms, lambda: expect(panel.get_by_role("button", name="Save deal")).to_be_visible(),
               across=0.75)  # the right half of the button, over "Di" in the panel
    expect(panel).to_be_visible()
    expect(panel.locator("input[name='bid_by']:checked:not([value='']), input[name='bidder']:checked")).to_have_count(0)


def test_a_tap_on_a_deals_scores_opens_it(page: Page) -> None:
    open_long_sheet(page)
    deal_row(page, 4).locator("td.num:not(.deal-number)").last.tap()
    panel = page.get_by_role("dialog", name="Correct deal 4")
    expect(panel.get_by_role("textbox", name="Bid")).to_have_value("50")


# The controls smaller than a finger (44×44 px) among those on the page or in the open panel; a check box counts
# by its label, all of which is its target.
SMALL = """() => [...document.querySelectorAll("a.button, button, summary, .deal-number a, select, label:has(input),"
    + "input:not([type=hidden], [type=checkbox], [type=radio])")]
  .filter((control) => control.checkVisibility() && !control.closest(".visually-hidden, p, li"))
  .map((control) => [control.getAttribute("aria-label") || control.textContent.trim(), control.getBoundingClientRect()])
  .filter(([, box]) => box.width < 44 || box.height < 44).map(([name, box]) => `${name} ${box.width}x${box.height}`)"""


def test_every_control_of_the_sheet_and_the_deal_panel_is_a_finger_wide(page: Page) -> None:
    open_long_sheet(page)
    assert page.evaluate(SMALL) == []
    deal_row(page, 2).locator(".deal-number a").tap()
    panel = page.get_by_role("dialog", name="Correct deal 2")
    panel.get_by_role("radio", name="Meld + tricks").tap()
    open_folds(panel)
    expect(panel.get_by_role("button", name="plus 1").first).to_be_visible()
    assert page.evaluate(SMALL) == []


@pytest.mark.service_worker
def test_the_network_back_while_a_deal_is_typed_sends_the_kept_one_and_keeps_the_typed_one(
    phones: Phones, guard: Guard
) -> None:
    page, _ = sheet_only_phone(phones, players_match([quick_deal(0, 60, (67, 20))]))
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    loads = count_navigations(page)
    with guard.offline(page):
        enter_offline(page)  # deal 2 kept on the phone, not sent yet
        page.get_by_role("link", name="+ Add deal 3").tap()
        panel = page.get_by_role("dialog", name="Deal 3")
        type_number(panel.get_by_role("textbox", name="Bid"), 65)
    wait_until_sent(page)
    expect(deal_row(page, 2)).not_to_contain_text("not sent yet")  # the server's row, swapped in
    expect(page.locator("main > .flashes")).to_have_count(0)  # "not sent yet" has had its time
    expect(panel.get_by_role("textbox", name="Bid")).to_have_value("65")
    assert asked == [] and loads == []  # no "Leave site?", no page load


def test_a_saved_notice_goes_when_another_phone_saves_the_next_deal(phones: Phones) -> None:
    ann, bob = phones.open(), phones.open()
    bob.goto(import_match(ann, PARTNERS))
    add_in_panel(ann, 3, 60, (38, 62))  # "Deal 3 saved · Undo" on Ann's phone
    expect(bob.locator(".match-meta")).to_have_text("Playing to 500 · 3 deals")
    add_in_panel(bob, 4, 55, (20, 62))
    expect(ann.locator(".match-meta")).to_have_text("Playing to 500 · 4 deals")
    expect(ann.locator("main > .flashes")).to_have_count(0)
    expect(bob.locator("main > .flashes .saved-notice")).to_have_text(re.compile(r"Deal 4 saved"))


# The look of a notice: its frame's style and colour, and its background.
LOOK = """(box) => { const look = getComputedStyle(box);
  return [look.borderTopStyle, look.borderTopColor, look.backgroundColor]; }"""


@pytest.mark.service_worker
def test_not_sent_yet_has_a_look_of_its_own_in_light_dark_and_print(phones: Phones, guard: Guard) -> None:
    page, _ = sheet_only_phone(phones, players_match([quick_deal(0, 60, (67, 20))]))
    add_in_panel(page, 2, 55, (20, 62))
    saved = page.locator("main > .flashes .saved-notice").evaluate(LOOK)
    wait_until_kept_with(page, f"{page.url}/deals/new", 'name="version" type="hidden" value="2"')
    with guard.offline(page, back_online=False):  # still with no signal as its look is read: its polls fail
        panel = type_in_panel(page, 3, "Di", 55, (20, 62))
        panel.get_by_role("button", name="Save deal").tap()
        expect(panel).to_be_hidden()
        pending = page.locator("main > .flashes .flash")
        expect(pending).to_contain_text("not sent yet")
        for scheme in in_each_scheme(page):
            look = pending.evaluate(LOOK)
            assert look[0] == "dashed" and look[1:] != saved[1:], (scheme, look, saved)
        page.emulate_media(media="print")
        mark = deal_row(page, 3).locator(".status", has_text="not sent yet")
        assert mark.evaluate("(mark) => getComputedStyle(mark).outlineStyle") == "dashed"
        page.close()  # put away with no signal: it asks for nothing more
