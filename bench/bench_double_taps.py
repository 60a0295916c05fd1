"""Double taps on what opens or closes a panel on the score sheet: what the second tap does, code beside code.

Each code compared (``--code CHECKOUT``, repeatable, default this checkout) is served by servers.py (waitress)
on a new SQLite file with one match of 30 deals: We (Ann, Bob) against They (Cy, Di), to 5000. Debian's Chromium
(/usr/bin/chromium) at 390×844 sends real touch taps (Chromium's DevTools protocol, Input.dispatchTouchEvent: a
touch's start and end, as a finger does), two on the same point ``--gaps`` milliseconds apart (50, 80, 120 and 250
by default, by the machine's clock), on every control that opens or closes a panel:

- "+ Add deal" (at the top of the sheet; its first double tap is the page's first tap, as after a page load);
- a deal's number, and a deal's scores (its row), with the deal at the top, the middle and the bottom of the
  screen (deals 2, 15 and 29 of the sheet, scrolled there);
- the panel's Close and its form's Cancel, the panel opened from those three deals;
- the deal form's "Count by cards" (the card faces' dialog) and that dialog's Cancel, where the form has them.

After each double tap, once the page has been left alone for ``--settle`` ms, it reads what the first tap alone
gives (read the same way after a single tap of the same control): which dialog is open, the open form's values,
the card faces counted, the page's address and the explanations open. What differs is a selection made by the
second tap. The match is read through the API before and after: a deal added, changed or deleted is a stored
change. Goal: 0 stored changes and 0 selections made by a second tap.

    python bench/bench_double_taps.py --code /tmp/before --code .
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_meld_taps import CHROMIUM, PHONE
from playwright.sync_api import CDPSession, Locator, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError
from servers import codes, database, served

MATCH = {"format": "pinochle-match/1", "name": "Bench",
         "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
         "rules": {"target": 5000},
         "deals": [{"bidder": number % 2, "bid": 50, "sides": [{"total": 30}, {"total": 20}]} for number in range(30)]}
PANEL = "dialog.entry-panel[open]"
PLACES = {"top": (2, "start"), "middle": (15, "center"), "bottom": (29, "end")}
# What the page shows that a tap may have changed: the open dialogs (their names), the open form's values, the
# card faces counted, the address and the explanations open.
STATE = """() => ({
  dialogs: [...document.querySelectorAll("dialog[open]")].map((d) => d.querySelector("h2")?.textContent.trim() ?? "?"),
  form: [...document.querySelectorAll("dialog[open] form.deal-form")].flatMap((form) => [...new FormData(form)]
    .filter(([name]) => !["csrf_token", "write_key"].includes(name)).map(([name, value]) => `${name}=${value}`)),
  faces: document.querySelector(".faces-dialog[open] .meld-status")?.textContent ?? null,
  address: location.href,
  explained: document.querySelectorAll("details.explain[open]").length,
})"""


@dataclass
class Tally:
    """Per code: double taps made, selections made by a second tap (with what they were), stored changes."""

    taps: int = 0
    selections: list[str] = field(default_factory=list)
    stored: int = 0


class Phone:
    """One code's phone: the sheet of the bench match, and real touch taps on it."""

    def __init__(self, page: Page, base: str, match: str, settle_ms: int) -> None:
        self.page, self.base, self.match, self.settle = page, base, match, settle_ms / 1000
        self.session: CDPSession = page.context.new_cdp_session(page)

    def touch(self, x: float, y: float) -> None:
        self.session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        self.session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def taps(self, control: Locator, gap_ms: int | None, opens: str | None) -> None:
        """One tap on the middle of ``control``, or two ``gap_ms`` apart; then the page is left alone, once what
        the tap opens (``opens``: a selector) is open, however long its script and form take to come."""
        box = control.bounding_box()
        assert box is not None, control
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        started = time.perf_counter()
        self.touch(x, y)
        if gap_ms is not None:
            time.sleep(max(0.0, gap_ms / 1000 - (time.perf_counter() - started)))
            self.touch(x, y)
        if opens:
            with suppress(PlaywrightError):  # closed again (or another page) by a second tap: read as it is
                self.page.wait_for_selector(opens, timeout=10_000)
        time.sleep(self.settle)

    def state(self) -> dict[str, Any]:
        """What the page shows (read again once loaded, should a tap have led to another page)."""
        try:
            return dict(self.page.evaluate(STATE))
        except PlaywrightError:
            self.page.wait_for_load_state()
            return dict(self.page.evaluate(STATE))

    def fresh(self) -> None:
        """The sheet as loaded, nothing open: each double tap starts alike (the first is the page's first tap)."""
        self.page.goto(f"{self.base}/m/{self.match}")
        self.page.get_by_role("link", name="+ Add deal 31").wait_for()

    def warm(self) -> None:
        """The panel opened once and closed as done (by a script: no tap), so that the next opens within the tap."""
        self.page.get_by_role("link", name="+ Add deal 31").tap()
        self.panel().get_by_role("button", name="Save deal").wait_for()
        self.page.evaluate("() => document.querySelector('dialog[open]').close('done')")
        self.page.wait_for_timeout(700)

    def deal(self, number: int, block: str) -> Locator:
        row = self.page.locator(f"tr#deal-{number}")
        row.evaluate("(row, block) => row.scrollIntoView({ block })", block)
        return row

    def panel(self) -> Locator:
        return self.page.locator("dialog.entry-panel[open]")

    def stored(self) -> list[Any]:
        with urllib.request.urlopen(f"{self.base}/api/v1/matches/{self.match}", timeout=30) as answer:  # noqa: S310
            return list(json.load(answer)["match"]["deals"])


def compare(phone: Phone, tally: Tally, name: str, gaps: list[int], ready: Callable[[], Locator],
            warm: bool = False, opens: str | None = PANEL) -> None:
    """``ready`` brings the page to where the control is and gives it; a single tap, then a double tap at each
    gap, each from the same start (the page just loaded; ``warm``: with the panel opened and closed once); what
    differs from the single tap is the second tap's doing."""
    def start() -> Locator:
        phone.fresh()
        if warm:
            phone.warm()
        return ready()
    phone.taps(start(), None, opens)
    alone = phone.state()
    for gap in gaps:
        phone.taps(start(), gap, opens)
        tally.taps += 1
        after = phone.state()
        changed = sorted(key for key in alone if after[key] != alone[key])
        if changed:
            tally.selections.append(f"{name} at {gap} ms: " + ", ".join(difference(key, alone[key], after[key])
                                                                          for key in changed))


def difference(key: str, alone: Any, after: Any) -> str:
    """What the second tap changed of ``key``: a form's fields that differ, or the value before and after."""
    if key == "form" and alone and not after:
        return "its form closed"
    if key == "form" and alone:
        return "fields " + ", ".join(sorted(set(after) - set(alone))) + " (were " + ", ".join(
            sorted(set(alone) - set(after))) + ")"
    return f"{key} {alone!r} → {after!r}"


def opened_from(phone: Phone, place: str) -> Callable[[], Locator]:
    """The panel opened from the deal at ``place`` (a deliberate tap, then a pause): the panel."""
    number, block = PLACES[place]

    def ready() -> Locator:
        phone.deal(number, block).locator(".deal-number a").tap()
        phone.panel().get_by_role("button", name="Save deal").wait_for()
        phone.page.wait_for_timeout(700)
        return phone.panel()
    return ready


def run(phone: Phone, tally: Tally, gaps: list[int]) -> None:
    before = phone.stored()
    page = phone.page
    for warm, when in ((False, "first tap"), (True, "panel loaded")):
        add = page.get_by_role("link", name="+ Add deal 31")
        compare(phone, tally, f'"+ Add deal" ({when})', gaps, lambda a=add: a, warm)
        for place, (number, block) in PLACES.items():
            compare(phone, tally, f"deal {number}'s number ({place}, {when})", gaps,
                    lambda n=number, b=block: phone.deal(n, b).locator(".deal-number a"), warm)
            compare(phone, tally, f"deal {number}'s scores ({place}, {when})", gaps,
                    lambda n=number, b=block: phone.deal(n, b).locator("td.num").last, warm)
    for place, (number, _) in PLACES.items():
        compare(phone, tally, f"Close (deal {number}, {place})", gaps,
                lambda p=place: opened_from(phone, p)().get_by_role("button", name="Close"), opens=None)

        def cancel(p: str = place) -> Locator:
            link = opened_from(phone, p)().get_by_role("link", name="Cancel")
            link.scroll_into_view_if_needed()
            return link
        compare(phone, tally, f"Cancel (deal {number}, {place})", gaps, cancel, opens=None)

    def count_by_cards() -> Locator:
        page.get_by_role("link", name="+ Add deal 31").tap()
        panel = phone.panel()
        panel.get_by_role("radio", name="Meld + tricks").tap()
        button = panel.locator("button", has_text="Count by cards").first
        button.scroll_into_view_if_needed()
        page.wait_for_timeout(700)
        return button

    phone.fresh()
    if count_by_cards().count():
        compare(phone, tally, '"Count by cards"', gaps, count_by_cards, opens=".faces-dialog[open]")

        def faces_cancel() -> Locator:
            count_by_cards().tap()
            page.locator(".faces-dialog[open]").get_by_role("button", name="Cancel").wait_for()
            page.wait_for_timeout(700)
            return page.locator(".faces-dialog[open]").get_by_role("button", name="Cancel")
        compare(phone, tally, "card faces' Cancel", gaps, faces_cancel, opens=None)
    after = phone.stored()
    tally.stored = sum(1 for old, new in zip(before, after, strict=False) if old != new) + abs(len(after) - len(before))


def new_match(base: str) -> str:
    request = urllib.request.Request(f"{base}/api/v1/matches", json.dumps(MATCH).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - the bench's own server
        return str(json.load(response)["id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", action="append", help="a checkout to compare (repeatable)")
    parser.add_argument("--gaps", type=int, nargs="+", default=[50, 80, 120, 250],
                        help="milliseconds between the two taps (50 80 120 250)")
    parser.add_argument("--settle", type=int, default=700, help="ms the page is left alone after the taps (700)")
    args = parser.parse_args()
    with ExitStack() as stack, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        for code in codes(args.code, cache_off=False):
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            server = stack.enter_context(served(code, stack.enter_context(database(None, folder)), folder))
            page = browser.new_context(**PHONE).new_page()
            tally = Tally()
            run(Phone(page, server.base, new_match(server.base), args.settle), tally, args.gaps)
            page.context.close()
            print(f"{code.label}: {tally.taps} double taps, stored changes {tally.stored},"
                  f" selections made by the second tap {len(tally.selections)}")
            for line in tally.selections:
                print(f"  {line}")


if __name__ == "__main__":
    main()
