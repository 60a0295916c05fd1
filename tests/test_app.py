"""The app factory: configuration, database, error pages, CSRF."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app


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


def test_server_error_is_a_friendly_page(app: Flask) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("broken")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert "nothing was saved" in response.get_data(as_text=True)
    assert "broken" not in response.get_data(as_text=True)


def test_pages_load_nothing_from_elsewhere_and_keep_links_private(client: FlaskClient) -> None:
    response = client.get("/")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
