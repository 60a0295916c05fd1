"""A closed table of a club event is read-only for its players: every path that writes a match (the API with
the match's edit token, the deal form, the entry panel, the outbox, rules, rescale, undo) is refused with
nothing written; and no table of an event changes its house rules (the event's are the director's)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import form_values
from flask import Flask
from flask.testing import FlaskClient
from test_events_api import deal, director, enter, make_event, problem, seat
from werkzeug.test import TestResponse

from scorekeeper.db import get_session
from scorekeeper.models import DealChangeRow, MatchRow, RuleChangeRow

pytestmark = pytest.mark.both_databases


def closed_table(client: FlaskClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """An event whose round 1 was closed late with table 1 one deal in; the event and table 1."""
    event = make_event(client)
    seated = seat(client, event)
    table = seated["tables"][0]
    enter(client, table, deal(60, 20))
    closed = client.post(f"/api/v1/events/{event['id']}/rounds/1/close", json={"late": True}, headers=director(event))
    assert closed.status_code == 200, closed.get_json()
    return event, table


def facts_of(app: Flask, public_id: str) -> tuple[int, int, int, int]:
    """The match's version, deals, deal changes and rule changes: what a refused write must leave."""
    with app.app_context():
        session = get_session()
        row = session.query(MatchRow).filter_by(public_id=public_id).one()
        changes = session.query(DealChangeRow).filter_by(match_id=row.id).count()
        rules = session.query(RuleChangeRow).filter_by(match_id=row.id).count()
        return row.version, len(row.deals), changes, rules


def token(table: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {table['match']['edit_token']}"}


def refused_closed(answer: TestResponse) -> None:
    assert answer.status_code == 409, answer.get_data(as_text=True)
    assert problem(answer)["code"] == "table_closed"
    assert "closed" in problem(answer)["message"]


API_WRITES = [
    ("post", "/deals", {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}),
    ("put", "/deals/1", {"bidder": 0, "bid": 50, "sides": [{"total": 70}, {"total": 20}]}),
    ("delete", "/deals/1", None),
    ("put", "/rules", {"target": 1000}),
    ("post", "/rescale", {"direction": "up"}),
    ("post", "/undo", {"version": 2}),
]


@pytest.mark.parametrize(("method", "path", "body"), API_WRITES)
def test_the_api_refuses_every_write_to_a_closed_table(app: Flask, client: FlaskClient, method: str, path: str,
                                                       body: dict[str, Any] | None) -> None:
    _, table = closed_table(client)
    match_id = table["match"]["id"]
    before = facts_of(app, match_id)
    answer = getattr(client, method)(f"/api/v1/matches/{match_id}{path}", json=body, headers=token(table))
    refused_closed(answer)
    assert facts_of(app, match_id) == before


def test_an_open_table_still_takes_its_players_deals(client: FlaskClient) -> None:
    event = make_event(client)
    table = seat(client, event)["tables"][0]
    assert enter(client, table, deal(60, 20))["sheet"]["totals"] == [60, 20]


def test_a_table_closed_late_while_its_round_plays_on_is_locked_too(app: Flask, client: FlaskClient) -> None:
    event = make_event(client)
    seated = seat(client, event)
    late, other = seated["tables"]
    closed = client.post(f"/api/v1/events/{event['id']}/tables/{late['match']['id']}/close", headers=director(event))
    assert closed.status_code == 200
    refused_closed(client.post(f"/api/v1/matches/{late['match']['id']}/deals", json=deal(60, 20), headers=token(late)))
    assert enter(client, other, deal(60, 20))["sheet"]["totals"] == [60, 20]  # the round's other table plays on


def test_the_deal_form_and_the_entry_panel_show_the_lock(app: Flask, client: FlaskClient) -> None:
    _, table = closed_table(client)
    match_id = table["match"]["id"]
    client.get(f"/m/{match_id}")  # the players' link: this phone may change the match
    before = facts_of(app, match_id)
    fields = form_values(client.get(f"/m/{match_id}/deals/new")) | {
        "mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": "60", "sides-1-total": "20"}
    for headers in ({}, {"X-Entry-Panel": "1"}):
        answer = client.post(f"/m/{match_id}/deals/new", data=fields, headers=headers)
        assert answer.status_code == 409
        page = answer.get_data(as_text=True)
        assert "This table is closed" in page and "results are locked" in page
    for path in ("/deals/1/delete", "/deals/1/edit"):
        assert client.post(f"/m/{match_id}{path}", data=fields | {"version": "2"}).status_code == 409
    assert facts_of(app, match_id) == before


def test_the_outbox_keeps_a_closed_tables_entry_refused(app: Flask, client: FlaskClient) -> None:
    _, table = closed_table(client)
    match_id = table["match"]["id"]
    client.get(f"/m/{match_id}")
    before = facts_of(app, match_id)
    fields = {"mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": "60", "sides-1-total": "20"}
    csrf = client.get(f"/m/{match_id}/outbox").get_json()["csrf_token"]
    answer = client.post(f"/m/{match_id}/deals/new", data=fields,  # to its own address, asking for JSON
                         headers={"X-CSRFToken": csrf, "Idempotency-Key": "closed-key-0001",
                                  "Accept": "application/json"})
    refused_closed(answer)
    assert facts_of(app, match_id) == before


@pytest.mark.parametrize(("method", "path", "body"), [
    ("put", "/rules", {"target": 1000}),
    ("post", "/rescale", {"direction": "up"}),
])
def test_a_table_of_an_event_cannot_change_its_house_rules(app: Flask, client: FlaskClient, method: str, path: str,
                                                           body: dict[str, Any]) -> None:
    event = make_event(client)
    table = seat(client, event)["tables"][0]
    match_id = table["match"]["id"]
    before = facts_of(app, match_id)
    answer = getattr(client, method)(f"/api/v1/matches/{match_id}{path}", json=body, headers=token(table))
    assert answer.status_code == 409 and problem(answer)["code"] == "event_rules"
    assert facts_of(app, match_id) == before


def test_a_match_of_no_event_changes_its_rules_as_before(client: FlaskClient) -> None:
    made = client.post("/api/v1/matches", json={"format": "pinochle-match/1", "name": "Cabin", "deals": [],
                                                   "sides": [{"name": "We"}, {"name": "They"}]})
    assert made.status_code == 201, made.get_json()
    answer = client.put(f"/api/v1/matches/{made.get_json()['id']}/rules", json={"target": 1000},
                        headers={"Authorization": f"Bearer {made.get_json()['edit_token']}"})
    assert answer.status_code == 200, answer.get_json()


# The director's corrections ----------------------------------------------------------------------------------

def correct(client: FlaskClient, event: dict[str, Any], **body: Any) -> TestResponse:
    return client.post(f"/api/v1/events/{event['id']}/corrections", json=body, headers=director(event))


def table_one(client: FlaskClient, event: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/v1/events/{event['id']}").get_json()["played"][0]["tables"][0]
    return found


def test_the_director_corrects_a_deal_of_a_closed_table_with_a_reason(client: FlaskClient) -> None:
    event, table = closed_table(client)
    answer = correct(client, event, round=1, table=1, deal=1, reason="scores swapped on the slip",
                     set={"bidder": 0, "bid": 50, "sides": [{"total": 20}, {"total": 60}]})
    assert answer.status_code == 201, answer.get_json()
    made = answer.get_json()["correction"]
    assert (made["kind"], made["deal"], made["reason"], made["what"]) == (
        "changed", 1, "scores swapped on the slip", "deal 1 corrected")
    assert made["before"]["sides"] == [{"total": 60}, {"total": 20}] and made["at"]
    # a bid of 50 made with 20 points is set: -50
    assert (table_one(client, event)["totals"], table_one(client, event)["winner"]) == ([-50, 60], 1)
    found = client.get(f"/api/v1/events/{event['id']}/standings").get_json()
    assert [adjustment["what"] for adjustment in found["adjustments"]] == ["deal 1 corrected"]
    history = client.get(f"/api/v1/matches/{table['match']['id']}/deals/1/history", headers=token(table)).get_json()
    assert history["changes"][-1]["by"] == "the director"
    still = client.post(f"/api/v1/matches/{table['match']['id']}/deals", json=deal(60, 20), headers=token(table))
    refused_closed(still)  # the players' lock holds after the director's correction


def test_the_director_deletes_a_deal_and_the_table_counts_one_deal_fewer(client: FlaskClient) -> None:
    event, _ = closed_table(client)
    answer = correct(client, event, round=1, table=1, deal=1, delete=True, reason="entered at the wrong table")
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["correction"]["after"] is None
    assert (table_one(client, event)["deals"], table_one(client, event)["totals"]) == (0, [0, 0])


def test_an_adjusted_score_counts_for_the_event_in_place_of_the_sheet(client: FlaskClient) -> None:
    event, _ = closed_table(client)
    answer = correct(client, event, round=1, table=1, score=[100, 120], reason="a revoke: arbitral score")
    assert answer.status_code == 201, answer.get_json()
    found = table_one(client, event)
    assert (found["totals"], found["winner"], found["done"], found["adjusted"]) == ([100, 120], 1, True, True)
    points = {player["name"]: player["points"] for player in
              client.get(f"/api/v1/events/{event['id']}/standings").get_json()["players"]}
    for name in found["sides"][1]:
        assert points[name] == 120
    withdrawn = correct(client, event, round=1, table=1, score=None, reason="ruling withdrawn")
    assert withdrawn.status_code == 201 and withdrawn.get_json()["correction"]["what"] == "adjusted score withdrawn"
    assert table_one(client, event)["totals"] == [60, 20]
    assert len(withdrawn.get_json()["adjustments"]) == 2  # both kept


@pytest.mark.parametrize(("body", "status", "code", "field"), [
    ({"round": 1, "table": 1, "score": [1, 2]}, 422, "reason_missing", "reason"),
    ({"round": 1, "table": 1, "score": [1, 2], "reason": "  "}, 422, "reason_missing", "reason"),
    ({"round": 1, "table": 1, "score": [1], "reason": "x"}, 422, "wrong_type", "score"),
    ({"round": 1, "table": 1, "reason": "x"}, 422, "missing_key", None),
    ({"round": 1, "table": 1, "deal": 9, "delete": True, "reason": "x"}, 422, "no_such_deal", "deal"),
    ({"round": 1, "table": 1, "deal": 1, "set": {"bidder": 0, "bid": 50, "sides": [{"total": "x"}, {"total": 1}]},
      "reason": "x"}, 422, None, None),
    ({"round": 4, "table": 1, "score": [1, 2], "reason": "x"}, 404, "no_such_round", "round"),
    ({"round": 1, "table": 7, "score": [1, 2], "reason": "x"}, 404, "no_such_table", "table"),
    ({"round": 1, "table": 1, "score": [1, 2], "reason": "x", "why": 1}, 422, "unknown_key", "why"),
])
def test_a_correction_that_cannot_be_made_writes_nothing(app: Flask, client: FlaskClient, body: dict[str, Any],
                                                         status: int, code: str | None, field: str | None) -> None:
    event, table = closed_table(client)
    before = facts_of(app, table["match"]["id"])
    answer = correct(client, event, **body)
    assert answer.status_code == status, answer.get_json()
    if code is not None:
        assert (problem(answer)["code"], problem(answer)["field"]) == (code, field)
    assert facts_of(app, table["match"]["id"]) == before
    assert client.get(f"/api/v1/events/{event['id']}").get_json()["adjustments"] == []


def test_an_open_table_is_its_players_to_correct(client: FlaskClient) -> None:
    event = make_event(client)
    seat(client, event)
    answer = correct(client, event, round=1, table=1, score=[1, 2], reason="x")
    assert answer.status_code == 409 and problem(answer)["code"] == "table_open"


def test_only_the_director_corrects(client: FlaskClient) -> None:
    event, table = closed_table(client)
    answer = client.post(f"/api/v1/events/{event['id']}/corrections", headers=token(table),
                         json={"round": 1, "table": 1, "score": [1, 2], "reason": "x"})
    assert answer.status_code == 403


@pytest.mark.parametrize(("path", "fields"), [
    ("/rules", {"confirm": "yes", "rules-target": "1000"}),
    ("/rules/rescale", {"confirm": "yes", "factor": "up"}),
    ("/undo", {"confirm": "yes"}),
    ("/deals/1/throw-in", {}),
])
def test_the_pages_refuse_every_other_write_to_a_closed_table(app: Flask, client: FlaskClient, path: str,
                                                               fields: dict[str, str]) -> None:
    _, table = closed_table(client)
    match_id = table["match"]["id"]
    client.get(f"/m/{match_id}")
    before = facts_of(app, match_id)
    form = form_values(client.get(f"/m/{match_id}/rules")) if path == "/rules" else {}
    answer = client.post(f"/m/{match_id}{path}", data=form | {"version": str(before[0])} | fields)
    if path.endswith("throw-in"):  # a tap on the sheet: back to the sheet, with the message
        assert answer.status_code == 409 and "This table is closed" in answer.get_data(as_text=True)
    else:
        assert answer.status_code == 409, answer.get_data(as_text=True)[-2000:]
        assert "results are locked" in answer.get_data(as_text=True)
    assert facts_of(app, match_id) == before


def test_a_phone_drawn_before_the_close_is_told_of_the_lock_and_its_sheet_follows(app: Flask,
                                                                                   client: FlaskClient) -> None:
    event = make_event(client)
    table = seat(client, event)["tables"][0]
    match_id = table["match"]["id"]
    client.get(f"/m/{match_id}")
    fields = form_values(client.get(f"/m/{match_id}/deals/new")) | {
        "mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": "60", "sides-1-total": "20"}
    assert "playing for the event" in client.get(f"/m/{match_id}").get_data(as_text=True)
    closed = client.post(f"/api/v1/events/{event['id']}/rounds/1/close", json={"late": True}, headers=director(event))
    assert closed.status_code == 200
    answer = client.post(f"/m/{match_id}/deals/new", data=fields)  # the form's version is now an old one
    assert answer.status_code == 409 and "This table is closed" in answer.get_data(as_text=True)
    sheet = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert "closed: the results are locked" in sheet
