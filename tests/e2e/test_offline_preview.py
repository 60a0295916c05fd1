"""The deal form's score line with no network (390×844): the phone goes offline on the sheet, a deal is typed in
the entry panel, and the panel shows the score the server shows for it once online, line for line (worked out by
the rules core's twin, worded with the server's words: static/js/offline/preview.js)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, expect

from .conftest import Guard, Phones
from .sheet_only import players_match, sheet_only_phone
from .table import side_box, type_number, type_quick_numbers

pytestmark = pytest.mark.browser

NO_PREVIEW = "No connection: the score shows once the deal is saved."
FORM_FIELDS = """(panel) => new URLSearchParams(new FormData(panel.querySelector("form.deal-form"))).toString()"""
SERVER_PREVIEW = """async (panel, fields) => {
  const url = panel.querySelector("#deal-preview").dataset.previewUrl;
  const answer = await fetch(url, { method: "POST", body: new URLSearchParams(fields), credentials: "same-origin" });
  return (await answer.json()).lines;
}"""


def shown_lines(panel: Locator) -> list[str]:
    return panel.locator("#deal-preview p").all_inner_texts()


def wait_for_worked_out(panel: Locator, before: list[str]) -> list[str]:
    """The preview's lines once the deal is scored and they have moved on from ``before`` (the form asks a quarter
    second after a key)."""
    expect(panel.locator("#deal-preview")).to_have_class(re.compile(r"\bready\b"))
    expect(panel.locator("#deal-preview p")).not_to_have_text(before)
    return shown_lines(panel)


@pytest.mark.service_worker
def test_offline_the_panel_shows_the_score_line_the_server_shows_once_online(
    phones: Phones, guard: Guard, shoot: Callable[..., Path | None]
) -> None:
    first = {"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]}
    page, _ = sheet_only_phone(phones, players_match([first], target=150))
    shown: list[tuple[str, list[str]]] = []  # the form's fields, and the lines the panel showed for them offline
    page.get_by_role("link", name="+ Add deal 2").tap()  # online: the deal begun, the server asked
    panel = page.get_by_role("dialog", name="Deal 2")
    panel.get_by_role("group", name="Who bid?").get_by_role("radio", name="Di").tap()
    with page.expect_response("**/deals/preview"):
        type_number(panel.get_by_role("textbox", name="Bid"), 55)
    with guard.offline(page):  # the signal goes mid-deal
        type_quick_numbers(panel, 55, (20, 62))  # made
        shown.append((panel.evaluate(FORM_FIELDS), wait_for_worked_out(panel, [""])))
        type_number(panel.get_by_role("textbox", name="Bid"), 70)  # set
        shown.append((panel.evaluate(FORM_FIELDS), wait_for_worked_out(panel, shown[-1][1])))
        type_quick_numbers(panel, 55, (90, 40))  # set, and Ann & Bo pass the target of 150
        shown.append((panel.evaluate(FORM_FIELDS), wait_for_worked_out(panel, shown[-1][1])))
        shoot(page, "offline-preview-light", full_page=False)
        page.emulate_media(color_scheme="dark")
        shoot(page, "offline-preview-dark", full_page=False)
        page.emulate_media(color_scheme="light")
    assert [lines for _, lines in shown] == [
        ["Ann & Bo: +20 → 87", "Cy & Di make it: +62 → 82"],
        ["Ann & Bo: +20 → 87", "Cy & Di are set: −70 → −50"],
        ["Ann & Bo: +90 → 157", "Cy & Di are set: −55 → −35"],
    ]
    # Online again: the server's preview of each deal typed is the line the panel showed offline.
    for fields, lines in shown:
        assert panel.evaluate(SERVER_PREVIEW, fields) == lines
    # And the panel asks the server again at the next change, which shows the same lines.
    with page.expect_response("**/deals/preview"):
        panel.locator("form.deal-form").dispatch_event("change")
    expect(panel.locator("#deal-preview p")).to_have_text(shown[-1][1])


@pytest.mark.service_worker
def test_offline_a_correction_is_previewed_in_its_place_as_the_server_previews_it(phones: Phones, guard: Guard) -> None:
    """Deal 1 corrected with no network: scored where it stands, with the totals after it, not after the last deal."""
    deals = [{"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]},
             {"bidder": 1, "bid": 50, "sides": [{"total": 10}, {"total": 55}]}]
    page, _ = sheet_only_phone(phones, players_match(deals))
    with guard.offline(page):
        page.get_by_role("link", name="Edit deal 1").tap()
        panel = page.get_by_role("dialog", name="Correct deal 1")
        expect(panel.get_by_role("textbox", name="Bid")).to_have_value("60")
        type_number(panel.get_by_role("textbox", name="Bid"), 80)
        # The correction worked out (the deal as it stands may be shown first, until the bid typed is scored).
        lines = ["Ann & Bo are set: −80 → −80", "Cy & Di: +20 → 20"]
        expect(panel.locator("#deal-preview p")).to_have_text(lines)
        fields = panel.evaluate(FORM_FIELDS)
        type_number(panel.get_by_role("textbox", name="Bid"), 10)  # below the minimum bid: the checks refuse it
        expect(panel.locator("#deal-preview p")).to_have_count(1)
        refused, refused_fields = shown_lines(panel), panel.evaluate(FORM_FIELDS)
    assert panel.evaluate(SERVER_PREVIEW, fields) == lines
    assert len(refused) == 1 and "10" in refused[0]
    assert panel.evaluate(SERVER_PREVIEW, refused_fields) == refused


@pytest.mark.service_worker
def test_offline_meld_and_tricks_are_previewed_with_each_sides_meld_and_a_meld_lost(
    phones: Phones, guard: Guard, shoot: Callable[..., Path | None]
) -> None:
    page, _ = sheet_only_phone(phones, players_match())
    with guard.offline(page):
        page.get_by_role("link", name="+ Add deal 1").tap()
        panel = page.get_by_role("dialog", name="Deal 1")
        panel.get_by_role("radio", name="Meld + tricks").tap()
        panel.get_by_role("group", name="Who bid?").get_by_role("radio", name="Ann").tap()
        type_number(panel.get_by_role("textbox", name="Bid"), 50)
        we, they = side_box(page, 0), side_box(page, 1)
        type_number(we.get_by_label("Ann's meld"), 20)
        type_number(we.get_by_label("Bo's meld"), 4)
        type_number(we.get_by_label("Trick points"), 48)
        type_number(they.get_by_label("Di's meld"), 6)
        panel.get_by_role("group", name="Who took the last trick?").get_by_role("radio", name="Ann & Bo").tap()
        they.get_by_role("group", name="In play, Cy & Di took").get_by_role("radio", name="No trick").tap()
        expect(panel.locator("#deal-preview.ready p")).to_have_count(2)
        lines, fields = shown_lines(panel), panel.evaluate(FORM_FIELDS)
        expect(panel.locator("[data-meld-total]")).to_have_text(["24", "6"])
        shoot(page, "offline-preview-meld-lost", full_page=False)
    assert lines == ["Ann & Bo make it: +74 → 74", "Cy & Di: 0 → 0 · meld 6 lost: no trick"]
    assert panel.evaluate(SERVER_PREVIEW, fields) == lines
