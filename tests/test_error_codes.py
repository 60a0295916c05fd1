"""Every JSON error answer carries a code a program can act on, and the field it concerns;
with them, the refusals of D5 (a form, or one kept offline and replayed, giving a field twice) and D7 (a
version ahead of the match)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict
from werkzeug.test import TestResponse

from scorekeeper import MAX_REQUEST_BYTES, create_app

pytestmark = pytest.mark.both_databases

WORKED: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parent.parent / "seeds" / "worked-sheet.json").read_text(encoding="utf-8"))
DEAL = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 10}]}


def error_of(answer: TestResponse, status: int) -> dict[str, Any]:
    assert answer.status_code == status, answer.get_data(as_text=True)[:300]
    assert answer.mimetype == "application/json"
    error = dict(answer.get_json()["error"])
    assert isinstance(error["code"], str) and error["code"] and error["message"]
    return error


@pytest.fixture
def match(client: FlaskClient) -> dict[str, Any]:
    answer = client.post("/api/v1/matches", json=WORKED)
    assert answer.status_code == 201
    return dict(answer.get_json())


def bearer(match: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {match['edit_token']}"}


# The API -----------------------------------------------------------------------------------------------

def test_errors_about_no_one_value_carry_the_code_of_their_kind(client: FlaskClient, match: dict[str, Any]) -> None:
    deals = f"/api/v1/matches/{match['id']}/deals"
    cases = [
        (client.get("/api/v1/nowhere"), 404, "not_found", None),
        (client.get("/api/v1/matches/unknownMatch"), 404, "not_found", None),
        (client.patch(f"/api/v1/matches/{match['id']}"), 405, "method_not_allowed", None),
        (client.post(deals, json=DEAL), 401, "token_missing", "Authorization"),
        (client.post(deals, json=DEAL, headers={"Authorization": "Bearer guess"}), 403, "token_wrong", "Authorization"),
        (client.post(deals, data="x", content_type="text/plain", headers=bearer(match)), 415, "wrong_content_type",
         None),
        (client.post(deals, data=b"\xff", content_type="application/json", headers=bearer(match)), 400, "not_json",
         None),
        (client.post(deals, json={**DEAL, "version": match["version"] - 1}, headers=bearer(match)), 409, "stale",
         "version"),
        (client.post(deals, data=b"{" + b" " * MAX_REQUEST_BYTES + b"}", content_type="application/json",
                     headers=bearer(match)), 413, "too_large", None),
    ]
    for answer, status, code, field in cases:
        error = error_of(answer, status)
        assert (error["code"], error["field"]) == (code, field), error


def test_undoing_a_change_that_changes_nothing_says_so(client: FlaskClient, match: dict[str, Any]) -> None:
    url = f"/api/v1/matches/{match['id']}"
    assert client.put(f"{url}/rules", json={"target": 500}, headers=bearer(match)).status_code == 200
    assert client.put(f"{url}/rules", json={"target": 300}, headers=bearer(match)).status_code == 200
    change = client.get(f"{url}/rules/history", headers=bearer(match)).get_json()["changes"][-1]["id"]
    assert error_of(client.post(f"{url}/rules/history/{change}/undo", headers=bearer(match)), 422)["code"] == \
        "nothing_to_undo"
    assert error_of(client.post(f"{url}/rules/history/99999/undo", headers=bearer(match)), 404)["code"] == "not_found"


@pytest.mark.parametrize("where", ["body", "If-Match"])
def test_a_version_ahead_of_the_match_is_a_bad_value_not_a_change_elsewhere(
        client: FlaskClient, match: dict[str, Any], where: str) -> None:
    """D7: version 999 of a match at version 1 is no match's version; nothing "was saved on another phone"."""
    ahead = match["version"] + 998
    body, headers = (({**DEAL, "version": ahead}, bearer(match)) if where == "body"
                     else (DEAL, {**bearer(match), "If-Match": f'"{ahead}"'}))
    error = error_of(client.post(f"/api/v1/matches/{match['id']}/deals", json=body, headers=headers), 422)
    assert (error["code"], error["field"]) == ("version_ahead", "version")
    assert "another phone" not in error["message"] and "−" not in error["message"]
    rules = client.put(f"/api/v1/matches/{match['id']}/rules", json={"target": 500, "version": ahead},
                       headers=bearer(match))
    assert error_of(rules, 422)["code"] == "version_ahead"
    assert client.get(f"/api/v1/matches/{match['id']}").get_json()["version"] == match["version"]


def test_a_version_ahead_in_a_form_is_refused_and_nothing_saved(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {"mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": "60",
                                           "sides-1-total": "10"}
    answer = client.post(f"/m/{public_id}/deals/new", data=data | {"version": "999"})
    assert answer.status_code == 422 and "ahead of the match" in answer.get_data(as_text=True)
    assert client.get(f"/api/v1/matches/{public_id}").get_json()["match"]["deals"] == []


def test_too_many_new_matches_answer_rate_limited(database_url: str, tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "INSTANCE_PATH": str(tmp_path),
                      "RATELIMIT_ENABLED": True, "CREATE_MATCH_LIMIT": "1 per minute"})
    try:
        client = app.test_client()
        assert client.post("/api/v1/matches", json=WORKED).status_code == 201
        answer = client.post("/api/v1/matches", json=WORKED)
        assert error_of(answer, 429)["code"] == "rate_limited" and int(answer.headers["Retry-After"]) > 0
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_an_untrusted_host_is_refused_in_json_under_the_api(database_url: str, tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "INSTANCE_PATH": str(tmp_path),
                      "RATELIMIT_ENABLED": False, "TRUSTED_HOSTS": ["score.example.org"]})
    try:
        answer = app.test_client().get("/api/v1/matches/x", headers={"Host": "evil.example"})
        assert (error_of(answer, 400)["code"], error_of(answer, 400)["field"]) == ("untrusted_host", "Host")
    finally:
        app.extensions["scorekeeper.engine"].dispose()


# Forms -------------------------------------------------------------------------------------------------

def test_a_form_giving_a_field_twice_is_refused_naming_it(client: FlaskClient, actions: Actions) -> None:
    """D5: ``bid=60&bid=70`` was read as 60; it is refused, and nothing is saved."""
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {"mode": "quick", "bidder": "0", "sides-0-total": "60",
                                           "sides-1-total": "10"}
    pairs = [*data.items(), ("bid", "60"), ("bid", "70")]
    body = "&".join(f"{name}={value}" for name, value in pairs)
    answer = client.post(f"/m/{public_id}/deals/new", data=body, content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 400
    assert "the field &#39;bid&#39; twice" in answer.get_data(as_text=True)
    assert client.get(f"/api/v1/matches/{public_id}").get_json()["match"]["deals"] == []


# A form kept offline, replayed to its own address ------------------------------------------------------

@pytest.fixture
def csrf_app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s",
                      "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": False})
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def opened_match(client: FlaskClient) -> tuple[str, str]:
    """A match this phone started (so it may write to it), and a fresh CSRF token for its outbox."""
    data = form_values(client.get("/matches/new?preset=double-500")) | {"name": "Cabin"}
    public_id = client.post("/matches/new", data=data).headers["Location"].split("/")[2]  # /m/<id>/invite
    return public_id, client.get(f"/m/{public_id}/outbox").get_json()["csrf_token"]


def test_a_kept_form_replayed_to_its_address_answers_every_refusal_with_a_code(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    public_id, token = opened_match(client)
    url = f"/m/{public_id}/deals/new"
    headers = {"X-CSRFToken": token, "Accept": "application/json", "Idempotency-Key": "kept-key-0001"}
    stranger = csrf_app.test_client()  # a phone that never opened the match, with a token of its own
    stranger_token = form_values(stranger.get("/matches/new"))["csrf_token"]
    cases = [
        (client.post(url, data=MultiDict([("bid", "60"), ("bid", "70")]), headers=headers), 400,
         "duplicate_field"),  # D5
        (client.post(url, data={"mode": "quick"}, headers=headers), 422, "not_valid"),
        (client.post(url, data={}, headers=headers | {"Idempotency-Key": "?"}), 400, "wrong_format"),
        (client.post(url, data={}, headers={"Accept": "application/json"}), 400, "form_expired"),
        (stranger.post(url, data={}, headers=headers | {"X-CSRFToken": stranger_token}), 403, "not_allowed"),
    ]
    for answer, status, code in cases:
        assert error_of(answer, status)["code"] == code
    assert error_of(cases[0][0], 400)["field"] == "bid"
    assert error_of(cases[2][0], 400)["field"] == "Idempotency-Key"
    assert client.get(f"/api/v1/matches/{public_id}").get_json()["match"]["deals"] == []


# Pages asked for JSON -------------------------------------------------------------------------------

@pytest.mark.parametrize("accept, json_answer", [("application/json", True), ("text/html", False), ("*/*", False),
                                                 ("text/html;q=0.5, application/json", True)])
def test_a_page_answers_its_errors_in_json_when_the_request_puts_json_first(
        client: FlaskClient, match: dict[str, Any], accept: str, json_answer: bool) -> None:
    answer = client.get(f"/m/{match['id']}/deals/999/edit", headers={"Accept": accept})
    if json_answer:
        assert error_of(answer, 404)["code"] == "not_found"
    else:
        assert answer.status_code == 404 and answer.mimetype == "text/html"
