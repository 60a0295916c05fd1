"""A write named by a key is done once: its repeats (a double tap, a retry after a lost answer, a reload
that sends the form again) answer the first result, on SQLite and PostgreSQL, also when they race."""

from __future__ import annotations

import re
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update
from test_concurrent_writes import THREADS, bearer, new_match, quick, race, stored

from scorekeeper.db import get_session
from scorekeeper.models import WriteKeyRow, utc_now
from scorekeeper.store import reading, write_keys
from scorekeeper.views.write_keys import SENT_BEFORE

pytestmark = pytest.mark.both_databases


def keyed(token: str, key: str, version: int | None = None) -> dict[str, str]:
    return bearer(token, version) | {"Idempotency-Key": key}


def deal_count(app: Flask, public_id: str) -> int:
    return len(stored(app, public_id)[1])


def keys_of(app: Flask, public_id: str) -> int:
    with app.app_context():
        row = reading.get_match_or_404(public_id)
        return get_session().scalar(select(func.count()).select_from(WriteKeyRow)
                                    .where(WriteKeyRow.match_id == row.id)) or 0


# The API ---------------------------------------------------------------------------------------------

def test_two_posts_with_one_key_make_one_deal_and_the_same_answer(app: Flask, client: FlaskClient) -> None:
    public_id, token = new_match(app)
    url = f"/api/v1/matches/{public_id}/deals"
    first = client.post(url, json=quick(0, 60, 20), headers=keyed(token, "first-deal-0001"))
    again = client.post(url, json=quick(0, 60, 20), headers=keyed(token, "first-deal-0001"))
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json() and again.get_json()["number"] == 1
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert deal_count(app, public_id) == 1


def test_a_new_key_is_a_new_deal(app: Flask, client: FlaskClient) -> None:
    public_id, token = new_match(app)
    url = f"/api/v1/matches/{public_id}/deals"
    numbers = [client.post(url, json=quick(0, 60, 20), headers=keyed(token, f"deal-key-{n:04}")).get_json()["number"]
               for n in range(3)]
    assert numbers == [1, 2, 3] and deal_count(app, public_id) == 3


def test_a_versioned_repeat_is_no_conflict(app: Flask, client: FlaskClient) -> None:
    """The retry carries the version the first send was based on: it answers the first result, not 409."""
    public_id, token = new_match(app)
    version, _ = stored(app, public_id)
    url = f"/api/v1/matches/{public_id}/deals"
    answers = [client.post(url, json=quick(0, 60, 20), headers=keyed(token, "versioned-key", version))
               for _ in range(2)]
    assert [answer.status_code for answer in answers] == [201, 201]
    assert deal_count(app, public_id) == 1


@pytest.mark.parametrize("method", ["put", "delete"])
def test_corrections_and_deletes_are_done_once(app: Flask, client: FlaskClient, method: str) -> None:
    public_id, token = new_match(app, deals=3)
    url = f"/api/v1/matches/{public_id}/deals/1"
    send = getattr(client, method)
    body = {"json": quick(1, 10, 99)} if method == "put" else {}
    answers = [send(url, headers=keyed(token, f"{method}-deal-one"), **body) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [200, 200]
    assert answers[0].get_json() == answers[1].get_json()
    version, deals = stored(app, public_id)
    assert version == 2  # created with its deals at 1, then one write
    assert len(deals) == (3 if method == "put" else 2)


def test_a_rules_change_is_done_once(app: Flask, client: FlaskClient) -> None:
    public_id, token = new_match(app, deals=2)
    url = f"/api/v1/matches/{public_id}/rules"
    answers = [client.put(url, json={"target": 1500}, headers=keyed(token, "rules-to-1500")) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [200, 200]
    assert answers[1].headers["Idempotent-Replayed"] == "true"
    assert stored(app, public_id)[0] == 2


@pytest.mark.parametrize("second", [
    {"json": quick(0, 61, 20)},  # another body
    {"json": quick(0, 60, 20), "If-Match": '"1"'},  # the same body on another version
])
def test_one_key_with_another_request_is_refused(app: Flask, client: FlaskClient, second: dict[str, Any]) -> None:
    public_id, token = new_match(app)
    url = f"/api/v1/matches/{public_id}/deals"
    assert client.post(url, json=quick(0, 60, 20), headers=keyed(token, "reused-key-01")).status_code == 201
    headers = keyed(token, "reused-key-01") | {k: v for k, v in second.items() if k == "If-Match"}
    refused = client.post(url, headers=headers, json=second["json"])
    assert refused.status_code == 422
    error = refused.get_json()["error"]
    assert error["field"] == "Idempotency-Key" and error["code"] == "key_reused"
    assert deal_count(app, public_id) == 1


def test_a_key_used_on_another_address_is_refused(app: Flask, client: FlaskClient) -> None:
    public_id, token = new_match(app, deals=2)
    first = client.delete(f"/api/v1/matches/{public_id}/deals/1", headers=keyed(token, "one-key-two-uses"))
    assert first.status_code == 200
    refused = client.delete(f"/api/v1/matches/{public_id}/deals/2", headers=keyed(token, "one-key-two-uses"))
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "key_reused"
    assert deal_count(app, public_id) == 1


@pytest.mark.parametrize(("key", "code"), [
    ("short", "wrong_format"),
    ("x" * 65, "too_long"),
    ("has space inside", "wrong_format"),
    ("naïve-key-ünicode", "wrong_format"),
])
def test_a_bad_key_is_refused_before_anything_is_written(
        app: Flask, client: FlaskClient, key: str, code: str) -> None:
    public_id, token = new_match(app)
    headers = bearer(token) | {"Idempotency-Key": key.encode("utf-8").decode("latin-1")}
    refused = client.post(f"/api/v1/matches/{public_id}/deals", json=quick(0, 60, 20), headers=headers)
    assert refused.status_code == 400
    assert refused.get_json()["error"]["field"] == "Idempotency-Key" and refused.get_json()["error"]["code"] == code
    assert deal_count(app, public_id) == 0


def test_a_refused_write_keeps_no_key(app: Flask, client: FlaskClient) -> None:
    """A write that fails (here a bid below the minimum) stores nothing, so the key may be sent again."""
    public_id, token = new_match(app)
    url = f"/api/v1/matches/{public_id}/deals"
    bad = quick(0, 60, 20) | {"bid": 5}
    assert client.post(url, json=bad, headers=keyed(token, "fix-and-retry")).status_code == 422
    assert keys_of(app, public_id) == 0
    assert client.post(url, json=bad | {"bid": 50}, headers=keyed(token, "fix-and-retry")).status_code == 201


def test_keys_older_than_a_day_are_cleared_by_the_next_keyed_write(app: Flask, client: FlaskClient) -> None:
    public_id, token = new_match(app)
    url = f"/api/v1/matches/{public_id}/deals"
    client.post(url, json=quick(0, 60, 20), headers=keyed(token, "yesterdays-key"))
    with app.app_context():
        yesterday = utc_now() - write_keys.WRITE_KEY_KEPT - timedelta(1)
        get_session().execute(update(WriteKeyRow).values(created_at=yesterday))
        get_session().commit()
    client.post(url, json=quick(0, 60, 20), headers=keyed(token, "todays-key-01"))
    assert keys_of(app, public_id) == 1


def test_posts_with_one_key_sent_at_once_make_one_deal(app: Flask) -> None:
    public_id, token = new_match(app)
    answers = race(app, lambda client, index: client.post(
        f"/api/v1/matches/{public_id}/deals", json=quick(0, 60, 20), headers=keyed(token, "raced-key-0001")))
    assert Counter(answer.status_code for answer in answers) == {201: THREADS}
    assert {answer.get_json()["number"] for answer in answers} == {1}
    assert sum(answer.headers.get("Idempotent-Replayed") == "true" for answer in answers) == THREADS - 1
    assert deal_count(app, public_id) == 1 and keys_of(app, public_id) == 1


def test_versioned_posts_with_one_key_sent_at_once_make_one_deal_and_no_conflict(app: Flask) -> None:
    public_id, token = new_match(app)
    version, _ = stored(app, public_id)
    answers = race(app, lambda client, index: client.post(
        f"/api/v1/matches/{public_id}/deals", json=quick(0, 60, 20), headers=keyed(token, "raced-key-0002", version)))
    assert Counter(answer.status_code for answer in answers) == {201: THREADS}
    assert deal_count(app, public_id) == 1


def test_pairs_of_keys_sent_at_once_make_one_deal_a_pair(app: Flask) -> None:
    """Four phones each tap twice at once: four deals, whatever the order the eight requests land in."""
    public_id, token = new_match(app)
    answers = race(app, lambda client, index: client.post(
        f"/api/v1/matches/{public_id}/deals", json=quick(0, 60 + index // 2, 20),
        headers=keyed(token, f"phone-{index // 2}-tap")))
    assert Counter(answer.status_code for answer in answers) == {201: THREADS}
    numbers = [answer.get_json()["number"] for answer in answers]
    assert all(numbers[index] == numbers[index + 1] for index in range(0, THREADS, 2))
    assert sorted(set(numbers)) == list(range(1, THREADS // 2 + 1))
    assert deal_count(app, public_id) == THREADS // 2


# The forms -------------------------------------------------------------------------------------------

def quick_form(actions: Actions, public_id: str, we: int = 60, they: int = 20) -> dict[str, str]:
    return actions.deal_form(public_id) | {
        "mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": str(we), "sides-1-total": str(they)}


def test_the_deal_form_carries_a_fresh_key_each_time_it_is_drawn(actions: Actions) -> None:
    public_id = actions.create_match()
    keys = {actions.deal_form(public_id)["write_key"] for _ in range(3)}
    assert len(keys) == 3 and all(re.fullmatch(r"[A-Za-z0-9_-]{22}", key) for key in keys)


def test_the_same_deal_form_sent_twice_makes_one_deal_and_no_conflict(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    data = quick_form(actions, public_id)
    first = client.post(f"/m/{public_id}/deals/new", data=data)
    again = client.post(f"/m/{public_id}/deals/new", data=data)
    assert first.status_code == again.status_code == 302
    assert again.headers["Location"] == first.headers["Location"]
    sheet = client.get(again.headers["Location"]).get_data(as_text=True)
    assert "While you were typing" not in sheet and "Deal 1 saved" in sheet
    assert deal_count(app, public_id) == 1


def test_a_corrected_deal_sent_twice_is_one_correction(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    data = actions.deal_form(public_id, 1) | {"sides-1-total": "30"}
    answers = [client.post(f"/m/{public_id}/deals/1/edit", data=data) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [302, 302]
    version, deals = stored(app, public_id)
    assert version == 3 and deals[0]["sides"][1] == {"total": 30}


def test_a_delete_sent_twice_deletes_one_deal(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    for total in (60, 70, 80):
        actions.add_deal(public_id, 0, 50, (total, 20))
    data = form_values(client.get(f"/m/{public_id}/deals/3/delete"))
    assert data["write_key"]
    answers = [client.post(f"/m/{public_id}/deals/3/delete", data=data) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [302, 302]
    assert deal_count(app, public_id) == 2


def test_a_deal_form_sent_at_once_from_two_tabs_of_one_phone_makes_one_deal(
        app: Flask, actions: Actions) -> None:
    public_id = actions.create_match()
    data = quick_form(actions, public_id)
    answers = race(app, lambda client, index: client.post(f"/m/{public_id}/deals/new", data=data),
                   opened=public_id)
    assert Counter(answer.status_code for answer in answers) == {302: THREADS}
    assert deal_count(app, public_id) == 1


def test_an_unreadable_form_key_is_refused(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    refused = client.post(f"/m/{public_id}/deals/new", data=quick_form(actions, public_id) | {"write_key": "<no>"})
    assert refused.status_code == 400 and "key is unreadable" in refused.get_data(as_text=True)
    assert deal_count(app, public_id) == 0


def test_a_form_key_sent_to_another_form_is_refused(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    data = quick_form(actions, public_id)
    assert client.post(f"/m/{public_id}/deals/new", data=data).status_code == 302
    edit = actions.deal_form(public_id, 1) | {"write_key": data["write_key"]}
    refused = client.post(f"/m/{public_id}/deals/1/edit", data=edit)
    assert refused.status_code == 422
    assert stored(app, public_id)[0] == 2


def rule_changes(app: Flask, public_id: str) -> int:
    with app.app_context():
        return len({change.batch for change in reading.get_match_or_404(public_id).rule_changes})


def test_every_form_of_the_house_rules_pages_has_a_key_of_its_own(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    for page in ("rules", "rules/meld"):
        html = client.get(f"/m/{public_id}/{page}").get_data(as_text=True)
        forms = re.findall(r"<form method=\"post\".*?</form>", html, re.S)
        keys = [re.search(r'name="write_key"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="write_key"', form)
                for form in forms]
        assert forms and all(keys), page
        values = [found.group(1) or found.group(2) for found in keys if found]
        assert len(set(values)) == len(values) and all(write_keys.is_write_key(value) for value in values)


def test_a_house_rules_change_applied_twice_is_one_change(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    data = form_values(client.get(f"/m/{public_id}/rules"))
    key = re.search(r'id="write_key" name="write_key" type="hidden" value="([^"]+)"',
                    client.get(f"/m/{public_id}/rules").get_data(as_text=True))
    assert key is not None
    data |= {"write_key": key.group(1), "rules-target": "600"}
    preview = client.post(f"/m/{public_id}/rules", data=data)
    assert f'value="{key.group(1)}"' in preview.get_data(as_text=True)  # the apply carries the same key
    answers = [client.post(f"/m/{public_id}/rules", data=data | {"confirm": "yes"}, follow_redirects=True)
               for _ in range(2)]
    assert [answer.status_code for answer in answers] == [200, 200]
    assert "House rules changed: Play to 500 → 600" in answers[0].get_data(as_text=True)
    again = data | {"confirm": "yes", "rules-target": "700"}  # the form changed and sent again: the same write
    assert SENT_BEFORE in client.post(f"/m/{public_id}/rules", data=again, follow_redirects=True).get_data(as_text=True)
    assert stored(app, public_id)[0] == 3 and rule_changes(app, public_id) == 1


@pytest.mark.parametrize("action", ["rescale", "undo"])
def test_a_rescale_or_an_undo_sent_twice_is_done_once(
        app: Flask, client: FlaskClient, actions: Actions, action: str) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    html = client.get(f"/m/{public_id}/rules").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert token is not None
    fields = {"csrf_token": token.group(1), "version": "2", "write_key": "rescale-key-0001", "factor": "up",
              "confirm": "yes"}  # from its preview
    assert client.post(f"/m/{public_id}/rules/rescale", data=fields).status_code == 302
    if action == "undo":
        with app.app_context():
            change = reading.get_match_or_404(public_id).rule_changes[0].id
        fields = fields | {"version": "3", "write_key": "undo-key-0001"}
        answers = [client.post(f"/m/{public_id}/rules/undo/{change}", data=fields) for _ in range(2)]
    else:
        answers = [client.post(f"/m/{public_id}/rules/rescale", data=fields)]
    assert [answer.status_code for answer in answers] == [302] * len(answers)
    assert SENT_BEFORE in client.get(answers[-1].headers["Location"]).get_data(as_text=True)
    assert stored(app, public_id)[0] == (4 if action == "undo" else 3)
    assert rule_changes(app, public_id) == (2 if action == "undo" else 1)
