"""The limits and the strict readers, one case per measured failure: the same refusal through the forms,
the API and the import, a message naming the field, and never a 500."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Actions
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper.db import get_session
from scorekeeper.models import MatchRow
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.limits import MAX_DEALS, MAX_MATCH_NAME, MAX_PLAYERS, MAX_SIDE_NAME
from scorekeeper.rules.numbers import parse_whole_number
from scorekeeper.rules.problems import ProblemCode

pytestmark = pytest.mark.both_databases

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
WORKED: dict[str, Any] = json.loads((SEEDS / "worked-sheet.json").read_text(encoding="utf-8"))
DEAL = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}


def match_count(app: Flask) -> int:
    with app.app_context():
        return int(get_session().scalar(select(func.count()).select_from(MatchRow)) or 0)


def api_error(response: TestResponse, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    return dict(response.get_json()["error"])


def create(client: FlaskClient, data: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/matches", json=data)
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def with_sides(*sides: dict[str, Any]) -> dict[str, Any]:
    return {**WORKED, "sides": list(sides), "deals": []}


# The number parser ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["²", "١٢", "𝟙", "1" * 5000, "-1", "+1", "1.0", "", " ", "1 000", "0x1"])
def test_the_number_parser_takes_ascii_digits_only(text: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_whole_number(text, "bid")
    assert caught.value.problem.path == "bid"
    assert caught.value.code in (ProblemCode.NOT_A_NUMBER, ProblemCode.OUT_OF_RANGE)
    assert len(str(caught.value)) < 100  # a 5,000-digit text is not repeated back


def test_the_number_parser_reads_plain_numbers() -> None:
    assert [parse_whole_number(text) for text in ("0", " 42 ", "007", "999999999")] == [0, 42, 7, 999_999_999]


def test_a_rule_value_of_5000_digits_is_refused_as_a_value() -> None:
    for raw in ("1" * 5000, 10**5000):
        with pytest.raises(RulesError) as caught:
            HouseRules.from_mapping({"target": raw})
        assert caught.value.problem.path == "rules.target"


# The API ----------------------------------------------------------------------------------------------

LIMIT_CASES = [
    pytest.param({**WORKED, "deals": [DEAL] * (MAX_DEALS + 1)}, "too_many_deals", "deals", id="deals"),
    pytest.param(with_sides({"name": "We", "players": ["P"] * 15_000}, {"name": "They"}), "too_many_players",
                 "sides[0].players", id="15000-players"),
    pytest.param(with_sides({"name": "We", "players": ["Ann"] * MAX_PLAYERS + ["Bob"]}, {"name": "They"}),
                 "too_many_players", "sides[0].players", id="players"),
    pytest.param(with_sides({"name": "We"}, {"name": "we"}), "duplicate_name", "sides[1].name", id="same-names"),
    pytest.param(with_sides({"name": "We\x00"}, {"name": "They"}), "bad_character", "sides[0].name", id="nul"),
    pytest.param(with_sides({"name": "We", "players": ["A\nB"]}, {"name": "They"}), "bad_character",
                 "sides[0].players[0]", id="line-break"),
    pytest.param(with_sides({"name": "W" * (MAX_SIDE_NAME + 1)}, {"name": "They"}), "too_long", "sides[0].name",
                 id="side-name"),
    pytest.param({**WORKED, "name": "M" * (MAX_MATCH_NAME + 1)}, "too_long", "name", id="match-name"),
    pytest.param({"format": "pinochle-match/1", "sides": WORKED["sides"], "Deals": WORKED["deals"]}, "unknown_key",
                 "Deals", id="Deals"),
    pytest.param(with_sides({"name": "We", "colour": "red"}, {"name": "They"}), "unknown_key", "sides[0].colour",
                 id="side-key"),
    # Names that cannot be seen, or that turn the text around.
    pytest.param(with_sides({"name": "\u200b"}, {"name": "They"}), "bad_character", "sides[0].name", id="zero-width"),
    pytest.param(with_sides({"name": "We", "players": ["Ann\u202e"]}, {"name": "They"}), "bad_character",
                 "sides[0].players[0]", id="bidi-override"),
    pytest.param({**WORKED, "name": "\ufeffFriday"}, "bad_character", "name", id="byte-order-mark"),
    pytest.param(with_sides({"name": "We", "players": ["Ann\u00adBob"]}, {"name": "They"}), "bad_character",
                 "sides[0].players[0]", id="soft-hyphen"),
    pytest.param({**WORKED, "deals": [{**DEAL, "sides": [{"meld": [0] * (MAX_PLAYERS + 1), "tricks": 48},
                                                         {"total": 0}]}]},
                 "too_many_players", "deals[0].sides[0].meld", id="meld-of-five-hands"),
]


@pytest.mark.parametrize(("data", "code", "field"), LIMIT_CASES)
def test_api_refuses_beyond_the_limits(app: Flask, client: FlaskClient, data: dict[str, Any], code: str,
                                       field: str) -> None:
    error = api_error(client.post("/api/v1/matches", json=data), 422)
    assert (error["code"], error["field"]) == (code, field)
    assert match_count(app) == 0


@pytest.mark.parametrize(("data", "code", "field"), LIMIT_CASES)
def test_import_refuses_the_same(app: Flask, client: FlaskClient, data: dict[str, Any], code: str,
                                 field: str) -> None:
    html = client.post("/import", data={"text": json.dumps(data)}).get_data(as_text=True)
    assert 'id="text-error"' in html and field.replace("'", "&#39;") in html
    assert match_count(app) == 0


def test_names_are_read_as_nfc_without_surrounding_spaces(client: FlaskClient) -> None:
    body = create(client, {**with_sides({"name": "  Rene\u0301 ", "players": [" Zoe\u0308"]}, {"name": "They"}),
                           "name": " Friday "})
    assert body["match"]["name"] == "Friday"
    assert body["match"]["sides"][0] == {"name": "Ren\u00e9", "players": ["Zo\u00eb"]}


def test_a_table_refuses_an_invisible_player(client: FlaskClient) -> None:
    error = api_error(client.post("/api/v1/tables", json={"name": "Club", "players": ["Ann", "\u200b"]}), 422)
    assert (error["code"], error["field"]) == ("bad_character", "players[1]")


def test_an_emoji_name_keeps_its_joiners(client: FlaskClient) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    body = create(client, with_sides({"name": family}, {"name": "They"}))
    assert body["match"]["sides"][0]["name"] == family


@pytest.mark.parametrize(("body", "field"), [
    ('{"format": "pinochle-match/1", "format": "pinochle-match/1", "sides": []}', "format"),
    ('{"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}], "deals": [], '
     '"deals": [{"bidder": 0, "bid": 60, "bid": 70, "sides": [{"total": 60}, {"total": 0}]}]}', "deals"),
    ('{"format": "pinochle-match/1", "sides": [{"name": "We", "name": "Us"}, {"name": "They"}]}', "sides[0].name"),
])
def test_a_key_given_twice_is_refused_naming_it(app: Flask, client: FlaskClient, body: str, field: str) -> None:
    error = api_error(client.post("/api/v1/matches", data=body, content_type="application/json"), 422)
    assert (error["code"], error["field"]) == ("duplicate_key", field)
    html = client.post("/import", data={"text": body}).get_data(as_text=True)
    assert 'id="text-error"' in html and "given twice" in html
    assert match_count(app) == 0


def test_a_deal_with_its_bid_given_twice_is_refused(client: FlaskClient) -> None:
    created = create(client, WORKED)
    deal = '{"bidder": 0, "bid": 60, "bid": 70, "sides": [{"total": 60}, {"total": 20}]}'
    answer = client.post(f"/api/v1/matches/{created['id']}/deals", data=deal, content_type="application/json",
                         headers={"Authorization": f"Bearer {created['edit_token']}"})
    error = api_error(answer, 422)
    assert (error["code"], error["field"]) == ("duplicate_key", "bid")
    assert client.get(f"/api/v1/matches/{created['id']}").get_json()["version"] == created["version"]


@pytest.mark.parametrize(("body", "status", "code"), [
    ("[" * 100_000, 400, "too_deep"),
    ('{"a":' * 50_000, 400, "too_deep"),
    ('{"format": "pinochle-match/1", "name": ' + "1" * 5000 + "}", 422, "out_of_range"),
    ('{"format": "pinochle-match/1", "name": "\\ud800"}', 422, "bad_character"),
])
def test_unreadable_json_is_a_400_or_422(client: FlaskClient, body: str, status: int, code: str) -> None:
    error = api_error(client.post("/api/v1/matches", data=body, content_type="application/json"), status)
    assert error["code"] == code and error["message"]


@pytest.mark.parametrize("header", ['"²"', '"' + "1" * 5000 + '"', '"-1"', "x"])
def test_if_match_is_read_strictly(client: FlaskClient, header: str) -> None:
    made = create(client, WORKED)
    response = client.post(f"/api/v1/matches/{made['id']}/deals", json=DEAL,
                           headers={"Authorization": f"Bearer {made['edit_token']}", "If-Match": header})
    assert api_error(response, 400)["field"] == "If-Match"
    assert client.get(f"/api/v1/matches/{made['id']}").get_json()["version"] == made["version"]


@pytest.mark.parametrize(("query", "body"), [
    ("", {"target": 200, "preview": "true"}), ("", {"target": 200, "preview": 1}),
    ("", {"target": 200, "preview": None}), ("?preview=on", {"target": 200}), ("?preview=1", {"target": 200}),
])
def test_preview_is_a_boolean_or_refused(client: FlaskClient, query: str, body: dict[str, Any]) -> None:
    made = create(client, WORKED)
    response = client.put(f"/api/v1/matches/{made['id']}/rules{query}", json=body,
                          headers={"Authorization": f"Bearer {made['edit_token']}"})
    assert api_error(response, 422)["field"] == "preview"
    after = client.get(f"/api/v1/matches/{made['id']}").get_json()
    assert (after["version"], after["match"]["rules"]) == (made["version"], made["match"]["rules"])


@pytest.mark.parametrize("query", ["?preview=true", ""])
def test_preview_true_previews_and_no_preview_applies(client: FlaskClient, query: str) -> None:
    made = create(client, WORKED)
    body = {"target": 200} if query else {"target": 200, "preview": False}
    response = client.put(f"/api/v1/matches/{made['id']}/rules{query}", json=body,
                          headers={"Authorization": f"Bearer {made['edit_token']}"})
    assert response.status_code == 200
    assert ("preview" in response.get_json()) == bool(query)


@pytest.mark.parametrize("public_id", ["%00", "a%00b", "x" * 5000, "%C3%A9t%C3%A9", "%ED%A0%80", "a.b"])
def test_an_odd_match_id_is_a_plain_404(client: FlaskClient, public_id: str) -> None:
    for path in (f"/m/{public_id}", f"/m/{public_id}/rules", f"/api/v1/matches/{public_id}",
                 f"/meld?match={public_id}"):
        assert client.get(path).status_code == 404, path


def test_a_deal_beyond_the_most_a_match_holds_is_refused(app: Flask, client: FlaskClient,
                                                         actions: Actions) -> None:
    made = create(client, {**WORKED, "deals": [DEAL] * MAX_DEALS, "rules": {"target": 2000}})
    url = f"/api/v1/matches/{made['id']}/deals"
    error = api_error(client.post(url, json=DEAL, headers={"Authorization": f"Bearer {made['edit_token']}"}), 422)
    assert [(problem["field"], problem["code"]) for problem in error["problems"]] == [("deal", "too_many_deals")]
    response = actions.add_deal(made["id"], 0, 50, [60, 20])
    assert response.status_code == 422
    assert "the most a match may hold" in response.get_data(as_text=True)
    assert client.get(url.removesuffix("/deals")).get_json()["version"] == made["version"]


# The forms --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("field", "value", "message"), [
    ("bidder", "x", "Tap one of the sides of this match."),
    ("bidder", "7", "Tap one of the sides of this match."),
    ("bidder", "²", "Tap one of the sides of this match."),
    ("bid", "²", "is not a whole number"),
    ("bid", "1" * 5000, "is too large"),
    ("sides-0-total", "٣", "is not a whole number"),
])
def test_deal_form_refuses_odd_numbers_at_the_field(client: FlaskClient, actions: Actions, field: str, value: str,
                                                    message: str) -> None:
    public_id = actions.create_match()
    response = actions.add_deal(public_id, 0, 50, [60, 20], fields={field: value})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in html.replace("&#39;", "'")
    assert client.get(f"/api/v1/matches/{public_id}").get_json()["match"]["deals"] == []


@pytest.mark.parametrize("version", ["²", "1" * 5000, ""])
def test_deal_and_rules_forms_refuse_an_odd_version(client: FlaskClient, actions: Actions, version: str) -> None:
    public_id = actions.create_match()
    assert actions.add_deal(public_id, 0, 50, [60, 20], fields={"version": version}).status_code == 400
    form = {"version": version, "confirm": "yes", "rules-target": "1000"}
    rules = {f"rules-{key}": str(value) for key, value in HouseRules().to_mapping(complete=True).items()}
    response = client.post(f"/m/{public_id}/rules", data={**rules, **form})
    assert response.status_code == 409  # an unreadable version is a stale one: nothing applied
    assert client.get(f"/api/v1/matches/{public_id}").get_json()["match"]["rules"]["target"] == 500


def test_rules_form_refuses_a_5000_digit_value(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    rules = {f"rules-{key}": str(value) for key, value in HouseRules().to_mapping(complete=True).items()}
    response = client.post(f"/m/{public_id}/rules", data={**rules, "rules-target": "1" * 5000, "version": "1"})
    assert response.status_code == 422
    assert "is not allowed" in response.get_data(as_text=True)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("name", "Friday\x00", "cannot hold the control character U+0000"),
    ("name", "M" * (MAX_MATCH_NAME + 1), f"has at most {MAX_MATCH_NAME} characters"),
    ("sides-0-name", "W" * (MAX_SIDE_NAME + 1), f"has at most {MAX_SIDE_NAME} characters"),
    ("sides-0-players", ",".join(["Ann"] * 15_000), f"at most {MAX_PLAYERS} players"),
    ("sides-0-players", "Ann, B\x00b", "cannot hold the control character"),
    ("sides-1-name", " we ", "Give each side a different name."),
    ("sides-0-name", "\u200b", "cannot hold the invisible character U+200B"),
    ("sides-0-players", "Ann, \u202eBob", "cannot hold the invisible character U+202E"),
])
def test_new_match_form_applies_the_same_limits(app: Flask, client: FlaskClient, actions: Actions, field: str,
                                                value: str, message: str) -> None:
    data = {"preset": "double-500", "rules_from": "double-500", "sides-0-name": "We", "sides-1-name": "They"}
    rules = {f"rules-{key}": str(value) for key, value in HouseRules().to_mapping(complete=True).items()}
    response = client.post("/matches/new", data={**rules, **data, field: value})
    assert response.status_code == 200
    assert message in response.get_data(as_text=True).replace("&#39;", "'")
    assert match_count(app) == 0


def test_meld_calculator_count_beyond_a_deck_is_refused_quickly(client: FlaskClient) -> None:
    response = client.post("/meld", data={"n_AH": "40900906", "deck": "double", "table": "double-small",
                                          "trump": "all"})
    assert response.status_code == 200
    assert "at most 4 copies" in response.get_data(as_text=True)


def test_import_refuses_deep_json_and_huge_numbers(app: Flask, client: FlaskClient) -> None:
    for text in ("[" * 100_000, '{"deals": [{"bid": ' + "9" * 5000 + "}]}"):
        html = client.post("/import", data={"text": text}).get_data(as_text=True)
        assert 'id="text-error"' in html
    assert match_count(app) == 0


def test_a_stored_match_beyond_todays_limits_still_opens(app: Flask, client: FlaskClient) -> None:
    made = create(client, WORKED)
    with app.app_context():
        session = get_session()
        row = session.scalars(select(MatchRow)).one()
        row.sides[0].name = "N" * 60  # stored when names could be longer
        row.sides[0].players = ["P"] * 6
        session.commit()
    assert client.get(f"/m/{made['id']}").status_code == 200
    body = client.get(f"/api/v1/matches/{made['id']}").get_json()
    assert body["match"]["sides"][0]["name"] == "N" * 60
    assert copy.deepcopy(body["match"]["sides"][0]["players"]) == ["P"] * 6
