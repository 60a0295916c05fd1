"""Names shown whole: on the big screen (1920×1080) 40 players of 24-character names each on one line, none cut
and nothing scrolled; on a phone (390 wide) a name breaks only between its words ("Kowalczyk" never as
"Kowal/czyk"; a double-barrelled name may break after its hyphen)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phones
from .event import make_event

pytestmark = pytest.mark.browser

BIG_SCREEN = {"viewport": {"width": 1920, "height": 1080}, "device_scale_factor": 1, "is_mobile": False,
              "has_touch": False}
SCROLLS = """() => [document.documentElement.scrollWidth > innerWidth,
                    document.documentElement.scrollHeight > innerHeight]"""
# The lines each word of an element's text is drawn on: a word on two lines was broken inside it.
WORD_LINES = """element => {
  const words = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/[^\\s-]+-?/g)) {  // a hyphen may end a line, as in print
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
      words.push([match[0], tops.size]);
    }
  }
  return words;
}"""
LINES = """element => { const range = document.createRange(); range.selectNodeContents(element);
  return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size; }"""


def test_forty_names_of_24_characters_fit_the_big_screen_whole_seated_and_ranked(phones: Phones,
                                                               shoot: Callable[..., Path | None]) -> None:
    big = phones.open(**BIG_SCREEN)
    players = [f"Małgorzata Kowalczyk {number:03}" for number in range(1, 41)]
    assert {len(name) for name in players} == {24}
    event = make_event(big, names=players, seated=False)
    seated = big.request.post(f"/api/v1/events/{event.public_id}/rounds",
                              headers={"Authorization": f"Bearer {event.token}"}).json()
    big.goto(f"{event.standings}?screen=big")  # seated, before the first deal: where to sit
    tables = big.locator(".big-list.seating > li")
    expect(tables).to_have_count(10)
    assert big.evaluate(SCROLLS) == [False, False], "the seating of 40 players does not fit the big screen"
    assert _no_word_broken(big, ".big-list.seating > li") == []
    lines = f"elements => elements.map({LINES})"  # all read in one go: the live part may be swapped in between
    assert [count for count in big.locator(".big-list.seating .seat-name").evaluate_all(lines) if count != 1] == []
    seating_text = big.locator(".big-list.seating").inner_text()
    assert [name for name in players if name not in seating_text] == []  # no name cut
    shoot(big, "event-big-screen-40-seated", full_page=False)
    match = seated["tables"][0]["match"]
    entered = big.request.post(f"/api/v1/matches/{match['id']}/deals",
                               data={"bidder": 0, "bid": 50, "sides": [{"total": 70}, {"total": 20}]},
                               headers={"Authorization": f"Bearer {match['edit_token']}"})
    assert entered.status == 201, entered.text()
    big.reload()  # once a deal is in, the standings
    names = big.locator(".big-list .big-name")
    expect(names).to_have_count(40)
    assert big.evaluate(SCROLLS) == [False, False], "40 players do not fit the big screen"
    shown = names.evaluate_all(f"elements => elements.map(e => [e.innerText, ({LINES})(e), "
                               "e.scrollWidth <= e.clientWidth])")
    assert sorted(text for text, _, _ in shown) == sorted(players)
    assert [(text, lines, fits) for text, lines, fits in shown if lines != 1 or not fits] == []
    shoot(big, "event-big-screen-40-long-names", full_page=False)


def _no_word_broken(page: Page, selector: str) -> list[tuple[str, int]]:
    """The words drawn on more than one line, in every element ``selector`` finds."""
    return [(word, lines) for words in page.locator(selector).evaluate_all(f"elements => elements.map({WORD_LINES})")
            for word, lines in words
            if lines > 1]


def test_a_phone_never_breaks_a_name_inside_a_word(page: Page) -> None:
    players = ["Kowalczyk", "Wiśniewska-Dąbrowska", "Jan Brzęczyszczykiewicz", "Ann", "Bartholomew Featherstonehaugh",
               "Bob", "Cy", "Di"]
    event = make_event(page, names=players)
    page.goto(event.standings)
    rows = page.locator("#overall tbody th[scope=row]")
    expect(rows).to_have_count(8)
    assert _no_word_broken(page, "#overall tbody th[scope=row]") == []
    kowalczyk = page.locator("#overall tbody th[scope=row]", has_text="Kowalczyk")
    assert kowalczyk.evaluate(LINES) == 1
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")  # the page itself never scrolls
    page.goto(event.director)
    assert _no_word_broken(page, ".table-sides th") == []
