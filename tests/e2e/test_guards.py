"""The page guards that every browser test relies on really catch what they promise to catch."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Guard, LiveApp, Phones

pytestmark = pytest.mark.browser

MISBEHAVING_PAGE = """<!doctype html><title>misbehaving</title>
<img alt="" src="http://elsewhere.invalid/pixel.png">
<script>console.error("broken on purpose"); undefinedFunction();</script>"""


def test_guard_records_console_errors_script_errors_and_foreign_requests(browser: Any) -> None:
    guard = Guard("127.0.0.1:9")
    phones = Phones(browser, LiveApp("http://127.0.0.1:9"), guard)
    try:
        page = phones.open()
        page.set_content(MISBEHAVING_PAGE)
        page.wait_for_function("document.readyState === 'complete'")
    finally:
        phones.close()
    assert guard.foreign_requests == ["http://elsewhere.invalid/pixel.png"]
    assert any("broken on purpose" in text for text in guard.unexpected_console_errors())
    assert any("undefinedFunction" in text for text in guard.page_errors)


def test_guard_lets_the_apps_own_requests_through(browser: Any) -> None:
    guard = Guard("127.0.0.1:9")
    phones = Phones(browser, LiveApp("http://127.0.0.1:9"), guard)
    try:
        page = phones.open()
        page.set_content('<!doctype html><title>quiet</title><p>nothing to see</p>')
    finally:
        phones.close()
    assert guard.problems() == []
