"""The event pages through the Flask test client: a new event, the director's page and its forms, the
standings, the big screen and their downloads, the event line on a table's sheet."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import create_app

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def new_event(client: FlaskClient, **fields: str) -> TestResponse:
    data = form_values(client.get("/events/new"))
    data.update({"name": "Club night", "format": "progressive", "round_end": "deals", "round_count": "2",
                 "rounds": "3", "entrants": "\n".join(PLAYERS)})
    data.update(fields)
    return client.post("/events/new", data=data)


def create(client: FlaskClient, **fields: str) -> str:
    """Create an event through the form; returns the id of its director's link."""
    response = new_event(client, **fields)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[-1]


def text(response: TestResponse) -> str:
    return response.get_data(as_text=True)


def form_to(html: str, action: str) -> dict[str, str]:
    """The hidden values of the form on ``html`` that posts to ``action``."""
    found = re.search(rf'<form method="post" action="{re.escape(action)}".*?</form>', html, re.S)
    assert found, f"no form to {action}"
    inputs = [dict(re.findall(r'([\w-]+)="([^"]*)"', tag)) for tag in re.findall(r"<input\b[^>]*>", found.group(0))]
    return {attrs["name"]: attrs.get("value", "") for attrs in inputs if attrs.get("type") == "hidden"}


def director_form(client: FlaskClient, public_id: str, action: str) -> dict[str, str]:
    return form_to(text(client.get(f"/e/{public_id}")), f"/e/{public_id}{action}")


def seat(client: FlaskClient, public_id: str) -> TestResponse:
    return client.post(f"/e/{public_id}/rounds", data=director_form(client, public_id, "/rounds"))


def event_json(client: FlaskClient, public_id: str) -> dict[str, object]:
    answer = client.get(f"/api/v1/events/{public_id}").get_json()
    assert isinstance(answer, dict)
    return answer


def tables_of(client: FlaskClient, public_id: str) -> list[dict[str, object]]:
    played = event_json(client, public_id)["played"]
    assert isinstance(played, list)
    tables: list[dict[str, object]] = played[-1]["tables"]
    return tables


def match_id(table: dict[str, object]) -> str:
    match = table["match"]
    assert isinstance(match, dict)
    return str(match["id"])


def play(client: FlaskClient, actions: Actions, public_id: str, totals: tuple[int, int]) -> None:
    """A deal entered on the table's sheet as its players do (the phone opened the players' link first)."""
    client.get(f"/m/{public_id}")
    response = actions.add_deal(public_id, 0, 50, totals)
    assert response.status_code in (302, 303), text(response)


def standings_id(client: FlaskClient, public_id: str) -> str:
    links = event_json(client, public_id)["links"]
    assert isinstance(links, dict)
    return str(links["standings"]).rsplit("/", 1)[-1]


# A new event ------------------------------------------------------------------------------------------------

def test_a_new_event_opens_its_directors_page_listed_on_this_phone_only(app: Flask, client: FlaskClient) -> None:
    public_id = create(client)
    page = text(client.get(f"/e/{public_id}"))
    assert "<h1>Club night</h1>" in page and "Progressive · 2 deals a round · 3 rounds" in page
    assert all(name in page for name in PLAYERS)
    assert f'href="/e/{public_id}"' in text(client.get("/"))
    other = app.test_client()
    assert public_id not in text(other.get("/")) and "Club night" not in text(other.get("/"))


# (fields typed, the field whose message it is, a fragment of the message)
REFUSED = [
    ({"entrants": "Ann\nBob\nCy"}, "entrants", "at least 4 players"),
    ({"entrants": "Ann\nBob\nCy\nDi\nann"}, "entrants", "Line 5: Ann is entered twice"),
    ({"format": "team", "entrants": "Ann & Bob\nCy"}, "entrants", "Line 2: A team is two players"),
    ({"rounds": "0"}, "rounds", "from 1 to 20"),
    ({"rounds": "many"}, "rounds", "whole number"),
    ({"round_end": "minutes", "round_count": ""}, "round_count", "whole number"),
    ({"rules-target": "7"}, "rules-target", ""),
]


@pytest.mark.parametrize(("fields", "field", "fragment"), REFUSED)
def test_a_new_event_the_api_would_refuse_is_shown_again_with_the_message_at_the_field(
        client: FlaskClient, fields: dict[str, str], field: str, fragment: str) -> None:
    response = new_event(client, **fields)
    assert response.status_code == 200
    html = text(response)
    error = re.search(rf'<p class="field-error" id="{field}-error" role="alert">([^<]*)</p>', html)
    assert error, html
    assert fragment in error.group(1).replace("&#39;", "'")
    assert "/e/" not in html  # nothing was created


def test_a_tables_players_and_rule_cards_are_offered_for_a_new_event(client: FlaskClient) -> None:
    made = client.post("/tables/new", data={"name": "Thursdays", **{f"players-{i}": name
                                                                    for i, name in enumerate(PLAYERS[:6])}})
    table_id = made.headers["Location"].rsplit("/", 1)[-1]
    assert f"/events/new?table={table_id}" in text(client.get(f"/t/{table_id}"))
    form = text(client.get(f"/events/new?table={table_id}"))
    assert "Ann\nBob\nCy\nDi\nEd\nFlo</textarea>" in form
    assert f"/events/new?table={table_id}&amp;start=preset-" in form


# The director's page ----------------------------------------------------------------------------------------

def test_seating_a_round_shows_every_table_with_its_link_and_qr_code(client: FlaskClient) -> None:
    public_id = create(client)
    assert seat(client, public_id).status_code == 303
    page = text(client.get(f"/e/{public_id}"))
    for table in tables_of(client, public_id):
        assert f'<h3>Table {table["table"]}' in page
        assert f'href="/m/{match_id(table)}"' in page
        assert f'src="/m/{match_id(table)}/qr/players.svg"' in page
        for side in table["sides"]:  # type: ignore[attr-defined]
            assert " &amp; ".join(side) in page


@pytest.mark.both_databases
def test_a_double_tapped_seat_button_seats_one_round(client: FlaskClient) -> None:
    public_id = create(client)
    data = director_form(client, public_id, "/rounds")
    first, second = (client.post(f"/e/{public_id}/rounds", data=data) for _ in range(2))
    assert (first.status_code, second.status_code) == (303, 303)
    assert len(event_json(client, public_id)["played"]) == 1  # type: ignore[arg-type]


@pytest.mark.both_databases
def test_a_page_another_director_overtook_is_drawn_again_with_a_notice(app: Flask, client: FlaskClient) -> None:
    public_id = create(client)
    old = director_form(client, public_id, "/entrants")
    other = app.test_client()
    other.get(f"/e/{public_id}")
    other.post(f"/e/{public_id}/entrants", data=director_form(other, public_id, "/entrants") | {"name": "Ivy"})
    response = client.post(f"/e/{public_id}/entrants", data=old | {"name": "Jo"})
    assert response.status_code == 409
    assert "Someone else changed the event since this page was drawn: here it is now." in text(response)
    assert "Ivy" in text(response) and "Jo" not in text(response).split('id="players"')[1].split("</p>")[0]


def test_the_live_part_answers_304_until_a_deal_changes_it(client: FlaskClient, actions: Actions) -> None:
    public_id = create(client)
    seat(client, public_id)
    assert f'data-live-url="/e/{public_id}/live" data-etag=""' in text(client.get(f"/e/{public_id}"))  # no tag yet
    first = client.get(f"/e/{public_id}/live")
    tag = first.headers["ETag"]
    assert client.get(f"/e/{public_id}/live", headers={"If-None-Match": tag}).status_code == 304
    table = tables_of(client, public_id)[0]
    play(client, actions, match_id(table), (60, 20))
    changed = client.get(f"/e/{public_id}/live", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert "1 deal" in text(changed)


def test_a_swap_puts_two_players_in_each_others_seats_before_the_first_deal(
        client: FlaskClient, actions: Actions) -> None:
    public_id = create(client)
    seat(client, public_id)
    one, two = tables_of(client, public_id)
    first, second = one["sides"][0][0], two["sides"][0][0]  # type: ignore[index]
    data = director_form(client, public_id, "/swap")
    same = client.post(f"/e/{public_id}/swap", data=data | {"first": first, "second": first})
    assert same.status_code == 422
    assert re.search(r'id="second-error" role="alert">A swap needs two different players', text(same))
    assert client.post(f"/e/{public_id}/swap", data=data | {"first": first, "second": second}).status_code == 303
    one_now = tables_of(client, public_id)[0]
    assert second in one_now["sides"][0]  # type: ignore[index]
    play(client, actions, match_id(one_now), (60, 20))
    assert 'id="swap"' not in text(client.get(f"/e/{public_id}"))
    late = client.post(f"/e/{public_id}/swap", data=director_form(client, public_id, "/entrants")
                       | {"round": "1", "first": first, "second": second})
    assert late.status_code == 409 and "has started" in text(late), text(late)


@pytest.mark.both_databases
def test_a_player_added_at_the_door_is_seated_from_the_next_round(client: FlaskClient) -> None:
    public_id = create(client, rounds="2")
    data = director_form(client, public_id, "/entrants")
    twice = client.post(f"/e/{public_id}/entrants", data=data | {"name": "bob"})
    assert twice.status_code == 422
    assert re.search(r'id="name-error" role="alert">Bob is entered twice', text(twice))
    too_long = client.post(f"/e/{public_id}/entrants", data=data | {"name": "Ivy" * 30})
    assert too_long.status_code == 422 and 'id="name-error"' in text(too_long)
    added = client.post(f"/e/{public_id}/entrants", data=data | {"name": "  Ivy "})
    assert added.status_code == 303
    assert event_json(client, public_id)["players"] == [*PLAYERS, "Ivy"]


def test_a_late_table_is_closed_after_a_confirmation_with_its_score_as_it_stands(
        client: FlaskClient, actions: Actions) -> None:
    public_id = create(client)
    seat(client, public_id)
    table = tables_of(client, public_id)[0]
    play(client, actions, match_id(table), (60, 20))
    action = f"/e/{public_id}/tables/{match_id(table)}/close"
    confirm = text(client.get(action))
    assert "after 1 deal" in confirm and "60" in confirm and "20" in confirm
    data = form_to(confirm, action)
    assert client.post(action, data=data).status_code == 303
    closed = tables_of(client, public_id)[0]
    assert closed["closed"] and closed["done"] and closed["winner"] == 0
    again = client.post(action, data=data | {"version": str(event_json(client, public_id)["version"])})
    assert again.status_code == 409 and "Table 1 is already closed" in text(again)


def test_a_round_closed_twice_is_refused_the_second_time(client: FlaskClient) -> None:
    public_id = create(client)
    seat(client, public_id)
    action = f"/e/{public_id}/rounds/1/close"
    confirm = text(client.get(action))
    assert "Still playing: tables 1, 2" in confirm
    assert client.post(action, data=form_to(confirm, action)).status_code == 303
    again = client.post(action, data=form_to(text(client.get(action)), action))
    assert again.status_code == 409 and "Round 1 is already closed" in text(again)
    assert "Seat round 2" in text(client.get(f"/e/{public_id}"))


def test_every_write_needs_the_directors_link_opened_on_this_phone(app: Flask, client: FlaskClient) -> None:
    public_id = create(client)
    seat(client, public_id)
    table = tables_of(client, public_id)[0]
    stranger = app.test_client()
    stranger.get(f"/standings/{standings_id(client, public_id)}")
    data = {"version": "2", "round": "2", "name": "Ivy", "first": "Ann", "second": "Bob", "late": "yes",
            "player": "Ann", "from_round": "2", "substitute": "Zed"}
    actions = ("/rounds", "/swap", "/entrants", "/tables/<match_id>/close", "/rounds/<int:number>/close",
               "/withdrawals", "/substitutes", "/corrections", "/rules", "/rounds/<int:number>/clock",
               "/rounds/<int:number>/unseat")
    posted = {rule.rule for rule in app.url_map.iter_rules()
              if "POST" in (rule.methods or set()) and rule.rule.startswith("/e/<public_id>/")}
    assert posted == {f"/e/<public_id>{action}" for action in actions}  # every write is tried below
    for action in actions:
        url = f"/e/{public_id}{action}".replace("<match_id>", match_id(table)).replace("<int:number>", "1")
        assert stranger.post(url, data=data).status_code == 403, action
    assert len(event_json(client, public_id)["played"]) == 1  # type: ignore[arg-type]


def test_every_form_needs_its_token(database_url: str, tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s",
                      "WTF_CSRF_ENABLED": True, "RATELIMIT_ENABLED": False, "INSTANCE_PATH": str(tmp_path)})
    client = app.test_client()
    data = form_values(client.get("/events/new")) | {"entrants": "\n".join(PLAYERS), "rounds": "2"}
    assert client.post("/events/new", data={k: v for k, v in data.items() if k != "csrf_token"}).status_code == 400
    made = client.post("/events/new", data=data)
    assert made.status_code == 302
    public_id = made.headers["Location"].rsplit("/", 1)[-1]
    for action in ("/rounds", "/swap", "/entrants", "/rounds/1/close", "/corrections", "/rules", "/rounds/1/clock",
                   "/rounds/1/unseat"):
        hidden = {"version": "1", "round": "1", "name": "Ivy", "first": "Ann", "second": "Bob"}
        assert client.post(f"/e/{public_id}{action}", data=hidden).status_code == 400, action
    assert client.post(f"/e/{public_id}/rounds", data=director_form(client, public_id, "/rounds")).status_code == 303
    app.extensions["scorekeeper.engine"].dispose()


# Standings, the big screen, downloads ------------------------------------------------------------------------

def test_the_standings_follow_the_deals_overall_and_by_round(client: FlaskClient, actions: Actions) -> None:
    public_id = create(client)
    seat(client, public_id)
    table = tables_of(client, public_id)[0]
    link = standings_id(client, public_id)
    before = client.get(f"/standings/{link}/live")
    play(client, actions, match_id(table), (60, 20))
    after = client.get(f"/standings/{link}/live", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200
    winners = table["sides"][0]  # type: ignore[index]
    html = text(after)
    for name in winners:
        assert re.search(rf'<tr id="overall-\d"><td>1</td><th scope="row">{name}</th><td>60</td>', html), html
    assert "Round 1 (playing)" in html
    page = text(client.get(f"/standings/{link}"))
    assert "<form" not in page.split("<footer")[0]  # the standings link changes nothing
    assert "How the standings are ranked" in page and "most rounds won" in page


def test_the_big_screen_shows_the_round_and_the_countdown_of_a_timed_round(client: FlaskClient) -> None:
    public_id = create(client, round_end="minutes", round_count="50")
    seat(client, public_id)
    big = text(client.get(f"/standings/{standings_id(client, public_id)}?screen=big"))
    assert 'class="big-screen"' in big and "Round 1 of 3" in big
    assert re.search(r'data-ends-at="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"', big)
    assert big.count("<li>") == 2 and "cols-1" in big and "where to sit" in big  # two tables, before the first deal


def test_the_standings_download_as_csv_and_every_match_file_as_a_zip(client: FlaskClient, actions: Actions) -> None:
    public_id = create(client)
    seat(client, public_id)
    table = tables_of(client, public_id)[0]
    play(client, actions, match_id(table), (60, 20))
    download = client.get(f"/standings/{standings_id(client, public_id)}/standings.csv")
    rows = list(csv.reader(io.StringIO(text(download))))
    assert rows[0] == ["round", "table", "name", "partner", "opponents", "points", "rank", "rounds", "won", "best",
                       "byes"]
    assert len([row for row in rows if row[0] == ""]) == 8 and len([row for row in rows if row[0] == "1"]) == 8
    seated = {name: (table, side) for table in tables_of(client, public_id) for side in table["sides"]
              for name in side}
    for row in (row for row in rows if row[0] == "1"):
        table, side = seated[row[2]]
        others = table["sides"][1] if side == table["sides"][0] else table["sides"][0]
        partner = next(name for name in side if name != row[2])
        assert row[1:6] == [str(table["table"]), row[2], partner, " & ".join(others),
                            str(table["totals"][table["sides"].index(side)])]
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/e/{public_id}/matches.zip").data))
    assert archive.namelist() == ["round-1-table-1.json", "round-1-table-2.json"]
    first = json.loads(archive.read("round-1-table-1.json"))
    assert first["event"] == {"name": "Club night", "round": 1, "table": 1} and len(first["deals"]) == 1


# The player's phone -----------------------------------------------------------------------------------------

def test_a_tables_sheet_says_where_it_is_played_with_the_countdown_of_a_timed_round(client: FlaskClient) -> None:
    public_id = create(client, round_end="minutes", round_count="50")
    seat(client, public_id)
    table = tables_of(client, public_id)[1]
    sheet = text(client.get(f"/m/{match_id(table)}"))
    sides = [" &amp; ".join(side) for side in table["sides"]]  # type: ignore[attr-defined]
    assert f"<span data-event-where>Round 1: table 2, {sides[0]} against {sides[1]}.</span>" in sheet
    assert f"data-sides='{json.dumps(table['sides'])}'" in sheet  # phone.js says it from the player's seat
    assert f'href="/standings/{standings_id(client, public_id)}"' in sheet
    assert re.search(r'<p class="countdown" data-ends-at="[^"]+Z" role="timer"', sheet)


def test_user_text_is_escaped_on_every_event_page(client: FlaskClient) -> None:
    names = ["<b>Ann</b>", "Bob", "Cy", "Di"]
    public_id = create(client, name="<script>x</script>", entrants="\n".join(names))
    seat(client, public_id)
    table = tables_of(client, public_id)[0]
    link = standings_id(client, public_id)
    pages = [client.get(f"/e/{public_id}"), client.get(f"/standings/{link}"),
             client.get(f"/standings/{link}?screen=big"), client.get(f"/m/{match_id(table)}")]
    for page in pages:
        html = text(page)
        assert "<script>x" not in html and "<b>Ann" not in html
        assert "&lt;b&gt;Ann&lt;/b&gt;" in html


def test_a_team_event_seats_teams_with_a_bye_and_ranks_teams(client: FlaskClient, actions: Actions) -> None:
    public_id = create(client, format="team", entrants="Ann & Bob\nCy, Di\nEd + Flo")
    seat(client, public_id)
    table = tables_of(client, public_id)[0]
    director = text(client.get(f"/e/{public_id}"))
    on_bye = [team for team in (["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"]) if team not in table["sides"]]
    assert f"On a bye: {' &amp; '.join(on_bye[0])}." in director
    play(client, actions, match_id(table), (60, 20))
    link = standings_id(client, public_id)
    standings = text(client.get(f"/standings/{link}"))
    assert '<th scope="col">Won</th><th scope="col">Points</th><th scope="col">Played</th>' in standings
    assert "By games won, then points" in standings
    rows = list(csv.reader(io.StringIO(text(client.get(f"/standings/{link}/standings.csv")))))
    assert rows[0] == ["round", "table", "name", "partner", "opponents", "points", "rank", "won", "played", "byes"]
    assert ["1", "bye", on_bye[0][0], on_bye[0][1], ""] == next(row[:5] for row in rows if row[2] == on_bye[0][0]
                                                                  and row[0] == "1")
    assert client.post(f"/standings/{link}").status_code == 405
