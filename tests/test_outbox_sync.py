"""What a phone kept offline is sent later as the form it was, to the form's own address asking for JSON:
read as the form is read, done once by its key (also when the form itself reached the server), refused with
a message the player can act on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import form_values
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.store import reading

pytestmark = pytest.mark.both_databases


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """CSRF on, as the app runs: the outbox sends its token as a header."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s",
                      "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": False})
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def new_match(client: FlaskClient) -> str:
    data = form_values(client.get("/matches/new?preset=double-500")) | {"name": "Cabin"}
    response = client.post("/matches/new", data=data)
    assert response.status_code == 302
    return response.headers["Location"].split("/")[2]  # /m/<id>/invite


def facts(client: FlaskClient, public_id: str, keys: str = "") -> dict:
    answer = client.get(f"/m/{public_id}/outbox?keys={keys}")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    return answer.get_json()


def send(client: FlaskClient, public_id: str, path: str, fields: dict[str, str], key: str,
         token: str | None = None, version: int | None = None):
    """A kept form sent to its own address as the outbox sends it: its fields (with the version the player
    chose, if any), its key as a header, asking for JSON."""
    token = token or facts(client, public_id)["csrf_token"]
    chosen = fields if version is None else fields | {"version": str(version)}
    return client.post(path, data=chosen, headers={"X-CSRFToken": token, "Idempotency-Key": key,
                                                   "Accept": "application/json"})


def quick(client: FlaskClient, public_id: str, bid: int, we: int, they: int) -> dict[str, str]:
    fields = form_values(client.get(f"/m/{public_id}/deals/new"))
    fields.pop("csrf_token")
    return fields | {"mode": "quick", "bidder": "0", "bid": str(bid), "sides-0-total": str(we),
                     "sides-1-total": str(they)}


def deals_of(app: Flask, public_id: str) -> list[dict]:
    with app.app_context():
        return [reading.deal_json(deal) for deal in reading.get_match_or_404(public_id).deals]


def test_facts_give_the_match_file_the_version_and_a_fresh_token(client: FlaskClient) -> None:
    public_id = new_match(client)
    got = facts(client, public_id)
    assert got["version"] == 1 and got["match"]["format"] == "pinochle-match/1" and got["match"]["deals"] == []
    assert got["csrf_token"] and got["done"] == []


def test_a_kept_deal_is_added_once_however_often_it_is_sent(app: Flask, client: FlaskClient) -> None:
    public_id = new_match(client)
    fields = quick(client, public_id, 50, 60, 20)
    first = send(client, public_id, f"/m/{public_id}/deals/new", fields, "kept-key-0001")
    again = send(client, public_id, f"/m/{public_id}/deals/new", fields, "kept-key-0001")
    assert first.status_code == again.status_code == 201
    assert first.get_json()["number"] == again.get_json()["number"] == 1
    assert again.get_json()["replayed"] is True and len(deals_of(app, public_id)) == 1
    assert facts(client, public_id, "kept-key-0001,other-key-0002")["done"] == ["kept-key-0001"]


def test_a_form_that_reached_the_server_is_not_added_again_by_its_retry(app: Flask, client: FlaskClient) -> None:
    public_id = new_match(client)
    fields = quick(client, public_id, 50, 60, 20)
    token = facts(client, public_id)["csrf_token"]
    posted = client.post(f"/m/{public_id}/deals/new", data=fields | {"csrf_token": token})
    assert posted.status_code == 302
    retry = send(client, public_id, f"/m/{public_id}/deals/new", fields, fields["write_key"])
    assert retry.status_code == 201 and retry.get_json()["replayed"] is True
    assert len(deals_of(app, public_id)) == 1


def test_additions_from_two_phones_both_append(app: Flask, client: FlaskClient) -> None:
    public_id = new_match(client)
    mine = quick(client, public_id, 50, 60, 20)  # drawn at version 1
    client.post(f"/m/{public_id}/deals/new",
                data=quick(client, public_id, 55, 70, 10) | {"csrf_token": facts(client, public_id)["csrf_token"]})
    answer = send(client, public_id, f"/m/{public_id}/deals/new", mine, "kept-key-0003")
    assert answer.status_code == 201 and answer.get_json()["number"] == 2
    assert [deal["bid"] for deal in deals_of(app, public_id)] == [55, 50]


def test_an_edit_of_a_deal_changed_elsewhere_is_refused_with_both_versions(app: Flask, client: FlaskClient) -> None:
    public_id = new_match(client)
    client.post(f"/m/{public_id}/deals/new",
                data=quick(client, public_id, 50, 60, 20) | {"csrf_token": facts(client, public_id)["csrf_token"]})
    mine = form_values(client.get(f"/m/{public_id}/deals/1/edit")) | {"sides-0-total": "65"}
    mine.pop("csrf_token")
    theirs = form_values(client.get(f"/m/{public_id}/deals/1/edit")) | {"sides-1-total": "25"}
    assert client.post(f"/m/{public_id}/deals/1/edit", data=theirs).status_code == 302
    path = f"/m/{public_id}/deals/1/edit"
    stale = send(client, public_id, path, mine, "kept-key-0004")
    assert stale.status_code == 409
    body = stale.get_json()
    assert body["theirs"]["sides"][1] == {"total": 25} and body["error"]["code"] == "stale"
    assert deals_of(app, public_id)[0]["sides"][0] == {"total": 60}  # nothing applied blindly
    chosen = send(client, public_id, path, mine, "kept-key-0004", version=body["version"])
    assert chosen.status_code == 201
    assert [side for side in deals_of(app, public_id)[0]["sides"]] == [{"total": 65}, {"total": 20}]


def test_a_player_error_is_refused_with_what_to_fix_and_nothing_is_kept(app: Flask, client: FlaskClient) -> None:
    public_id = new_match(client)
    fields = quick(client, public_id, 50, 60, 20) | {"bid": ""}
    answer = send(client, public_id, f"/m/{public_id}/deals/new", fields, "kept-key-0005")
    assert answer.status_code == 422 and "bid" in answer.get_json()["error"]["message"].lower()
    assert deals_of(app, public_id) == [] and facts(client, public_id, "kept-key-0005")["done"] == []
    fixed = send(client, public_id, f"/m/{public_id}/deals/new", fields | {"bid": "50"}, "kept-key-0005")
    assert fixed.status_code == 201


def test_a_kept_delete_and_a_kept_rule_change(app: Flask, client: FlaskClient) -> None:
    public_id = new_match(client)
    for bid in (50, 55):
        send(client, public_id, f"/m/{public_id}/deals/new", quick(client, public_id, bid, 60, 20), f"add-key-{bid}0")
    rules = form_values(client.get(f"/m/{public_id}/rules")) | {"rules-target": "300"}
    rules.pop("csrf_token")
    assert send(client, public_id, f"/m/{public_id}/rules", rules, "rules-key-01").status_code == 201
    delete = {"version": str(facts(client, public_id)["version"])}
    assert send(client, public_id, f"/m/{public_id}/deals/1/delete", delete, "delete-key-01").status_code == 201
    assert [deal["bid"] for deal in deals_of(app, public_id)] == [55]
    assert facts(client, public_id)["match"]["rules"]["target"] == 300


def rules_form(client: FlaskClient, public_id: str, **typed: str) -> dict[str, str]:
    """The house rules form as its page holds it now (its version among it), with the rules typed in."""
    fields = form_values(client.get(f"/m/{public_id}/rules"))
    fields |= {f"rules-{rule}": value for rule, value in typed.items()}
    fields.pop("csrf_token")
    return fields


def test_a_kept_rule_change_leaves_the_rules_changed_elsewhere_since_as_they_are(client: FlaskClient) -> None:
    public_id = new_match(client)
    kept = rules_form(client, public_id, target="300")  # typed with no signal
    meanwhile = rules_form(client, public_id, min_bid="40")  # another phone's change, sent first
    assert send(client, public_id, f"/m/{public_id}/rules", meanwhile, "rules-key-02").status_code == 201
    send(client, public_id, f"/m/{public_id}/deals/new", quick(client, public_id, 50, 60, 20), "add-key-0500")
    assert send(client, public_id, f"/m/{public_id}/rules", kept, "rules-key-01").status_code == 201
    rules = facts(client, public_id)["match"]["rules"]
    assert (rules["target"], rules["min_bid"]) == (300, 40)
    again = rules_form(client, public_id, target="400", min_bid="45")  # typed on the rules as they now are
    assert send(client, public_id, f"/m/{public_id}/rules", again, "rules-key-03").status_code == 201
    rules = facts(client, public_id)["match"]["rules"]
    assert (rules["target"], rules["min_bid"]) == (400, 45)


def test_a_kept_rule_change_typed_before_a_rescale_is_refused_to_be_typed_again(client: FlaskClient) -> None:
    public_id = new_match(client)
    kept = rules_form(client, public_id, target="300")
    version = str(facts(client, public_id)["version"])
    rescale = f"/m/{public_id}/rules/rescale"
    assert send(client, public_id, rescale, {"factor": "up", "version": version}, "rescale-key-01").status_code == 201
    refused = send(client, public_id, f"/m/{public_id}/rules", kept, "rules-key-01")
    assert refused.status_code == 422 and "rescaled" in refused.get_json()["error"]["message"]
    assert facts(client, public_id)["match"]["rules"]["target"] == 5000


def test_without_a_fresh_token_or_the_right_nothing_is_written(app: Flask, client: FlaskClient) -> None:
    public_id = new_match(client)
    fields = quick(client, public_id, 50, 60, 20)
    expired = send(client, public_id, f"/m/{public_id}/deals/new", fields, "kept-key-0006", token="not-a-token")
    assert expired.status_code == 400 and expired.is_json
    stranger = app.test_client()
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', stranger.get("/matches/new").get_data(as_text=True))
    assert token
    refused = send(stranger, public_id, f"/m/{public_id}/deals/new", fields, "kept-key-0007", token=token.group(1))
    assert refused.status_code == 403 and refused.is_json
    assert deals_of(app, public_id) == []


def test_an_address_that_is_no_form_is_refused_in_json(client: FlaskClient) -> None:
    public_id = new_match(client)
    answer = send(client, public_id, f"/m/{public_id}/deals/1/nowhere", {}, "kept-key-0008")
    assert answer.status_code in (404, 405) and answer.is_json


def rule_changes(app: Flask, public_id: str) -> list[str]:
    with app.app_context():
        return [f"{change.rule}:{change.action}" for change in reading.get_match_or_404(public_id).rule_changes]


def test_kept_meld_prices_are_read_as_their_page_reads_them_and_changed_once(app: Flask, client: FlaskClient) -> None:
    public_id = new_match(client)
    prices = form_values(client.get(f"/m/{public_id}/rules/meld")) | {"pinochle-1": "15"}
    prices.pop("csrf_token")
    path = f"/m/{public_id}/rules/meld"
    assert send(client, public_id, path, prices, "prices-key-01").status_code == 201
    assert send(client, public_id, path, prices, "prices-key-01").status_code == 201  # the retry: the same write
    assert facts(client, public_id)["match"]["rules"]["meld_prices"]["pinochle"][0] == 15
    assert rule_changes(app, public_id) == ["meld_prices:None"]
    preset = send(client, public_id, path, prices | {"preset": "npa-double"}, "prices-key-02")
    assert preset.status_code == 422 and "preset" in preset.get_json()["error"]["message"]
    bad = send(client, public_id, path, prices | {"run-1": "lots"}, "prices-key-03")
    assert bad.status_code == 422 and "whole number" in bad.get_json()["error"]["message"]
    assert len(rule_changes(app, public_id)) == 1


def test_a_kept_rescale_and_a_kept_undo_are_done_once_each(app: Flask, client: FlaskClient) -> None:
    public_id = new_match(client)
    send(client, public_id, f"/m/{public_id}/deals/new", quick(client, public_id, 50, 60, 20), "add-key-0500")
    rescale = f"/m/{public_id}/rules/rescale"
    for _ in range(2):
        assert send(client, public_id, rescale, {"factor": "up", "version": "1"}, "rescale-key-01").status_code == 201
    assert [deal["bid"] for deal in deals_of(app, public_id)] == [500]
    change_id = re.search(r"/rules/undo/(\d+)", client.get(f"/m/{public_id}/rules").get_data(as_text=True))
    assert change_id
    undo = f"/m/{public_id}/rules/undo/{change_id.group(1)}"
    for _ in range(2):
        assert send(client, public_id, undo, {"version": "1"}, "undo-key-0001").status_code == 201
    assert [deal["bid"] for deal in deals_of(app, public_id)] == [50]
    wrong = send(client, public_id, rescale, {"factor": "sideways"}, "rescale-key-02")
    assert wrong.status_code == 422 and wrong.is_json
    gone = send(client, public_id, f"/m/{public_id}/rules/undo/999999", {}, "undo-key-0002")
    assert gone.status_code == 422 and "history" in gone.get_json()["error"]["message"]
