"""A progressive event's ranking (points or wins), one definition of a table done on its phone and in the
event, and the deals the event does not count marked on the phone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_events_api import deal, enter, make_event, problem, seat
from test_events_pages import create, text

from scorekeeper.db import get_session
from scorekeeper.models import EventRoundRow, utc_now

pytestmark = pytest.mark.both_databases


def test_a_progressive_event_chooses_its_ranking(client: FlaskClient) -> None:
    assert make_event(client)["ranking"] == "points"
    event = make_event(client, ranking="wins")
    assert event["ranking"] == "wins"
    assert client.get(f"/api/v1/events/{event['id']}/standings").get_json()["ranking"] == "wins"


@pytest.mark.parametrize(("fields", "code"), [
    ({"ranking": "best"}, "wrong_format"),
    ({"ranking": "wins", "format": "team", "players": None,
      "teams": [["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"]]}, "unknown_key"),
])
def test_a_ranking_that_cannot_be_is_refused(client: FlaskClient, fields: dict[str, object], code: str) -> None:
    body = {"name": "Club night", "format": "progressive", "round_end": {"deals": 2}, "rounds": 3,
            "players": ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]} | fields
    answer = client.post("/api/v1/events", json={key: value for key, value in body.items() if value is not None})
    assert answer.status_code == 422 and problem(answer)["field"] == "ranking" and problem(answer)["code"] == code


def test_the_new_event_form_offers_the_ranking(client: FlaskClient) -> None:
    public_id = create(client, ranking="wins")
    assert client.get(f"/api/v1/events/{public_id}").get_json()["ranking"] == "wins"
    standings_id = client.get(f"/api/v1/events/{public_id}").get_json()["links"]["standings"].rsplit("/", 1)[-1]
    assert "By rounds won, then points" in text(client.get(f"/standings/{standings_id}"))


def test_a_level_table_plays_on_for_the_event_as_on_its_phone(client: FlaskClient) -> None:
    event = make_event(client)
    table = seat(client, event)["tables"][0]
    enter(client, table, deal(60, 20), deal(20, 60, bidder=1))  # 40 - 40 after the round's two deals
    match_id = table["match"]["id"]
    found = client.get(f"/api/v1/events/{event['id']}").get_json()["played"][0]["tables"][0]
    assert (found["totals"], found["done"]) == ([80, 80], False)
    assert "playing for the event" in text(client.get(f"/m/{match_id}"))
    enter(client, table, deal(60, 20))  # the tie-break deal counts
    found = client.get(f"/api/v1/events/{event['id']}").get_json()["played"][0]["tables"][0]
    assert (found["totals"], found["done"], found["winner"], found["deals"]) == ([140, 100], True, 0, 3)
    assert "done for the event" in text(client.get(f"/m/{match_id}"))


def test_a_deal_entered_after_times_deal_in_play_is_marked_on_the_phone(app: Flask, client: FlaskClient) -> None:
    event = make_event(client, round_end={"minutes": 30})
    table = seat(client, event)["tables"][0]
    with app.app_context():
        played = get_session().query(EventRoundRow).one()
        played.started_at = utc_now() - timedelta(minutes=40)
        get_session().commit()
    enter(client, table, deal(60, 20), deal(50, 20))  # the first is the deal in play when time ran out
    found = client.get(f"/api/v1/events/{event['id']}").get_json()["played"][0]["tables"][0]
    assert (found["deals"], found["totals"], found["done"]) == (1, [60, 20], True)
    sheet = text(client.get(f"/m/{table['match']['id']}"))
    assert sheet.count("data-not-counted") == 1 and 'id="deal-2"' in sheet
    assert sheet.index("data-not-counted") > sheet.index('id="deal-2"')
