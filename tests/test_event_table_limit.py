"""A club table's limit on players (40) holds for the events it holds: made through the API or the form, and
at the door."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_event_club import held_by, make_table, new_event_form, stored
from test_events_api import director, problem

pytestmark = pytest.mark.both_databases

FORTY_EIGHT = [f"Player {number:02}" for number in range(1, 49)]
FORTY = FORTY_EIGHT[:40]


def event_body(players: list[str], table: dict[str, object]) -> dict[str, object]:
    return {"format": "progressive", "round_end": {"deals": 2}, "rounds": 2, "players": players,
            "table": held_by(table)}  # type: ignore[arg-type]


def test_a_table_holds_no_event_of_more_players_than_it_holds(app: Flask, client: FlaskClient) -> None:
    table = make_table(client)
    before = stored(app)
    answer = client.post("/api/v1/events", json=event_body(FORTY_EIGHT, table))
    assert answer.status_code == 422
    assert (problem(answer)["field"], problem(answer)["code"]) == ("players", "too_many_players")
    assert "at most 40 players" in problem(answer)["message"] and "not 48" in problem(answer)["message"]
    assert stored(app) == before
    alone = client.post("/api/v1/events", json=event_body(FORTY_EIGHT, table) | {"table": None})
    assert alone.status_code == 201  # an event of no table holds up to 200


def test_a_player_at_the_door_past_the_tables_limit_is_refused(client: FlaskClient) -> None:
    table = make_table(client)
    made = client.post("/api/v1/events", json=event_body(FORTY, table))
    assert made.status_code == 201, made.get_json()
    event = made.get_json()
    page = client.get(f"/e/{event['id']}")  # the director's page: this phone directs the event
    assert page.status_code == 200
    data = {"version": str(event["version"]), "name": "Late Larry"}
    answer = client.post(f"/e/{event['id']}/entrants", data=data)
    assert answer.status_code == 422 and "at most 40 players" in answer.get_data(as_text=True)
    assert len(client.get(f"/api/v1/events/{event['id']}", headers=director(event)).get_json()["players"]) == 40


def test_the_new_event_form_says_the_tables_limit_at_the_players(client: FlaskClient) -> None:
    table = make_table(client)
    client.get(f"/t/{table['id']}")
    data = new_event_form(client, str(table["id"])) | {"entrants": "\n".join(FORTY_EIGHT)}
    answer = client.post(f"/events/new?table={table['id']}", data=data)
    assert answer.status_code == 200
    assert "at most 40 players, as the table does, not 48" in answer.get_data(as_text=True)
