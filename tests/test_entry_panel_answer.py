"""A deal saved from the sheet's entry panel is answered with what the sheet shows after it (its live part, the
"saved · Undo" notice, a dead contract's offer) and the next deal's starting values, in one answer; the same
save sent again is one deal; a refused one is the form with its messages, as for the form page."""

from __future__ import annotations

import re
from typing import Any

from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import reading

PANEL = {"X-Entry-Panel": "1"}
MATCH = {"format": "pinochle-match/1", "name": "Kitchen",
         "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
         "rules": {"target": 1500}, "deals": []}


def players_match(client: FlaskClient) -> str:
    """A match whose sides name their players (so the form asks who dealt), opened on this phone."""
    answer = client.post("/api/v1/matches", json=MATCH)
    public_id: str = answer.json["id"] if answer.json else ""
    client.get(f"/m/{public_id}")
    return public_id


def quick(client: FlaskClient, public_id: str, bid: int = 60, totals: tuple[int, int] = (38, 62)) -> dict[str, str]:
    """The new-deal form as the page draws it, filled in the quick way: Cy bids."""
    return form_values(client.get(f"/m/{public_id}/deals/new")) | {
        "mode": "quick", "bid_by": "Cy", "bidder": "1", "bid": str(bid),
        "sides-0-total": str(totals[0]), "sides-1-total": str(totals[1])}


def test_a_save_from_the_panel_answers_with_the_sheet_and_the_next_deal(app: Flask, client: FlaskClient) -> None:
    public_id = players_match(client)
    answer = client.post(f"/m/{public_id}/deals/new", data=quick(client, public_id), headers=PANEL)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    body: dict[str, Any] = answer.json or {}
    with app.app_context():
        version = reading.match_version(public_id)
    assert body["saved"] == 1 and body["etag"].startswith(f"{version}-")
    assert body["live"] == client.get(f"/m/{public_id}/live").get_data(as_text=True)  # as the live poll gets it
    assert 'id="deal-1"' in body["live"] and "+ Add deal 2" in body["live"]
    assert "Deal 1 saved" in body["notices"] and f"/m/{public_id}/deals/1/undo" in body["notices"]
    assert body["dead_contract"] == ""
    assert body["next_deal"] | {"csrf_token": ""} == {
        "number": 2, "version": version, "mode": "quick", "dealt_by": "Cy", "decided": False,
        "likely_bids": [50, 60], "csrf_token": ""}
    page = client.get(f"/m/{public_id}/deals/new")  # the form page of deal 2 starts the same
    drawn = form_values(page)
    assert (drawn["version"], drawn["mode"], drawn["dealt_by"]) == (str(version), "quick", "Cy")
    assert re.findall(r'data-bid="(\d+)"', page.get_data(as_text=True)) == ["50", "60"]
    assert "Deal 1 saved" not in client.get(f"/m/{public_id}").get_data(as_text=True)  # nothing left for the page


def test_the_next_deal_is_entered_as_the_last_one_was(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {
        "mode": "detail", "bidder": "0", "bid": "50", "sides-0-hands-0-meld": "20", "sides-0-tricks": "30",
        "sides-1-hands-0-meld": "4", "sides-1-tricks": "18", "last_trick": "0"}
    body = client.post(f"/m/{public_id}/deals/new", data=data, headers=PANEL).json or {}
    assert body["next_deal"]["mode"] == "detail" and body["next_deal"]["dealt_by"] == ""


def test_the_same_save_sent_twice_is_one_deal(app: Flask, client: FlaskClient) -> None:
    public_id = players_match(client)
    data = quick(client, public_id)
    first, again = (client.post(f"/m/{public_id}/deals/new", data=data, headers=PANEL) for _ in range(2))
    assert (first.json or {})["saved"] == (again.json or {})["saved"] == 1
    assert (first.json or {})["live"] == (again.json or {})["live"]
    with app.app_context():
        assert len(reading.get_match_or_404(public_id).deals) == 1


def test_a_dead_contract_comes_with_its_offer_and_a_decided_match_says_so(client: FlaskClient) -> None:
    public_id = players_match(client)
    dead = quick(client, public_id) | {  # a bid of 90 over 10 meld and every trick point: dead
        "mode": "detail", "bid_by": "Ann", "bidder": "0", "bid": "90", "sides-0-hands-0-meld": "10",
        "sides-0-tricks": "30", "sides-1-hands-0-meld": "8", "sides-1-tricks": "18", "last_trick": "1"}
    body = client.post(f"/m/{public_id}/deals/new", data=dead, headers=PANEL).json or {}
    assert 'id="deal-1"' in body["live"]
    assert 'id="dead-contract"' in body["dead_contract"] and "/deals/1/throw-in" in body["dead_contract"]
    body = client.post(f"/m/{public_id}/deals/new", data=quick(client, public_id, 60, (0, 1600)),
                       headers=PANEL).json or {}
    assert body["next_deal"]["decided"] is True and "after the end" in body["live"]


def test_a_correction_from_the_panel_is_saved_without_undo(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    data = actions.deal_form(public_id, 1) | {"sides-1-total": "30"}
    body = client.post(f"/m/{public_id}/deals/1/edit", data=data, headers=PANEL).json or {}
    assert body["saved"] == 1 and "Deal 1 saved" in body["notices"] and "/undo" not in body["notices"]
    assert body["next_deal"]["number"] == 2


def test_a_refused_save_from_the_panel_is_the_form_with_its_messages(client: FlaskClient) -> None:
    public_id = players_match(client)
    answer = client.post(f"/m/{public_id}/deals/new", data=quick(client, public_id, 5), headers=PANEL)
    assert answer.status_code == 422 and answer.mimetype == "text/html"
    assert re.search(r'class="deal-form', answer.get_data(as_text=True))
