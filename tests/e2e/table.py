"""What a player does at the table, in browser steps: start a match, enter a deal, read the sheet.

Choices are tapped and numbers put in at once, as a keyboard's suggestion does (key by key where a test is about
typing). A quick deal is added in the panel over the sheet, as on a phone with scripts; ``open_new_deal`` opens
the form's own page, as without them. A match that a test needs before its subject is made through the API
(``new_match``, with any deals played before it, and ``import_match``); ``start_match`` and
``import_match_on_the_page`` take the player's way. Locators go by the names a player sees (labels, button text),
so a page that loses a label breaks these steps as it would break a screen reader.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules.house_rules import PRESETS
from scorekeeper.rules.match import Match, SideInfo
from scorekeeper.rules.matchfile import match_to_json

from .samples import quick_deal
from .taps import past_a_double_tap

MINUS = "\u2212"


def number(text: str) -> int:
    """A score as the page prints it ('318', '−35') as an int."""
    return int(text.strip().replace(MINUS, "-"))


ENTRY_LINK = "a.add-deal, td.deal-number a"
"""The sheet's links that open the deal form in a panel over the sheet when scripts run (static/phone.js)."""


def follow(page: Page, control: Locator) -> None:
    """Tap a link or a submit button and wait for the page it leads to. A sheet's deal link is followed to
    its form page, as a phone without scripts does (the panel over the sheet has tests of its own)."""
    if control.evaluate(f"(node) => node.matches({json.dumps(ENTRY_LINK)})"):
        page.goto(control.get_attribute("href") or "")
        return
    with page.expect_navigation():
        control.tap()


def type_number(field: Locator, value: int | str, *, key_by_key: bool = False) -> None:
    """Put a number in a field: at once, as a phone's keyboard suggestion or a paste does, or key by key
    (what a test of typing itself asks for: each key is a round trip to the page)."""
    if key_by_key:
        field.click()
        field.fill("")
        field.press_sequentially(str(value))
    else:
        field.fill(str(value))


# Starting a match ----------------------------------------------------------------------------------

def start_match(
    page: Page,
    preset: str,
    *,
    name: str = "",
    rules: Mapping[str, str] | None = None,
) -> str:
    """Start a match from the preset with this label; returns the score sheet's address."""
    page.goto("/matches/new")
    page.locator("label.preset-choice", has_text=preset).tap()
    if name:
        page.get_by_label("Match name").fill(name)
    if rules:
        page.locator("summary", has_text="House rules").tap()
        for label, value in rules.items():
            page.get_by_label(label, exact=True).fill(value)
    follow(page, page.get_by_role("button", name="Start the match"))
    leave_the_invite(page)
    return page.url


def leave_the_invite(page: Page) -> None:
    """A new match opens on inviting the table: on to its score sheet."""
    expect(page.get_by_role("heading", name="Invite the table")).to_be_visible()
    follow(page, page.get_by_role("link", name="Go to the score sheet"))
    expect(page.get_by_role("link", name=re.compile(r"Add deal 1"))).to_be_visible()


QuickDeal = tuple[str, int, Sequence[int]]
"""A deal by quick entry: the side that won the bid, the bid and each side's total."""


def new_match(page: Page, preset: str, *, name: str = "", deals: Sequence[QuickDeal] = ()) -> str:
    """A match made from the preset with this label (named as given, or after its sides), with the quick
    ``deals`` already played, and its score sheet opened; returns the sheet's address. For a test whose subject
    comes after the start: through the API, one page load where the new-match form takes two (``start_match``
    is the player's way), and the deals in the match file rather than each through the panel (``add_quick_deal``)."""
    chosen = next(found for found in PRESETS if found.label == preset)
    sides = tuple(SideInfo(name=side) for side in chosen.side_names)
    match_file = match_to_json(
        Match(sides=sides, rules=chosen.rules, name=name or " v ".join(chosen.side_names), auction=chosen.auction))
    match_file["deals"] = [quick_deal(chosen.side_names.index(bidder), bid, totals) for bidder, bid, totals in deals]
    return import_match(page, match_file)


def import_match(page: Page, match_file: Mapping[str, Any]) -> str:
    """A match file brought in and its score sheet opened; returns the sheet's address. Through the API (sent
    from the phone, with its cookies): one page load where the import page takes two
    (``import_match_on_the_page`` is the player's way)."""
    made = page.request.post("/api/v1/matches", data=dict(match_file))
    assert made.status == 201, made.text()
    page.goto(f"/m/{made.json()['id']}")
    expect(page.get_by_role("link", name=re.compile(r"Add deal \d+"))).to_be_visible()
    return page.url


def import_match_on_the_page(page: Page, match_file: Mapping[str, Any]) -> str:
    """Paste a match file on the import page; returns the new match's score sheet address."""
    page.goto("/import")
    page.get_by_label("Or paste the match file").fill(json.dumps(match_file))
    follow(page, page.get_by_role("button", name="Import"))
    expect(page.get_by_role("link", name=re.compile(r"Add deal \d+"))).to_be_visible()
    return page.url


# Entering deals ------------------------------------------------------------------------------------

def open_new_deal(page: Page) -> None:
    follow(page, page.get_by_role("link", name=re.compile(r"Add deal \d+")))
    expect(page.get_by_role("button", name="Save deal")).to_be_visible()


def fill_quick_deal(form: Page | Locator, bidder: str, bid: int, totals: Sequence[int]) -> None:
    """Quick entry: who bid (a side, or a player where the sides name them), the bid, and one number per side
    (meld and tricks together), on the form's page or in the panel over the sheet."""
    form.get_by_role("radio", name="One number").tap()
    form.locator("fieldset.bidder").get_by_role("radio", name=bidder, exact=True).tap()
    expect(form.locator(".sides-quick input")).to_have_count(len(totals))
    type_quick_numbers(form, bid, totals)


def type_quick_numbers(form: Page | Locator, bid: int, totals: Sequence[int]) -> None:
    """The bid, then each side's one number."""
    type_number(form.get_by_role("textbox", name="Bid"), bid)
    for index, total in enumerate(totals):
        type_number(form.locator(".sides-quick input").nth(index), total)


def save_deal(page: Page) -> None:
    follow(page, page.get_by_role("button", name="Save deal"))


def add_quick_deal(page: Page, bidder: str, bid: int, totals: Sequence[int]) -> None:
    """From the score sheet: enter one deal by quick entry in the panel over the sheet, as a phone with scripts
    does, and see it on the sheet."""
    link = page.locator("a.add-deal")
    deal = int(re.findall(r"\d+", link.inner_text())[0])
    link.tap()
    panel = page.get_by_role("dialog", name=f"Deal {deal}")
    fill_quick_deal(panel, bidder, bid, totals)
    panel.get_by_role("button", name="Save deal").tap()
    expect(panel).to_be_hidden()
    expect(deal_row(page, deal)).to_be_visible()


def side_box(page: Page, side: int) -> Locator:
    """One side's box in detailed entry."""
    return page.locator(f"fieldset.side-detail[data-side='{side}']")


def faces_dialog(page: Page, side: int, meld: str) -> Locator:
    """The card faces' dialog of one hand's meld (``meld``: its box's label, "Ann's meld" or "Meld"), opened."""
    side_box(page, side).get_by_role("button", name=f"Count by cards ({meld})").tap()
    dialog = page.get_by_role("dialog", name=f"{meld} by cards")
    expect(dialog).to_be_visible()
    past_a_double_tap(page)  # its faces may lie under the finger that opened it
    return dialog


def open_folds(scope: Page | Locator) -> None:
    """Every fold of ``scope`` shown closed is tapped open."""
    for fold in scope.locator("details:not([open]) > summary").all():
        if fold.is_visible():
            fold.tap()


def use_cards(page: Page, dialog: Locator, label: str) -> None:
    """Tap the faces' dialog's "Use …" (``label``), and wait as a player looks where it closed: the next tap
    there is no longer the second of a double tap."""
    dialog.get_by_role("button", name=label).tap()
    expect(dialog).to_be_hidden()
    past_a_double_tap(page)


def set_counters(page: Page, side: int, meld: str) -> Locator:
    """One hand's set counters, behind its card faces ("Count by sets instead"): the fold, open."""
    faces_dialog(page, side, meld).get_by_role("button", name="Count by sets instead").tap()
    hand = (side_box(page, side).get_by_label(meld, exact=True).get_attribute("name") or "").split("-")[3]
    fold = side_box(page, side).locator(f"details.count-meld[data-hand='{hand}']")
    expect(fold).to_have_attribute("open", "")
    return fold


def open_meld_calculator(page: Page, side: int, meld: str) -> None:
    """The meld calculator for one hand, from behind its card faces (a page load)."""
    follow(page, faces_dialog(page, side, meld).get_by_role("button", name="Meld calculator"))


# Reading the sheet ----------------------------------------------------------------------------------

def sheet_totals(page: Page) -> dict[str, int]:
    """The running totals at the top of the score sheet, by side name."""
    totals = {}
    for box in page.locator(".totals .total").all():
        totals[box.locator(".total-name").inner_text().strip()] = number(
            box.locator(".total-points").inner_text()
        )
    return totals


def deal_row(page: Page, number_: int) -> Locator:
    return page.locator(f"tr#deal-{number_}")


def deal_scores(page: Page, number_: int) -> list[int | None]:
    """What each side scored in one deal ('—' after the end reads as None)."""
    scores: list[int | None] = []
    for cell in deal_row(page, number_).locator("td.num:not(.left)").all():
        hand = cell.locator(".hand").inner_text().strip()
        scores.append(None if hand == "—" else number(hand.rstrip("*").replace("+", "")))
    return scores


def winner_banner(page: Page) -> Locator:
    return page.locator(".banner")
