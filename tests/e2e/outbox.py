"""Steps of the offline tests: a phone without signal, what it keeps, and what the server then holds."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from playwright.sync_api import Locator, Page, Request, expect

from .conftest import Guard
from .table import number


def outbox(page: Page) -> Locator:
    return page.locator("section.outbox")


def is_replay(request: Request) -> bool:
    """Whether ``request`` is a kept form the outbox sends to its own address (a POST with the entry's key,
    asking for JSON)."""
    headers = request.headers
    return request.method == "POST" and "idempotency-key" in headers and "application/json" in headers.get("accept", "")


def kept_totals(page: Page) -> dict[str, int]:
    """The totals the phone works out with what it has not sent yet ("With them: We 60 · They 20")."""
    text = page.locator("[data-outbox-totals]").inner_text().split(":", 1)[1]
    totals = {}
    for part in text.split("·"):
        name, _, points = part.strip().rpartition(" ")
        if name and not points.isalpha():
            totals[name] = number(points)
    return totals


def server_match(base_url: str, public_id: str) -> dict[str, Any]:
    """The match as the server holds it, through the API (not through the phone)."""
    with urllib.request.urlopen(f"{base_url}/api/v1/matches/{public_id}") as answer:  # noqa: S310 - the test's own app
        result: dict[str, Any] = json.load(answer)
    return result


def public_id_of(page: Page) -> str:
    return page.url.split("/m/", 1)[1].split("/", 1)[0].split("#", 1)[0].split("?", 1)[0]


def wait_until_sent(page: Page) -> None:
    """Back online: the outbox empties and the server's sheet is shown."""
    expect(outbox(page)).to_have_count(0, timeout=20_000)
    expect(page.locator(".totals")).to_be_visible()


def take_expected_errors(guard: Guard, pattern: str) -> int:
    """Console lines the test caused on purpose (a 409 the outbox was meant to get, an answer the test
    threw away): taken out of the guard's list, and counted so the test can check they happened."""
    expected = [error for error in guard.console_errors if re.search(pattern, f"{error[0]} {error[1]}")]
    guard.console_errors = [error for error in guard.console_errors if error not in expected]
    return len(expected)


def ready_offline(page: Page, version: int | None = None) -> None:
    """The phone holds the match's facts as this page shows them (or at ``version``): it can keep and work
    out entries offline."""
    shown = str(version) if version is not None else (
        page.locator('form[data-outbox] input[name="version"]').first.input_value())
    expect(page.locator("html")).to_have_attribute("data-outbox-facts", shown)
