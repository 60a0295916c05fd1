"""Inputs and estimated seconds a player needs to enter one quick and one detailed deal on a phone.

Chromium (Debian's, /usr/bin/chromium) at 390×844 with touch plays the same two deals on the app of a
checkout (the current tree by default; ``--checkout PATH``, e.g. a ``git worktree`` of another
revision) served by waitress from a temporary SQLite database, and counts what the player does, from
the score sheet's "Add deal" to the sheet after Save:

- taps: every control touched (a field to type in, a choice, a bid chip, Save);
- keystrokes: digits typed, plus one backspace per character already in a field that must be cleared;
- scrolls: one swipe per three quarters of a screen between the view and a control that is off screen
  or hidden under something drawn over it (a sticky bar); those needed to reach Save are shown apart;
- thinking: one mental act per value the player enters, and one more where two partners' melds must be
  added up by head because the form has one meld field per side.

The match: We (Ann, Bob) against They (Cy, Di), double deck to 500, two deals already played (bids 60
and 55, entered as one number a side). The deals entered:

- quick: They bid 60 and take 62, We take 38 (one number a side);
- detailed: We bid 50 (the minimum); Ann melds 24 and Bob 19 (43), We take 30 trick points and the
  last trick; They meld 4 (Cy), and take the other 18 (filled in by the form once We's are typed).

Where the form offers a chip for the bid, it is tapped; otherwise the bid is typed. The page is not
resized for the on-screen keyboard (headless Chromium has none), so the counts of scrolls are a floor.

Seconds are a keystroke-level model estimate (Card, Moran and Newell's KLM, with touch operators):
tap (point at a control and touch it) 0.75 s, keystroke on the phone's keypad 0.35 s, scroll (swipe and
find the place again) 1.0 s, mental act 1.35 s. Page loads and the server's answers are not counted.

    python bench/bench_deal_entry.py [--checkout PATH] [--label NAME] [--json]

It has no goal of its own: its figures compare two forms of deal entry (two checkouts) on the same deals.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, sync_playwright

TAP, KEY, SCROLL, THINK = 0.75, 0.35, 1.0, 1.35  # seconds per action (KLM, touch)
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
                         "device_scale_factor": 3}
CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
MATCH = {
    "format": "pinochle-match/1", "name": "Bench",
    "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
    "rules": {},
    "deals": [{"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]},
              {"bidder": 1, "bid": 55, "sides": [{"total": 38}, {"total": 62}]}],
}


@dataclass
class Inputs:
    """What the player did for one deal."""

    taps: int = 0
    keystrokes: int = 0
    scrolls: int = 0
    scrolls_to_save: int = 0
    thinking: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return self.taps * TAP + self.keystrokes * KEY + self.scrolls * SCROLL + self.thinking * THINK


class Player:
    """Drives the page as a thumb would and counts each input."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.inputs = Inputs()

    def reach(self, control: Locator) -> int:
        """Scroll until ``control`` is on screen and not covered; returns the swipes it took."""
        control.wait_for(state="visible")
        where = control.evaluate(
            """(element) => {
                const box = element.getBoundingClientRect();
                const x = box.left + box.width / 2, y = box.top + box.height / 2;
                const hit = document.elementFromPoint(x, y);
                const seen = y >= 0 && y <= innerHeight && (element.contains(hit)
                  || [...(element.labels || [])].some((label) => label.contains(hit)));
                return { seen, y, height: innerHeight };
            }"""
        )
        if where["seen"]:
            return 0
        distance = where["y"] - where["height"] / 2
        swipes = max(1, math.ceil(abs(distance) / (0.75 * where["height"])))
        self.page.evaluate("(dy) => window.scrollBy(0, dy)", distance)
        self.inputs.scrolls += swipes
        name = control.evaluate("(element) => element.name || element.textContent.trim()")
        self.inputs.notes.append(f"{swipes} scroll{'s' if swipes > 1 else ''} to {name}")
        return swipes

    def tap(self, control: Locator) -> None:
        self.reach(control)
        control.tap()
        self.inputs.taps += 1

    def type(self, field: Locator, text: str) -> None:
        """Tap the field, clear what is in it key by key, type ``text``."""
        self.tap(field)
        existing = field.input_value()
        if existing:
            self.inputs.keystrokes += len(existing)
            self.inputs.notes.append(f"cleared {existing!r}")
        field.fill("")
        field.press_sequentially(text)
        self.inputs.keystrokes += len(text)
        self.inputs.thinking += 1

    def bid(self, value: int) -> None:
        chip = self.page.locator(f"button[data-bid='{value}']")
        if chip.count() and chip.is_visible():
            self.tap(chip)
            self.inputs.thinking += 1
            self.inputs.notes.append(f"bid {value} from a chip")
        else:
            self.type(self.page.locator("input[name='bid']"), str(value))

    def choose(self, group: str, name: str) -> None:
        radio = self.page.get_by_role("group", name=group).get_by_role("radio", name=name, exact=True)
        if not radio.is_checked():
            self.tap(radio)

    def save(self) -> None:
        button = self.page.get_by_role("button", name="Save deal")
        self.inputs.scrolls_to_save = self.reach(button)
        with self.page.expect_navigation():
            button.tap()
        self.inputs.taps += 1


def open_new_deal(page: Page, player: Player) -> None:
    page.get_by_role("link", name="Add deal").first.wait_for()
    with page.expect_navigation():
        player.tap(page.get_by_role("link", name="Add deal").first)


def quick_deal(page: Page) -> Inputs:
    player = Player(page)
    open_new_deal(page, player)
    mode = page.locator("input[name='mode'][value='quick']")
    if not mode.is_checked():
        player.tap(page.get_by_role("radio", name="One number"))
    player.choose("Who won the bid?", "They")
    player.bid(60)
    player.type(page.locator("input[name='sides-0-total']"), "38")
    player.type(page.locator("input[name='sides-1-total']"), "62")
    player.save()
    return player.inputs


def meld_field(page: Page, side: int, hand: int) -> Locator | None:
    """A hand's meld field: one per partner on a form that has them, else the side's one field."""
    per_hand = page.locator(f"input[name='sides-{side}-hands-{hand}-meld']")
    if per_hand.count():
        return per_hand
    return page.locator(f"input[name='sides-{side}-meld']") if hand == 0 else None


def detailed_deal(page: Page) -> Inputs:
    player = Player(page)
    open_new_deal(page, player)
    if not page.locator("input[name='mode'][value='detail']").is_checked():
        player.tap(page.get_by_role("radio", name="Meld + tricks"))
    player.choose("Who won the bid?", "We")
    player.bid(50)
    last_trick_first = page.evaluate(  # the player fills the form from the top down
        """() => !!(document.querySelector("input[name='last_trick']").compareDocumentPosition(
                     document.querySelector("fieldset[data-side='0']")) & Node.DOCUMENT_POSITION_FOLLOWING)""")
    if last_trick_first:
        player.choose("Who took the last trick?", "We")
    bob = meld_field(page, 0, 1)
    ann = meld_field(page, 0, 0)
    assert ann is not None
    if bob is None:  # one field for the side: the partners' melds are added up by head
        player.inputs.thinking += 1
        player.inputs.notes.append("added 24 + 19 by head")
        player.type(ann, "43")
    else:
        player.type(ann, "24")
        player.type(bob, "19")
    player.type(page.locator("input[name='sides-0-tricks']"), "30")
    they_tricks = page.locator("input[name='sides-1-tricks']")
    if they_tricks.input_value() != "18":  # without the form's script, typed by hand
        player.type(they_tricks, "18")
    cy = meld_field(page, 1, 0)
    assert cy is not None
    player.type(cy, "4")
    if not last_trick_first:
        player.choose("Who took the last trick?", "We")
    player.save()
    return player.inputs


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(checkout: Path, folder: Path, port: int) -> subprocess.Popen[bytes]:
    """The checkout's app under waitress, its own package first on the path."""
    code = ("import sys; from waitress import serve; from scorekeeper import create_app; "
            "serve(create_app(), host='127.0.0.1', port=int(sys.argv[1]), threads=4, _quiet=True)")
    env = {**os.environ, "PYTHONPATH": str(checkout), "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite'}",
           "SCOREKEEPER_INSTANCE": str(folder), "SECRET_KEY": "bench-only",
           "SCOREKEEPER_CREATE_LIMIT": "1000 per minute"}
    server = subprocess.Popen([sys.executable, "-c", code, str(port)], env=env, cwd=folder)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5):
                return server
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.terminate()
                raise SystemExit("the app did not start") from None
            time.sleep(0.2)


def play(base_url: str) -> dict[str, Inputs]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            results = {}
            for name, deal in (("quick", quick_deal), ("detailed", detailed_deal)):
                context = browser.new_context(base_url=base_url, **PHONE)
                page = context.new_page()
                page.goto("/import")
                page.get_by_label("Or paste the match file").fill(json.dumps(MATCH))
                with page.expect_navigation():
                    page.get_by_role("button", name="Import").click()
                results[name] = deal(page)
                page.locator("tr#deal-3").wait_for()  # saved: the sheet shows the third deal
                context.close()
            return results
        finally:
            browser.close()


def revision(checkout: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", "--rev", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the source tree whose app is played (default: this one)")
    parser.add_argument("--label", default="", help="a name for the run in the report")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = serve(checkout, Path(folder), port)
        try:
            results = play(f"http://127.0.0.1:{port}")
        finally:
            server.terminate()
            server.wait(timeout=10)
    label = args.label or f"{checkout} @ {revision(checkout)}"
    if args.json:
        print(json.dumps({"label": label, **{name: {**asdict(inputs), "seconds": round(inputs.seconds, 2)}
                                              for name, inputs in results.items()}}, indent=2))
        return
    print(label)
    print(f"{'deal':10} {'taps':>5} {'keys':>5} {'scrolls':>8} {'to Save':>8} {'think':>6} {'seconds':>8}")
    for name, inputs in results.items():
        print(f"{name:10} {inputs.taps:5} {inputs.keystrokes:5} {inputs.scrolls:8} {inputs.scrolls_to_save:8} "
              f"{inputs.thinking:6} {inputs.seconds:8.1f}   {'; '.join(inputs.notes)}")


if __name__ == "__main__":
    main()
