"""The meld calculator works the best meld out in the page (the rules core's twin): every tap updates the
total with no request, and the answer is the server's for the same hand; without scripts the form posts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, Request, expect

from .conftest import Phones
from .test_meld_calculator import WORKED_HAND, tap_card

pytestmark = pytest.mark.browser

# Double deck: a run in spades, a double pinochle and aces around.
DOUBLE_HAND = ["AS", "10S", "KS", "QS", "JS", "QS", "JD", "JD", "AH", "AD", "AC", "KS"]


def server_answer(plain: Page, deck: str, trump: str, hand: list[str]) -> tuple[str, str]:
    """The result and status line the server draws for ``hand``, on ``plain``, a phone without scripts."""
    counts = {f"n_{code}": hand.count(code) for code in set(hand)}
    plain.goto(f"/meld?{urlencode({'deck': deck, 'trump': trump, 'cards': '', **counts})}")
    return plain.locator("#meld-result").inner_text(), plain.locator("[data-meld-status]").inner_text()


def test_each_tap_updates_the_total_with_no_request(phones: Phones, shoot: Callable[[Page, str], Any]) -> None:
    page = phones.open()
    plain = phones.open(java_script_enabled=False)
    page.goto("/meld?deck=single")
    page.wait_for_load_state("networkidle")
    page.get_by_role("radio", name="♥ Hearts").check()
    requests: list[Request] = []
    page.on("request", lambda request: requests.append(request))
    status = page.locator("[data-meld-status]")
    for held, code in enumerate(WORKED_HAND, 1):
        tap_card(page, code)
        expect(status.locator("[data-held]")).to_have_text(f"{held} of 12 cards")
        # The total after each tap is the best meld of the cards tapped so far.
        assert status.inner_text() == server_answer(plain, "single", "H", WORKED_HAND[:held])[1]
    expect(status).to_have_text("12 of 12 cards · ♥ Hearts trump: 240")
    assert [request.url for request in requests] == []
    shoot(page, "meld-calculator-in-the-page")

    # The total stays in view at the foot of the screen while the cards are tapped.
    box = status.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844
    assert page.locator("#meld-result").inner_text() == server_answer(plain, "single", "H", WORKED_HAND)[0]


def test_all_trumps_and_a_double_deck_match_the_server(phones: Phones) -> None:
    page = phones.open()
    plain = phones.open(java_script_enabled=False)
    page.goto("/meld")
    page.get_by_label("Deck").select_option("double")
    expect(page.locator("select[name='n_9S']")).to_be_hidden()  # no nines in a double deck
    expect(page.locator("select[name='n_AS'] option")).to_have_count(5)
    page.get_by_label("Meld values").select_option("double-small")
    page.get_by_role("radio", name="All four trumps").check()
    requests: list[Request] = []
    page.on("request", lambda request: requests.append(request))
    for code in DOUBLE_HAND:
        tap_card(page, code)
    expect(page.locator("[data-held]")).to_have_text("12 of 20 cards")
    expect(page.get_by_role("heading", name="Each trump, best first")).to_be_visible()
    assert requests == []
    result, status = server_answer(plain, "double", "all", DOUBLE_HAND)
    assert page.locator("#meld-result").inner_text() == result
    assert page.locator("[data-meld-status]").inner_text() == status

    # Typed cards join the tapped ones, in the page too.
    page.get_by_label("Type cards").fill("AS AH")
    page.get_by_role("button", name="Count meld").tap()
    expect(page.locator("[data-held]")).to_have_text("14 of 20 cards")
    expect(page.get_by_label("Type cards")).to_have_value("")
    assert requests == []
    assert page.locator("#meld-result").inner_text() == server_answer(plain, "double", "all",
                                                                      [*DOUBLE_HAND, "AS", "AH"])[0]


def test_without_scripts_the_form_posts_and_the_server_counts(phones: Phones) -> None:
    page = phones.open(java_script_enabled=False)
    page.goto("/meld?deck=single")
    page.get_by_label("Type cards").fill(" ".join(WORKED_HAND))
    page.get_by_role("radio", name="♥ Hearts").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Count meld").click()
    expect(page.locator("[data-meld-status]")).to_have_text("12 of 12 cards · ♥ Hearts trump: 240")
