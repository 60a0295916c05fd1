"""Running on the open internet: cookies for HTTPS, trusted hosts, absolute links that a Host header cannot
change, answers with a token kept by nobody, and the Permissions-Policy header."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.instance import StartupError

pytestmark = pytest.mark.both_databases

WORKED: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parent.parent / "seeds" / "worked-sheet.json").read_text(encoding="utf-8")
)
DEAL = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 10}]}
ENVIRONMENT = ("SCOREKEEPER_SECURE_COOKIES", "SCOREKEEPER_TRUSTED_HOSTS", "SCOREKEEPER_BASE_URL", "SCOREKEEPER_PROXIES")


@pytest.fixture
def make_app(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Build the app as ``scorekeeper serve`` would, from environment variables."""
    for name in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    made: list[Flask] = []

    def build(**environment: str) -> Flask:
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s",
                          "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False, "INSTANCE_PATH": str(tmp_path)})
        made.append(app)
        return app

    yield build
    for app in made:
        app.extensions["scorekeeper.engine"].dispose()


def every_link(answer: Any) -> list[str]:
    body = answer.get_json()
    return [*body["links"].values(), answer.headers.get("Location", "")]


# Absolute links -------------------------------------------------------------------------------------

def test_without_a_configured_address_links_are_paths_whatever_the_host_header(make_app: Any) -> None:
    client = make_app().test_client()
    created = client.post("/api/v1/matches", json=WORKED, headers={"Host": "evil.example"})
    assert created.status_code == 201
    links = every_link(created)
    assert all(link.startswith("/") and "evil" not in link for link in links if link)
    match_id = created.get_json()["id"]
    assert created.get_json()["links"]["sheet"] == f"/m/{match_id}"
    added = client.post(f"/api/v1/matches/{match_id}/deals", json=DEAL, headers={
        "Host": "evil.example", "Authorization": f"Bearer {created.get_json()['edit_token']}"})
    assert added.status_code == 201 and added.headers["Location"] == f"/api/v1/matches/{match_id}/deals/6"


def test_a_base_url_makes_every_absolute_link_whatever_the_host_header(make_app: Any) -> None:
    client = make_app(SCOREKEEPER_BASE_URL="https://score.example.org/").test_client()
    for host in ("evil.example", "localhost", "score.example.org:8080"):
        created = client.post("/api/v1/matches", json=WORKED, headers={"Host": host})
        match_id = created.get_json()["id"]
        assert created.headers["Location"] == f"https://score.example.org/api/v1/matches/{match_id}"
        assert created.get_json()["links"]["sheet"] == f"https://score.example.org/m/{match_id}"
        read = client.get(f"/api/v1/matches/{match_id}", headers={"Host": host})
        assert all(link.startswith("https://score.example.org/") for link in every_link(read) if link)


def test_trusted_hosts_refuse_other_hosts_and_build_links_from_the_one_asked(make_app: Any) -> None:
    client = make_app(SCOREKEEPER_TRUSTED_HOSTS="score.example.org, score.example.net").test_client()
    refused = client.post("/api/v1/matches", json=WORKED, headers={"Host": "evil.example"})
    assert refused.status_code == 400
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    created = client.post("/api/v1/matches", json=WORKED, headers={"Host": "score.example.net"})
    assert created.status_code == 201
    assert created.headers["Location"].startswith("http://score.example.net/api/v1/matches/")
    assert client.get("/", headers={"Host": "score.example.org"}).status_code == 200


def test_behind_a_proxy_the_forwarded_scheme_is_believed(make_app: Any) -> None:
    app = make_app(SCOREKEEPER_TRUSTED_HOSTS="score.example.org", SCOREKEEPER_PROXIES="1")
    created = app.test_client().post("/api/v1/matches", json=WORKED, headers={
        "Host": "score.example.org", "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"})
    assert created.headers["Location"].startswith("https://score.example.org/api/v1/matches/")


@pytest.mark.parametrize(("name", "value"), [("SCOREKEEPER_BASE_URL", "score.example.org"),
                                             ("SCOREKEEPER_PROXIES", "yes")])
def test_a_setting_that_cannot_be_read_stops_the_start(make_app: Any, name: str, value: str) -> None:
    with pytest.raises(StartupError, match=name):
        make_app(**{name: value})


# Cookies ---------------------------------------------------------------------------------------------

def test_secure_cookies_from_the_environment(make_app: Any) -> None:
    plain = make_app().test_client()
    plain.get("/matches/new")
    assert "Secure" not in plain.post("/import", data={"text": json.dumps(WORKED)}).headers["Set-Cookie"]
    secure_app = make_app(SCOREKEEPER_SECURE_COOKIES="1")
    assert secure_app.config["SESSION_COOKIE_SECURE"] is True
    client = secure_app.test_client()
    written = client.post("/import", data={"text": json.dumps(WORKED)}, base_url="https://localhost")
    assert written.status_code == 302
    cookie = written.headers["Set-Cookie"]
    assert "; Secure" in cookie and "; HttpOnly" in cookie and "SameSite=Lax" in cookie


# Headers ---------------------------------------------------------------------------------------------

def test_the_create_answer_with_the_edit_token_is_kept_by_nobody(client: FlaskClient) -> None:
    created = client.post("/api/v1/matches", json=WORKED)
    assert "edit_token" in created.get_json()
    assert created.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("url", ["/", "/matches/new", "/api/v1/matches/nothing", "/rules"])
def test_every_answer_carries_the_permissions_policy(client: FlaskClient, url: str) -> None:
    policy = client.get(url).headers["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in policy
