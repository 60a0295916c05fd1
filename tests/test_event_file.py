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
    {"format": "team", "players": None, "teams": [["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]],
     "movement": "stay-move"},
], ids=["progressive", "with byes", "team", "team stay-move"])
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
    assert imported.get("movement") == event.get("movement")


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


UNREAD_FACTS = [  # (where in the file, the value put there, the field and code the refusal names)
    (["notes"], [], "notes", "unknown_key"),
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
]


def test_a_file_that_says_what_this_app_does_not_read_is_refused(client: FlaskClient) -> None:
    """Each fact, alone in the played event's file, is refused naming its field and code (one event for all)."""
    file = _file(client, _played_event(client))
    refused = []
    for path, value, _, _ in UNREAD_FACTS:
        answer = _import(client, _changed(file, path, value))
        error = answer.get_json().get("error", {})  # none when the file was taken
        refused.append((answer.status_code, error.get("field"), error.get("code")))
    assert refused == [(422, field, code) for _, _, field, code in UNREAD_FACTS]


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


def _director_post(client: FlaskClient, event: dict[str, Any], path: str, body: dict[str, Any]) -> Any:
    answer = client.post(f"/api/v1/events/{event['id']}/{path}", json=body, headers=director(event))
    assert answer.status_code in (200, 201), answer.get_json()
    return answer.get_json()


def _director_night(client: FlaskClient) -> dict[str, Any]:
    """Nine players ranked by rounds won, rounds of 60 minutes: in round 1 a substitute takes Ann's seat, the
    clock is extended (so that a deal entered after the first hour counts), paused and resumed, a table is
    closed late; the director corrects a deal and gives an adjusted score; Ivy withdraws from round 2 on and
    Hal is a no-show in round 2, whose clock is left paused."""
    event = make_event(client, players=[*EIGHT, "Ivy"], ranking="wins", round_end={"minutes": 60})
    first = seat(client, event)
    ann = next(table for table in first["tables"] if any("Ann" in side for side in table["sides"]))
    _director_post(client, event, "rounds/1/substitutes", {"player": "Ann", "substitute": "Zoe"})
    for table in first["tables"]:
        enter(client, table, deal(60, 20), *([deal(50, 30, bidder=1)] if table is ann else []))
    _director_post(client, event, "rounds/1/clock", {"action": "extend", "minutes": 10})
    _director_post(client, event, "rounds/1/clock", {"action": "pause"})
    _director_post(client, event, "rounds/1/clock", {"action": "resume"})
    with client.application.app_context():  # the round started 65 minutes ago, its deals entered since
        session = get_session()
        row = session.scalars(select(EventRow).where(EventRow.public_id == event["id"])).one()
        row.played_rounds[0].started_at -= timedelta(minutes=65)
        session.commit()
    other = next(table for table in first["tables"] if table is not ann)
    _director_post(client, event, f"tables/{other['match']['id']}/close", {})
    _director_post(client, event, "rounds/1/close", {"late": True})
    _director_post(client, event, "corrections", {"round": 1, "table": ann["table"], "deal": 1, "reason": "slip read",
                                                  "set": deal(70, 10)})
    _director_post(client, event, "corrections", {"round": 1, "table": other["table"], "score": [40, 45],
                                                  "reason": "a revoke"})
    _director_post(client, event, "withdrawals", {"player": "Ivy", "from_round": 2})
    second = seat(client, event)
    no_show = next(name for table in second["tables"] for side in table["sides"] for name in side)
    _director_post(client, event, "withdrawals", {"player": no_show, "from_round": 2})
    enter(client, second["tables"][0], deal(55, 25))  # table 1 keeps its match, seated again
    _director_post(client, event, "rounds/2/clock", {"action": "pause"})
    return event


@pytest.mark.both_databases
def test_the_directors_facts_import_to_the_same_standings(client: FlaskClient) -> None:
    event = _director_night(client)
    file = _file(client, event)
    assert [(out["player"], out["from_round"], out["substitute"]) for out in file["withdrawals"]][0] == (
        "Ann", 1, "Zoe")
    assert [kept["kind"] for kept in file["corrections"]] == ["changed", "score"]
    assert file["clocks"][0]["extra_minutes"] == 10 and file["clocks"][1]["paused_at"] is not None
    assert file["event"]["ranking"] == "wins"
    made = _import(client, file)
    assert made.status_code == 201, made.get_json()
    imported = made.get_json()
    standings = _standings(client, event["id"])
    assert standings["adjustments"] and standings["seating"]
    assert _standings(client, imported["id"]) == standings
    assert _file(client, imported) == file
    original = client.get(f"/api/v1/events/{event['id']}").get_json()
    again = client.get(f"/api/v1/events/{imported['id']}").get_json()
    for key in ("withdrawals", "substitutes", "ranking", "adjustments"):
        assert again[key] == original[key], key


def test_the_clock_decides_which_deals_count_once_imported(client: FlaskClient) -> None:
    """Without round 1's ten minutes added, the deal entered after its first hour would not count."""
    event = _director_night(client)
    file = _file(client, event)
    file["clocks"][0]["extra_minutes"] = 0
    tables = [_round_one_table(client, event), _round_one_table(client, _import(client, file).get_json())]
    assert [(table["deals"], table["totals"]) for table in tables] == [(2, [120, -40]), (1, [70, 10])]


def _round_one_table(client: FlaskClient, event: dict[str, Any]) -> dict[str, Any]:
    """Round 1's table not given an adjusted score (the substitute's)."""
    played = client.get(f"/api/v1/events/{event['id']}").get_json()["played"][0]
    found: dict[str, Any] = next(table for table in played["tables"] if not table["adjusted"])
    return found


WRONG_FACTS = [  # (where in the file, the value put there, the field and code the refusal names)
    (["withdrawals", 0, "player"], "Zed", "withdrawals[0].player", "player_unknown"),
    (["withdrawals", 1, "from_round"], 1, "withdrawals[1].from_round", "seated_when_withdrawn"),
    (["withdrawals", 0, "note"], "x", "withdrawals[0].note", "unknown_key"),
    (["corrections", 0, "table"], 9, "corrections[0].table", "out_of_range"),
    (["corrections", 0, "kind"], "guess", "corrections[0].kind", "wrong_format"),
    (["corrections", 1, "reason"], " ", "corrections[1].reason", "reason_missing"),
    (["corrections", 1, "score"], [1], "corrections[1].score", "wrong_type"),
    (["clocks"], [], "clocks", "out_of_range"),
    (["clocks", 0, "extra_minutes"], -1, "clocks[0].extra_minutes", "out_of_range"),
]


def test_a_wrong_directors_fact_is_refused(client: FlaskClient) -> None:
    """Each wrong fact, alone in the night's file, is refused naming its field and code (one night for all)."""
    file = _file(client, _director_night(client))
    refused: dict[str, tuple[int, str, str]] = {}
    for path, value, field, _ in WRONG_FACTS:
        answer = _import(client, _changed(file, path, value))
        refused[field] = (answer.status_code, problem(answer)["field"], problem(answer)["code"])
    assert refused == {field: (422, field, code) for _, _, field, code in WRONG_FACTS}


def test_a_deal_the_director_deleted_stays_deleted_once_imported(client: FlaskClient) -> None:
    event = _played_event(client)
    _director_post(client, event, "corrections", {"round": 1, "table": 1, "deal": 2, "delete": True,
                                                  "reason": "entered twice"})
    file = _file(client, event)
    assert len(file["rounds"][0]["tables"][0]["match"]["deals"]) == 1
    assert file["corrections"][0]["kind"] == "deleted" and file["corrections"][0]["before"] is not None
    imported = _import(client, file).get_json()
    assert _standings(client, imported["id"]) == _standings(client, event["id"])
    assert _file(client, imported) == file
