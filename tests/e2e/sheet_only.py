"""A phone that opened a match's sheet and nothing else: the match started elsewhere, the sheet opened once
online and kept by the service worker with its match's kit (deal form, house rules, meld calculator, facts)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from .conftest import Phones
from .offline import wait_until_kept
from .outbox import outbox
from .table import import_match, number

# Two partnerships with named players, so that the bidder can be picked by tapping a player.
PLAYERS = [{"name": "Ann & Bo", "players": ["Ann", "Bo"]}, {"name": "Cy & Di", "players": ["Cy", "Di"]}]


def players_match(deals: list[dict[str, Any]] | None = None, **rules: Any) -> dict[str, Any]:
    return {"format": "pinochle-match/1", "name": "At the cabin", "sides": PLAYERS,
            "rules": {"target": 500, **rules}, "deals": deals or []}


def sheet_only_phone(phones: Phones, match_file: dict[str, Any], **options: Any) -> tuple[Page, str]:
    """A new phone opens the sheet of a match another phone imported, and only that; returns it with the
    sheet's path once its kit is kept (the facts go last)."""
    host = phones.open()
    link = import_match(host, match_file)
    host.context.close()
    page = phones.open(**options)
    page.goto(link)
    public_id = link.rsplit("/", 1)[1]
    sheet = f"/m/{public_id}"
    wait_until_kept(page, f"{sheet}/outbox")
    return page, sheet


def big_totals(page: Page) -> list[int]:
    return [number(text) for text in page.locator(".totals .total-points").all_inner_texts()]


def save_offline(page: Page, what: str) -> None:
    """Save the form on screen with no network: kept, and shown on the sheet as not sent yet."""
    page.get_by_role("button", name="Save deal").tap()
    expect(outbox(page).locator("li", has_text=what)).to_contain_text("Not sent yet")
