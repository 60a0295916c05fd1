"""Where a problem is shown depends on its path only: with every message reworded into gibberish, each
problem still lands at the same field of the deal form and the same field of the API's answer."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from conftest import Actions
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from scorekeeper.forms.deals import DETAIL, DealForm
from scorekeeper.rules.errors import MatchFileError
from scorekeeper.rules.problems import Problem, ProblemCode
from scorekeeper.store import writing


def gibberish(message: str) -> str:
    return "Zq" + hashlib.sha256(message.encode()).hexdigest()[:10]


def reworded(problem: Problem) -> Problem:
    return Problem(problem.code, problem.path, gibberish(problem.message))


@pytest.fixture
def reword(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message the rules core gives the store, for a deal, is replaced by gibberish."""
    check, read = writing.check_new_deal, writing.deal_from_json

    def check_reworded(*args: Any) -> list[Problem]:
        return [reworded(problem) for problem in check(*args)]

    def read_reworded(*args: Any, **kwargs: Any) -> Any:
        try:
            return read(*args, **kwargs)
        except MatchFileError as error:
            raise MatchFileError(reworded(error.problem)) from None

    monkeypatch.setattr(writing, "check_new_deal", check_reworded)
    monkeypatch.setattr(writing, "deal_from_json", read_reworded)


# Placement of one problem on the form, whatever its words -----------------------------------------

@pytest.mark.parametrize(
    ("path", "field_id"),
    [
        ("bid", "bid"), ("bidder", "bidder"), ("trump", "trump"), ("thrown_in", "thrown_in"),
        ("sides[1].meld", "sides-1-hands-0-meld"), ("sides[0].meld[1].cards[4]", "sides-0-hands-1-meld"),
        ("sides[1].meld.run", "sides-1-hands-0-meld"), ("sides[1].tricks", "sides-1-tricks"),
        ("sides[0].tricks.cards.A", "sides-0-tricks"), ("sides[1].total", "sides-1-total"),
        ("sides[0].took_trick", "sides-0-took"), ("sides[1].last_trick", "last_trick"),
        ("sides[1]", "sides-1-hands-0-meld"), ("", None), ("sides", None), ("entered_under.trick_scale", None),
        ("sides[7].tricks", None), ("bids", None),
    ],
)
def test_the_form_places_a_problem_by_its_path(app: Flask, path: str, field_id: str | None) -> None:
    for code in ProblemCode:
        message = gibberish(f"{code} {path}")
        with app.test_request_context():
            form = DealForm(formdata=None).setup(["We", "They"], [["Ann", "Bob"], ["Cy", "Di"]])
            form.mode.data = DETAIL
            form.place_problem(Problem(code, path, message))
            fields = [form.bid, form.bidder, form.trump, form.thrown_in, form.last_trick]
            for entry in form.entries():
                fields += [entry.total, *(hand.meld for hand in entry.hand_forms()), entry.tricks, entry.took]
            placed = [field.id for field in fields if field.errors]
            assert placed == ([field_id] if field_id else []), code
            assert form.form_errors == ([] if field_id else [message + "."])
            assert all(field.errors == [message + "."] for field in fields if field.errors)


# The same bad deals through the form and through the API, their messages reworded -------------------

def detail(**fields: str) -> dict[str, str]:
    return {"mode": "detail", "bidder": "0", "bid": "50", "last_trick": "0", **fields}


TWO_SIDES = {"sides-0-hands-0-meld": "20", "sides-0-tricks": "30", "sides-1-hands-0-meld": "4", "sides-1-tricks": "18"}
CASES = [
    pytest.param(
        {"bid": "40", **TWO_SIDES}, {"bidder": 0, "bid": 40, "sides": [
            {"meld": 20, "tricks": 30, "last_trick": True}, {"meld": 4, "tricks": 18}]},
        "bid", "deal.bid", id="bid-below-minimum"),
    pytest.param(
        {"bid": "0", **TWO_SIDES}, {"bidder": 0, "bid": 0, "sides": [
            {"meld": 20, "tricks": 30, "last_trick": True}, {"meld": 4, "tricks": 18}]},
        "bid", "deal.bid", id="bid-zero-file-error"),
    pytest.param(
        {**TWO_SIDES, "sides-1-tricks": "10"}, {"bidder": 0, "bid": 50, "sides": [
            {"meld": 20, "tricks": 30, "last_trick": True}, {"meld": 4, "tricks": 10}]},
        "sides-1-tricks", "deal.sides[1].tricks", id="trick-total"),
    pytest.param(
        {**TWO_SIDES, "sides-1-took": "none"}, {"bidder": 0, "bid": 50, "sides": [
            {"meld": 20, "tricks": 30, "last_trick": True}, {"meld": 4, "tricks": 18, "took_trick": False}]},
        "sides-1-took", "deal.sides[1].took_trick", id="took-no-trick"),
    pytest.param(
        {**TWO_SIDES, "sides-0-hands-0-meld": "", "sides-0-hands-0-kept": '{"cards": ["AH", "ZZ"], "trump": "H"}'},
        {"bidder": 0, "bid": 50, "sides": [
            {"meld": {"cards": ["AH", "ZZ"], "trump": "H"}, "tricks": 30, "last_trick": True},
            {"meld": 4, "tricks": 18}]},
        "sides-0-hands-0-meld", "deal.sides[0].meld.cards[1]", id="bad-card-file-error"),
]


def form_field_of(html: str, text: str) -> list[str]:
    """The ids of the fields whose message is ``text``."""
    return re.findall(rf'id="([\w-]+)-error"[^>]*>\s*{re.escape(str(escape(text)))}\.', html)


def post_form(client: FlaskClient, actions: Actions, public_id: str, fields: dict[str, str]) -> str:
    data = actions.deal_form(public_id) | detail(**fields)
    response = client.post(f"/m/{public_id}/deals/new", data=data)
    assert response.status_code == 422
    return response.get_data(as_text=True)


def api_problems(client: FlaskClient, public_id: str, token: str, deal: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.post(f"/api/v1/matches/{public_id}/deals", json=deal,
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 422
    error = response.get_json()["error"]
    return list(error.get("problems") or [error])


def new_api_match(client: FlaskClient) -> tuple[str, str]:
    body = client.post("/api/v1/matches", json={
        "format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}]}).get_json()
    return body["id"], body["edit_token"]


@pytest.mark.parametrize(("form_fields", "deal", "field_id", "api_field"), CASES)
def test_reworded_problems_land_where_they_did(
    client: FlaskClient, actions: Actions, form_fields: dict[str, str], deal: dict[str, Any], field_id: str,
    api_field: str, request: pytest.FixtureRequest,
) -> None:
    def run() -> tuple[list[str], list[tuple[str, str]], list[str]]:
        public_id = actions.create_match()
        html = post_form(client, actions, public_id, form_fields)
        api_id, token = new_api_match(client)
        found = api_problems(client, api_id, token, deal)
        messages = [problem["message"] for problem in found]
        placed = [field for message in messages for field in form_field_of(html, message[:1].upper() + message[1:])]
        return placed, [(problem["field"], problem["code"]) for problem in found], messages

    placed, api_places, _ = run()
    assert placed == [field_id] and [field for field, _ in api_places] == [api_field]
    request.getfixturevalue("reword")
    placed_reworded, api_reworded, messages = run()
    assert all(message.startswith("Zq") for message in messages)
    assert placed_reworded == placed and api_reworded == api_places
