"""Two phones at one table on the same match link."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

import pytest
from playwright.sync_api import expect

from scorekeeper.rules.messages import PAGE_WORDS

from .conftest import Guard, Phones
from .table import (
    add_quick_deal,
    deal_scores,
    fill_quick_deal,
    follow,
    new_match,
    open_new_deal,
    save_deal,
    sheet_totals,
    type_number,
)

pytestmark = pytest.mark.browser


def test_both_phones_follow_the_match_and_a_stale_edit_is_refused(
    phones: Phones, guard: Guard, shoot: Callable[[Any, str], Any]
) -> None:
    ann, bob = phones.open(), phones.open()
    link = new_match(ann, "Double deck to 500", name="Two phones")
    bob.goto(link)
    expect(bob.get_by_role("heading", name="Two phones")).to_be_visible()

    add_quick_deal(ann, "We", 60, (67, 20))
    expect(bob.locator(".totals")).to_contain_text("67")  # Bob's sheet follows by itself
    assert sheet_totals(bob) == {"We": 67, "They": 20}
    add_quick_deal(bob, "They", 55, (38, 51))
    ann.reload()
    assert sheet_totals(ann) == {"We": 105, "They": -35}

    # Both open deal 1; Bob saves first, then Ann's save is refused and her typing kept.
    follow(ann, ann.get_by_role("link", name="Edit deal 1"))
    follow(bob, bob.get_by_role("link", name="Edit deal 1"))
    type_number(bob.locator(".sides-quick").get_by_role("textbox", name="We"), 70)
    save_deal(bob)
    assert deal_scores(bob, 1) == [70, 20]
    ann_they = ann.locator(".sides-quick").get_by_role("textbox", name="They")
    type_number(ann_they, 25)
    with guard.expect_refusal(409):
        save_deal(ann)
    message = ann.locator(".form-errors")
    expect(message).to_contain_text("another phone")
    expect(message).to_contain_text("Deal 1 now reads: We bid 60; We 70, They 20")
    expect(ann_they).to_have_value("25")
    expect(ann.locator(".sides-quick").get_by_role("textbox", name="We")).to_have_value("67")
    shoot(ann, "deal-edit-stale")
    bob.reload()
    assert deal_scores(bob, 1) == [70, 20]  # Bob's correction stands until Ann decides
    save_deal(ann)  # Ann checked the message and keeps hers
    assert deal_scores(ann, 1) == [67, 25]

    # Both start deal 3; Bob's arrives first, Ann's is refused, then saved as deal 4.
    open_new_deal(ann)
    fill_quick_deal(ann, "We", 80, (95, 15))
    add_quick_deal(bob, "They", 70, (30, 84))
    with guard.expect_refusal(409):
        save_deal(ann)
    expect(ann.locator(".form-errors")).to_contain_text("another phone")
    expect(ann.get_by_role("textbox", name="Bid")).to_have_value("80")
    save_deal(ann)
    assert deal_scores(ann, 3) == [30, 84]
    assert deal_scores(ann, 4) == [95, 15]
    bob.reload()
    assert sheet_totals(bob) == sheet_totals(ann) == {"We": 67 + 38 + 30 + 95, "They": 25 - 55 + 84 + 15}


def test_a_deal_saved_on_one_phone_shows_on_the_others_within_two_seconds(phones: Phones) -> None:
    """Measured from the moment Ann's phone shows the saved deal: Bob's sheet (players' link) and Cy's
    (watch link) show it, highlighted, with no reload, within 2 s."""
    ann, bob, cy = phones.open(), phones.open(), phones.open()
    link = new_match(ann, "Double deck to 500", name="Live table")
    bob.goto(link)
    ann.goto(f"{link}/invite")
    cy.goto(ann.locator("a.share-link").nth(1).get_attribute("href") or "")
    ann.goto(link)
    for phone in (bob, cy):
        expect(phone.locator("[data-live-status]")).to_contain_text("up to date")
    bob_url, cy_url = bob.url, cy.url

    add_quick_deal(ann, "We", 60, (67, 20))
    for phone in (bob, cy):
        expect(phone.locator("tr#deal-1")).to_be_visible(timeout=2000)
        expect(phone.locator("tr#deal-1")).to_have_class(re.compile(r"\brow-changed\b"))
        expect(phone.locator(".totals")).to_contain_text("67")
    assert (bob.url, cy.url) == (bob_url, cy_url)  # no reload, no navigation
    assert sheet_totals(bob) == sheet_totals(cy) == {"We": 67, "They": 20}
    expect(bob.get_by_role("link", name="+ Add deal 2")).to_be_visible()

    add_quick_deal(ann, "They", 55, (38, 51))
    expect(bob.locator("tr#deal-2")).to_have_class(re.compile(r"\brow-changed\b"), timeout=2000)
    expect(bob.locator("tr#deal-1")).not_to_have_class(re.compile(r"\brow-changed\b"))  # unchanged rows stay calm


def test_a_phone_without_signal_says_its_sheet_may_be_old_and_catches_up(phones: Phones, guard: Guard) -> None:
    ann, bob = phones.open(), phones.open()
    link = new_match(ann, "Double deck to 500", name="Cabin")
    bob.goto(link)
    status = bob.locator("[data-live-status]")
    expect(status).to_contain_text("up to date")
    with guard.offline(bob):
        expect(status).to_contain_text("No connection since", timeout=5000)
        add_quick_deal(ann, "We", 60, (67, 20))
    bob.evaluate("window.dispatchEvent(new Event('online'))")
    expect(bob.locator("tr#deal-1")).to_be_visible(timeout=5000)
    expect(status).to_contain_text("up to date")


def test_a_sheet_whose_match_is_gone_from_the_server_says_so_in_the_declared_words(
    phones: Phones, guard: Guard, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The words are the page's, as the server drew them from their declaration (changed here)."""
    monkeypatch.setitem(PAGE_WORDS, "live.gone", "Gone: this match was deleted from the server.")
    ann = phones.open()
    new_match(ann, "Double deck to 500", name="Gone")
    status = ann.locator("[data-live-status]")
    expect(status).to_contain_text("up to date")
    live_url = urljoin(ann.url, ann.locator(".live-sheet[data-live-url]").get_attribute("data-live-url"))
    guard.allowed_refusals[(live_url, 404)] += 1  # the one look that finds it gone: the phone stops following
    ann.route(live_url, lambda route: route.fulfill(status=404, body=""))
    expect(status).to_have_text("Gone: this match was deleted from the server.", timeout=5000)
    expect(status).to_have_class(re.compile(r"\bnotice-warning\b"))
