"""The offline evening: a phone that opened a new match's sheet and nothing else loses its signal before the
first deal. Every deal of the evening is entered with no network (a side tapped, a player tapped, meld and
tricks per partner, a redeal, meld counted from cards), and after each the sheet counts it: the big totals,
the deal count, the next deal's number, the dealer, the rows and the chart. A hand counted by card faces is
priced by the rules' twin on the phone as the server prices its cards. Reloaded with no network, it is
the same. Back online, each deal is stored exactly once, and the server's sheet is the one the phone showed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Request, expect

from .conftest import ARTIFACTS, SUMMARY, Guard, LiveApp, Phones
from .outbox import is_replay, public_id_of, server_match, wait_until_sent
from .sheet_only import big_totals, players_match, save_offline, sheet_only_phone
from .table import deal_row, faces_dialog, follow, open_meld_calculator, open_new_deal, side_box, type_number, use_cards
from .test_meld_calculator import tap_card

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


def bid(page: Page, player: str, amount: int | None) -> None:
    page.get_by_role("group", name="Who bid?").get_by_role("radio", name=player, exact=True).tap()
    if amount is not None:
        type_number(page.get_by_role("textbox", name="Bid"), amount)


def quick(page: Page, totals: tuple[int, int]) -> None:
    page.get_by_role("radio", name="One number").tap()
    fields = page.locator(".sides-quick input")
    for index, total in enumerate(totals):
        type_number(fields.nth(index), total)


def meld_and_tricks(page: Page) -> None:
    """Bo bid 60: Ann melds 20, Bo 12, they take 28 and the last trick; Cy melds 8 and they take 20."""
    page.get_by_role("radio", name="Meld + tricks").tap()
    bid(page, "Bo", 60)
    ours, theirs = side_box(page, 0), side_box(page, 1)
    type_number(ours.get_by_role("textbox", name="Ann's meld"), 20)
    type_number(ours.get_by_role("textbox", name="Bo's meld"), 12)
    type_number(ours.get_by_role("textbox", name="Trick points"), 28)
    type_number(theirs.get_by_role("textbox", name="Cy's meld"), 8)
    type_number(theirs.get_by_role("textbox", name="Trick points"), 20)
    page.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name="Ann & Bo").tap()


def meld_from_cards(page: Page) -> None:
    """Cy bid 50; Cy's meld counted on the calculator (a run and a pinochle in hearts) with no network."""
    page.get_by_role("radio", name="Meld + tricks").tap()
    bid(page, "Cy", 50)
    open_meld_calculator(page, 1, "Cy's meld")
    for code in ("AH", "10H", "KH", "QH", "JH", "QS", "JD"):
        tap_card(page, code)
    page.get_by_role("radio", name="♥ Hearts").check()
    follow(page, page.get_by_role("link", name=re.compile("Use in deal")))
    expect(page.get_by_role("textbox", name="Bid")).to_have_value("50")  # typed before, kept on the way
    type_number(side_box(page, 1).get_by_role("textbox", name="Trick points"), 40)
    type_number(side_box(page, 0).get_by_role("textbox", name="Trick points"), 8)
    page.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name="Cy & Di").tap()


def meld_by_card_faces(page: Page) -> None:
    """Ann bid 50; her meld counted by card faces in the deal form (a run and a pinochle in spades, 19 on the
    small table) with no network; Ann & Bo take 30 and the last trick."""
    page.get_by_role("radio", name="Meld + tricks").tap()
    bid(page, "Ann", 50)
    dialog = faces_dialog(page, 0, "Ann's meld")
    for code in HAND_BY_FACES:
        tap_card(page, code)
    dialog.get_by_role("radio", name="♠ Spades").tap()
    use_cards(page, dialog, "Use 19")
    type_number(side_box(page, 0).get_by_role("textbox", name="Trick points"), 30)
    page.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name="Ann & Bo").tap()


def passed(page: Page) -> None:
    page.get_by_role("checkbox", name="All passed").check()


EVENING: list[tuple[str, Callable[[Page], None]]] = [
    ("Ann bid", lambda page: (bid(page, "Ann", 50), quick(page, (60, 20)))),
    ("Cy bid", lambda page: (bid(page, "Cy", 55), quick(page, (30, 60)))),
    ("meld and tricks per partner", meld_and_tricks),
    ("all passed", passed),
    ("meld from cards", meld_from_cards),
    ("a set", lambda page: (bid(page, "Di", 70), quick(page, (40, 50)))),
    ("meld by card faces", meld_by_card_faces),
]
HAND_BY_FACES = ("AS", "10S", "KS", "QS", "JS", "JD")
DEALERS = ["Ann", "Cy", "Bo", "Di", "Ann", "Cy", "Bo", "Di"]  # the seats in turn, a redeal counting as a deal


def check_sheet(page: Page, deals: int) -> None:
    """The sheet counts every deal kept: its count, the next deal's number, the dealer, a row each, the chart."""
    expect(page.locator(".match-meta")).to_have_text(f"Playing to 500 · {deals} deal{'' if deals == 1 else 's'}")
    expect(page.get_by_role("link", name=f"+ Add deal {deals + 1}")).to_be_visible()
    expect(page.locator("[data-dealer]")).to_have_text(f"{DEALERS[deals]} deals")
    expect(page.locator(".match-sheet tbody tr[id]")).to_have_count(deals)
    expect(page.locator(".match-sheet tbody tr.row-pending")).to_have_count(deals)
    points = page.locator(".chart polyline").first.get_attribute("points") or ""
    assert len(points.split()) == deals + 1  # 0 before the first deal, then one point a deal


def test_an_evening_with_no_signal_from_a_sheet_only_phone(
    phones: Phones, live_app: LiveApp, guard: Guard, shoot: Callable[..., Any]
) -> None:
    page, sheet = sheet_only_phone(phones, players_match())
    public_id = public_id_of(page)
    expect(page.locator(".empty-sheet")).to_contain_text("No deals yet")
    keys: list[str] = []

    def sent(request: Request) -> None:
        if is_replay(request):
            keys.append(request.headers["idempotency-key"])

    page.on("request", sent)
    with guard.offline(page):
        shown: list[int] = []
        for number, (what, enter) in enumerate(EVENING, start=1):
            open_new_deal(page)
            expect(page.get_by_role("heading", name=f"Deal {number}")).to_be_visible()
            enter(page)
            save_offline(page, f"New deal {number}")
            check_sheet(page, number)
            assert big_totals(page) != shown or what == "all passed", what
            shown = big_totals(page)
            if number == 3:
                page.reload()  # from the service worker's copy, with what the phone kept
                check_sheet(page, number)
                assert big_totals(page) == shown
        shoot(page, "offline-evening", full_page=False)
        assert server_match(live_app.base_url, public_id)["match"]["deals"] == []  # nothing sent yet

    wait_until_sent(page)
    held = server_match(live_app.base_url, public_id)
    deals = held["match"]["deals"]
    assert len(deals) == len(EVENING) and held["sheet"]["totals"] == shown
    assert [deal.get("bid_by") for deal in deals] == ["Ann", "Cy", "Bo", None, "Cy", "Di", "Ann"]
    assert [deal.get("dealt_by") for deal in deals] == [*DEALERS[:3], None, *DEALERS[4:7]]
    assert deals[4]["sides"][1]["meld"] == {"run": 1, "pinochle": 1}
    kept = deals[6]["sides"][0]["meld"]
    assert kept["trump"] == "S" and sorted(kept["cards"]) == sorted(HAND_BY_FACES)
    assert len(keys) == len(set(keys)) == len(EVENING)  # each sent once, under its own key
    expect(page.locator(".match-sheet tbody tr.row-pending")).to_have_count(0)
    expect(deal_row(page, len(EVENING))).to_be_visible()
    figures = (f"Offline evening: {len(EVENING)} deals entered with no signal on a phone that had opened only the "
               f"sheet; {len(deals)} stored, {len(keys)} sends under {len(set(keys))} keys; totals "
               f"{shown} on the phone offline and {held['sheet']['totals']} on the server.")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "offline-evening.txt").write_text(figures + "\n", encoding="utf-8")
    SUMMARY.append(figures)
