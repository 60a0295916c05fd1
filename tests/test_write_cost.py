"""A write to a match whose facts this process holds runs only the statements it needs, and the facts it
hands out are the objects kept for their values, so the memos that score and encode them find them at once."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from test_one_load import DEALS, deal, long_match, version_of, watched

from scorekeeper import store
from scorekeeper.rules.matchfile import match_from_json

__all__ = ["long_match"]  # the fixture, shared with test_one_load

KEY = "form-key-0001"


def add_a_deal_by_the_api(client: FlaskClient, public_id: str, token: str) -> None:
    """A deal written through the API: the process now holds the match's facts from that write."""
    assert client.post(f"/api/v1/matches/{public_id}/deals", json=deal(DEALS),
                       headers={"Authorization": f"Bearer {token}"}).status_code == 201


def test_a_deal_after_a_deal_on_the_form_reads_only_the_match_row(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    """Neither the sides nor the deals are read: the form is set up from the facts kept by the last write."""
    public_id, token = long_match
    add_a_deal_by_the_api(client, public_id, token)
    form = {"version": version_of(app, public_id), "mode": "quick", "bidder": "0", "bid": "50",
            "sides-0-total": "60", "sides-1-total": "30", "write_key": KEY}
    with watched(app) as work:
        answer = client.post(f"/m/{public_id}/deals/new", data=form)
    assert answer.status_code == 302
    assert work.reads == 0
    assert dict(work.statements) == {
        ("SELECT", "match"): 1, ("SELECT", "write_key"): 1, ("UPDATE", "match"): 1, ("INSERT", "deal"): 1,
        ("DELETE", "write_key"): 1, ("INSERT", "write_key"): 1,
    }
    with watched(app) as again:  # the same form sent twice: the first save's answer, nothing written
        repeat = client.post(f"/m/{public_id}/deals/new", data=form)
    assert repeat.status_code == 302 and repeat.headers["Location"] == answer.headers["Location"]
    assert again.count("INSERT", "deal") == 0 and again.count("UPDATE", "match") == 0
    with app.app_context():
        assert len(store.load_match(public_id).match.deals) == DEALS + 2


def test_a_correction_on_the_form_changes_one_deal_row_without_reading_the_others(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    public_id, token = long_match
    add_a_deal_by_the_api(client, public_id, token)
    form = {"version": version_of(app, public_id), "mode": "quick", "bidder": "1", "bid": "50",
            "sides-0-total": "10", "sides-1-total": "70"}
    with watched(app) as work:
        answer = client.post(f"/m/{public_id}/deals/3/edit", data=form)
    assert answer.status_code == 302
    assert dict(work.statements) == {("SELECT", "match"): 1, ("UPDATE", "match"): 1, ("UPDATE", "deal"): 1}
    with app.app_context():
        row = store.get_match_or_404(public_id)
        assert store.deal_json(row.deals[2])["sides"] == [{"total": 10}, {"total": 70}]
        assert row.last_change == "deal 3 was changed"


def test_a_correction_of_a_deal_that_is_not_there_is_404_and_writes_nothing(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    public_id, _ = long_match
    version = version_of(app, public_id)
    form = {"version": version, "mode": "quick", "bidder": "1", "bid": "50", "sides-0-total": "10",
            "sides-1-total": "70"}
    assert client.post(f"/m/{public_id}/deals/{DEALS + 1}/edit", data=form).status_code == 404
    assert version_of(app, public_id) == version


def test_facts_read_again_are_the_objects_read_before(app: Flask, long_match: tuple[str, str]) -> None:
    public_id, _ = long_match
    with app.app_context():
        row = store.get_match_or_404(public_id)
        first, second = store.to_core(row), store.to_core(row)
    assert first == second and first is not second
    assert first.rules is second.rules and first.sides is second.sides
    assert all(a is b for a, b in zip(first.deals, second.deals, strict=True))


def test_a_new_match_sent_to_the_api_is_made_of_the_objects_kept_for_its_values(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    public_id, _ = long_match
    with app.app_context():
        kept = store.to_core(store.get_match_or_404(public_id))
        again = store.canonical(match_from_json(store.match_json(store.get_match_or_404(public_id))))
    assert again.deals[0] is kept.deals[0] and again.rules is kept.rules


def test_the_value_kept_is_the_first_one_seen_until_the_canon_is_full() -> None:
    canon = store.Canon(limit=2)
    first, equal = tuple([1, "a"]), tuple([1, "a"])
    assert first is not equal
    assert canon(first) is first and canon(equal) is first
    canon(tuple([2, "b"]))
    assert canon(equal) is first
    canon(tuple([3, "c"]))  # a third value: the canon was full and starts afresh
    assert canon(equal) is equal
