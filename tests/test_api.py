"""The JSON API: match files in, recomputed sheets out, every refusal as JSON naming the field."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.db import get_session
from scorekeeper.models import MatchRow
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.rules.scoring import score_match

pytestmark = pytest.mark.both_databases

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
WORKED: dict[str, Any] = json.loads((SEEDS / "worked-sheet.json").read_text(encoding="utf-8"))
DOUBLE: dict[str, Any] = json.loads((SEEDS / "double-deck-in-progress.json").read_text(encoding="utf-8"))
WORKED_HAND = ["AH", "10H", "KH", "QH", "JH", "KH", "QH", "9H", "QS", "JD", "AS", "AC"]
DEAL_6 = {"bidder": 1, "bid": 50, "sides": [{"total": 10}, {"total": 60}]}


class Created:
    """A match made through the API, with what a client keeps: its id and edit token."""

    def __init__(self, client: FlaskClient, data: dict[str, Any]) -> None:
        response = client.post("/api/v1/matches", json=data)
        assert response.status_code == 201, response.get_json()
        self.client = client
        self.body = response.get_json()
        self.response = response
        self.id = self.body["id"]
        self.token = self.body["edit_token"]

    @property
    def url(self) -> str:
        return f"/api/v1/matches/{self.id}"

    def auth(self, **headers: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **headers}

    def get(self) -> dict[str, Any]:
        return dict(self.client.get(self.url).get_json())

    def send(self, method: str, path: str = "", body: Any = None, **headers: str) -> TestResponse:
        return self.client.open(self.url + path, method=method, json=body, headers=self.auth(**headers))


@pytest.fixture
def worked(client: FlaskClient) -> Created:
    return Created(client, WORKED)


def error_of(response: TestResponse, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    error = response.get_json()["error"]
    assert set(error) >= {"field", "code", "message"} and error["message"]
    return dict(error)


def match_count(app: Flask) -> int:
    with app.app_context():
        return int(get_session().scalar(select(func.count()).select_from(MatchRow)) or 0)


# Creating and reading -------------------------------------------------------------------------------

def test_create_answers_201_with_location_links_token_and_the_worked_sheet(worked: Created) -> None:
    body = worked.body
    assert worked.response.headers["Location"] == body["links"]["self"]
    assert body["links"]["self"].endswith(f"/api/v1/matches/{worked.id}")
    assert body["links"]["sheet"].endswith(f"/m/{worked.id}")
    assert len(worked.token) >= 32 and len(worked.id) >= 22
    sheet = body["sheet"]  # RULES.md worked sheet: We win at deal 5, 318 to 76
    assert (sheet["totals"], sheet["winner"], sheet["ended_at"], sheet["rank"]) == ([318, 76], 0, 5, [0, 1])
    assert [line["totals"] for line in sheet["deals"]] == [[67, 20], [105, -35], [200, -20], [230, 64], [318, 76]]


def test_read_gives_the_same_facts_the_sheet_and_version_but_not_the_token(worked: Created) -> None:
    response = worked.client.get(worked.url)
    body = response.get_json()
    assert match_from_json(body["match"]) == match_from_json(WORKED)
    assert body["sheet"]["winner"] == 0
    assert response.headers["ETag"] == f'"{body["version"]}"'
    assert worked.token not in response.get_data(as_text=True)


def test_read_answers_304_until_the_match_changes(worked: Created) -> None:
    etag = worked.client.get(worked.url).headers["ETag"]
    unchanged = worked.client.get(worked.url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag and not unchanged.data
    worked.send("POST", "/deals", DEAL_6)
    changed = worked.client.get(worked.url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_read_one_deal(worked: Created) -> None:
    body = worked.client.get(f"{worked.url}/deals/2").get_json()
    assert body["deal"] == WORKED["deals"][1]
    assert body["line"]["status"] == "set" and body["line"]["scores"] == [38, -55]


@pytest.mark.parametrize("path", ["/api/v1/matches/nosuchmatch", "/api/v1/matches/nosuchmatch/deals/1"])
def test_unknown_match_is_404(client: FlaskClient, path: str) -> None:
    assert "no match" in error_of(client.get(path), 404)["message"]


def test_unknown_deal_is_404(worked: Created) -> None:
    assert "no deal 9" in error_of(worked.client.get(f"{worked.url}/deals/9"), 404)["message"]


def test_unknown_address_and_wrong_method_answer_in_json(client: FlaskClient) -> None:
    error_of(client.get("/api/v1/nothing/here"), 404)
    response = client.get("/api/v1/matches")
    error_of(response, 405)
    assert response.headers["Allow"] == "POST"


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        ('{"format": ', "application/json", 400),
        ("[1, 2]", "application/json", 400),
        (b"\xff\xfe", "application/json", 400),
        (json.dumps(WORKED), "text/plain", 415),
        ("format=pinochle-match/1", "application/x-www-form-urlencoded", 415),
    ],
)
def test_create_refuses_what_is_not_a_json_object(
    app: Flask, client: FlaskClient, body: str | bytes, content_type: str, status: int
) -> None:
    error_of(client.post("/api/v1/matches", data=body, content_type=content_type), status)
    assert match_count(app) == 0


def with_deal(index: int, **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(WORKED)
    data["deals"][index].update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "field", "code", "fragment"),
    [
        (with_deal(0, bid="sixty"), "deals[0].bid", "not_a_number", "number"),
        (with_deal(3, sides=[{"total": 30}, {"total": "lots"}]), "deals[3].sides[1].total", "not_a_number", "number"),
        (with_deal(1, trump="X"), "deals[1].trump", "not_a_suit", "X"),
        ({**WORKED, "rules": {"target": 333}}, "rules.target", "bad_rule_value", "steps of 50"),
        ({**WORKED, "rules": {"colour": "red"}}, "rules.colour", "unknown_rule", "not a house rule"),
        ({**WORKED, "format": "other/1"}, "format", "wrong_format", "pinochle-match/1"),
        ({**WORKED, "sides": [{"name": "Solo"}]}, "sides", "side_count", "2 to 4 sides"),
    ],
)
def test_create_names_the_field_the_format_refuses(
    app: Flask, client: FlaskClient, data: dict[str, Any], field: str, code: str, fragment: str
) -> None:
    error = error_of(client.post("/api/v1/matches", json=data), 422)
    assert (error["field"], error["code"]) == (field, code)
    assert fragment in error["message"]
    assert match_count(app) == 0


def test_create_refuses_numbers_too_large_to_store(app: Flask, client: FlaskClient) -> None:
    data = with_deal(0, bid=10**30, sides=[{"total": 10**30}, {"total": 20}])
    error = error_of(client.post("/api/v1/matches", json=data), 422)
    assert error["field"] == "deals[0].bid" and "must be at most" in error["message"]
    assert match_count(app) == 0
    assert client.post("/api/v1/matches", json=WORKED).status_code == 201  # the session recovered


def test_create_refuses_contradictions_naming_the_deals(app: Flask, client: FlaskClient) -> None:
    data = with_deal(1, bid=40)
    data["deals"][3]["bid"] = 45
    error = error_of(client.post("/api/v1/matches", json=data), 422)
    assert error["deals"] == [2, 4]
    assert (error["field"], error["code"]) == ("deals[1]", "contradiction")
    assert [(problem["field"], problem["code"]) for problem in error["problems"]] == [
        ("deals[1].bid", "bid_below_minimum"), ("deals[3].bid", "bid_below_minimum")]
    assert "deal 2: bid 40 is below the minimum opening bid of 50" in error["message"]
    assert "deal 4" in error["message"]
    assert match_count(app) == 0


# Writing: token, JSON, versions ----------------------------------------------------------------------

def test_add_deal_needs_the_edit_token(worked: Created) -> None:
    client = worked.client
    response = client.post(f"{worked.url}/deals", json=DEAL_6)
    assert error_of(response, 401)["field"] == "Authorization"
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    other = Created(client, WORKED)
    error_of(client.post(f"{worked.url}/deals", json=DEAL_6, headers=other.auth()), 403)
    error_of(client.post(f"{worked.url}/deals", json=DEAL_6, headers={"Authorization": "Basic abc"}), 401)
    assert len(worked.get()["sheet"]["deals"]) == 5


def test_add_deal_records_it_and_bumps_the_version(worked: Created) -> None:
    before = worked.get()["version"]
    response = worked.send("POST", "/deals", DEAL_6)
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"].endswith(f"{worked.url}/deals/6")
    assert body["number"] == 6 and body["version"] > before
    line = body["sheet"]["deals"][5]
    assert line["after_end"] is True and line["scores"] is None  # the match ended at deal 5
    assert worked.get()["match"]["deals"][5] == DEAL_6


def test_deal_with_meld_from_cards_is_priced_on_the_match_deck(client: FlaskClient) -> None:
    single = json.loads((SEEDS / "single-deck-1500.json").read_text(encoding="utf-8"))
    first = single["deals"][0]  # the bidders' hand holds the nine of trump: a dix on a single deck
    match = Created(client, {**single, "deals": []})
    body = match.send("POST", "/deals", first).get_json()
    expected = score_match(match_from_json({**single, "deals": [first]})).deals[0].scores
    assert body["sheet"]["deals"][0]["scores"] == list(expected)
    meld = client.post("/api/v1/meld", json={**first["sides"][0]["meld"], "deck": "single",
                                             "table": "single-classic"}).get_json()
    assert {"name": "dix", "sets": 1, "points": 10, "class": 1} in meld["melds"]


def test_add_deal_to_unknown_match_is_404(client: FlaskClient) -> None:
    error_of(client.post("/api/v1/matches/nosuchmatch/deals", json=DEAL_6,
                         headers={"Authorization": "Bearer x"}), 404)


@pytest.mark.parametrize(
    ("deal", "field", "code", "fragment"),
    [
        ({**DEAL_6, "bid": "fifty"}, "deal.bid", "not_a_number", "number"),
        ({**DEAL_6, "sides": [{"total": 1}]}, "deal.sides", "side_count", "2 sides"),
        ({**DEAL_6, "bidder": 5}, "deal.bidder", "bidder_unknown", "from 0 to 1"),
        ({**DEAL_6, "sides": [{"meld": {"cards": ["AH", "ZZ"], "trump": "H"}, "tricks": 30, "last_trick": True},
                              {"meld": 4, "tricks": 18}]},
         "deal.sides[0].meld.cards[1]", "not_a_card", "'ZZ' is not a card"),
        ({**DEAL_6, "colour": "red"}, "deal.colour", "unknown_key", "unknown key"),
    ],
)
def test_add_deal_names_the_wrong_field(
    worked: Created, deal: dict[str, Any], field: str, code: str, fragment: str
) -> None:
    error = error_of(worked.send("POST", "/deals", deal), 422)
    assert (error["field"], error["code"]) == (field, code)
    assert fragment in error["message"]
    assert len(worked.get()["match"]["deals"]) == 5


def test_add_deal_refuses_what_the_rules_do_not_allow(worked: Created) -> None:
    error = error_of(worked.send("POST", "/deals", {**DEAL_6, "bid": 30}), 422)
    assert "bid 30 is below the minimum opening bid of 50" in error["message"]
    assert (error["field"], error["code"]) == (None, "contradiction")
    assert error["problems"] == [{"field": "deal.bid", "code": "bid_below_minimum",
                                  "message": "bid 30 is below the minimum opening bid of 50"}]
    trick_points = {"bidder": 0, "bid": 50, "sides": [
        {"meld": 20, "tricks": 30, "last_trick": True}, {"meld": 10, "tricks": 30}]}
    error = error_of(worked.send("PUT", "/deals/5", trick_points), 422)
    assert "add up to 60" in error["message"]
    assert [(problem["field"], problem["code"]) for problem in error["problems"]] == [
        ("deal.sides[1].tricks", "trick_total")]


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [("not json", "application/json", 400), (json.dumps(DEAL_6), "text/plain", 415)],
)
def test_add_deal_refuses_a_body_that_is_not_json(
    worked: Created, body: str, content_type: str, status: int
) -> None:
    response = worked.client.post(f"{worked.url}/deals", data=body, content_type=content_type,
                                  headers=worked.auth())
    error_of(response, status)


def test_stale_edit_is_409_and_says_what_changed(worked: Created) -> None:
    version = worked.get()["version"]
    assert worked.send("POST", "/deals", DEAL_6, **{"If-Match": f'"{version}"'}).status_code == 201
    response = worked.send("POST", "/deals", DEAL_6, **{"If-Match": f'"{version}"'})
    error = error_of(response, 409)
    assert error["field"] == "version" and error["current_version"] == version + 1
    assert "deal 6 was added" in error["message"]
    error = error_of(worked.send("POST", "/deals", {**DEAL_6, "version": version}), 409)
    assert len(worked.get()["match"]["deals"]) == 6


def test_stale_edit_of_a_deal_shows_the_deal_as_it_now_reads(worked: Created) -> None:
    version = worked.get()["version"]
    fixed = {"bidder": 1, "bid": 55, "sides": [{"total": 38}, {"total": 57}]}
    assert worked.send("PUT", "/deals/2", {**fixed, "version": version}).status_code == 200
    other = {"bidder": 1, "bid": 55, "sides": [{"total": 40}, {"total": 51}]}
    error = error_of(worked.send("PUT", "/deals/2", {**other, "version": version}), 409)
    assert "deal 2 was changed" in error["message"] and "They 57" in error["message"]


def test_malformed_if_match_is_400(worked: Created) -> None:
    assert error_of(worked.send("POST", "/deals", DEAL_6, **{"If-Match": "yesterday"}), 400)["field"] == "If-Match"


def test_edit_deal_recomputes_the_sheet(worked: Created) -> None:
    made = {"bidder": 1, "bid": 55, "sides": [{"total": 38}, {"total": 57}]}
    body = worked.send("PUT", "/deals/2", made).get_json()
    assert body["sheet"]["deals"][1]["scores"] == [38, 57]
    assert body["sheet"]["deals"][1]["totals"] == [105, 77]
    assert worked.get()["match"]["deals"][1] == made


def test_edit_unknown_deal_is_404_and_bad_edit_is_422(worked: Created) -> None:
    error_of(worked.send("PUT", "/deals/9", DEAL_6), 404)
    error_of(worked.send("PUT", "/deals/2", {**DEAL_6, "bid": 10}), 422)
    assert worked.get()["match"]["deals"][1] == WORKED["deals"][1]


def test_delete_deal(worked: Created) -> None:
    error_of(worked.client.delete(f"{worked.url}/deals/5"), 401)
    response = worked.send("DELETE", "/deals/5")
    assert response.status_code == 200
    sheet = response.get_json()["sheet"]
    assert len(sheet["deals"]) == 4 and sheet["winner"] is None and sheet["totals"] == [230, 64]
    error_of(worked.send("DELETE", "/deals/5"), 404)


# House rules -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "body"), [("/rules?preview=true", {"target": 200}),
                                            ("/rules", {"target": 200, "preview": True})])
def test_rules_preview_shows_before_and_after_and_changes_nothing(
    worked: Created, path: str, body: dict[str, Any]
) -> None:
    stored = worked.get()
    response = worked.send("PUT", path, body)
    assert response.status_code == 200
    preview = response.get_json()
    assert preview["preview"] is True and preview["changed_rules"] == ["target"]
    assert preview["before"]["ended_at"] == 5
    assert preview["after"]["ended_at"] == 3  # We reach 200 on their own made bid at deal 3
    assert preview["changed_deals"] == [4, 5]
    assert worked.get() == stored


def test_rules_change_recomputes_and_records(worked: Created) -> None:
    version = worked.get()["version"]
    response = worked.send("PUT", "/rules", {"target": 200, "version": version})
    body = response.get_json()
    assert response.status_code == 200
    assert body["changed_rules"] == ["target"] and body["changed_deals"] == [4, 5]
    assert body["match"]["rules"]["target"] == 200 and body["version"] > version
    assert body["sheet"]["ended_at"] == 3 and body["sheet"]["deals"][4]["after_end"] is True
    error = error_of(worked.send("PUT", "/rules", {"target": 250, "version": version}), 409)
    assert "house rules were changed" in error["message"]


@pytest.mark.parametrize(
    ("body", "field", "code", "fragment"),
    [({"target": 333}, "target", "bad_rule_value", "steps of 50"),
     ({"colour": "red"}, "colour", "unknown_rule", "not a house rule"),
     ({"deck": "triple"}, "deck", "bad_rule_value", "single")],
)
def test_rules_change_names_the_rule_it_refuses(
    worked: Created, body: dict[str, Any], field: str, code: str, fragment: str
) -> None:
    error = error_of(worked.send("PUT", "/rules", body), 422)
    assert (error["field"], error["code"]) == (field, code) and fragment in error["message"]
    assert worked.get()["match"]["rules"]["target"] == 300


def test_rules_change_that_recorded_deals_contradict_names_them(client: FlaskClient) -> None:
    match = Created(client, DOUBLE)
    stored = match.get()
    for path in ("/rules?preview=true", "/rules"):
        error = error_of(match.send("PUT", path, {"deck": "single"}), 422)
        assert error["deals"] and error["field"] == f"deals[{error['deals'][0] - 1}]"
        assert error["code"] == "contradiction"
        assert {problem["field"].split(".")[0] for problem in error["problems"]} == {
            f"deals[{number - 1}]" for number in error["deals"]}
        assert f"deal {error['deals'][0]}:" in error["message"]
    assert match.get() == stored


def test_a_hand_sent_as_its_cards_is_kept_so_and_priced_with_the_meld_prices_in_force(client: FlaskClient) -> None:
    """A deal whose hand is sent as its cards (the trump it was priced with) is answered and kept as those cards;
    the meld prices changed, the sheet prices them again (RULES.md's worked hand: 240 on single-classic, 200 with
    the run at 110), never as entered."""
    match = Created(client, {"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}],
                             "rules": {"deck": "single", "meld_table": "single-classic", "trick_scale": "one-point",
                                       "last_trick": 1, "target": 1500, "min_bid": 200}})
    hand = {"cards": WORKED_HAND, "trump": "H"}
    deal = {"bidder": 0, "bid": 200, "sides": [{"meld": hand, "tricks": 15, "last_trick": True}, {"tricks": 9}]}
    sent = match.send("POST", "/deals", deal, **{"Idempotency-Key": "cards-of-deal-1"})
    assert sent.status_code == 201, sent.get_json()
    kept = sent.get_json()["match"]["deals"][0]["sides"][0]["meld"]
    assert kept["trump"] == "H" and sorted(kept["cards"]) == sorted(WORKED_HAND)  # in card order
    assert sent.get_json()["sheet"]["totals"] == [240 + 16, 9]
    changed = match.send("PUT", "/rules", {"meld_prices": {"run": [110]}})
    assert changed.status_code == 200, changed.get_json()
    body = match.get()
    assert body["match"]["deals"][0]["sides"][0]["meld"] == kept
    assert body["sheet"]["totals"] == [200 + 16, 9] and body["sheet"]["deals"][0]["as_entered"] == []


def test_rules_change_needs_the_token(worked: Created) -> None:
    error_of(worked.client.put(f"{worked.url}/rules", json={"target": 200}), 401)


# Meld ------------------------------------------------------------------------------------------------

def test_meld_for_one_trump_is_priced_by_class(client: FlaskClient) -> None:
    body = client.post("/api/v1/meld", json={"cards": WORKED_HAND, "deck": "single", "table": "single-classic",
                                             "trump": "H"}).get_json()
    assert body["total"] == 240 and body["classes"] == {"1": 200, "2": 40, "3": 0}
    assert {m["name"]: m["points"] for m in body["melds"]} == {
        "run": 150, "royal_marriage": 40, "dix": 10, "pinochle": 40}


def test_meld_for_all_trumps_best_first_from_card_text(client: FlaskClient) -> None:
    body = client.post("/api/v1/meld", json={"cards": " ".join(WORKED_HAND), "deck": "single",
                                             "table": "single-classic"}).get_json()
    totals = [result["total"] for result in body["trumps"]]
    assert len(totals) == 4 and totals == sorted(totals, reverse=True)
    assert body["trumps"][0]["trump"] == "H" and totals[0] == 240


@pytest.mark.parametrize(
    ("body", "field", "code", "fragment"),
    [
        ({"cards": "AH XQ 10H"}, "cards", "not_a_card", "'XQ' is not a card"),
        ({"cards": ["9H"], "deck": "double"}, "cards", "card_not_in_deck", "9♥ is not in a double deck"),
        ({"cards": "AH AH AH", "deck": "single"}, "cards", "too_many_copies", "three A♥ but a single deck has two"),
        ({"cards": 12}, "cards", "wrong_type", "AH 10H"),
        ({"cards": ["AH", 3]}, "cards", "wrong_type", "AH 10H"),
        ({"cards": "AH", "deck": "triple"}, "deck", "bad_rule_value", "triple"),
        ({"cards": "AH", "table": "huge"}, "table", "bad_rule_value", "huge"),
        ({"cards": "AH", "trump": "X"}, "trump", "not_a_suit", "'X' is not a suit"),
        ({"cards": "AH", "trump": 3}, "trump", "wrong_type", "all"),
        ({"cards": "AH", "colour": "red"}, "colour", "unknown_key", "unknown key"),
    ],
)
def test_meld_names_the_bad_field(
    client: FlaskClient, body: dict[str, Any], field: str, code: str, fragment: str
) -> None:
    error = error_of(client.post("/api/v1/meld", json=body), 422)
    assert (error["field"], error["code"]) == (field, code) and fragment in error["message"]


def test_meld_needs_json(client: FlaskClient) -> None:
    error_of(client.post("/api/v1/meld", data={"cards": "AH"}), 415)


def test_api_needs_no_csrf_token_but_forms_do(app: Flask) -> None:
    guarded = create_app({**app.config, "WTF_CSRF_ENABLED": True})
    client = guarded.test_client()
    created = Created(client, WORKED)
    assert created.send("POST", "/deals", DEAL_6).status_code == 201
    assert client.post("/api/v1/meld", json={"cards": "AH", "trump": "H"}).status_code == 200
    assert client.post("/import", data={"text": json.dumps(WORKED)}).status_code == 400
    guarded.extensions["scorekeeper.engine"].dispose()


VECTORS = Path(__file__).parent / "vectors"
