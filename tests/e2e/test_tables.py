"""A table on a phone: four players, a match from them, its winner, a rematch in one tap, the statistics.

The figures are worked out by hand below: Ann & Bob against Cy & Di, double deck to 500, changed to 300
after the first deal.
  deal 1: Ann bids 60, Ann & Bob take 200, Cy & Di 40 → 200 to 40 (made)
  (the target goes down to 300)
  deal 2: Cy bids 50, Ann & Bob take 30, Cy & Di 80 → 230 to 120 (made)
  deal 3: Ann bids 70, Ann & Bob take 100, Cy & Di 10 → 330 to 130: Ann & Bob win (made)
So Ann: 1 match, 1 won (100%), 2 bids, 2 made (100%), none set, average bid 65, biggest bid made 70;
Cy: 1 match, 0 won (0%), 1 bid, 1 made, average bid 50; Bob and Di: no bid.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE_AT_200_PERCENT, Phones, in_each_scheme
from .table import follow, leave_the_invite, open_new_deal, save_deal, type_number

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Bob", "Cy", "Di")


def make_table(page: Page) -> str:
    page.goto("/")
    follow(page, page.get_by_role("link", name="+ New table"))
    page.get_by_label("Table name").fill("Thursdays")
    for index, name in enumerate(PLAYERS):
        page.locator(f"#players-{index}").fill(name)
    follow(page, page.get_by_role("button", name="Make the table"))
    expect(page.get_by_role("heading", name="Thursdays")).to_be_visible()
    return page.url


def deal(page: Page, bid_by: str, bid: int, totals: tuple[int, int], shot: Callable[..., Any] | None = None) -> None:
    """One quick deal, the bidder tapped once as a player (the side follows)."""
    open_new_deal(page)
    page.get_by_role("radio", name="One number").tap()
    page.get_by_role("group", name=re.compile("Who bid")).get_by_role("radio", name=bid_by, exact=True).tap()
    type_number(page.get_by_role("textbox", name="Bid"), bid)
    fields = page.locator(".sides-quick input")
    for index, total in enumerate(totals):
        type_number(fields.nth(index), total)
    if shot is not None:
        shot(page, "table-deal-form")
    save_deal(page)
    expect(page.locator(".totals")).to_be_visible()


def figure(page: Page, player: str, name: str) -> str:
    return page.locator(f'dl[data-player="{player}"] dd[data-figure="{name}"]').inner_text().strip()


def test_a_table_plays_a_match_a_rematch_and_shows_its_statistics(page: Page, shoot: Callable[..., Any]) -> None:
    table = make_table(page)
    shoot(page, "table-page")
    follow(page, page.get_by_role("link", name="+ New match at this table"))
    page.get_by_label("House rules").select_option(label="Double deck to 500")
    for index, name in enumerate(PLAYERS):
        side, seat = index // 2, index % 2
        page.locator(f"#sides-{side}-players-{seat}").fill(name)
    shoot(page, "table-new-match")
    follow(page, page.get_by_role("button", name="Start the match"))
    leave_the_invite(page)
    expect(page.locator(".total-name")).to_have_text(["Ann & Bob", "Cy & Di"])
    expect(page.locator("[data-dealer]")).to_have_text("Ann deals")

    deal(page, "Ann", 60, (200, 40), shoot)
    expect(page.locator("[data-dealer]")).to_have_text("Cy deals")
    follow(page, page.get_by_role("navigation", name="Match tools").get_by_role("link", name="House rules"))
    type_number(page.get_by_label("Play to", exact=True), 300)
    follow(page, page.get_by_role("button", name="Preview the change"))
    follow(page, page.get_by_role("button", name="Apply the change"))
    deal(page, "Cy", 50, (30, 80))
    deal(page, "Ann", 70, (100, 10))
    banner = page.locator(".banner")
    expect(banner).to_contain_text("Ann & Bob won at deal 3")
    shoot(page, "table-winner", full_page=False)
    finished = page.url

    follow(page, banner.get_by_role("link", name="Start the next match"))
    follow(page, page.get_by_role("button", name="Next match: same sides and rules"))
    expect(page.get_by_role("link", name="+ Add deal 1")).to_be_visible()
    assert page.url != finished
    new = page.request.get(page.url.replace("/m/", "/api/v1/matches/")).json()["match"]
    assert [side["players"] for side in new["sides"]] == [["Ann", "Bob"], ["Cy", "Di"]]
    assert new["rules"]["target"] == 300 and new["deals"] == []

    page.goto(table)
    expect(page.locator(".match-list li")).to_have_count(2)
    follow(page, page.get_by_role("link", name="Statistics"))
    expect(page.get_by_role("heading", name="Statistics")).to_be_visible()
    expect(page.locator("svg.form-chart")).to_be_visible()
    assert [figure(page, "Ann", key) for key in ("matches", "won", "bids", "made", "set")] == \
        ["1", "1 (100%)", "2", "2 (100%)", "0"]
    assert [figure(page, "Ann", key) for key in ("average_bid", "biggest_bid_made")] == ["65", "70"]
    assert [figure(page, "Cy", key) for key in ("matches", "won", "bids", "made", "average_bid")] == \
        ["1", "0 (0%)", "1", "1 (100%)", "50"]
    assert figure(page, "Bob", "bids") == figure(page, "Di", "bids") == "0"
    expect(page.locator('[data-partnership="Ann & Bob"]')).to_contain_text("1 played together, 1 won")
    expect(page.locator('[data-faced="Ann v Cy"]')).to_contain_text("1 – 0")
    expect(page.locator("[data-rating]")).to_have_text([re.compile(rf"^{name} \d+\.\d ± \d\.\d \(1 match rated\)$")
                                                        for name in ("Ann", "Bob", "Cy", "Di")])
    shoot(page, "table-stats")
    follow(page, page.get_by_role("link", name="Ann", exact=True))
    expect(page.get_by_role("heading", name="Ann", exact=True)).to_be_visible()
    expect(page.locator("svg.form-chart")).to_be_visible()


def test_table_pages_fit_at_200_percent(phones: Phones, shoot: Callable[..., Any]) -> None:
    page = phones.open(**PHONE_AT_200_PERCENT)
    table = make_table(page)
    for path, name in ((table, "table"), (f"{table}/matches/new", "new-match"), (f"{table}/stats", "stats")):
        page.goto(path)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        for scheme in in_each_scheme(page):
            shoot(page, f"table-200-percent-{name}-{scheme}")


def test_axe_finds_no_serious_violation_on_the_table_pages(phones: Phones) -> None:
    from .test_accessibility import UNLABELLED_CONTROLS, axe_violations, describe

    page = phones.open()
    table = make_table(page)
    page.goto(f"{table}/matches/new")
    for index, name in enumerate(PLAYERS):
        page.locator(f"#sides-{index // 2}-players-{index % 2}").fill(name)
    follow(page, page.get_by_role("button", name="Start the match"))
    leave_the_invite(page)
    sheet = page.url
    for path in (table, f"{table}/matches/new", f"{table}/rule-cards/new", f"{table}/stats",
                 f"{table}/stats/player?name=Ann", f"{sheet}/deals/new", "/tables/new", "/tables/import", "/"):
        page.goto(path)
        assert page.evaluate(UNLABELLED_CONTROLS) == [], path
        for scheme in in_each_scheme(page):
            violations = axe_violations(page)
            assert not violations, f"{path} ({scheme}):\n{describe(violations)}"
