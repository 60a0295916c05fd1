"""The Share section's two links on real phones: the watch link shows the score and nothing to change it
with; the players' link lets another phone enter deals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .conftest import Phones
from .table import add_quick_deal, new_match, sheet_totals

pytestmark = pytest.mark.browser


def test_a_watcher_follows_the_score_and_a_player_joins_by_the_players_link(
    phones: Phones, shoot: Callable[[Any, str], Any]
) -> None:
    ann, bob, carl = phones.open(), phones.open(), phones.open()
    sheet = new_match(ann, "Double deck to 500", name="Shared")
    ann.goto(f"{sheet}/invite")
    share = ann.locator("section.share")
    links = share.locator("a.share-link")
    expect(links).to_have_count(2)
    players_link, watch_link = (link.get_attribute("href") or "" for link in links.all())
    # The script shows each link as the full address the phone would send.
    expect(links.first).to_have_text(sheet)
    assert links.nth(1).inner_text().startswith("http://") and links.nth(1).inner_text().endswith(watch_link)
    shoot(ann, "sheet-share")
    ann.goto(sheet)

    carl.goto(watch_link)
    expect(carl.get_by_role("heading", name="Shared")).to_be_visible()
    expect(carl.get_by_role("link", name="Add deal 1")).to_have_count(0)
    assert carl.locator("a[href^='/m/'], form").count() == 0
    assert urlsplit(players_link).path.split("/")[-1] not in carl.content()

    add_quick_deal(ann, "We", 60, (67, 20))
    carl.reload()
    assert sheet_totals(carl) == {"We": 67, "They": 20}
    expect(carl.get_by_role("link", name="Edit deal 1")).to_have_count(0)
    shoot(carl, "sheet-watch")

    bob.goto(players_link)
    add_quick_deal(bob, "They", 55, (38, 51))
    assert sheet_totals(bob) == {"We": 105, "They": -35}
    carl.reload()
    assert sheet_totals(carl) == {"We": 105, "They": -35}
