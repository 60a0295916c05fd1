"""The event file: written from an event, imported again as a new event with the same standings (compared
answer to answer), and refused with the field named when it says something this app does not read."""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select
from test_events_api import EIGHT, deal, director, enter, make_event, problem, seat

from scorekeeper.db import get_session
from scorekeeper.models import EventRow, aware


def _played_event(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    """Three rounds of two deals; round 1 played out and closed, round 2 with one table closed late."""
    event = make_event(client, **fields)
    for seated in seat(client, event)["tables"]:
        enter(client, seated, deal(60 + seated["table"], 20), deal(50, 30 + seated["table"], bidder=1))
    second = seat(client, event)["tables"]
    enter(client, second[0], deal(70, 10))  # one deal of two: still playing
    enter(client, second[1], deal(55, 25))
    closed = client.post(f"/api/v1/events/{event['id']}/tables/{second[1]['match']['id']}/close",
                         headers=director(event))
    assert closed.status_code == 200, closed.get_json()
    return event


def _file(client: FlaskClient, event: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"/api/v1/events/{event['id']}/file")
    assert answer.status_code == 200
    found: dict[str, Any] = answer.get_json()
    return found


def _import(client: FlaskClient, file: object) -> Any:
    return client.post("/api/v1/events/import", json=file)


def _standings(client: FlaskClient, event_id: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/v1/events/{event_id}/standings").get_json()
    found.pop("version")
    return found


@pytest.mark.both_databases
@pytest.mark.parametrize("fields", [
    {},
    {"players": [*EIGHT, "Ivy"]},  # one sits out each round: a bye's credit
    {"format": "team", "players": None, "teams": [["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]},
], ids=["progressive", "with byes", "team"])
def test_an_imported_event_file_gives_the_same_standings(client: FlaskClient, fields: dict[str, Any]) -> None:
    event = _played_event(client, **fields)
    file = _file(client, event)
    made = _import(client, file)
    assert made.status_code == 201, made.get_json()
    imported = made.get_json()
    assert imported["id"] != event["id"] and imported["director_token"] != event["director_token"]
    assert _standings(client, imported["id"]) == _standings(client, event["id"])
    assert _file(client, imported) == file  # the same facts, written again
    assert [round["closed"] for round in imported["played"]] == [True, False]


def test_the_imported_event_plays_on_from_where_it_was(client: FlaskClient) -> None:
    event = _played_event(client)
    imported = _import(client, _file(client, event)).get_json()
    tables = client.get(f"/api/v1/events/{imported['id']}").get_json()["played"][1]["tables"]
    assert [table["closed"] for table in tables] == [False, True]
    seated = client.post(f"/api/v1/events/{imported['id']}/rounds", headers=director(imported))
    assert seated.status_code == 409 and problem(seated)["code"] == "round_open"  # table 1 has a deal to play


def test_the_director_page_downloads_the_event_file(client: FlaskClient) -> None:
    event = _played_event(client)
    download = client.get(f"/e/{event['id']}/event.json")
    assert download.status_code == 200 and "attachment" in download.headers["Content-Disposition"]
    assert download.get_json() == _file(client, event)


def _changed(file: dict[str, Any], path: list[str | int], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(file)
    place: Any = changed
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return changed


@pytest.mark.parametrize(("path", "value", "field", "code"), [
    (["withdrawals"], [], "withdrawals", "unknown_key"),
    (["rounds", 0, "tables", 0, "note"], "x", "rounds[0].tables[0].note", "unknown_key"),
    (["rounds", 0, "seating", "extra"], [], "rounds[0].seating.extra", "unknown_key"),
    (["event", "colour"], "red", "event.colour", "unknown_key"),
    (["format"], "pinochle-event/2", "format", "wrong_format"),
    (["rounds", 0, "round"], 2, "rounds[0].round", "out_of_range"),
    (["rounds", 0, "started_at"], "yesterday", "rounds[0].started_at", "wrong_type"),
    (["rounds", 0, "seating", "tables", 0, "sides", 0], ["Ann", "Zed"], "rounds[0].seating", "unknown_player"),
    (["rounds", 0, "seating", "tables", 0, "sides", 0], ["Ann", "Ann"], "rounds[0].seating", "duplicate_player"),
    (["rounds", 0, "tables", 0, "entered"], [], "rounds[0].tables[0].entered", "out_of_range"),
    (["rounds", 0, "tables", 0, "closed_after"], 9, "rounds[0].tables[0].closed_after", "out_of_range"),
    (["rounds", 0, "tables", 0, "match", "deals", 0, "bid"], "many", "rounds[0].tables[0].match.deals[0].bid",
     "not_a_number"),
])
def test_a_file_that_says_what_this_app_does_not_read_is_refused(
        client: FlaskClient, path: list[str | int], value: Any, field: str, code: str) -> None:
    file = _file(client, _played_event(client))
    answer = _import(client, _changed(file, path, value))
    assert answer.status_code == 422
    assert (problem(answer)["field"], problem(answer)["code"]) == (field, code)


def test_a_match_seated_otherwise_than_its_round_is_refused(client: FlaskClient) -> None:
    file = _file(client, _played_event(client))
    sides = file["rounds"][0]["tables"][0]["match"]["sides"]
    sides[0]["players"], sides[1]["players"] = sides[1]["players"], sides[0]["players"]
    answer = _import(client, file)
    assert answer.status_code == 422 and problem(answer)["field"] == "rounds[0].tables[0].match.sides"


def test_a_team_event_seats_only_its_teams(client: FlaskClient) -> None:
    teams = [["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]
    file = _file(client, _played_event(client, format="team", players=None, teams=teams))
    first, second = file["rounds"][0]["seating"]["tables"][0]["sides"]
    first[1], second[1] = second[1], first[1]  # two teams split up
    answer = _import(client, file)
    assert answer.status_code == 422
    assert (problem(answer)["field"], problem(answer)["code"]) == ("rounds[0].seating", "unknown_player")


def test_a_missing_fact_is_refused(client: FlaskClient) -> None:
    file = _file(client, _played_event(client))
    del file["rounds"]
    answer = _import(client, file)
    assert answer.status_code == 422 and (problem(answer)["field"], problem(answer)["code"]) == (
        "rounds", "missing_key")


@pytest.mark.both_databases
def test_a_timed_round_counts_the_same_deals_once_imported(client: FlaskClient) -> None:
    """Time ran out between a table's first and second deal: the second (in play then) counts, the third
    does not, in the event and in its import alike."""
    event = make_event(client, round_end={"minutes": 50})
    first = seat(client, event)["tables"][0]
    enter(client, first, deal(60, 20), deal(50, 30), deal(70, 10))
    with client.application.app_context():
        session = get_session()
        row = session.scalars(select(EventRow).where(EventRow.public_id == event["id"])).one()
        deals = row.played_rounds[0].tables[0].match.deals
        row.played_rounds[0].started_at = aware(deals[1].created_at) - timedelta(minutes=50, microseconds=1)
        session.commit()
    standings = _standings(client, event["id"])
    assert standings["players"][0]["points"] == 60 + 50  # the third deal came after the deal in play
    imported = _import(client, _file(client, event)).get_json()
    assert _standings(client, imported["id"]) == standings
