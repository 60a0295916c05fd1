"""Costly reads cost the reader: limited per address, counted by the deals they read (before they read them:
one a hundred deals, so a match as long as most counts nothing), never the live poll nor the sheet; and a
file brought in is counted against the limits before it is read."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Actions
from flask import Flask
from flask.testing import FlaskClient
from largest import largest_match_file
from sqlalchemy import func, select

from matches import match_file
from scorekeeper import create_app
from scorekeeper.db import get_session
from scorekeeper.models import MatchRow, TableRow

pytestmark = pytest.mark.both_databases

DEAL = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 10}]}
OTHER_ADDRESS = {"REMOTE_ADDR": "198.51.100.7"}


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    app = create_app({
        "TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False,
        "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": True, "READ_LIMIT": "5 per minute",
        "NEW_DEALS_LIMIT": "400 per minute",
    })
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def rows(app: Flask, model: Any) -> int:
    with app.app_context():
        return int(get_session().scalar(select(func.count()).select_from(model)) or 0)


def new_match(client: FlaskClient, deals: int = 100) -> str:
    """A match of ``deals`` deals (reading a hundred counts one)."""
    answer = client.post("/api/v1/matches", json=match_file([DEAL] * deals, target=5000))
    assert answer.status_code == 201, answer.get_json()
    return str(answer.get_json()["id"])


def test_costly_reads_are_limited_and_answer_429_as_the_app_does(app: Flask, client: FlaskClient) -> None:
    public_id = new_match(client)
    costly = [f"/api/v1/matches/{public_id}", f"/api/v1/matches/{public_id}/deals/1", f"/m/{public_id}/export.csv",
              f"/m/{public_id}/deals/1/edit", f"/m/{public_id}/export.json"]
    for address in costly:
        assert client.get(address).status_code == 200
    refused = client.get(f"/api/v1/matches/{public_id}")
    assert refused.status_code == 429 and refused.mimetype == "application/json"
    assert "Too many costly pages" in refused.get_json()["error"]["message"]
    assert int(refused.headers["Retry-After"]) > 0
    page = client.get(f"/m/{public_id}/export.csv")
    assert page.status_code == 429 and page.mimetype == "text/html"
    assert "Slow down" in page.get_data(as_text=True)

    sheet = client.get(f"/m/{public_id}")  # the sheet and the live poll are never limited
    assert sheet.status_code == 200
    for _ in range(10):
        assert client.get(f"/m/{public_id}/live", headers={"If-None-Match": sheet.headers["ETag"]}).status_code == 304
        assert client.get(f"/m/{public_id}").status_code == 200
    other = app.test_client()  # nor is another address held back
    assert other.get(f"/api/v1/matches/{public_id}", environ_base=OTHER_ADDRESS).status_code == 200


def test_a_deal_saved_from_the_form_is_no_read(client: FlaskClient) -> None:
    """The deal form's page is a costly read; sending it is a write, never refused as a read."""
    actions = Actions(client)
    public_id = new_match(client)
    assert client.get(f"/m/{public_id}").status_code == 200  # this phone opened the players' link
    form = actions.deal_form(public_id)
    for _ in range(4):
        assert client.get(f"/m/{public_id}/deals/new").status_code == 200
    assert client.get(f"/m/{public_id}/deals/new").status_code == 429
    saved = client.post(f"/m/{public_id}/deals/new", data=form | {
        "mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": "60", "sides-1-total": "10"})
    assert saved.status_code == 302


def test_a_read_that_reads_no_match_is_not_counted(client: FlaskClient) -> None:
    """An answer 304, or from the sheet cache, reads no match: only the first look at a version counts."""
    public_id = new_match(client)
    etag = client.get(f"/api/v1/matches/{public_id}").headers["ETag"]
    for _ in range(10):
        assert client.get(f"/api/v1/matches/{public_id}", headers={"If-None-Match": etag}).status_code == 304
        assert client.get(f"/api/v1/matches/{public_id}").status_code == 200
    for _ in range(4):
        assert client.get(f"/api/v1/matches/{public_id}/deals/1").status_code == 200
    assert client.get(f"/api/v1/matches/{public_id}/deals/1").status_code == 429


def test_a_read_counts_the_deals_it_reads(database_url: str, tmp_path: Path) -> None:
    """Reading a 250-deal match counts two (one a whole hundred deals): a long match's reader runs out of reads
    sooner, and a short match's counts nothing."""
    app = create_app({
        "TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False,
        "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": True, "READ_LIMIT": "4 per minute",
    })
    try:
        client = app.test_client()
        answer = client.post("/api/v1/matches", json=largest_match_file(deals=250))
        assert answer.status_code == 201
        long_id = answer.get_json()["id"]
        assert client.get(f"/api/v1/matches/{long_id}/deals/1").status_code == 200  # 2
        assert client.get(f"/api/v1/matches/{long_id}/deals/2").status_code == 200  # 4
        assert client.get(f"/api/v1/matches/{long_id}/deals/3").status_code == 429
        short = app.test_client()
        short_id = new_match(short, deals=99)
        for number in range(20):
            assert short.get(f"/api/v1/matches/{short_id}/deals/1", environ_base=OTHER_ADDRESS).status_code == 200, \
                number
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def broken_match_file(deals: int) -> dict[str, Any]:
    """A match file of ``deals`` deals whose last one cannot be read: reading it would answer 422."""
    file = match_file([DEAL] * deals, target=5000)
    file["deals"][-1] = {"bidder": "nobody"}
    return file


def test_a_match_file_past_the_limit_on_deals_is_refused_before_it_is_read(app: Flask, client: FlaskClient) -> None:
    assert client.post("/api/v1/matches", json=broken_match_file(401)).status_code == 429
    page = client.post("/import", data={"text": json.dumps(broken_match_file(401))})
    assert page.status_code == 429 and "Slow down" in page.get_data(as_text=True)
    assert rows(app, MatchRow) == 0
    assert client.post("/api/v1/matches", json=broken_match_file(5)).status_code == 422  # within it: read


def test_a_table_file_past_the_limits_is_refused_before_its_matches_are_read(app: Flask, client: FlaskClient) -> None:
    table = {"format": "scorekeeper-table/1", "name": "Ours", "players": [],
             "matches": [match_file([DEAL] * 200, target=5000), broken_match_file(201)]}
    refused = client.post("/api/v1/tables/import", json=table)
    assert refused.status_code == 429 and refused.mimetype == "application/json"
    upload = client.post("/tables/import", data={"file": (io.BytesIO(json.dumps(table).encode()), "table.json")},
                         content_type="multipart/form-data")
    assert upload.status_code == 429
    assert rows(app, TableRow) == 0 and rows(app, MatchRow) == 0
    table["matches"] = table["matches"][1:]  # 201 deals: within the limit, so read, and refused for what it is
    assert client.post("/api/v1/tables/import", json=table).status_code == 422


def test_one_read_counts_at_most_ten_whatever_it_reads(database_url: str, tmp_path: Path) -> None:
    """A table's statistics read every match it played (here 1,200 deals): a table played for years still
    gets them."""
    app = create_app({
        "TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False,
        "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": True, "READ_LIMIT": "10 per minute",
    })
    try:
        client = app.test_client()
        table = {"format": "scorekeeper-table/1", "name": "Ours", "players": [],
                 "matches": [match_file([DEAL] * 600, target=5000)] * 2}
        answer = client.post("/api/v1/tables/import", json=table)
        assert answer.status_code == 201, answer.get_json()
        stats = f"/api/v1/tables/{answer.get_json()['id']}/stats"
        assert client.get(stats).status_code == 200  # 12 hundreds begun: 10
        assert client.get(stats).status_code == 429
    finally:
        app.extensions["scorekeeper.engine"].dispose()
