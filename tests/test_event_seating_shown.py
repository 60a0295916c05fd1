"""Where to sit: the standings (answer and page) carry every round's seating by name, and the big screen shows
the round just seated until its first deal."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.test_events_api import deal, enter, make_event, seat, standings
from tests.test_events_pages import create, event_json, text
from tests.test_events_pages import seat as seat_on_page


def test_the_standings_answer_carries_every_rounds_seating_by_name(client: FlaskClient) -> None:
    event = make_event(client, players=["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida"])
    seated = seat(client, event)
    expected = [{"round": 1, "byes": seated["byes"],
                 "tables": [{"table": table["table"], "sides": table["sides"]} for table in seated["tables"]]}]
    assert standings(client, event)["seating"] == expected
    public = client.get(event["links"]["standings_data"].split("localhost", 1)[-1]).get_json()
    assert public["seating"] == expected
    assert len(expected[0]["byes"]) == 1


def test_the_standings_page_lists_where_everyone_sits_each_round(client: FlaskClient) -> None:
    public_id = create(client)
    seat_on_page(client, public_id)
    answer: dict[str, Any] = event_json(client, public_id)
    page = text(client.get(answer["links"]["standings"].split("localhost", 1)[-1]))  # type: ignore[index]
    assert 'data-seating="1"' in page
    first = answer["played"][0]["tables"][0]  # type: ignore[index]
    assert (f"<span class=\"seat-name\">{first['sides'][0][0]}</span> &amp; "
            f"<span class=\"seat-name\">{first['sides'][0][1]}</span>") in page


def test_the_big_screen_shows_the_seating_between_rounds_and_the_standings_once_play_starts(
        client: FlaskClient) -> None:
    event = make_event(client)
    big = f"/standings/{event['links']['standings'].rsplit('/', 1)[-1]}?screen=big"
    assert "where to sit" not in text(client.get(big))
    seated = seat(client, event)
    page = text(client.get(big))
    assert "Round 1 of 3: where to sit" in page
    assert all(f"Table {table['table']}" in page for table in seated["tables"])
    enter(client, seated["tables"][0], deal(30, 20))
    assert "where to sit" not in text(client.get(big))


def test_a_tables_sheet_says_where_its_players_sit_next_once_the_round_is_seated(client: FlaskClient) -> None:
    event = make_event(client, players=["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida"])
    first = seat(client, event)["tables"][0]
    sheet = f"/m/{first['match']['id']}"
    before = client.get(sheet)
    assert "data-next-seats" not in text(before)
    closed = client.post(f"/api/v1/events/{event['id']}/rounds/1/close", json={"late": True},
                         headers={"Authorization": f"Bearer {event['director_token']}"})
    assert closed.status_code == 200
    second = seat(client, event)
    page = client.get(sheet, headers={"If-None-Match": before.headers["ETag"]})
    assert page.status_code == 200  # the same version of the match, but there is news
    where = {name: table["table"] for table in second["tables"] for side in table["sides"] for name in side}
    for name in (name for side in first["sides"] for name in side):
        said = f"{name} at table {where[name]}" if name in where else f"{name} sits out"
        assert said in text(page)
    assert "Round 2:" in text(page)
