"""Sheet reloads answered from the sheet cache before the app (sheet/kept.py): the same bytes and headers the
app sends, only for the version in the database now, never a page of one link at another, and never when
the session would change or has something of its own to show."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from conftest import watch_id_of
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import create_app, store
from scorekeeper.device import RENEW_AFTER_DAYS, RENEWED_KEY
from scorekeeper.sheet.cache import sheet_cache
from scorekeeper.sheet.kept import KeptPages
from scorekeeper.sheet.polls import UnchangedSheets

DEAL = {"bidder": 0, "bid": 50, "sides": [{"meld": 20, "tricks": 30, "last_trick": True}, {"meld": 4, "tricks": 18}]}


def kept_pages(app: Flask) -> KeptPages:
    middleware = app.wsgi_app
    assert isinstance(middleware, UnchangedSheets)
    return middleware.kept


@pytest.fixture
def slow_app(app: Flask) -> Iterator[Flask]:
    """The same app on the same database with no kept answers: every request goes through the views."""
    other = create_app(dict(app.config) | {"KEPT_PAGES": False})
    yield other
    other.extensions["scorekeeper.engine"].dispose()


def start(app: Flask, deals: int = 2) -> tuple[str, str, str]:
    """A match through the API with ``deals`` deals; its link, edit token and watch link."""
    client = app.test_client()
    created = client.post("/api/v1/matches", json={
        "format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}], "rules": {"target": 1000},
        "deals": [DEAL] * deals}).get_json()
    return created["id"], created["edit_token"], watch_id_of(app, created["id"])


def phone(app: Flask, public_id: str) -> FlaskClient:
    """A phone that opened the match's players' link (its cookie lists the match first)."""
    client = app.test_client()
    assert client.get(f"/m/{public_id}").status_code == 200
    return client


def fetched(app: Flask, client: FlaskClient, path: str, **headers: str) -> tuple[TestResponse, bool]:
    """The answer, and whether it was a kept one."""
    before = kept_pages(app).answered
    answer = client.get(path, headers=headers)
    return answer, kept_pages(app).answered > before


def same_phone(client: FlaskClient, app: Flask) -> FlaskClient:
    other = app.test_client()
    cookie = client.get_cookie("session")
    if cookie is not None:
        other.set_cookie("session", cookie.value)
    return other


def without_date(answer: TestResponse) -> list[tuple[str, str]]:
    return [(name, value) for name, value in answer.headers.items() if name != "Date"]


ENCODINGS = ("gzip, deflate, br", "", "identity", "br", "*", "gzip;q=0")


@pytest.mark.parametrize("where", ["players", "players live", "watch", "watch live"])
def test_a_kept_answer_is_the_one_the_app_gives(app: Flask, slow_app: Flask, where: str) -> None:
    public_id, _, watch_id = start(app)
    path = {"players": f"/m/{public_id}", "players live": f"/m/{public_id}/live", "watch": f"/w/{watch_id}",
            "watch live": f"/w/{watch_id}/live"}[where]
    client = phone(app, public_id)
    client.get(f"/w/{watch_id}")  # both pages drawn and kept
    for encoding in ENCODINGS:
        for revalidated in (False, True):
            headers = {"Accept-Encoding": encoding}
            if revalidated:
                headers["If-None-Match"] = client.get(path).headers["ETag"]
            fast, kept = fetched(app, client, path, **headers)
            slow = same_phone(client, slow_app).get(path, headers=headers)
            # The live part's 304 is the poll answer of sheet/polls.py, before either; and a gzip;q=0 page
            # is compressed by Flask-Compress after the view, which the kept answer leaves to the app.
            assert kept == (not (revalidated and where.endswith("live"))
                            and (revalidated or encoding != "gzip;q=0")), (encoding, revalidated)
            assert fast.status_code == slow.status_code == (304 if revalidated else 200)
            assert without_date(fast) == without_date(slow), (encoding, revalidated)
            assert fast.get_data() == slow.get_data()
            assert "Set-Cookie" not in fast.headers


def test_only_the_version_in_the_database_now_is_served(app: Flask, slow_app: Flask) -> None:
    public_id, token, _ = start(app)
    client = phone(app, public_id)
    first, kept = fetched(app, client, f"/m/{public_id}")
    assert kept and 'id="deal-2"' in first.get_data(as_text=True)
    # Another process (its own cache) adds deal 3: this one's kept page is of an older version now.
    added = slow_app.test_client().post(f"/api/v1/matches/{public_id}/deals", json=DEAL,
                                         headers={"Authorization": f"Bearer {token}"})
    assert added.status_code == 201
    after, kept = fetched(app, client, f"/m/{public_id}", **{"If-None-Match": first.headers["ETag"]})
    assert not kept and after.status_code == 200 and 'id="deal-3"' in after.get_data(as_text=True)
    assert after.headers["ETag"] != first.headers["ETag"]
    again, kept = fetched(app, client, f"/m/{public_id}")
    assert kept and again.get_data() == after.get_data()


def test_a_page_kept_for_a_newer_version_is_not_served_by_the_kept_path(app: Flask) -> None:
    public_id, _, _ = start(app)
    client = phone(app, public_id)
    with app.app_context():
        version = store.match_version(public_id)
        assert version is not None
        page = sheet_cache().get(public_id, version)
        assert page is not None
        sheet_cache().put(dataclasses.replace(page, version=version + 1))
    answer, kept = fetched(app, client, f"/m/{public_id}")
    assert not kept and answer.status_code == 200


def test_a_watching_phone_never_gets_the_players_page(app: Flask) -> None:
    public_id, token, watch_id = start(app)
    players = phone(app, public_id)
    players.get(f"/m/{public_id}")
    players.get(f"/m/{public_id}/live")
    watcher = app.test_client()
    for path in (f"/w/{watch_id}", f"/w/{watch_id}/live"):
        answer, kept = fetched(app, watcher, path)
        assert answer.status_code == 200
        text = answer.get_data(as_text=True)
        assert public_id not in text and token not in text and "/m/" not in text
        answer, kept = fetched(app, watcher, path)
        assert kept and public_id not in answer.get_data(as_text=True)
    # Each link's pages are found under that link only.
    assert fetched(app, watcher, f"/w/{public_id}")[0].status_code == 404
    assert fetched(app, watcher, f"/m/{watch_id}")[0].status_code == 404


@pytest.mark.parametrize("session_state", ["no cookie", "forged cookie", "another match first", "renewal due",
                                           "a message waits", "a saved deal waits"])
def test_the_app_answers_when_the_session_changes_or_shows_something(
        app: Flask, slow_app: Flask, session_state: str) -> None:
    public_id, token, _ = start(app)
    other_id, _, _ = start(app)
    client = phone(app, public_id)
    client.get(f"/m/{public_id}")
    slow = same_phone(client, slow_app)
    for visitor in (client, slow):
        if session_state == "no cookie":
            visitor.delete_cookie("session")
        elif session_state == "forged cookie":
            visitor.set_cookie("session", "eyJtYXRjaGVzIjpbXX0.forged.signature")
        elif session_state == "another match first":
            visitor.get(f"/m/{other_id}")
        else:
            with visitor.session_transaction() as session:
                if session_state == "renewal due":
                    session[RENEWED_KEY] = date.today().toordinal() - RENEW_AFTER_DAYS
                elif session_state == "a message waits":
                    session["_flashes"] = [("message", "Rules changed")]
                else:
                    session["saved"] = [public_id, 2, store_version(app, public_id), False]
    answer, kept = fetched(app, client, f"/m/{public_id}")
    expected = slow.get(f"/m/{public_id}")
    assert not kept
    assert answer.status_code == expected.status_code == 200
    assert ("Set-Cookie" in answer.headers) == ("Set-Cookie" in expected.headers)
    if session_state in ("a message waits", "a saved deal waits"):
        text = answer.get_data(as_text=True)
        assert ("Rules changed" in text) if session_state == "a message waits" else ("Deal 2 saved" in text)
        assert answer.headers["Cache-Control"] == "no-store"
    else:
        assert "Set-Cookie" in answer.headers  # the list, or the cookie's age, changed
    # Once the session is settled again, the next reload is a kept one.
    assert fetched(app, client, f"/m/{public_id}")[1]


def store_version(app: Flask, public_id: str) -> int:
    with app.app_context():
        version = store.match_version(public_id)
    assert version is not None
    return version


def test_a_decided_match_offers_its_rematch_form_from_the_app(app: Flask) -> None:
    public_id, _, watch_id = start(app, deals=0)
    client = app.test_client()
    created = client.post("/api/v1/matches", json={
        "format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}], "rules": {"target": 100},
        "deals": [DEAL, DEAL]}).get_json()
    public_id, watch_id = created["id"], watch_id_of(app, created["id"])
    player = phone(app, public_id)
    answer, kept = fetched(app, player, f"/m/{public_id}")
    assert not kept and "rematch" in answer.get_data(as_text=True)
    assert "no-store" not in answer.headers["Cache-Control"]  # the same for every phone: kept offline
    app.test_client().get(f"/w/{watch_id}")
    assert fetched(app, app.test_client(), f"/w/{watch_id}")[1]  # the watch page has no form: kept


@pytest.mark.parametrize("request_args", [
    {"path": "/m/{id}", "query_string": "dead=2"},
    {"path": "/m/{id}", "method": "HEAD"},
    {"path": "/m/{id}/", "method": "GET"},
])
def test_other_requests_go_to_the_app(app: Flask, request_args: dict[str, Any]) -> None:
    public_id, _, _ = start(app)
    client = phone(app, public_id)
    client.get(f"/m/{public_id}")
    before = kept_pages(app).answered
    client.open(**(request_args | {"path": request_args["path"].format(id=public_id)}))
    assert kept_pages(app).answered == before


def test_a_host_not_trusted_is_refused_by_the_app(database_url: str, tmp_path: Any) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s",
                      "RATELIMIT_ENABLED": False, "INSTANCE_PATH": str(tmp_path),
                      "TRUSTED_HOSTS": ["score.example.org"]})
    try:
        client = app.test_client()
        created = client.post("/api/v1/matches", base_url="http://score.example.org", json={
            "format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}]}).get_json()
        path = f"/m/{created['id']}"
        assert client.get(path, base_url="http://score.example.org").status_code == 200
        answer, kept = fetched(app, client, path, Host="score.example.org")
        assert kept and answer.status_code == 200
        answer, kept = fetched(app, client, path, Host="evil.example.com")
        assert not kept and answer.status_code == 400
    finally:
        app.extensions["scorekeeper.engine"].dispose()
