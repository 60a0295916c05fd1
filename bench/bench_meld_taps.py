"""Taps a player needs to count a hand's meld: on the meld calculator, and from a deal form's meld box.

Chromium (Debian's, /usr/bin/chromium) at 390×844 with touch enters the same hands on the app of each
checkout given (``--code PATH``, e.g. a ``git worktree`` of another revision; default: this one), served by
servers.py from a temporary SQLite database, and counts the taps:

- a count per card (a ``<select>``): a tap to open it and a tap to choose the count, per distinct card;
- card faces: a tap per copy of a card;
- the trump: a tap; in the deal form, also the tap that opens the counting and the one that uses its total
  (the page loads there are counted apart).

The hands: a 20-card double-deck hand with one of each card and trump spades, and RULES.md's worked
12-card single-deck hand with trump hearts. Each checkout's best meld is printed, so that both are seen to
count the same hand.

    python bench/bench_meld_taps.py [--code /work/before-meld] [--code .]

Goals: the double-deck hand in at most 22 taps, the single-deck one in at most 14 (on the calculator).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright
from servers import Code, codes, database, served

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
                         "device_scale_factor": 3}
CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
DOUBLE_HAND = [f"{rank}{suit}" for suit in "SHDC" for rank in ("A", "10", "K", "Q", "J")]
SINGLE_HAND = ["AH", "10H", "KH", "QH", "JH", "KH", "QH", "9H", "QS", "JD", "AS", "AC"]
HANDS = (("double", "double", "♠ Spades", DOUBLE_HAND, 22), ("single", "single", "♥ Hearts", SINGLE_HAND, 14))
MATCH = {
    "format": "pinochle-match/1", "name": "Bench",
    "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
    "rules": {"deck": "double", "meld_table": "double-small"}, "deals": [],
}


@dataclass
class Count:
    taps: int = 0
    page_loads: int = 0
    meld: str = ""


def enter_cards(page: Page, hand: list[str], count: Count) -> None:
    """Enter ``hand`` as the page offers: a tap per copy on card faces, else two taps per distinct card."""
    faces = page.locator("[data-code] .face-add")
    if faces.count():
        for code in hand:
            page.locator(f"[data-code='{code}'] .face-add").tap()
            count.taps += 1
        return
    for code, copies in Counter(hand).items():
        select = page.locator(f"select[name='n_{code}']")
        select.tap()  # opens the phone's picker
        select.select_option(str(copies))  # the count chosen in it
        count.taps += 2


def on_calculator(page: Page, deck: str, trump: str, hand: list[str]) -> Count:
    count = Count()
    page.goto(f"/meld?deck={deck}")
    page.wait_for_load_state("networkidle")
    enter_cards(page, hand, count)
    page.get_by_role("radio", name=trump).tap()
    count.taps += 1
    status = page.locator("[data-meld-status] strong")
    status.wait_for()
    count.meld = status.inner_text()
    return count


def in_deal_form(page: Page, trump: str, hand: list[str]) -> Count:
    """From a new deal's form (detailed entry) to Ann's meld box filled in with the hand's best meld."""
    count = Count()
    page.goto("/import")
    page.get_by_label("Or paste the match file").fill(json.dumps(MATCH))
    with page.expect_navigation():
        page.get_by_role("button", name="Import").click()
    page.goto(page.url + "/deals/new")
    page.get_by_role("radio", name="Meld + tricks").tap()  # not counted: the same on both
    opener = page.get_by_role("button", name="Count by cards (Ann's meld)")
    if opener.count():
        opener.tap()
        count.taps += 1
        dialog = page.get_by_role("dialog")
        dialog.locator("[data-code] .face-add").first.wait_for()  # the faces, drawn as the dialog opens
        enter_cards(page, hand, count)
        dialog.get_by_role("radio", name=trump).tap()
        use = dialog.get_by_role("button", name="Use")
    else:
        with page.expect_navigation():
            page.get_by_role("link", name="Ann's meld from cards").tap()
        count.taps += 1
        count.page_loads += 1
        page.wait_for_load_state("networkidle")
        enter_cards(page, hand, count)
        page.get_by_role("radio", name=trump).tap()
        use = page.get_by_role("link", name="Use in deal")
    count.taps += 2
    with page.expect_navigation() if count.page_loads else nullcontext():
        use.tap()
    if count.page_loads:
        count.page_loads += 1
    page.locator("[data-meld-total='0']").filter(has_text=re.compile(r"^\d")).wait_for()
    count.meld = page.locator("[data-meld-total='0']").inner_text()
    return count


def measure(code: Code, folder: Path) -> dict[str, Count]:
    with database(None, folder) as url, served(code, url, folder) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        found = {}
        try:
            for name, deck, trump, hand, _ in HANDS:
                context = browser.new_context(base_url=server.base, **PHONE)
                found[f"calculator, {name} deck"] = on_calculator(context.new_page(), deck, trump, hand)
                context.close()
            context = browser.new_context(base_url=server.base, **PHONE)
            found["deal form, double deck"] = in_deal_form(context.new_page(), "♠ Spades", DOUBLE_HAND)
            context.close()
        finally:
            browser.close()
        return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", action="append", help="a checkout to measure (repeat; default: this one)")
    args = parser.parse_args()
    goals = {f"calculator, {name} deck": goal for name, _, _, _, goal in HANDS}
    print(f"{'checkout':28} {'hand':26} {'taps':>5} {'loads':>6} {'goal':>5}  best meld")
    for code in codes(args.code, cache_off=False):
        with tempfile.TemporaryDirectory() as folder:
            for hand, count in measure(code, Path(folder)).items():
                goal = goals.get(hand)
                print(f"{code.label:28} {hand:26} {count.taps:5} {count.page_loads:6} {goal or '':>5}  {count.meld}")


if __name__ == "__main__":
    main()
