"""The app factory: configuration, database, error pages, CSRF."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import MAX_REQUEST_BYTES, create_app


def test_testing_config(app: Flask) -> None:
    assert app.testing
    assert not create_app({"DATABASE_URL": app.config["DATABASE_URL"], "SECRET_KEY": "x"}).testing


def test_secret_key_is_made_once_and_kept_in_the_instance_folder(tmp_path: Path) -> None:
    config = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}", "INSTANCE_PATH": str(tmp_path / "inst")}
    first, second = create_app(config), create_app(config)
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 32
    assert (tmp_path / "inst" / "secret_key").read_text().strip() == first.config["SECRET_KEY"]


def test_default_database_is_sqlite_in_the_instance_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x"})
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'scorekeeper.sqlite'}"
    assert (tmp_path / "scorekeeper.sqlite").exists()


def test_unknown_page_is_a_friendly_404(client: FlaskClient) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "nothing at this address" in response.get_data(as_text=True)


def test_unknown_api_address_answers_json(client: FlaskClient) -> None:
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.get_json()["error"]["message"]


def test_server_error_is_a_friendly_page(database_url: str) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "PROPAGATE_EXCEPTIONS": False})

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("broken")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert "nothing was saved" in response.get_data(as_text=True)
    assert "broken" not in response.get_data(as_text=True)
    app.extensions["scorekeeper.engine"].dispose()


def test_pages_load_nothing_from_elsewhere_and_keep_links_private(client: FlaskClient) -> None:
    response = client.get("/")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_a_request_over_the_size_limit_gets_a_friendly_page(client: FlaskClient) -> None:
    too_big = "x" * (MAX_REQUEST_BYTES + 1)
    response = client.post("/import", data={"text": too_big})
    assert response.status_code == 413
    html = response.get_data(as_text=True)
    assert "at most 6 MB" in html and "nothing was saved" in html and "<html" in html


def test_an_api_request_over_the_size_limit_answers_json(client: FlaskClient) -> None:
    body = '{"name": "' + "x" * MAX_REQUEST_BYTES + '"}'
    response = client.post("/api/v1/matches", data=body, content_type="application/json")
    assert response.status_code == 413
    error = response.get_json()["error"]
    assert error["field"] is None and "larger than the 6 MB" in error["message"]


def test_a_large_match_file_under_the_limit_is_read(client: FlaskClient) -> None:
    """Up to the limit, a pasted match file is read like an uploaded one (here: refused for its content)."""
    response = client.post("/import", data={"text": "x" * (1024 * 1024)})
    assert response.status_code == 200
    assert "Too much at once" not in response.get_data(as_text=True)


SETTLED = """
import gc, json, sys
from scorekeeper import create_app
config = {"DATABASE_URL": sys.argv[1], "SECRET_KEY": "x", "INSTANCE_PATH": sys.argv[2]}
create_app(config)
frozen, seen = gc.get_freeze_count(), len(gc.get_objects())
create_app(config)
print(json.dumps([frozen, seen, gc.get_freeze_count(), len(gc.get_objects())]))
"""


def test_a_process_freezes_what_it_loaded_once_its_first_app_is_made(tmp_path: Path) -> None:
    """In a process of its own (as a server starts): once the first app is made, the libraries and the app are
    out of the garbage collector's sight, so a full collection walks only what came after; a second app
    freezes nothing more."""
    answer = subprocess.run([sys.executable, "-c", SETTLED, f"sqlite:///{tmp_path / 'db.sqlite'}", str(tmp_path)],
                            capture_output=True, text=True, check=True, cwd=Path(__file__).parent.parent)
    frozen, seen, frozen_after_second, seen_after_second = json.loads(answer.stdout)
    assert frozen > 50_000 and seen < 1_000  # the libraries and the app frozen, nothing left in sight
    assert seen_after_second - seen > 1_000  # the second app is in sight …
    assert abs(frozen_after_second - frozen) < 100  # … and not frozen
