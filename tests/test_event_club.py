"""An event held by a table (the club): its matches count in the table's statistics and ratings; and an
event's own ratings on its standings, worked out from its tables done. Flask test client, no browser."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import form_values
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from test_events_api import EIGHT, deal, director, enter, make_event, problem, seat, standings

from scorekeeper.db import get_session
from scorekeeper.models import EventRow, MatchRow

WON = (deal(60, 10), deal(60, 10))  # two deals (the round's), the first side ahead


def make_table(client: FlaskClient) -> dict[str, Any]:
    answer = client.post("/api/v1/tables", json={"name": "Thursdays", "players": EIGHT})
    assert answer.status_code == 201, answer.get_json()
    made: dict[str, Any] = answer.get_json()
    return made


def held_by(table: dict[str, Any]) -> dict[str, str]:
    return {"id": table["id"], "edit_token": table["token"]}


def stored(app: Flask) -> tuple[int, int]:
    """How many events and matches are stored."""
    with app.app_context():
        session = get_session()
        return (session.scalar(select(func.count()).select_from(EventRow)) or 0,
                session.scalar(select(func.count()).select_from(MatchRow)) or 0)


def rating_of(found: dict[str, Any], name: str) -> float:
    mu: float = next(rating["mu"] for rating in found["ratings"] if rating["name"] == name)
    return mu


# Held by a table --------------------------------------------------------------------------------------------

def test_an_event_held_by_a_table_puts_its_finished_matches_in_the_tables_stats_and_ratings(
        client: FlaskClient) -> None:
    table = make_table(client)
    event = make_event(client, table=held_by(table))
    seated = seat(client, event)
    enter(client, seated["tables"][0], *WON)  # one table done, the other still playing
    enter(client, seated["tables"][1], deal(60, 10))
    listed = client.get(f"/api/v1/tables/{table['id']}").get_json()["matches"]
    assert sorted(match["id"] for match in listed) == sorted(t["match"]["id"] for t in seated["tables"])
    stats = client.get(f"/api/v1/tables/{table['id']}/stats").get_json()
    assert (stats["matches"], stats["unfinished"], stats["rated"]) == (1, 1, 1)
    winners, losers = seated["tables"][0]["sides"]
    assert sorted(rating["name"] for rating in stats["ratings"]) == sorted(winners + losers)
    assert all(rating_of(stats, name) > 25 for name in winners)
    assert all(rating_of(stats, name) < 25 for name in losers)
    page = client.get(f"/t/{table['id']}/stats").get_data(as_text=True)
    assert f'data-rating="{winners[0]}"' in page


@pytest.mark.both_databases  # the moments compared come back with their zone or without it
def test_a_table_its_director_closed_late_is_rated_for_the_table_holding_the_event_as_the_event_places_it(
        client: FlaskClient) -> None:
    table = make_table(client)
    event = make_event(client, table=held_by(table))
    seated = seat(client, event)
    enter(client, seated["tables"][0], *WON)
    enter(client, seated["tables"][1], deal(60, 10))  # one deal of two: no winner on its sheet
    before = client.get(f"/api/v1/tables/{table['id']}/stats").get_json()
    assert before["rated"] == 1
    closed = client.post(f"/api/v1/events/{event['id']}/rounds/1/close", json={"late": True}, headers=director(event))
    assert closed.status_code == 200, closed.get_json()
    after = client.get(f"/api/v1/tables/{table['id']}/stats").get_json()
    assert (after["matches"], after["unfinished"], after["rated"]) == (1, 1, 2)
    ahead, behind = seated["tables"][1]["sides"]
    assert all(rating_of(after, name) > 25 > rating_of(after, other) for name, other in zip(ahead, behind))
    assert "From 2 matches" in client.get(f"/t/{table['id']}/stats").get_data(as_text=True)


# (the body's "table", status, field, code)
REFUSED_TABLES = [
    ("wrong token", 403, "table.edit_token", "token_wrong"),
    ("no such table", 422, "table.id", "unknown_table"),
    ("not an object", 422, "table", "wrong_type"),
]


@pytest.mark.parametrize(("given", "status", "field", "code"), REFUSED_TABLES)
def test_the_api_refuses_a_table_it_cannot_hold_the_event_by_and_writes_nothing(
        app: Flask, client: FlaskClient, given: str, status: int, field: str, code: str) -> None:
    table = make_table(client)
    body = {"wrong token": held_by(table) | {"edit_token": "guess"},
            "no such table": held_by(table) | {"id": "NoSuchTable0000000000A"},
            "not an object": table["id"]}[given]
    before = stored(app)
    answer = client.post("/api/v1/events", json={"format": "progressive", "round_end": {"deals": 2}, "rounds": 1,
                                                 "players": EIGHT, "table": body})
    assert answer.status_code == status
    assert (problem(answer)["field"], problem(answer)["code"]) == (field, code)
    assert stored(app) == before


def new_event_form(client: FlaskClient, table_id: str) -> dict[str, str]:
    data = form_values(client.get(f"/events/new?table={table_id}"))
    return data | {"format": "progressive", "round_end": "deals", "round_count": "2", "rounds": "2",
                   "entrants": "\n".join(EIGHT)}


def test_the_form_opened_from_a_tables_page_holds_the_event_to_it_on_a_phone_with_the_tables_link(
        app: Flask, client: FlaskClient) -> None:
    table = make_table(client)
    client.get(f"/t/{table['id']}")  # this phone opens the table's link
    form = client.get(f"/events/new?table={table['id']}").get_data(as_text=True)
    assert "data-held-by" in form and "Thursdays" in form
    made = client.post(f"/events/new?table={table['id']}", data=new_event_form(client, table["id"]))
    assert made.status_code == 302, made.get_data(as_text=True)
    event_id = made.headers["Location"].rsplit("/", 1)[-1]
    with app.app_context():
        held = get_session().scalars(select(EventRow.table_id).where(EventRow.public_id == event_id)).one()
    assert held is not None
    with app.app_context():  # the event's matches are the table's: seated through the API with the token
        token = get_session().scalars(select(EventRow.director_token).where(EventRow.public_id == event_id)).one()
    seated = client.post(f"/api/v1/events/{event_id}/rounds", headers={"Authorization": f"Bearer {token}"})
    assert seated.status_code == 201
    listed = client.get(f"/api/v1/tables/{table['id']}").get_json()["matches"]
    assert len(listed) == 2


def test_a_phone_without_the_tables_link_cannot_hold_an_event_to_it(app: Flask, client: FlaskClient) -> None:
    table = make_table(client)  # made through the API: this phone never opened the table's link
    before = stored(app)
    refused = client.post(f"/events/new?table={table['id']}", data=new_event_form(client, table["id"]))
    assert refused.status_code == 403
    assert "has not opened this table" in refused.get_data(as_text=True)
    assert stored(app) == before


# An event's ratings -----------------------------------------------------------------------------------------

def test_an_events_ratings_on_its_standings_move_when_a_corrected_deal_flips_a_winner(client: FlaskClient) -> None:
    event = make_event(client)
    assert standings(client, event)["ratings"] == []
    seated = seat(client, event)
    for table in seated["tables"]:
        enter(client, table, *WON)
    first, second = seated["tables"][0]["sides"]
    before = standings(client, event)
    assert len(before["ratings"]) == 8 and {rating["games"] for rating in before["ratings"]} == {1}
    assert rating_of(before, first[0]) > 25 > rating_of(before, second[0])
    sid = event["links"]["standings"].rsplit("/", 1)[-1]
    before_page = client.get(f"/standings/{sid}").get_data(as_text=True)
    assert f'data-rating="{first[0]}"' in before_page and "What the ratings mean" in before_page
    assert "data-rating" not in client.get(f"/standings/{sid}?screen=big").get_data(as_text=True)

    match = seated["tables"][0]["match"]
    corrected = client.put(f"/api/v1/matches/{match['id']}/deals/1", json=deal(10, 250),
                           headers={"Authorization": f"Bearer {match['edit_token']}"})
    assert corrected.status_code == 200, corrected.get_json()
    after = standings(client, event)
    assert rating_of(after, first[0]) < 25 < rating_of(after, second[0])
    after_page = client.get(f"/standings/{sid}/live").get_data(as_text=True)
    assert after_page.index(f'data-rating="{second[0]}"') < after_page.index(f'data-rating="{first[0]}"')
