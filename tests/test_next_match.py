"""One next match per decided match: the first phone (or program) to start it makes it, every other one,
at the same moment or later, lands in that same match; every phone still showing the decided sheet is
offered it live; its first dealer is the player after the last deal's dealer."""

from __future__ import annotations

import re

import pytest
from conftest import form_values, watch_id_of
from flask import Flask
from flask.testing import FlaskClient
from test_api import match_count
from test_concurrent_writes import THREADS, bearer, race, statuses

from scorekeeper.rules.errors import MatchFileError
from scorekeeper.rules.matchfile import match_from_json, match_to_json
from scorekeeper.store import reading

pytestmark = pytest.mark.both_databases

SIDES = [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}]  # seats: Ann Cy Bob Di


def decided(client: FlaskClient, dealers: tuple[str, ...] = ("Ann", "Cy")) -> tuple[str, str]:
    """A match to 300 that We won at its last deal, dealt by ``dealers`` in turn; its id and edit token."""
    deals = [{"bidder": 0, "bid": 50, "dealt_by": dealer, "sides": [{"total": 60}, {"total": 10}]}
             for dealer in dealers]
    deals[-1]["sides"][0]["total"] = 300
    made = client.post("/api/v1/matches", json={"format": "pinochle-match/1", "name": "Friday", "sides": SIDES,
                                                "rules": {"target": 300}, "deals": deals}).get_json()
    assert client.get(f"/api/v1/matches/{made['id']}").get_json()["sheet"]["winner"] == 0
    return made["id"], made["edit_token"]


def started_from_form(client: FlaskClient, public_id: str, partners: str = "same") -> str:
    """Open the decided sheet, tap "Start the next match" and send its form: the match the phone lands in."""
    client.get(f"/m/{public_id}")
    form = client.get(f"/m/{public_id}/rematch")
    data = form_values(form) if form.status_code == 200 else {}
    answer = client.post(f"/m/{public_id}/rematch", data=data | {"partners": partners})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return str(answer.headers["Location"]).rsplit("/", 1)[-1]


def test_phones_starting_the_next_match_at_once_all_land_in_one(app: Flask, client: FlaskClient) -> None:
    public_id, _ = decided(client)
    before = match_count(app)
    answers = race(app, lambda phone, index: phone.post(
        f"/m/{public_id}/rematch", data={"partners": "rotate" if index % 2 else "same",
                                         "write_key": f"phone-{index}-key"}), opened=public_id)
    assert statuses(answers) == {302: THREADS}
    assert len({answer.headers["Location"] for answer in answers}) == 1
    assert match_count(app) == before + 1
    with app.app_context():
        started = reading.get_match_or_404(str(answers[0].headers["Location"]).rsplit("/", 1)[-1])
        assert started.follows_id == reading.get_match_or_404(public_id).id


def test_a_later_phone_lands_in_the_next_match_another_started(app: Flask, client: FlaskClient) -> None:
    public_id, _ = decided(client)
    first = started_from_form(client, public_id)
    other = app.test_client()
    other.get(f"/m/{public_id}")
    offered = other.get(f"/m/{public_id}/rematch")  # the button still on its screen: straight to the match
    assert offered.status_code == 302 and offered.headers["Location"] == f"/m/{first}"
    assert started_from_form(other, public_id, partners="rotate") == first  # a form drawn before it was started
    assert match_count(app) == 2
    assert f"/m/{first}" in other.get("/").get_data(as_text=True)  # kept on that phone as well


def test_programs_starting_the_next_match_at_once_get_one(app: Flask, client: FlaskClient) -> None:
    public_id, token = decided(client)
    answers = race(app, lambda program, _: program.post(f"/api/v1/matches/{public_id}/next", headers=bearer(token)))
    assert statuses(answers) == {201: 1, 200: THREADS - 1}
    bodies = [answer.get_json() for answer in answers]
    assert len({body["id"] for body in bodies}) == 1 and len({body["edit_token"] for body in bodies}) == 1
    assert all(body["follows"] == public_id and body["match"]["deals"] == [] for body in bodies)
    assert {answer.headers["Location"] for answer in answers} == {f"/api/v1/matches/{bodies[0]['id']}"}
    assert all(answer.headers["Cache-Control"] == "no-store" for answer in answers)
    assert match_count(app) == 2
    assert started_from_form(client, public_id) == bodies[0]["id"]  # the form lands there too


def test_the_api_next_match_keeps_sides_rules_and_refuses_what_it_cannot_do(client: FlaskClient) -> None:
    public_id, token = decided(client)
    assert client.post(f"/api/v1/matches/{public_id}/next").status_code == 401
    wrong = client.post(f"/api/v1/matches/{public_id}/next", json={"partners": "swap"}, headers=bearer(token))
    assert wrong.status_code == 422 and wrong.get_json()["error"]["field"] == "partners"
    made = client.post(f"/api/v1/matches/{public_id}/next", json={"partners": "rotate"}, headers=bearer(token))
    assert made.status_code == 201
    match = made.get_json()["match"]
    assert [side["players"] for side in match["sides"]] == [["Ann", "Cy"], ["Di", "Bob"]]
    assert match["rules"]["target"] == 300 and match["name"].startswith("Ann & Cy v Di & Bob, ")
    playing = client.post("/api/v1/matches", json={"format": "pinochle-match/1", "sides": SIDES}).get_json()
    refused = client.post(f"/api/v1/matches/{playing['id']}/next", headers=bearer(playing["edit_token"]))
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "not_decided"


def live_part(client: FlaskClient, url: str, etag: str) -> str:
    answer = client.get(url, headers={"If-None-Match": etag})
    assert answer.status_code == 200, "the live part did not change"
    return answer.get_data(as_text=True)


def test_every_phone_showing_the_decided_sheet_is_offered_the_next_match(app: Flask, client: FlaskClient) -> None:
    public_id, token = decided(client)
    watch_id = watch_id_of(app, public_id)
    shown = client.get(f"/m/{public_id}/live")
    watched = client.get(f"/w/{watch_id}/live")
    assert "Start the next match" in shown.get_data(as_text=True)
    started = client.post(f"/api/v1/matches/{public_id}/next", headers=bearer(token)).get_json()
    players = live_part(app.test_client(), f"/m/{public_id}/live", shown.headers["ETag"])
    assert "Another phone started the next match" in players and f'href="/m/{started["id"]}"' in players
    assert "Start the next match" not in players
    watching = live_part(app.test_client(), f"/w/{watch_id}/live", watched.headers["ETag"])
    next_watch = watch_id_of(app, started["id"])
    assert "Another phone started the next match" in watching and f'href="/w/{next_watch}"' in watching
    assert started["id"] not in watching and public_id not in watching  # no players' link on the watch page
    assert f'href="/m/{started["id"]}"' in client.get(f"/m/{public_id}").get_data(as_text=True)


def test_starting_the_next_match_moves_the_decided_match_on_once(app: Flask, client: FlaskClient) -> None:
    public_id, token = decided(client)
    version = client.get(f"/api/v1/matches/{public_id}").get_json()["version"]
    client.post(f"/api/v1/matches/{public_id}/next", headers=bearer(token))
    shown = client.get(f"/m/{public_id}/live")
    client.post(f"/api/v1/matches/{public_id}/next", headers=bearer(token))
    assert client.get(f"/api/v1/matches/{public_id}").get_json()["version"] == version + 1
    assert client.get(f"/m/{public_id}/live", headers={"If-None-Match": shown.headers["ETag"]}).status_code == 304


@pytest.mark.parametrize(("dealers", "first"), [(("Ann", "Cy"), "Bob"), (("Ann", "Cy", "Bob", "Di"), "Ann"),
                                               (("Bob",), "Di")])
def test_the_next_match_is_dealt_first_by_the_player_after_the_last_dealer(
        client: FlaskClient, dealers: tuple[str, ...], first: str) -> None:
    public_id, token = decided(client, dealers)
    started = client.post(f"/api/v1/matches/{public_id}/next", headers=bearer(token)).get_json()
    assert started["match"]["first_dealer"] == first
    next_id = started["id"]
    sheet = client.get(f"/m/{next_id}").get_data(as_text=True)
    assert re.search(rf"<p class=\"dealer\" data-dealer>{first} deals</p>", sheet)
    assert form_values(client.get(f"/m/{next_id}/deals/new"))["dealt_by"] == first


def test_with_partners_rotated_the_deal_goes_on_with_the_same_player(client: FlaskClient) -> None:
    public_id, token = decided(client, ("Ann", "Cy"))
    started = client.post(f"/api/v1/matches/{public_id}/next", json={"partners": "rotate"}, headers=bearer(token))
    assert started.get_json()["match"]["first_dealer"] == "Bob"
    assert started.get_json()["match"]["sides"][1]["players"] == ["Di", "Bob"]


def test_the_first_dealer_is_kept_in_the_match_file_and_must_play_in_the_match() -> None:
    data = {"format": "pinochle-match/1", "sides": SIDES, "first_dealer": "Di"}
    match = match_from_json(data)
    assert match.first_dealer == "Di" and match_to_json(match)["first_dealer"] == "Di"
    assert "first_dealer" not in match_to_json(match_from_json(data | {"first_dealer": None}))
    with pytest.raises(MatchFileError) as refused:
        match_from_json(data | {"first_dealer": "Eve"})
    assert refused.value.problem.path == "first_dealer" and refused.value.problem.code == "dealer_unknown"


def test_a_phone_with_a_name_is_named_on_the_other_phones(app: Flask, client: FlaskClient) -> None:
    """The phone that said "I am Ann" starts the next match: the others read that Ann's phone started it."""
    public_id, _ = decided(client)
    shown = client.get(f"/m/{public_id}/live")
    ann = app.test_client()
    ann.get(f"/m/{public_id}")
    assert ann.post(f"/m/{public_id}/me", data={"name": "Ann"}).status_code == 302
    started_from_form(ann, public_id)
    offered = live_part(client, f"/m/{public_id}/live", shown.headers["ETag"])
    assert "Ann’s phone started the next match" in offered and "Another phone" not in offered
