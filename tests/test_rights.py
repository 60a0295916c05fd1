"""Who may change a match through the forms: a phone that opened its players' link (the device cookie
lists it). Others get 403 and nothing is written; the API asks for the edit token instead."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.device import KEY
from scorekeeper.forms.house_rules import rule_values
from scorekeeper.store import reading

QUICK_DEAL = {"mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": "60", "sides-1-total": "20"}


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """The app with CSRF on, as it runs: a refused write is refused for the right, not for the form token."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s",
                      "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": False})
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def csrf_token(client: FlaskClient, url: str = "/matches/new") -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', client.get(url).get_data(as_text=True))
    assert found
    return found.group(1)


def start_match(client: FlaskClient) -> str:
    """A match started on ``client``'s form, with two deals."""
    data = form_values(client.get("/matches/new?preset=double-500")) | {"name": "Friday"}
    public_id = client.post("/matches/new", data=data).headers["Location"].split("/")[2]  # /m/<id>/invite
    for _ in range(2):
        deal = form_values(client.get(f"/m/{public_id}/deals/new")) | QUICK_DEAL
        assert client.post(f"/m/{public_id}/deals/new", data=deal).status_code == 302
    return public_id


def writes(app: Flask, public_id: str, token: str) -> dict[str, dict[str, str]]:
    """Each form address that writes to the match, with a form a player could send to it."""
    with app.app_context():
        version = str(reading.match_version(public_id))
        target_600 = reading.rules_of(reading.get_match_or_404(public_id)).replace(target=600)
    rules = {f"rules-{key}": value for key, value in rule_values(target_600).items()}
    common = {"csrf_token": token, "version": version}
    return {
        f"/m/{public_id}/deals/new": common | QUICK_DEAL,
        f"/m/{public_id}/deals/3/undo": common,  # the deal just added, taken back
        f"/m/{public_id}/deals/1/edit": common | QUICK_DEAL | {"sides-0-total": "70"},
        f"/m/{public_id}/deals/2/delete": common,
        f"/m/{public_id}/deals/1/throw-in": common,
        f"/m/{public_id}/rules/rescale": common | {"factor": "up", "confirm": "yes"},  # the history's first change …
        f"/m/{public_id}/rules/undo/1": common | {"confirm": "yes"},  # … undone (a fresh database numbers it 1)
        f"/m/{public_id}/rules": common | rules | {"confirm": "yes"},
        f"/m/{public_id}/rules/meld": common | {"confirm": "yes", "chosen": '{"pinochle": [4]}'},
        f"/m/{public_id}/undo": common | {"confirm": "yes"},  # the last change (the meld prices), undone
        f"/m/{public_id}/rematch": common,  # starts a new match from this one
    }


def test_every_form_that_writes_to_a_match_is_listed(app: Flask) -> None:
    """The routes under /m/<public_id> that take POST: each is in ``writes`` (or only touches the device)."""
    posted = {rule.rule for rule in app.url_map.iter_rules()
              if "POST" in (rule.methods or set()) and rule.rule.startswith("/m/<public_id>/")}
    public_id = start_match(app.test_client())
    listed = {re.sub(r"/m/[^/]+", "/m/<public_id>",
                     re.sub(r"/undo/\d+$", "/undo/<int:change_id>", re.sub(r"/\d+/", "/<int:number>/", url)))
              for url in writes(app, public_id, "t")}
    assert posted - listed == {
        "/m/<public_id>/forget",  # removes the match from this device's list only
        "/m/<public_id>/me",  # this phone's name, in its own cookie
        "/m/<public_id>/deals/preview", "/m/<public_id>/deals/<int:number>/preview",  # write nothing: a score
    }


def test_a_phone_that_never_opened_the_players_link_cannot_write(app: Flask) -> None:
    ann = app.test_client()
    public_id = start_match(ann)
    with app.app_context():
        before = reading.match_version(public_id)
    stranger = app.test_client()
    token = csrf_token(stranger)  # a valid form token of its own session
    for url, data in writes(app, public_id, token).items():
        answer = stranger.post(url, data=data)
        assert answer.status_code == 403, url
        html = answer.get_data(as_text=True)
        assert "This phone cannot change this match" in html and "players&#39; link" in html
        assert "nothing was saved" in html
        replayed = stranger.post(url, data=data, headers={"Accept": "application/json"})  # a form the outbox kept
        assert replayed.status_code == 403 and replayed.get_json()["error"]["code"] == "not_allowed", url
    with app.app_context():
        assert reading.match_version(public_id) == before
        assert len(reading.get_match_or_404(public_id).deals) == 2


def test_opening_the_players_link_gives_the_right(app: Flask) -> None:
    public_id = start_match(app.test_client())
    bob = app.test_client()
    assert bob.get(f"/m/{public_id}").status_code == 200
    token = csrf_token(bob)
    for url, data in writes(app, public_id, token).items():
        answer = bob.post(url, data=data | {"version": str(data_version(app, public_id))})
        assert answer.status_code in (200, 302), (url, answer.get_data(as_text=True))
    with app.app_context():
        row = reading.get_match_or_404(public_id)
        assert len(row.deals) == 1 and reading.rules_of(row).target == 600  # 2 + 1 added - 1 deleted - 1 undone


def data_version(app: Flask, public_id: str) -> int | None:
    with app.app_context():
        return reading.match_version(public_id)


def test_a_deal_form_at_the_players_link_gives_the_right_too(app: Flask) -> None:
    public_id = start_match(app.test_client())
    carol = app.test_client()
    data = form_values(carol.get(f"/m/{public_id}/deals/new")) | QUICK_DEAL
    assert carol.post(f"/m/{public_id}/deals/new", data=data).status_code == 302


def test_a_phone_with_a_device_cookie_from_before_keeps_writing(app: Flask) -> None:
    """Cookies written before the right existed list the matches a phone opened: that list is the right."""
    public_id = start_match(app.test_client())
    dave = app.test_client()
    with dave.session_transaction() as session:
        session[KEY] = ["someone-elses-old-match", public_id]
    token = csrf_token(dave)
    deal = {"csrf_token": token, "version": str(data_version(app, public_id))} | QUICK_DEAL
    assert dave.post(f"/m/{public_id}/deals/new", data=deal).status_code == 302
    with app.app_context():
        assert len(reading.get_match_or_404(public_id).deals) == 3


def test_forgetting_a_match_gives_up_the_right_until_the_link_is_opened_again(app: Flask) -> None:
    ann = app.test_client()
    public_id = start_match(ann)
    assert ann.post(f"/m/{public_id}/forget", data={"csrf_token": csrf_token(ann)}).status_code == 302
    deal = {"csrf_token": csrf_token(ann), "version": str(data_version(app, public_id))} | QUICK_DEAL
    assert ann.post(f"/m/{public_id}/deals/new", data=deal).status_code == 403
    ann.get(f"/m/{public_id}")
    assert ann.post(f"/m/{public_id}/deals/new", data=deal).status_code == 302


def test_the_api_asks_for_the_edit_token_not_the_cookie(app: Flask, client: FlaskClient) -> None:
    public_id = start_match(client)  # the client has the right on the forms ...
    deal = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}
    assert client.post(f"/api/v1/matches/{public_id}/deals", json=deal).status_code == 401  # ... not on the API
    with app.app_context():
        token = reading.get_match_or_404(public_id).edit_token
    stranger = app.test_client()
    answer = stranger.post(f"/api/v1/matches/{public_id}/deals", json=deal,
                           headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201


def test_the_helper_phone_used_by_other_tests_has_the_right(actions: Actions, client: FlaskClient) -> None:
    public_id = actions.create_match()
    assert actions.add_deal(public_id, 0, 50, (60, 20)).status_code == 302
