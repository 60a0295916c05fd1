"""A whole club night of 13 players over three progressive rounds of two deals, run by its director on the
director's page (seating, closing, a correction, a withdrawal, a late arrival), its deals entered through
the API with each table's edit token (as a table's phone could read it), and its standings checked against
sums worked out by hand below. A player's deal at a table of a closed round is refused on their phone,
with the message saying why, and nothing is written. The event file of the night imports to the same
standings.

The seating of each round is the movement's, its byes the rules' (the least sat out, then the latest
entered); the director then swaps seats (through the API) so that the tables are the ones worked out here.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from .conftest import Guard, Phones
from .event import MadeEvent, make_event
from .outbox import take_expected_errors
from .table import type_number

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Mo"]

# Each round: who sits out, then each table's two sides and its deals as (first side, second side) points.
# Each deal is bid (50) by the side with 50 or more, which makes it: the sides score what the deal says.
ROUND_1 = (["Mo"], [  # 13 players: three tables and a bye, for the latest entered
    ((["Ann", "Bob"], ["Cy", "Di"]), [(60, 20), (90, 20)]),  # 150–40 as entered; 120–40 once corrected
    ((["Ed", "Flo"], ["Gus", "Hal"]), [(50, 30), (20, 60)]),  # 70–90
    ((["Ivy", "Jo"], ["Kit", "Lu"]), [(70, 10), (30, 50)]),  # 100–60
])
ROUND_2 = (["Lu"], [  # Mo sat out: the bye goes to the latest entered who has not
    ((["Ann", "Cy"], ["Ed", "Gus"]), [(50, 30), (60, 20)]),  # 110–50
    ((["Bob", "Di"], ["Flo", "Hal"]), [(20, 50), (30, 60)]),  # 50–110
    ((["Ivy", "Kit"], ["Jo", "Mo"]), [(80, 20), (10, 50)]),  # 90–70
])
ROUND_3 = (["Kit"], [  # Ann withdrawn, Nia arrived (her two missed rounds count as sat out): Kit sits out
    ((["Nia", "Bob"], ["Cy", "Hal"]), [(60, 20), (50, 30)]),  # 110–50
    ((["Di", "Ed"], ["Flo", "Ivy"]), [(20, 60), (30, 60)]),  # 50–120
    ((["Gus", "Jo"], ["Lu", "Mo"]), [(50, 10)]),  # 50–10, closed late after one deal
])

# The bye's credit is the round's average side total over its tables (all done; a table closed late is done):
#   round 1, with deal 2 of table 1 corrected from 90–20 to 60–20: (120 + 40 + 70 + 90 + 100 + 60) / 6 = 80
#            (as entered it would have been (150 + 40 + …) / 6 = 85)
#   round 2: (110 + 50 + 50 + 110 + 90 + 70) / 6 = 80
#   round 3: (110 + 50 + 50 + 120 + 50 + 10) / 6 = 65
# Each player's points, round 1 + round 2 + round 3:
#   Ivy 100 + 90 + 120 = 310     Flo 70 + 110 + 120 = 300     Bob 120 + 50 + 110 = 280
#   Hal 90 + 110 + 50 = 250      Ann 120 + 110 (withdrawn) = 230                   Jo 100 + 70 + 50 = 220
#   Kit 60 + 90 + 65 (bye) = 215 Cy 40 + 110 + 50 = 200       Gus 90 + 50 + 50 = 190
#   Ed 70 + 50 + 50 = 170        Mo 80 (bye) + 70 + 10 = 160  Lu 60 + 80 (bye) + 10 = 150
#   Di 40 + 50 + 50 = 140        Nia (arrived for round 3) 110
# Ranked by points (all different here). A round is won by the side ahead at its table (a bye wins nothing).
EXPECTED = [  # (name, points, rank, rounds played, rounds won, byes)
    ("Ivy", 310, 1, 3, 3, 0),  # r1 won 100–60, r2 won 90–70, r3 won 120–50
    ("Flo", 300, 2, 3, 2, 0),  # r1 lost 70–90, r2 won 110–50, r3 won 120–50
    ("Bob", 280, 3, 3, 2, 0),  # r1 won 120–40, r2 lost 50–110, r3 won 110–50
    ("Hal", 250, 4, 3, 2, 0),  # r1 won 90–70, r2 won 110–50, r3 lost 50–110
    ("Ann", 230, 5, 2, 2, 0),  # r1 won, r2 won 110–50; withdrawn from round 3
    ("Jo", 220, 6, 3, 2, 0),  # r1 won 100–60, r2 lost 70–90, r3 won 50–10
    ("Kit", 215, 7, 2, 1, 1),  # r1 lost 60–100, r2 won 90–70, r3 a bye
    ("Cy", 200, 8, 3, 1, 0),  # r1 lost, r2 won 110–50, r3 lost 50–110
    ("Gus", 190, 9, 3, 2, 0),  # r1 won 90–70, r2 lost 50–110, r3 won 50–10
    ("Ed", 170, 10, 3, 0, 0),  # r1 lost, r2 lost, r3 lost 50–120
    ("Mo", 160, 11, 2, 0, 1),  # r1 a bye, r2 lost 70–90, r3 lost 10–50
    ("Lu", 150, 12, 2, 0, 1),  # r1 lost 60–100, r2 a bye, r3 lost 10–50
    ("Di", 140, 13, 3, 0, 0),  # r1 lost, r2 lost, r3 lost
    ("Nia", 110, 14, 1, 1, 0),  # r3 won 110–50
]


def _api(page: Page, method: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    answer = page.request.fetch(path, method=method, data=body, headers={"Authorization": f"Bearer {token}"})
    assert answer.ok, answer.text()
    return answer.json()


def _edit_token(page: Page, match_id: str) -> str:
    """A table's edit token, as its page for programs shows it to anyone with the players' link."""
    shown = re.search(r"Edit token</dt><dd><code>([^<]+)</code>", page.request.get(f"/m/{match_id}/api").text())
    assert shown is not None
    return shown.group(1)


def _seat_as_worked_out(page: Page, event: MadeEvent, number: int, planned: tuple[list[str], list[Any]]) -> None:
    """Round ``number`` as the director's page seated it: its byes are the planned ones; swap seats until
    its tables are too, then enter each table's deals."""
    played = _api(page, "GET", f"/api/v1/events/{event.public_id}", event.token)["played"][number - 1]
    byes, tables = planned
    assert [bye for seated in played["byes"] for bye in seated] == byes
    seats = [name for table in played["tables"] for side in table["sides"] for name in side]
    for place, name in enumerate(name for (sides, _) in tables for side in sides for name in side):
        if seats[place] != name:
            _api(page, "POST", f"/api/v1/events/{event.public_id}/rounds/{number}/swap", event.token,
                 {"first": seats[place], "second": name})
            other = seats.index(name)
            seats[place], seats[other] = name, seats[place]
    for table, (_, deals) in zip(played["tables"], tables, strict=True):
        token = _edit_token(page, table["match"]["id"])
        for first, second in deals:
            deal = {"bidder": 0 if first >= second else 1, "bid": 50, "sides": [{"total": first}, {"total": second}]}
            _api(page, "POST", f"/api/v1/matches/{table['match']['id']}/deals", token, deal)
    played = _api(page, "GET", f"/api/v1/events/{event.public_id}", event.token)["played"][number - 1]
    assert [table["sides"] for table in played["tables"]] == [list(sides) for sides, _ in tables]


def _seat(director: Page, number: int) -> None:
    director.get_by_role("button", name=f"Seat round {number}").click()
    expect(director.locator(".event-table")).to_have_count(3)


def _close(director: Page, number: int) -> None:
    director.get_by_role("link", name=f"Close round {number}…").first.click()
    director.get_by_role("button", name=f"Close round {number}").click()
    expect(director.get_by_role("button", name=f"Seat round {number + 1}")
           if number < 3 else director.locator("#tables")).to_be_visible()


def test_a_night_of_thirteen_worked_out_by_hand(phones: Phones, guard: Guard) -> None:
    director = phones.open()
    event = make_event(director, names=PLAYERS, seated=False, round_end={"deals": 2})
    director.goto(event.director)

    _seat(director, 1)
    _seat_as_worked_out(director, event, 1, ROUND_1)
    _close(director, 1)
    # The score slip of table 1 says 60–20 for deal 2, entered as 90–20: the director corrects it.
    form = director.locator(".correct-form")
    form.get_by_label("Table", exact=True).select_option("1-1")
    form.locator("label.choice", has_text="Correct a deal's points").click()
    expect(form.get_by_role("radio", name="Correct a deal's points")).to_be_checked()
    type_number(form.get_by_label("Deal", exact=True), 2)
    type_number(form.get_by_label("First side's points"), 60)
    type_number(form.get_by_label("Second side's points"), 20)
    form.get_by_label("Why").fill("90 typed for the slip's 60")
    form.get_by_role("button", name="Correct").click()
    expect(director.locator("#corrections")).to_contain_text("deal 2 corrected")

    _seat(director, 2)
    _seat_as_worked_out(director, event, 2, ROUND_2)
    _close(director, 2)
    withdraw = director.locator(".withdraw-form")  # Ann goes home after round 2
    withdraw.get_by_label("Withdraw").select_option("Ann")
    type_number(withdraw.get_by_label("From round"), 3)
    withdraw.get_by_role("button", name="Withdraw").click()
    expect(director.locator(".withdrawn-list")).to_contain_text("Ann (from round 3)")
    director.get_by_label("Arrived at the door").fill("Nia")
    director.get_by_role("button", name="Add", exact=True).click()
    expect(director.locator(".entrant-list")).to_contain_text("Nia")

    _seat(director, 3)
    _seat_as_worked_out(director, event, 3, ROUND_3)
    director.get_by_role("link", name="Close round 3…").first.click()
    expect(director.get_by_text("Still playing: table 3")).to_be_visible()
    director.get_by_role("button", name="Close round 3").click()
    expect(director.locator("#tables")).to_be_visible()

    # Lu, at table 3, saves the deal still in play once the round is closed: refused, nothing written.
    played = _api(director, "GET", f"/api/v1/events/{event.public_id}", event.token)["played"][2]
    late = played["tables"][2]
    phone = phones.open()
    phone.goto(urlsplit(late["match"]["links"]["sheet"]).path)
    phone.get_by_role("link", name="+ Add deal 2").tap()
    panel = phone.get_by_role("dialog", name="Deal 2")
    panel.get_by_role("group", name="Who bid?").get_by_role("radio", name="Lu", exact=True).tap()
    type_number(panel.get_by_role("textbox", name="Bid"), 50)
    for index, total in enumerate((10, 60)):
        type_number(panel.locator(".sides-quick input").nth(index), total)
    panel.get_by_role("button", name="Save deal").tap()
    expect(panel.locator(".entry-status")).to_contain_text("is closed: its results are locked")
    assert take_expected_errors(guard, r"status of 409 .*/deals/new") == 1
    match = phone.request.get(f"/api/v1/matches/{late['match']['id']}").json()
    assert len(match["match"]["deals"]) == 1

    standings = director.request.get(f"/api/v1/standings/{event.standings.rsplit('/', 1)[-1]}").json()
    found = [(row["name"], row["points"], row["rank"], row["rounds"], row["won"], row["byes"])
             for row in standings["players"]]
    assert found == EXPECTED
    assert [(kept["round"], kept["table"], kept["what"]) for kept in standings["adjustments"]] == [
        (1, 1, "deal 2 corrected")]
    # The event file brings the whole night, and an import of it gives the same standings.
    file = director.request.get(f"/api/v1/events/{event.public_id}/file").json()
    imported = director.request.post("/api/v1/events/import", data=file)
    assert imported.status == 201, imported.text()
    again = director.request.get(f"/api/v1/events/{imported.json()['id']}/standings").json()
    assert {**again, "version": None} == {**standings, "version": None}
    director.goto(event.standings)
    expect(director.locator("#overall tbody tr").first).to_contain_text("Ivy")
    expect(director.locator("#overall tbody tr").first).to_contain_text("310")
