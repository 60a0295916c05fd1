"""What the app takes in, it gives back and takes in again: the largest match file and table file that the
limits in items allow (``tests/largest.py``), exported by the pages and the API, go in again through both.
The request's byte limit is never the one a file the app wrote meets first."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from largest import largest_match_file, largest_table_file

from scorekeeper import MAX_REQUEST_BYTES, create_app
from scorekeeper.cli import main
from scorekeeper.rules.limits import MAX_DEALS, MAX_TABLE_DEALS, MAX_TABLE_MATCHES

ROOM = 0.85  # the largest files take at most this share of the byte limit


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app for the module (SQLite): the largest files take a while to score and store."""
    folder = tmp_path_factory.mktemp("limits")
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{folder / 'limits.sqlite'}", "SECRET_KEY": "s",
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False, "INSTANCE_PATH": str(folder)})
    yield app
    app.extensions["scorekeeper.engine"].dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def created(answer: Any) -> dict[str, Any]:
    assert answer.status_code == 201, answer.get_data(as_text=True)[:300]
    return dict(answer.get_json())


def test_the_largest_match_goes_out_and_in_again_every_way(client: FlaskClient) -> None:
    """Each way out (the page's download, the API's answer) goes in again, through each way in (the import
    page, the API) once: the largest match takes a while to read and score."""
    sent = largest_match_file()
    assert len(sent["deals"]) == MAX_DEALS
    first = created(client.post("/api/v1/matches", json=sent))

    exported = client.get(f"/m/{first['id']}/export.json").get_data()
    assert len(exported) <= ROOM * MAX_REQUEST_BYTES
    page = client.post("/import", data={"file": (io.BytesIO(exported), "match.json")})
    assert page.status_code == 302
    imported = page.headers["Location"].rsplit("/", 1)[-1]
    assert client.get(f"/m/{imported}/export.json").get_data() == exported

    answer = client.get(f"/api/v1/matches/{first['id']}").get_data()  # the API's own answer, its match sent back
    assert len(answer) <= ROOM * MAX_REQUEST_BYTES
    assert created(client.post("/api/v1/matches", json=json.loads(answer)["match"]))["match"] == first["match"]


def test_the_largest_table_goes_out_and_in_again(client: FlaskClient) -> None:
    """Its file from the page goes in again; the API's export is no larger (each import takes a while)."""
    sent = largest_table_file()
    assert len(sent["matches"]) == MAX_TABLE_MATCHES
    assert sum(len(match["deals"]) for match in sent["matches"]) == MAX_TABLE_DEALS
    first = created(client.post("/api/v1/tables/import", json=sent))

    exported = client.get(f"/t/{first['id']}/export.json").get_data()
    assert len(exported) <= ROOM * MAX_REQUEST_BYTES
    page = client.post("/tables/import", data={"file": (io.BytesIO(exported), "table.json")})
    assert page.status_code == 302
    answer = client.get(f"/api/v1/tables/{first['id']}/export")
    assert len(answer.get_data()) <= len(exported) and answer.get_json() == json.loads(exported)


def small_table(matches: int, deals_each: int) -> dict[str, Any]:
    deal = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}
    match = {"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}], "deals": [deal] * deals_each}
    return {"format": "scorekeeper-table/1", "name": "Club", "matches": [match] * matches}


@pytest.mark.parametrize(("matches", "deals_each", "code"), [
    (MAX_TABLE_MATCHES + 1, 0, "out_of_range"),
    (3, MAX_TABLE_DEALS // 3 + 1, "too_many_deals"),
])
def test_a_table_file_beyond_the_limits_in_items_is_refused_by_them(
        client: FlaskClient, matches: int, deals_each: int, code: str) -> None:
    answer = client.post("/api/v1/tables/import", json=small_table(matches, deals_each))
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert (error["field"], error["code"]) == ("matches", code)
    assert "scorekeeper table import" in error["message"]


def test_the_command_loads_a_table_that_grew_past_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.sqlite'}")
    monkeypatch.setenv("SECRET_KEY", "s")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    path = tmp_path / "table.json"
    path.write_text(json.dumps(small_table(3, MAX_TABLE_DEALS // 3 + 1)), encoding="utf-8")
    assert main(["table", "import", str(path)]) == 0
    assert "matches 3" in capsys.readouterr().out


def test_a_side_shows_the_meld_of_at_most_one_hand_a_player(client: FlaskClient) -> None:
    file = largest_match_file(1)
    file["deals"][0]["sides"][0]["meld"].append(0)
    error = client.post("/api/v1/matches", json=file).get_json()["error"]
    assert (error["field"], error["code"]) == ("deals[0].sides[0].meld", "too_many_players")
