"""The meld calculator works the best meld out in the page (the rules core's twin): every tap updates the
total with no request, and the answer is the server's for the same hand; without scripts the form posts. In a
deal form, a hand counted by card faces is kept as its cards and priced again when the meld prices change."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, Request, Route, expect

from .conftest import LiveApp, Phones, in_each_scheme
from .outbox import public_id_of, server_match
from .table import deal_scores, faces_dialog, import_match, set_counters, side_box, type_number, use_cards
from .taps import count_clicks, double_tap
from .test_accessibility import axe_violations
from .test_meld_calculator import WORKED_HAND, tap_card
from .test_meld_prices import set_prices

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

    # A face's "−" takes one copy away: its count, the select the form sends and the total follow.
    page.get_by_role("button", name="Remove one king of spades").tap()
    expect(page.get_by_role("button", name="King of spades, 1 in hand")).to_be_visible()
    expect(page.locator("select[name='n_KS']")).to_have_value("1")
    expect(page.locator("[data-held]")).to_have_text("11 of 20 cards")
    tap_card(page, "KS")
    expect(page.locator("[data-code='KS'] .face-badge")).to_have_text("2")
    assert page.locator("#meld-result").inner_text() == result

    # Typed cards join the tapped ones, in the page too.
    page.get_by_label("Type cards").fill("AS AH")
    page.get_by_role("button", name="Count meld").tap()
    expect(page.locator("[data-held]")).to_have_text("14 of 20 cards")
    expect(page.get_by_label("Type cards")).to_have_value("")
    expect(page.locator("[data-code='AS'] .face-badge")).to_have_text("2")  # the faces show typed cards too
    assert requests == []
    assert page.locator("#meld-result").inner_text() == server_answer(plain, "double", "all",
                                                                      [*DOUBLE_HAND, "AS", "AH"])[0]

    # A third ace of spades, then a single deck (two of each card): one ace is taken out, and the hand is priced
    # as a single deck is played, as the server prices it when the deck is chosen.
    tap_card(page, "AS")
    page.get_by_label("Deck").select_option("single")
    expect(page.get_by_label("Meld values")).to_have_value("single-classic")
    expect(page.locator("[data-meld-status]")).to_contain_text("· 1 card taken out: a single deck has 2 of each")
    expect(page.locator("[data-code='AS'] .face-badge")).to_have_text("2")
    expect(page.locator("[data-held]")).to_have_text("14 of 12 cards")
    single = server_answer(plain, "single", "all", [*DOUBLE_HAND, "AS", "AH"])[0]
    assert page.locator("#meld-result").inner_text() == single
    page.get_by_label("Deck").select_option("double")
    expect(page.get_by_label("Meld values")).to_have_value("double-small")
    expect(page.locator("[data-meld-status]")).not_to_contain_text("taken out")


def test_a_deck_switched_says_the_cards_it_takes_out_of_the_hand(phones: Phones) -> None:
    page = phones.open()
    page.goto("/meld?deck=single")
    for code in ("9H", "9H", "AS"):
        tap_card(page, code)
    page.get_by_label("Deck").select_option("double")
    status = page.locator("[data-meld-status]")
    expect(status).to_contain_text("2 cards taken out: a double deck has 4 of each, no nines")
    expect(page.locator("[data-held]")).to_have_text("1 of 20 cards")
    for _ in range(2):
        tap_card(page, "AS")
    page.get_by_label("Deck").select_option("single")
    expect(status).to_contain_text("1 card taken out: a single deck has 2 of each")
    expect(status).not_to_contain_text("no nines")


def test_a_deck_switched_back_to_the_matchs_takes_the_matchs_meld_values(phones: Phones) -> None:
    page = phones.open()
    sheet = import_match(page, {"format": "pinochle-match/1", "name": "Large", "rules": {"meld_table": "double-large"},
                                "sides": [{"name": "We", "players": []}, {"name": "They", "players": []}], "deals": []})
    page.goto(f"/meld?match={sheet.rsplit('/', 1)[1]}")
    values = page.get_by_label("Meld values")
    expect(values).to_have_value("double-large")
    for deck, table in (("single", "single-classic"), ("double", "double-large")):
        page.get_by_label("Deck").select_option(deck)
        expect(values).to_have_value(table)


def test_without_scripts_the_form_posts_and_the_server_counts(phones: Phones) -> None:
    page = phones.open(java_script_enabled=False)
    page.goto("/meld?deck=single")
    page.get_by_label("Type cards").fill(" ".join(WORKED_HAND))
    page.get_by_role("radio", name="♥ Hearts").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Count meld").click()
    expect(page.locator("[data-meld-status]")).to_have_text("12 of 12 cards · ♥ Hearts trump: 240")


PARTNERS_MATCH = {
    "format": "pinochle-match/1", "name": "Partners",
    "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
    "rules": {"deck": "double", "meld_table": "double-small"}, "deals": [],
}


# The double hand with trump spades on the match's small table, meld by meld.
DOUBLE_BREAKDOWN = "run 15 + royal marriage 4 + 2 pinochle 30 + aces around 10 = 59 (♠ trump)"


def by_cards(meld: str, breakdown: str) -> str:
    """The line under a side's meld boxes that says what a hand kept as its cards is worth."""
    return f"{meld} by cards: {breakdown}. Type a number or count sets to replace them."


def test_count_by_cards_in_the_deal_form_keeps_one_hand_as_its_cards(
    phones: Phones, shoot: Callable[[Page, str], Any]
) -> None:
    """Ann's meld counted by card faces in a dialog over the deal form (in the entry panel over the sheet): the
    dialog says what each meld is worth; "Use" keeps her hand as its cards, and her partner's typed meld stays."""
    page = phones.open()
    import_match(page, PARTNERS_MATCH)
    page.get_by_role("link", name=re.compile(r"Add deal \d+")).tap()
    expect(page.get_by_role("dialog", name=re.compile(r"^Deal \d+$"))).to_be_visible()
    page.get_by_role("radio", name="Meld + tricks").tap()
    page.get_by_role("group", name="Who bid?").get_by_role("radio", name="Ann").tap()
    type_number(page.get_by_role("textbox", name="Bid"), 50)
    type_number(side_box(page, 0).get_by_label("Bob's meld"), 19)
    type_number(side_box(page, 0).get_by_label("Trick points"), 30)
    counted = set_counters(page, 0, "Ann's meld")
    type_number(counted.get_by_label("Run", exact=True), 1)  # counted in sets first, then by cards
    requests: list[Request] = []
    page.on("request", lambda request: requests.append(request))

    # Bob's typed meld: his dialog offers nothing to use until a card is tapped, and Cancel leaves his meld.
    bobs = faces_dialog(page, 0, "Bob's meld")
    expect(bobs.locator(".meld-status")).to_have_text("0 cards · tap the hand's cards")
    expect(bobs.get_by_role("button", name=re.compile("^Use"))).to_have_count(0)
    bobs.get_by_role("button", name="Cancel").tap()
    expect(side_box(page, 0).get_by_label("Bob's meld")).to_have_value("19")

    dialog = faces_dialog(page, 0, "Ann's meld")
    expect(dialog.get_by_role("button", name=re.compile("^Nine"))).to_have_count(0)  # no nines in a double deck
    for code in [*DOUBLE_HAND, "AS"]:
        tap_card(page, code)
    ace = dialog.get_by_role("button", name="Ace of spades, 2 in hand")
    expect(ace).to_be_visible()
    expect(dialog.locator("[data-code='AS'] .face-badge")).to_have_text("2")
    dialog.get_by_role("button", name="Remove one ace of spades").tap()
    expect(dialog.get_by_role("button", name="Ace of spades, 1 in hand")).to_be_visible()
    dialog.get_by_role("radio", name="♠ Spades").tap()
    # On the match's small table, each meld found and its value.
    expect(dialog.locator(".meld-status")).to_have_text(f"12 cards · {DOUBLE_BREAKDOWN}")
    for face in dialog.locator(".face-add").all():
        box = face.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44
    assert axe_violations(page) == []
    shoot(page, "meld-faces-in-the-deal-form")

    use_cards(page, dialog, "Use 59")
    ann = side_box(page, 0).get_by_label("Ann's meld")
    expect(ann).to_have_value("")  # the hand is its cards, not a number
    expect(side_box(page, 0).locator("[data-cards-of]")).to_have_text(by_cards("Ann's meld", DOUBLE_BREAKDOWN))
    cards = json.loads(side_box(page, 0).locator("input[name='sides-0-hands-0-kept']").input_value())
    assert cards["trump"] == "S" and sorted(cards["cards"]) == sorted(DOUBLE_HAND)
    # Everything else entered stays, with no page load (the calculator's page was not asked for).
    expect(side_box(page, 0).get_by_label("Bob's meld")).to_have_value("19")
    expect(side_box(page, 0).get_by_label("Trick points")).to_have_value("30")
    expect(page.get_by_role("textbox", name="Bid")).to_have_value("50")
    expect(page.get_by_role("radio", name="Meld + tricks")).to_be_checked()
    expect(page.locator("input[name='trump'][value='S']")).to_be_checked()  # the trump picked, the deal's
    assert [request.url for request in requests if "/meld" in request.url] == []
    expect(counted.get_by_label("Run", exact=True)).to_have_value("0")  # a hand's meld is typed or counted
    expect(page.locator("[data-meld-total='0']")).to_have_text("78")  # the side's meld: 59 + 19

    # A number typed in her box replaces her cards, and the line that said what they were worth goes.
    type_number(ann, 12)
    expect(side_box(page, 0).locator("[data-cards-of]")).to_have_count(0)
    expect(side_box(page, 0).locator("input[name='sides-0-hands-0-kept']")).to_have_value("")


def test_a_double_tap_on_count_by_cards_opens_one_dialog(page: Page) -> None:
    """The dialog's script loads on the first tap: a double tap's second comes while it is on its way."""
    sheet = import_match(page, PARTNERS_MATCH)
    page.goto(f"{sheet}/deals/new")
    page.get_by_role("radio", name="Meld + tricks").tap()
    held: list[Route] = []  # the dialog's script, held until both taps are in
    page.route("**/faces_dialog.js*", lambda route: held.append(route))
    count_clicks(page)
    double_tap(page, side_box(page, 0).get_by_role("button", name="Count by cards (Ann's meld)"), 120, lambda: None)
    held[0].fallback()
    expect(page.get_by_role("dialog", name="Ann's meld by cards")).to_be_visible()
    expect(page.locator("dialog[open]")).to_have_count(1)


def test_a_hand_counted_by_faces_is_saved_as_its_cards_and_repriced_with_the_meld_prices(
    phones: Phones, live_app: LiveApp, shoot: Callable[[Page, str], Any]
) -> None:
    """Counted by card faces in the panel and saved, Ann's hand is stored as its cards: reopened, the deal says
    what they are worth meld by meld and the dialog shows them tapped; once the table prices a run at 25 with no
    double pinochle, the sheet prices the same cards again."""
    page = phones.open()
    sheet = import_match(page, PARTNERS_MATCH)
    page.get_by_role("link", name=re.compile(r"Add deal \d+")).tap()
    panel = page.get_by_role("dialog", name="Deal 1")
    panel.get_by_role("radio", name="Meld + tricks").tap()
    panel.get_by_role("group", name="Who bid?").get_by_role("radio", name="Ann", exact=True).tap()
    type_number(panel.get_by_role("textbox", name="Bid"), 50)
    dialog = faces_dialog(page, 0, "Ann's meld")
    for code in DOUBLE_HAND:
        tap_card(page, code)
    dialog.get_by_role("radio", name="♠ Spades").tap()
    use_cards(page, dialog, "Use 59")
    type_number(side_box(page, 0).get_by_label("Trick points"), 30)
    side_box(page, 0).locator("[data-cards-of]").scroll_into_view_if_needed()
    for scheme in in_each_scheme(page):
        shoot(page, f"meld-by-cards-in-the-panel-{scheme}", full_page=False)
    panel.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name="Ann & Bob").tap()
    panel.get_by_role("button", name="Save deal").tap()
    expect(panel).to_be_hidden()
    assert deal_scores(page, 1) == [59 + 30 + 2, 18]
    stored = server_match(live_app.base_url, public_id_of(page))["match"]["deals"][0]["sides"][0]["meld"]
    assert stored["trump"] == "S" and sorted(stored["cards"]) == sorted(DOUBLE_HAND)

    page.get_by_role("link", name="Edit deal 1").tap()
    panel = page.get_by_role("dialog", name="Correct deal 1")
    expect(side_box(page, 0).locator("[data-cards-of]")).to_have_text(by_cards("Ann's meld", DOUBLE_BREAKDOWN))
    dialog = faces_dialog(page, 0, "Ann's meld")
    expect(dialog.get_by_role("button", name="King of spades, 2 in hand")).to_be_visible()
    expect(dialog.locator(".meld-status")).to_have_text(f"12 cards · {DOUBLE_BREAKDOWN}")
    shoot(page, "meld-faces-reopened")
    dialog.get_by_role("button", name="Cancel").tap()
    panel.get_by_role("button", name="Close").tap()

    set_prices(page, sheet)
    page.goto(sheet)
    # Run 25 + royal marriage 4 + two single pinochles 4 + 4 + aces around 10 = 47, plus 32 in tricks.
    assert deal_scores(page, 1) == [47 + 30 + 2, 18]
    page.get_by_role("link", name="Edit deal 1").tap()
    expect(side_box(page, 0).locator("[data-cards-of]")).to_have_text(
        by_cards("Ann's meld", "run 25 + royal marriage 4 + 2 pinochle 8 + aces around 10 = 47 (♠ trump)"))
