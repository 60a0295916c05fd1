"""Writes racing each other on one match, from threads, on a real SQLite file and on PostgreSQL.

A write without a version applies (redone on the match as it now is when another write got in
first); a write with a version that another write overtook is refused with 409; nothing answers 500
and no write is lost.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from scorekeeper.device import KEY as DEVICE_MATCHES
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.store import reading, writing

pytestmark = pytest.mark.both_databases

THREADS = 8


def quick(bidder: int, we: int, they: int) -> dict[str, Any]:
    return {"bidder": bidder, "bid": 50, "sides": [{"total": we}, {"total": they}]}


def new_match(app: Flask, deals: int = 0) -> tuple[str, str]:
    with app.app_context():
        match = match_from_json({
            "format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}], "rules": {"target": 2000},
            "deals": [quick(n % 2, 60 + n, 20) for n in range(deals)],
        })
        row = writing.create_match(match)
        return row.public_id, row.edit_token


def stored(app: Flask, public_id: str) -> tuple[int, list[dict[str, Any]]]:
    """The match's version and its deals' positions and sides, read afresh."""
    with app.app_context():
        row = reading.get_match_or_404(public_id)
        return row.version, [{"position": deal.position, "sides": deal.sides} for deal in row.deals]


def race(app: Flask, request: Callable[[Any, int], TestResponse], threads: int = THREADS,
         opened: str | None = None) -> list[TestResponse]:
    """Send ``threads`` requests at once, each from its own client (its own session), and their answers
    in the threads' order. With ``opened``, each client first opens that match at its players' link, as a
    phone does before it sends the match's forms."""
    start = threading.Barrier(threads)
    answers: list[TestResponse | None] = [None] * threads
    failures: list[BaseException] = []

    def run(index: int) -> None:
        client = app.test_client()
        if opened is not None:
            with client.session_transaction() as session:
                session[DEVICE_MATCHES] = [opened]
        start.wait()
        try:
            answers[index] = request(client, index)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            failures.append(error)

    workers = [threading.Thread(target=run, args=(index,)) for index in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not failures, failures
    assert all(answer is not None for answer in answers)
    return [answer for answer in answers if answer is not None]


def statuses(answers: list[TestResponse]) -> Counter[int]:
    return Counter(answer.status_code for answer in answers)


def bearer(token: str, version: int | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    if version is not None:
        headers["If-Match"] = f'"{version}"'
    return headers


def test_unversioned_deals_sent_at_once_are_all_recorded(app: Flask) -> None:
    public_id, token = new_match(app)
    answers = race(app, lambda client, index: client.post(
        f"/api/v1/matches/{public_id}/deals", json=quick(0, 100 + index, 20), headers=bearer(token)))
    assert statuses(answers) == {201: THREADS}
    assert sorted(answer.json["number"] for answer in answers if answer.json) == list(range(1, THREADS + 1))
    version, deals = stored(app, public_id)
    assert [deal["position"] for deal in deals] == list(range(1, THREADS + 1))
    assert sorted(deal["sides"][0]["total"] for deal in deals) == [100 + index for index in range(THREADS)]
    assert version == 1 + THREADS


def test_versioned_deals_sent_at_once_one_is_recorded_and_the_others_are_stale(app: Flask) -> None:
    public_id, token = new_match(app)
    version, _ = stored(app, public_id)
    answers = race(app, lambda client, index: client.post(
        f"/api/v1/matches/{public_id}/deals", json=quick(0, 100 + index, 20), headers=bearer(token, version)))
    assert statuses(answers) == {201: 1, 409: THREADS - 1}
    for answer in answers:
        if answer.status_code == 409:
            assert answer.json and answer.json["error"]["field"] == "version"
            assert answer.json["error"]["current_version"] == version + 1
    assert len(stored(app, public_id)[1]) == 1


def test_versioned_deletes_of_one_deal_delete_it_once(app: Flask) -> None:
    public_id, token = new_match(app, deals=THREADS)
    version, _ = stored(app, public_id)
    answers = race(app, lambda client, index: client.delete(
        f"/api/v1/matches/{public_id}/deals/1", headers=bearer(token, version)))
    assert statuses(answers) == {200: 1, 409: THREADS - 1}
    _, deals = stored(app, public_id)
    assert [deal["position"] for deal in deals] == list(range(1, THREADS))


def test_versioned_deletes_of_different_deals_answer_200_or_409_and_lose_nothing(app: Flask) -> None:
    public_id, token = new_match(app, deals=2 * THREADS)
    version, before = stored(app, public_id)
    answers = race(app, lambda client, index: client.delete(
        f"/api/v1/matches/{public_id}/deals/{index + 1}", headers=bearer(token, version)))
    found = statuses(answers)
    assert set(found) <= {200, 409} and found[200] == 1
    deleted = next(index for index, answer in enumerate(answers) if answer.status_code == 200)
    _, after = stored(app, public_id)
    assert [deal["sides"] for deal in after] == [deal["sides"] for deal in before if deal["position"] != deleted + 1]


def test_unversioned_deletes_all_apply(app: Flask) -> None:
    public_id, token = new_match(app, deals=2 * THREADS)
    _, before = stored(app, public_id)
    answers = race(app, lambda client, index: client.delete(
        f"/api/v1/matches/{public_id}/deals/1", headers=bearer(token)))
    assert statuses(answers) == {200: THREADS}
    version, after = stored(app, public_id)
    assert [deal["position"] for deal in after] == list(range(1, THREADS + 1))
    assert [deal["sides"] for deal in after] == [deal["sides"] for deal in before[THREADS:]]


def test_unversioned_corrections_of_different_deals_are_all_kept(app: Flask) -> None:
    public_id, token = new_match(app, deals=THREADS)
    answers = race(app, lambda client, index: client.put(
        f"/api/v1/matches/{public_id}/deals/{index + 1}", json=quick(1, 10, 200 + index), headers=bearer(token)))
    assert statuses(answers) == {200: THREADS}
    version, deals = stored(app, public_id)
    assert [deal["sides"][1]["total"] for deal in deals] == [200 + index for index in range(THREADS)]


def test_unversioned_writes_of_every_kind_at_once_all_apply(app: Flask) -> None:
    public_id, token = new_match(app, deals=3 * THREADS)
    adds, corrections, deletes = range(0, THREADS, 3), range(1, THREADS, 3), range(2, THREADS, 3)

    def mixed(client: Any, index: int) -> TestResponse:
        url = f"/api/v1/matches/{public_id}/deals"
        if index in adds:
            return client.post(url, json=quick(0, 300 + index, 20), headers=bearer(token))
        if index in corrections:
            return client.put(f"{url}/{THREADS + index}", json=quick(1, 10, 200 + index), headers=bearer(token))
        return client.delete(f"{url}/1", headers=bearer(token))

    answers = race(app, mixed)
    assert statuses(answers) == {201: len(adds), 200: THREADS - len(adds)}
    version, deals = stored(app, public_id)
    assert len(deals) == 3 * THREADS + len(adds) - len(deletes)
    assert [deal["position"] for deal in deals] == list(range(1, len(deals) + 1))
    totals = [deal["sides"][0]["total"] for deal in deals]
    assert sorted(total for total in totals if total >= 300) == [300 + index for index in adds]
    assert sum(deal["sides"][1]["total"] >= 200 for deal in deals) == len(corrections)
    assert version == 1 + THREADS


def _form_version(app: Flask, public_id: str) -> str:
    return str(stored(app, public_id)[0])


def test_form_deletes_with_the_same_version_delete_once_and_show_the_others_why(app: Flask) -> None:
    public_id, _ = new_match(app, deals=THREADS)
    version = _form_version(app, public_id)
    answers = race(app, lambda client, index: client.post(
        f"/m/{public_id}/deals/1/delete", data={"version": version}), opened=public_id)
    assert statuses(answers) == {302: 1, 409: THREADS - 1}
    for answer in answers:
        if answer.status_code == 409:
            assert "on another phone" in answer.get_data(as_text=True)
    assert len(stored(app, public_id)[1]) == THREADS - 1


def test_form_deletes_of_the_last_deals_never_fail(app: Flask) -> None:
    """Each phone deletes a different deal from the end: the deal it showed may be gone by then (404
    when it is gone before the request reads the match, 409 when the request read it first)."""
    public_id, _ = new_match(app, deals=THREADS)
    version = _form_version(app, public_id)
    answers = race(app, lambda client, index: client.post(
        f"/m/{public_id}/deals/{THREADS - index}/delete", data={"version": version}), opened=public_id)
    found = statuses(answers)
    assert found[302] == 1 and set(found) <= {302, 404, 409}


def test_form_deals_and_edits_with_the_same_version_save_once(app: Flask) -> None:
    public_id, _ = new_match(app, deals=2)
    version = _form_version(app, public_id)
    form = {"version": version, "mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": "60",
            "sides-1-total": "30"}

    def post(client: Any, index: int) -> TestResponse:
        if index % 2:
            return client.post(f"/m/{public_id}/deals/new", data=form)
        return client.post(f"/m/{public_id}/deals/{1 + index % 4 // 2}/edit", data=form)

    answers = race(app, post, opened=public_id)
    assert statuses(answers) == {302: 1, 409: THREADS - 1}
    for answer in answers:
        if answer.status_code == 409:
            assert "on another phone" in answer.get_data(as_text=True)


def test_form_throw_ins_with_the_same_version_are_stale_but_never_fail(app: Flask) -> None:
    public_id, _ = new_match(app)
    with app.app_context():
        loaded = reading.load_match(public_id)
        writing.add_deal(loaded, {"bidder": 0, "bid": 90, "sides": [
            {"meld": 10, "tricks": 30}, {"meld": 8, "tricks": 18, "last_trick": True}]}, None)
    version = _form_version(app, public_id)
    answers = race(app, lambda client, index: client.post(
        f"/m/{public_id}/deals/1/throw-in", data={"version": version}), opened=public_id)
    assert statuses(answers) == {302: THREADS}
    assert stored(app, public_id)[0] == int(version) + 1


@pytest.mark.parametrize("threads", [2 * THREADS])
def test_many_unversioned_deals_at_once(app: Flask, threads: int) -> None:
    public_id, token = new_match(app)
    answers = race(app, lambda client, index: client.post(
        f"/api/v1/matches/{public_id}/deals", json=quick(0, 100 + index, 20), headers=bearer(token)), threads)
    assert statuses(answers) == {201: threads}
    assert len(stored(app, public_id)[1]) == threads
