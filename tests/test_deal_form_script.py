"""The deal form's script in Chromium: what was typed survives a trip to the meld calculator."""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper import create_app, store
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.match import Match, SideInfo

pytestmark = pytest.mark.browser

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any, str]]:
    """The app under waitress, a match to enter deals in, and a Chromium (skipped when there is none)."""
    from waitress import create_server

    chromium = os.environ.get("SCOREKEEPER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(chromium, os.X_OK):
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail("no Chromium to run the page's script in", pytrace=False)
        pytest.skip("no Chromium to run the page's script in")
    folder = tmp_path_factory.mktemp("deal-form-script")
    app = create_app({"DATABASE_URL": f"sqlite:///{folder / 'db.sqlite'}", "SECRET_KEY": "script-test",
                      "INSTANCE_PATH": str(folder)})
    with app.app_context():
        sides = (SideInfo("We", ()), SideInfo("They", ()))
        public_id = store.create_match(Match(sides=sides, rules=HouseRules(), deals=())).public_id
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        yield f"http://127.0.0.1:{server.effective_port}", browser, public_id
        browser.close()
    server.close()
    thread.join(timeout=5)
    app.extensions["scorekeeper.engine"].dispose()


def test_typed_values_come_back_with_the_meld_from_the_calculator(served: tuple[str, Any, str]) -> None:
    base, browser, public_id = served
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}/m/{public_id}/deals/new")
    page.locator('input[name="mode"][value="detail"]').check()
    page.locator('input[name="bidder"][value="1"]').check()
    page.locator('input[name="bid"]').fill("70")
    page.locator('input[name="sides-0-tricks"]').fill("30")
    page.locator('input[name="sides-1-meld"]').fill("12")
    page.locator('input[name="sides-1-tricks"]').fill("18")
    page.locator('input[name="last_trick"][value="0"]').check()
    page.locator("details.count-meld").first.locator("summary").click()
    page.locator('input[name="sides-0-sets-pinochle"]').fill("3")  # counted before, replaced by the calculator

    with page.expect_navigation():
        page.locator("a[data-keeps-form]").first.click()  # side 0: We
    page.get_by_label("Type cards").fill("AH 10H KH QH JH")
    page.get_by_role("button", name="Count meld").click()
    use = page.get_by_role("link", name=re.compile(r"Use in deal \(♥ trump\)"))
    with page.expect_navigation():
        use.click()

    assert "side=0" in page.url and "sets=" in page.url
    sync_api.expect(page.locator('input[name="sides-0-sets-run"]')).to_have_value("1")  # from the calculator
    sync_api.expect(page.locator('input[name="sides-0-sets-pinochle"]')).to_have_value("0")
    sync_api.expect(page.locator('input[name="sides-0-meld"]')).to_have_value("")
    sync_api.expect(page.locator('input[name="bidder"][value="1"]')).to_be_checked()  # as typed before
    sync_api.expect(page.locator('input[name="bid"]')).to_have_value("70")
    sync_api.expect(page.locator('input[name="sides-0-tricks"]')).to_have_value("30")
    sync_api.expect(page.locator('input[name="sides-1-meld"]')).to_have_value("12")
    sync_api.expect(page.locator('input[name="sides-1-tricks"]')).to_have_value("18")
    sync_api.expect(page.locator('input[name="last_trick"][value="0"]')).to_be_checked()
    sync_api.expect(page.locator('input[name="trump"][value="H"]')).to_be_checked()

    page.goto(f"{base}/m/{public_id}/deals/new")  # opened afresh: nothing is put back
    sync_api.expect(page.locator('input[name="sides-1-meld"]')).to_have_value("")
    assert not errors
    page.close()
