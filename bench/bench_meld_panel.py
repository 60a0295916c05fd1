"""How tall the deal entry panel is on a phone, and how many meld tools each player's line offers.

Chromium (Debian's, /usr/bin/chromium) at 390×844 with touch opens a new deal in the panel over the sheet of a
partnership match (two sides of two named players) on the app of each checkout given (``--code PATH``;
default: this one), served by servers.py from a temporary SQLite database, in each way of entry, and prints:

- the panel's height: its content's full height in CSS pixels (what the player scrolls through);
- the meld tools in view for one player: buttons and links that count that player's meld (card faces, set
  counters, the calculator), as shown on the panel (folds closed).

    python bench/bench_meld_panel.py [--code /tmp/before] [--code .]
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from pathlib import Path

from bench_meld_taps import CHROMIUM, MATCH, PHONE
from playwright.sync_api import Page, sync_playwright
from servers import Code, codes, database, served

MODES = ("One number", "Meld + tricks")
# What counts one player's meld: the faces' button, the sets' fold, the calculator's link (Ann's, or the first side's
# one link when a side has one for its players).
ANN_TOOLS = re.compile(r"Count by cards \(Ann's meld\)|Count Ann's meld|Ann's meld from cards|Meld calculator")


def panel_height(page: Page, mode: str) -> int:
    page.get_by_role("radio", name=mode).tap()
    return int(page.locator("dialog.entry-panel").evaluate("(panel) => panel.scrollHeight"))


def ann_tools(page: Page) -> int:
    side = page.locator("fieldset[data-side='0']")
    side.get_by_role("button", name="Count by cards (Ann's meld)").wait_for()
    found = side.locator("button:visible, a:visible, summary:visible").filter(has_text=ANN_TOOLS)
    return found.count()


def measure(code: Code, folder: Path) -> dict[str, int]:
    with database(None, folder) as url, served(code, url, folder) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_context(base_url=server.base, **PHONE).new_page()
            page.goto("/")
            made = page.request.post("/api/v1/matches", data=json.dumps(MATCH),
                                     headers={"Content-Type": "application/json"})
            page.goto(f"/m/{made.json()['id']}")
            page.get_by_role("link", name=re.compile(r"Add deal \d+")).tap()
            page.get_by_role("dialog", name=re.compile(r"^Deal \d+$")).wait_for()
            found = {mode: panel_height(page, mode) for mode in MODES}
            found["meld tools (Ann)"] = ann_tools(page)
            return found
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", action="append", help="a checkout to measure (repeat; default: this one)")
    args = parser.parse_args()
    print(f"{'checkout':28} {'panel, one number':>18} {'panel, meld + tricks':>21} {'meld tools (Ann)':>17}")
    for code in codes(args.code, cache_off=False):
        with tempfile.TemporaryDirectory() as folder:
            found = measure(code, Path(folder))
        print(f"{code.label:28} {found[MODES[0]]:>15} px {found[MODES[1]]:>18} px {found['meld tools (Ann)']:>17}")


if __name__ == "__main__":
    main()
