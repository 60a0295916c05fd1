"""Two phones on one decided match: one starts the next match, the other is offered it on its sheet as it
stands, without a reload, and opens that same match; a phone at the watch link is offered its watch link."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Phones, in_each_scheme
from .table import follow, import_match, winner_banner

pytestmark = pytest.mark.browser

DECIDED = {"format": "pinochle-match/1", "name": "Friday", "rules": {"target": 300},
           "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
           "deals": [{"bidder": 0, "bid": 50, "dealt_by": "Ann", "sides": [{"total": 320}, {"total": 10}]}]}


def test_a_phone_starts_the_next_match_and_the_others_are_offered_it(phones: Phones,
                                                                     shoot: Callable[..., Any]) -> None:
    ann = phones.open()
    decided = import_match(ann, DECIDED)
    watch_link = ann.request.get(decided.replace("/m/", "/api/v1/matches/")).json()["links"]["watch"]
    bob, watcher = phones.open(), phones.open()
    bob.goto(decided)
    watcher.goto(watch_link)
    expect(winner_banner(bob).get_by_role("link", name="Start the next match")).to_be_visible()

    follow(ann, winner_banner(ann).get_by_role("link", name="Start the next match"))
    follow(ann, ann.get_by_role("button", name="Next match: same sides and rules"))
    expect(ann.get_by_role("link", name="+ Add deal 1")).to_be_visible()
    expect(ann.locator("[data-dealer]")).to_have_text("Cy deals")  # the deal goes on round the table

    offer = winner_banner(bob).get_by_role("link", name="Open it")
    expect(winner_banner(bob)).to_contain_text("Another phone started the next match")  # live, no reload
    expect(winner_banner(bob).get_by_role("link", name="Start the next match")).to_have_count(0)
    for scheme in in_each_scheme(bob):
        shoot(bob, f"next-match-offered-{scheme}", full_page=False)
    follow(bob, offer)
    assert bob.url == ann.url
    expect(bob.get_by_role("link", name="+ Add deal 1")).to_be_visible()

    watched = winner_banner(watcher).get_by_role("link", name="Open it")
    expect(watched).to_be_visible()
    follow(watcher, watched)
    next_watch = ann.request.get(ann.url.replace("/m/", "/api/v1/matches/")).json()["links"]["watch"]
    assert watcher.url.endswith(next_watch) and "/w/" in next_watch
