"""A write reads its match once, works its sheet out once, and answers with what it worked out."""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.device import KEY as DEVICE_MATCHES
from scorekeeper.forms.house_rules import rule_values
from scorekeeper.rules import matchfile, scoring
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.store import reading, writing

DEALS = 30
TABLE = re.compile(r'^\s*(SELECT|INSERT|UPDATE|DELETE)\b.*?\b(?:FROM|INTO|UPDATE)?\s*"?(\w+)"?', re.S | re.I)


@dataclass
class Work:
    """What one request did: its SQL statements by (verb, table), how often it read a match's facts
    into the rules core and how often it worked a sheet out."""

    statements: Counter[tuple[str, str]] = field(default_factory=Counter)
    reads: int = 0
    sheets: int = 0

    def count(self, verb: str, table: str) -> int:
        return self.statements[(verb, table)]


@contextmanager
def watched(app: Flask) -> Iterator[Work]:
    """Count the SQL the engine runs (SQLAlchemy's events) and the calls of ``match_from_json`` and
    ``score_match`` (a profiler: the real functions run, nothing is replaced)."""
    work = Work()
    engine = app.extensions["scorekeeper.engine"]

    def on_execute(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        verb = statement.split(None, 1)[0].upper()
        table = re.search(r"\b(?:FROM|INTO|UPDATE)\s+\"?(\w+)", statement, re.I)
        work.statements[(verb, table.group(1) if table else "")] += 1

    def on_call(frame: FrameType, what: str, _arg: Any) -> None:
        if what == "call" and frame.f_code is scoring.score_match.__code__:
            work.sheets += 1
        elif what == "call" and frame.f_code is matchfile.match_from_json.__code__:
            work.reads += 1

    event.listen(engine, "before_cursor_execute", on_execute)
    sys.setprofile(on_call)
    try:
        yield work
    finally:
        sys.setprofile(None)
        event.remove(engine, "before_cursor_execute", on_execute)


def deal(number: int) -> dict[str, Any]:
    bidder = number % 2
    sides: list[dict[str, Any]] = [{"meld": 20, "tricks": 24}, {"meld": 10, "tricks": 24}]
    sides[bidder]["last_trick"] = True
    return {"bidder": bidder, "bid": 50, "sides": sides}


@pytest.fixture
def long_match(app: Flask, client: FlaskClient) -> tuple[str, str]:
    """A 30-deal match that nobody has won yet (target 2000), in the client's device cookie as if it had
    opened the players' link (so its forms may write, and nothing is read for it): its link and edit token."""
    with app.app_context():
        match = match_from_json({
            "format": "pinochle-match/1", "name": "Long", "sides": [{"name": "We"}, {"name": "They"}],
            "rules": {"target": 2000}, "deals": [deal(number) for number in range(DEALS)],
        })
        row = writing.create_match(match)
        public_id, token = row.public_id, row.edit_token
    with client.session_transaction() as session:
        session[DEVICE_MATCHES] = [public_id]
    return public_id, token


def version_of(app: Flask, public_id: str) -> int:
    with app.app_context():
        version = reading.match_version(public_id)
    assert version is not None
    return version


def test_the_profiler_counts_what_it_watches(app: Flask, long_match: tuple[str, str]) -> None:
    with app.app_context(), watched(app) as work:
        scoring.score_match(reading.load_match(long_match[0]).match)
    assert work.reads == 1 and work.sheets == 1 and work.count("SELECT", "match") == 1


def test_a_deal_entered_on_the_form_reads_the_match_once_and_scores_it_once(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    public_id, _ = long_match
    form = {"version": version_of(app, public_id), "mode": "quick", "bidder": "0", "bid": "50",
            "sides-0-total": "60", "sides-1-total": "30"}
    with watched(app) as work:
        answer = client.post(f"/m/{public_id}/deals/new", data=form)
    assert answer.status_code == 302
    assert work.reads == 1 and work.sheets == 0  # the redirect needs no sheet: the next page draws it
    assert work.count("SELECT", "match") == 1
    assert work.count("SELECT", "deal") == 1 and work.count("SELECT", "side") == 1
    assert work.count("INSERT", "deal") == 1 and work.count("UPDATE", "match") == 1
    assert work.count("INSERT", "deal_change") == 1  # its entry in the deal's history
    assert sum(work.statements.values()) == 6


def test_a_deal_saved_from_the_entry_panel_reads_the_match_once_and_answers_with_its_sheet(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    public_id, _ = long_match
    form = {"version": version_of(app, public_id), "mode": "quick", "bidder": "0", "bid": "50",
            "sides-0-total": "60", "sides-1-total": "30"}
    with watched(app) as work:
        answer = client.post(f"/m/{public_id}/deals/new", data=form, headers={"X-Entry-Panel": "1"})
    assert answer.status_code == 200 and answer.json is not None and 'id="deal-31"' in answer.json["live"]
    assert work.reads == 1 and work.sheets == 1  # the sheet drawn from the match the write left
    assert work.count("SELECT", "match") == 1 and sum(work.statements.values()) == 6  # with the history's row


def test_a_deal_sent_to_the_api_reads_the_match_once_and_scores_it_once(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    public_id, token = long_match
    with watched(app) as work:
        answer = client.post(f"/api/v1/matches/{public_id}/deals", json=deal(DEALS),
                             headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201 and answer.json is not None
    assert len(answer.json["sheet"]["deals"]) == DEALS + 1
    assert work.reads == 1 and work.sheets == 1
    assert work.count("SELECT", "match") == 1 and sum(work.statements.values()) == 6  # with the history's row


def test_a_deal_reads_its_match_once_and_writes_its_row_and_its_history(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    """A deal added reads the match's row, sides and deals once, inserts its row and its history's, and bumps
    the version."""
    public_id, token = long_match
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/v1/matches/{public_id}/deals", json=deal(DEALS), headers=auth).status_code == 201
    with watched(app) as work:
        answer = client.post(f"/api/v1/matches/{public_id}/deals", json=deal(DEALS + 1), headers=auth)
    assert answer.status_code == 201 and answer.json is not None and answer.json["number"] == DEALS + 2
    assert work.reads == 1 and work.sheets == 1
    assert dict(work.statements) == {("SELECT", "match"): 1, ("SELECT", "side"): 1, ("SELECT", "deal"): 1,
                                     ("INSERT", "deal"): 1, ("INSERT", "deal_change"): 1, ("UPDATE", "match"): 1}
    with app.app_context():
        assert [row.position for row in reading.get_match_or_404(public_id).deals] == list(range(1, DEALS + 3))


def test_a_deleted_deal_renumbers_the_later_ones_in_two_statements(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    public_id, token = long_match
    with watched(app) as work:
        answer = client.delete(f"/api/v1/matches/{public_id}/deals/1", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200 and answer.json is not None
    assert work.reads == 1 and work.sheets == 1
    assert work.count("DELETE", "deal") == 1 and work.count("UPDATE", "deal") == 2
    with app.app_context():
        positions = [row.position for row in reading.get_match_or_404(public_id).deals]
    assert positions == list(range(1, DEALS))


def test_an_applied_rule_change_previews_once_and_applies_what_was_previewed(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    public_id, _ = long_match
    rules = {f"rules-{key}": value for key, value in rule_values(HouseRules(target=1950)).items()}
    version = version_of(app, public_id)
    with watched(app) as previewing:
        shown = client.post(f"/m/{public_id}/rules", data={"version": version, **rules})
    assert shown.status_code == 200 and "Apply" in shown.get_data(as_text=True)
    assert previewing.reads == 1 and previewing.sheets == 2  # the sheet now and after, side by side
    with watched(app) as applying:
        applied = client.post(f"/m/{public_id}/rules", data={"version": version, "confirm": "yes", **rules})
    assert applied.status_code == 302
    assert applying.reads == 1 and applying.sheets == 2 and applying.count("SELECT", "match") == 1
    assert applying.count("UPDATE", "match") == 1
    stale = client.post(f"/m/{public_id}/rules", data={"version": version, "confirm": "yes", **rules,
                                                       "rules-target": "1900"})
    assert stale.status_code == 409
    with app.app_context():
        assert reading.load_match(public_id).match.rules.target == 1950
    assert stale.status_code == 409


def test_the_page_of_a_version_is_drawn_once_per_process(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    """The first look at a version draws its page; the next ones read the version alone (one SELECT)."""
    public_id, token = long_match
    answer = client.post(f"/api/v1/matches/{public_id}/deals", json=deal(DEALS),
                         headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201
    with watched(app) as first:
        page = client.get(f"/m/{public_id}")
    assert page.status_code == 200 and f"{DEALS + 1} deals" in page.get_data(as_text=True)
    assert first.reads == 1 and first.sheets == 1
    with watched(app) as again:
        reload = client.get(f"/m/{public_id}")
    assert reload.get_data() == page.get_data()
    assert again.reads == 0 and again.sheets == 0 and dict(again.statements) == {("SELECT", "match"): 1}
