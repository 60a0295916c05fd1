"""Entering deals from the score sheet on a phone: page loads, taps and seconds per deal, code beside code.

Each code compared (``--code CHECKOUT``, repeatable, default this checkout) is served by servers.py (waitress)
on a new SQLite file with one match: We (Ann, Bob) against They (Cy, Di), double deck to 5000 (so that no deal
of the run comes after the end). Debian's Chromium (/usr/bin/chromium) at 390×844 with touch enters from the
sheet, the codes taking turns deal by deal (a busy machine slows them alike), ``--deals``
quick deals (10: Cy bids 60, the sides take 38 and 62) and as many detailed ones (Ann bids 50; Ann melds 24 and
Bob 19, We take 30 and the last trick, Cy melds 4), through the sheet's entry panel where it has one and the
form page otherwise, as a player would: tap who bid (and the side when the form leaves it blank), type the
numbers (a field is tapped unless it already has focus; the keypad's Enter goes to the next number), Save. A
choice the form already shows chosen is not tapped again (a new deal starts in the last deal's way of entry).

Per code and kind of deal it prints the median of: page loads (the main frame's navigations), taps besides
typing numbers (controls tapped, fields tapped to type in), and seconds from "Add deal" to the sheet showing the
deal (the server's answers included), and of those the seconds spent waiting for the app: from "Add deal" to
the form ready, and from "Save" to the sheet showing the deal (what the app itself costs a player; the rest is
the driver tapping and typing, the same for every code). Each wait watches the page as it changes. Goals:
quick deal 0 page loads and at most 4 taps; detailed 0 page loads and at most 8 taps; seconds at most 60% of
the first code's.

    python bench/bench_deal_entry.py --code /work/before-entry --code .
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, sync_playwright
from servers import codes, database, served

CHROMIUM = "/usr/bin/chromium"
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
MATCH = {"format": "pinochle-match/1", "name": "Bench",
         "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
         "rules": {"target": 5000}, "deals": []}
GOALS = {"quick": 4, "detailed": 8}
SPEED_GOAL = 0.6


@dataclass(frozen=True)
class Entry:
    """One deal entered: seconds in all, seconds waiting for the app (the form to open, then the saved deal
    to show), page loads and taps."""

    seconds: float
    waiting: float
    loads: int
    taps: int


class Player:
    """Enters one deal from the sheet, counting taps and the main frame's page loads."""

    def __init__(self, page: Page) -> None:
        self.page, self.taps, self.loads = page, 0, 0
        self.form: Page | Locator = page  # where the deal's form is: the panel, or the form page
        page.on("framenavigated", self._loaded)

    def _loaded(self, frame: Any) -> None:
        if frame == self.page.main_frame:
            self.loads += 1

    def tap(self, control: Locator) -> None:
        control.tap()
        self.taps += 1

    def scope(self) -> Page | Locator:
        panel = self.page.locator("dialog[open]")
        return panel if panel.count() else self.page

    def choose(self, choice: Locator) -> None:
        """A choice is tapped unless the form already shows it chosen (a new deal keeps the last one's way of entry)."""
        if not choice.is_checked():
            self.tap(choice)

    def side(self, field: str, index: int) -> Locator:
        """A side's choice by its place (its name is the players' on newer pages, "We"/"They" on older)."""
        return self.form.locator(f"label.choice:has(input[name='{field}'][value='{index}'])")

    def who_bid(self, player: str, side: int) -> None:
        """The player who bid: one tap where "Who bid?" is a row of the players (the side follows), two on older
        pages (the player, then the side)."""
        players = self.form.get_by_role("group", name="Who bid?", exact=True)
        if players.count():
            self.choose(players.get_by_role("radio", name=player, exact=True))
            return
        bidders = self.form.get_by_role("group", name="Who bid? (one of the bidding side)")
        self.choose(bidders.get_by_role("radio", name=player))
        self.choose(self.side("bidder", side))  # the form left the side blank: the player taps it too

    def number(self, name: str, value: int) -> None:
        field = self.form.locator(f"input[name='{name}']")
        if not field.evaluate("(input) => input === document.activeElement"):
            self.tap(field)
        field.press_sequentially(str(value))  # into an empty field: every deal here is a new one
        field.press("Enter")  # the keypad's "next": not a tap

    def enter(self, deal: str, count: int) -> Entry:
        started = time.perf_counter()
        self.taps = self.loads = 0
        self.tap(self.page.get_by_role("link", name=f"+ Add deal {count + 1}"))
        self.scope().get_by_role("button", name="Save deal").wait_for()
        # A form page is typed in once its script runs: before, the keypad's Enter sends the form half filled in.
        self.page.wait_for_load_state("domcontentloaded")
        waited = time.perf_counter() - started
        self.form = self.scope()  # asked once a deal: the page does not change it while the deal is typed
        if deal == "quick":
            self.who_bid("Cy", 1)
            self.number("bid", 60)
            self.number("sides-0-total", 38)
            self.number("sides-1-total", 62)
        else:
            self.choose(self.form.get_by_role("radio", name="Meld + tricks"))
            self.who_bid("Ann", 0)
            self.number("bid", 50)
            self.choose(self.side("last_trick", 0))
            self.number("sides-0-hands-0-meld", 24)
            self.number("sides-0-hands-1-meld", 19)
            self.number("sides-0-tricks", 30)
            self.number("sides-1-hands-0-meld", 4)
        saving = time.perf_counter()
        self.tap(self.form.get_by_role("button", name="Save deal"))
        saved = self.page.locator(".match-meta").filter(has_text=re.compile(rf"· {count + 1} deals?$"))
        refused = self.page.locator(".field-error, .form-errors").filter(visible=True)
        saved.or_(refused).first.wait_for()  # watched in the page as it changes (expect would look at intervals)
        if refused.count():
            raise SystemExit(f"deal {count + 1} ({deal}) refused: " + " / ".join(refused.all_inner_texts()))
        ended = time.perf_counter()
        return Entry(ended - started, waited + ended - saving, self.loads, self.taps)


def new_match(base: str) -> str:
    request = urllib.request.Request(f"{base}/api/v1/matches", json.dumps(MATCH).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - the bench's own server
        return f"{base}/m/{json.load(response)['id']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", action="append", help="a checkout to compare (repeatable)")
    parser.add_argument("--deals", type=int, default=10, help="deals of each kind (10)")
    args = parser.parse_args()
    results: dict[str, dict[str, list[Entry]]] = {}
    with ExitStack() as stack, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        players = {}
        for code in codes(args.code, cache_off=False):
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            server = stack.enter_context(served(code, stack.enter_context(database(None, folder)), folder))
            page = browser.new_context(**PHONE).new_page()
            page.goto(new_match(server.base))
            players[code.label] = Player(page)
            results[code.label] = {"quick": [], "detailed": []}
        for index in range(2 * args.deals):  # the codes take turns, deal by deal
            kind = "quick" if index < args.deals else "detailed"
            for label, player in players.items():
                results[label][kind].append(player.enter(kind, index))
    report(results)


def report(results: dict[str, dict[str, list[Entry]]]) -> None:
    first = next(iter(results.values()))
    for label, kinds in results.items():
        print(label)
        for kind, deals in kinds.items():
            seconds = statistics.median(deal.seconds for deal in deals)
            waiting = statistics.median(deal.waiting for deal in deals)
            loads = statistics.median(deal.loads for deal in deals)
            taps = statistics.median(deal.taps for deal in deals)
            ratio = seconds / statistics.median(deal.seconds for deal in first[kind])
            waiting_ratio = waiting / statistics.median(deal.waiting for deal in first[kind])
            met = loads == 0 and taps <= GOALS[kind]
            print(f"  {kind:8} page loads {loads:g}, taps {taps:g}, {seconds:.2f} s a deal"
                  f" ({ratio:.0%} of the first), of which waiting for the app {waiting:.2f} s"
                  f" ({waiting_ratio:.0%})  loads+taps goal {'met' if met else 'missed'};"
                  f" speed goal {'met' if ratio <= SPEED_GOAL else 'missed'}")


if __name__ == "__main__":
    main()
