"""Rate limits, per client address: starting matches (form, import and API share one limit) and edit tokens
the API refused. Other tests run with the limits off (``RATELIMIT_ENABLED``)."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from conftest import form_values
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.db import get_session
from scorekeeper.extensions import gunicorn_workers, per_worker_limits_warning
from scorekeeper.models import MatchRow

WORKED: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parent.parent / "seeds" / "worked-sheet.json").read_text(encoding="utf-8")
)
DEAL = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 10}]}


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    app = create_app({
        "TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False,
        "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": True,
        "CREATE_MATCH_LIMIT": "3 per minute", "FAILED_TOKEN_LIMIT": "2 per minute",
    })
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def match_count(app: Flask) -> int:
    with app.app_context():
        return int(get_session().scalar(select(func.count()).select_from(MatchRow)) or 0)


def new_match_form(client: FlaskClient) -> dict[str, str]:
    return form_values(client.get("/matches/new?preset=double-500")) | {"name": "Friday"}


def test_starting_matches_is_limited_across_form_import_and_api(app: Flask, client: FlaskClient) -> None:
    assert client.post("/matches/new", data=new_match_form(client)).status_code == 302
    assert client.post("/import", data={"text": json.dumps(WORKED)}).status_code == 302
    assert client.post("/api/v1/matches", json=WORKED).status_code == 201
    for _ in range(3):  # looking at the forms is never limited
        assert client.get("/matches/new").status_code == 200 and client.get("/import").status_code == 200

    refused = client.post("/api/v1/matches", json=WORKED)
    assert refused.status_code == 429 and refused.mimetype == "application/json"
    assert "Too many new matches" in refused.get_json()["error"]["message"]
    assert int(refused.headers["Retry-After"]) > 0

    page = client.post("/matches/new", data=new_match_form(client))
    assert page.status_code == 429 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "Slow down" in html and "Too many new matches" in html and "Go to my matches" in html
    assert client.post("/import", data={"text": json.dumps(WORKED)}).status_code == 429
    assert match_count(app) == 3

    other = app.test_client()  # another address is not held back
    answer = other.post("/api/v1/matches", json=WORKED, environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert answer.status_code == 201


def test_refused_edit_tokens_are_limited_and_right_ones_are_not_counted(client: FlaskClient) -> None:
    created = client.post("/api/v1/matches", json=WORKED).get_json()
    url = f"/api/v1/matches/{created['id']}/deals"
    right = {"Authorization": f"Bearer {created['edit_token']}"}
    for _ in range(4):  # writes with the right token never count
        assert client.post(url, json=DEAL, headers=right).status_code == 201
    assert client.post(url, json=DEAL).status_code == 401
    assert client.post(url, json=DEAL, headers={"Authorization": "Bearer guess"}).status_code == 403

    refused = client.put(f"/api/v1/matches/{created['id']}/rules", json={"target": 200},
                         headers={"Authorization": "Bearer guess-again"})
    assert refused.status_code == 429 and refused.mimetype == "application/json"
    assert "edit token" in refused.get_json()["error"]["message"]
    assert client.post(url, json=DEAL, headers=right).status_code == 429  # held back until the window ends
    assert client.get(f"/api/v1/matches/{created['id']}").get_json()["version"] == 5


def together(app: Flask, count: int, send: Callable[[FlaskClient], int]) -> Counter[int]:
    """``count`` requests on threads of this process, each with a client of its own, released together."""
    start = threading.Barrier(count)

    def one(_: int) -> int:
        client = app.test_client()
        start.wait()
        return send(client)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return Counter(pool.map(one, range(count)))


def test_requests_on_threads_of_one_process_pass_each_limit_exactly(app: Flask, client: FlaskClient) -> None:
    """Counted in this process's memory: 3 new tables of 12 sent together, 2 refused tokens of 12."""
    made = client.post("/api/v1/matches", json={**WORKED, "deals": []}, environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert together(app, 12, lambda each: each.post("/api/v1/tables", json={"name": "T", "players": []})
                    .status_code) == Counter({201: 3, 429: 9})
    url = f"/api/v1/matches/{made.get_json()['id']}/rules"
    assert together(app, 12, lambda each: each.put(url, json={"target": 200}, headers={
        "Authorization": "Bearer guess"}).status_code) == Counter({403: 2, 429: 10})


def test_a_warning_only_where_several_workers_count_in_their_own_memory() -> None:
    """At start (tests/test_shared_rate_limits.py sees it in gunicorn's log)."""
    assert "4 workers: each worker counts the rate limits on its own" in (per_worker_limits_warning("memory://", 4)
                                                                          or "")
    assert per_worker_limits_warning("redis://127.0.0.1:6379/0", 4) is None
    assert per_worker_limits_warning("memory://", 1) is None  # one process: its memory is every count
    assert gunicorn_workers() == 0  # not in gunicorn


def test_the_limits_can_be_turned_off(database_url: str, tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s",
                      "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": False, "CREATE_MATCH_LIMIT": "1 per day"})
    client = app.test_client()
    try:
        assert [client.post("/api/v1/matches", json=WORKED).status_code for _ in range(3)] == [201] * 3
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_making_tables_counts_against_the_limit_on_new_matches(app: Flask, client: FlaskClient) -> None:
    assert client.post("/api/v1/tables", json={"name": "A", "players": ["Ann"]}).status_code == 201
    assert client.post("/tables/new", data={"name": "B", "players-0": "Bob"}).status_code == 302
    assert client.post("/api/v1/matches", json=WORKED).status_code == 201
    refused = client.post("/api/v1/tables", json={"name": "C", "players": []})
    assert refused.status_code == 429 and refused.mimetype == "application/json"
    assert client.post("/tables/new", data={"name": "D"}).status_code == 429
    assert client.post("/tables/import", data={}).status_code == 429


# What is made, not requests ------------------------------------------------------------

def table_file(matches: int, deals_each: int = 0) -> dict[str, Any]:
    match = {**WORKED, "deals": [DEAL] * deals_each}
    return {"format": "scorekeeper-table/1", "name": "Club", "matches": [match] * matches}


def test_a_table_file_counts_each_match_it_makes(app: Flask, client: FlaskClient) -> None:
    """The limit is 3 a minute: a table and its two matches take all three."""
    answer = client.post("/api/v1/tables/import", json=table_file(2))
    assert answer.status_code == 201
    refused = client.post("/api/v1/matches", json=WORKED)
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "rate_limited"
    assert match_count(app) == 2


def test_a_table_file_beyond_what_is_left_is_refused_whole(app: Flask, client: FlaskClient) -> None:
    assert client.post("/api/v1/matches", json=WORKED).status_code == 201
    refused = client.post("/api/v1/tables/import", json=table_file(2))  # a table and 2 matches; 2 are left
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert client.get("/tables/import").status_code == 200
    assert match_count(app) == 1


def test_deals_brought_in_count_against_their_own_limit(database_url: str, tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False,
                      "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": True, "NEW_DEALS_LIMIT": "12 per hour"})
    try:
        client = app.test_client()
        assert client.post("/api/v1/matches", json={**WORKED, "deals": [DEAL] * 7}).status_code == 201
        api = client.post("/api/v1/matches", json={**WORKED, "deals": [DEAL] * 6})
        assert api.status_code == 429 and "deals" in api.get_json()["error"]["message"]
        page = client.post("/import", data={"text": json.dumps({**WORKED, "deals": [DEAL] * 6})})
        assert page.status_code == 429 and "Slow down" in page.get_data(as_text=True)
        assert client.post("/api/v1/tables/import", json=table_file(2, 3)).status_code == 429
        assert client.post("/api/v1/matches", json={**WORKED, "deals": [DEAL] * 5}).status_code == 201
        assert match_count(app) == 2
        too_big = client.post("/api/v1/matches", json={**WORKED, "deals": [DEAL] * 13})
        assert too_big.status_code == 429
        assert "at most 12 per hour" in too_big.get_json()["error"]["message"]
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_the_default_limits_let_the_largest_table_file_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from limits import parse_many

    from scorekeeper.rules.limits import MAX_DEALS, MAX_TABLE_DEALS, MAX_TABLE_MATCHES

    for name in ("SCOREKEEPER_CREATE_LIMIT", "SCOREKEEPER_NEW_DEALS_LIMIT"):
        monkeypatch.delenv(name, raising=False)
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'd.sqlite'}", "SECRET_KEY": "s",
                      "INSTANCE_PATH": str(tmp_path)})
    app.extensions["scorekeeper.engine"].dispose()
    assert min(item.amount for item in parse_many(app.config["CREATE_MATCH_LIMIT"])) >= MAX_TABLE_MATCHES + 1
    assert min(item.amount for item in parse_many(app.config["NEW_DEALS_LIMIT"])) >= max(MAX_TABLE_DEALS, MAX_DEALS)
