"""A time-limited round's clock paused, resumed and extended by the director, every table's phone following;
and a round's seating taken back before its first deal."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_events_api import deal, director, enter, make_event, problem, seat
from test_events_pages import create, director_form, tables_of, text
from test_events_pages import seat as seat_page
from werkzeug.test import TestResponse

from scorekeeper.db import get_session
from scorekeeper.models import EventRoundRow, MatchRow, utc_now

pytestmark = pytest.mark.both_databases


def clock(client: FlaskClient, event: dict[str, Any], **body: Any) -> TestResponse:
    return client.post(f"/api/v1/events/{event['id']}/rounds/1/clock", json=body, headers=director(event))


def ends_at(answer: TestResponse) -> datetime:
    return datetime.fromisoformat(answer.get_json()["ends_at"].replace("Z", "+00:00"))


def test_the_clock_pauses_resumes_and_extends_and_the_phones_follow(client: FlaskClient) -> None:
    event = make_event(client, round_end={"minutes": 30})
    seated = seat(client, event)
    match_id = seated["tables"][0]["match"]["id"]
    before = client.get(f"/api/v1/matches/{match_id}").get_json()["version"]
    assert re.search(r'<p class="countdown" data-ends-at=', text(client.get(f"/m/{match_id}")))
    paused = clock(client, event, action="pause")
    assert paused.status_code == 200, paused.get_json()
    assert paused.get_json()["paused"] is True
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["version"] == before + 1  # phones redraw
    sheet = text(client.get(f"/m/{match_id}"))
    assert re.search(r"Clock paused: (30:00|29:5\d) left", sheet)
    assert "data-ends-at" not in sheet
    assert clock(client, event, action="pause").get_json()["error"]["code"] == "clock_paused"
    resumed = clock(client, event, action="resume")
    assert resumed.status_code == 200 and resumed.get_json()["paused"] is False
    extended = clock(client, event, action="extend", minutes=10)
    assert extended.status_code == 200 and extended.get_json()["extra_minutes"] == 10
    assert ends_at(extended) - ends_at(resumed) == timedelta(minutes=10)
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["version"] == before + 3
    assert "Clock paused" not in text(client.get(f"/m/{match_id}"))


def test_a_paused_clock_is_not_running_out(app: Flask, client: FlaskClient) -> None:
    event = make_event(client, round_end={"minutes": 30})
    table = seat(client, event)["tables"][0]
    with app.app_context():
        played = get_session().query(EventRoundRow).one()
        played.started_at = utc_now() - timedelta(minutes=40)  # without the pause, time would be up
        played.paused_at = utc_now() - timedelta(minutes=20)  # paused with 10 minutes left, 20 minutes ago
        get_session().commit()
    found = client.get(f"/api/v1/events/{event['id']}").get_json()["played"][0]
    assert found["paused"] and not found["tables"][0]["time_up"]
    enter(client, table, deal(60, 20), deal(60, 20))  # while paused, every deal counts
    assert client.get(f"/api/v1/events/{event['id']}").get_json()["played"][0]["tables"][0]["deals"] == 2
    resumed = clock(client, event, action="resume")
    left = ends_at(resumed) - utc_now()
    assert timedelta(minutes=9) < left <= timedelta(minutes=10, seconds=2)


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"action": "stop"}, 422, "wrong_format"),
    ({"action": "extend"}, 422, "not_a_number"),
    ({"action": "extend", "minutes": 0}, 422, "out_of_range"),
    ({"action": "resume"}, 409, "clock_running"),
])
def test_a_clock_change_that_cannot_be_made_is_refused(client: FlaskClient, body: dict[str, Any], status: int,
                                                        code: str) -> None:
    event = make_event(client, round_end={"minutes": 30})
    seat(client, event)
    answer = clock(client, event, **body)
    assert answer.status_code == status and problem(answer)["code"] == code


def test_a_round_without_a_time_limit_has_no_clock(client: FlaskClient) -> None:
    event = make_event(client)
    seat(client, event)
    answer = clock(client, event, action="pause")
    assert answer.status_code == 409 and problem(answer)["code"] == "no_clock"


def test_the_directors_page_pauses_and_extends_the_clock(client: FlaskClient) -> None:
    public_id = create(client, round_end="minutes", round_count="50")
    seat_page(client, public_id)
    data = director_form(client, public_id, "/rounds/1/clock")
    assert client.post(f"/e/{public_id}/rounds/1/clock", data=data | {"action": "pause"}).status_code == 303
    page = text(client.get(f"/e/{public_id}"))
    assert "Resume the clock" in page and re.search(r"Clock paused: (50:00|49:5\d) left", page)
    data = director_form(client, public_id, "/rounds/1/clock")
    refused = client.post(f"/e/{public_id}/rounds/1/clock", data=data | {"action": "extend", "minutes": "x"})
    assert refused.status_code == 422 and "Type the minutes to add" in text(refused)
    assert client.post(f"/e/{public_id}/rounds/1/clock",
                       data=data | {"action": "extend", "minutes": "5"}).status_code == 303
    assert re.search(r"Clock paused: (55:00|54:5\d) left", text(client.get(f"/e/{public_id}")))


# Undoing a seating ---------------------------------------------------------------------------------------------

def test_a_seating_is_taken_back_before_its_first_deal_and_seated_again(app: Flask, client: FlaskClient) -> None:
    event = make_event(client)
    first = seat(client, event)
    answer = client.delete(f"/api/v1/events/{event['id']}/rounds/1", headers=director(event))
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["played"] == []
    with app.app_context():
        ids = [table["match"]["id"] for table in first["tables"]]
        assert get_session().query(MatchRow).filter(MatchRow.public_id.in_(ids)).count() == 0
    again = seat(client, event)
    assert again["round"] == 1


def test_a_seating_stays_once_a_deal_is_entered(client: FlaskClient) -> None:
    event = make_event(client)
    seated = seat(client, event)
    enter(client, seated["tables"][0], deal(60, 20))
    answer = client.delete(f"/api/v1/events/{event['id']}/rounds/1", headers=director(event))
    assert answer.status_code == 409 and problem(answer)["code"] == "round_started"
    wrong = client.delete(f"/api/v1/events/{event['id']}/rounds/2", headers=director(event))
    assert wrong.status_code == 409 and problem(wrong)["code"] == "not_current_round"


def test_the_directors_page_undoes_a_seating(client: FlaskClient) -> None:
    public_id = create(client)
    seat_page(client, public_id)
    assert len(tables_of(client, public_id)) == 2
    data = director_form(client, public_id, "/rounds/1/unseat")
    assert client.post(f"/e/{public_id}/rounds/1/unseat", data=data).status_code == 303
    assert client.get(f"/api/v1/events/{public_id}").get_json()["played"] == []
    assert "Seat round 1" in text(client.get(f"/e/{public_id}"))
