"""The `scorekeeper serve` and `scorekeeper seed` commands."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from scorekeeper import MAX_REQUEST_BYTES, create_app
from scorekeeper.cli import CONNECTIONS, cli, main, seeds_dir, server_options
from scorekeeper.db import get_session
from scorekeeper.models import MatchRow

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@pytest.fixture
def app_env(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The commands build their own app: point it at the test database."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "test-secret")
    return database_url


def test_seeds_are_found_in_a_checkout() -> None:
    assert seeds_dir().resolve() == SEEDS


def test_seed_loads_every_file_and_prints_sheet_links(app_env: str) -> None:
    result = CliRunner().invoke(cli, ["seed", "--base-url", "http://table.example:8000"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    files = sorted(SEEDS.glob("*.json"))
    assert len(lines) == len(files)
    names = {json.loads(path.read_text(encoding="utf-8"))["name"] for path in files}
    assert {line.split("  ", 1)[1] for line in lines} == names
    app = create_app({"DATABASE_URL": app_env, "SECRET_KEY": "test-secret", "TESTING": True})
    client = app.test_client()
    winners = {}
    for line in lines:
        link, name = line.split("  ", 1)
        assert link.startswith("http://table.example:8000/m/")
        public_id = link.rsplit("/", 1)[1]
        sheet = client.get(f"/api/v1/matches/{public_id}").get_json()["sheet"]
        winners[name] = sheet["winner"]
    app.extensions["scorekeeper.engine"].dispose()
    unfinished = {json.loads(path.read_text(encoding="utf-8"))["name"] for path in files
                  if "in-progress" in path.name}
    assert {name for name, winner in winners.items() if winner is None} == unfinished


def count_matches(database_url: str) -> int:
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "test-secret"})
    with app.app_context():
        count = get_session().scalar(select(func.count()).select_from(MatchRow)) or 0
    app.extensions["scorekeeper.engine"].dispose()
    return count


def test_a_second_seed_finds_the_samples_instead_of_adding_them_again(app_env: str) -> None:
    first = CliRunner().invoke(cli, ["seed"])
    assert first.exit_code == 0, first.output
    files = len(list(SEEDS.glob("*.json")))
    assert count_matches(app_env) == files
    second = CliRunner().invoke(cli, ["seed"])
    assert second.exit_code == 0, second.output
    assert count_matches(app_env) == files
    links = [line.split("  ")[0] for line in first.output.splitlines()]
    assert [line.split("  ")[0] for line in second.output.splitlines()] == links
    assert all(line.endswith("(loaded before)") for line in second.output.splitlines())
    assert not any("(loaded before)" in line for line in first.output.splitlines())


@pytest.mark.parametrize(("environment", "args", "start"), [
    ({}, [], "http://127.0.0.1:8000/m/"),
    ({}, ["--port", "8765"], "http://127.0.0.1:8765/m/"),
    ({"SCOREKEEPER_PORT": "9001"}, [], "http://127.0.0.1:9001/m/"),
    ({"SCOREKEEPER_BASE_URL": "https://score.example.org/"}, ["--port", "8765"], "https://score.example.org/m/"),
    ({"SCOREKEEPER_BASE_URL": "https://score.example.org"}, ["--base-url", "http://table:5000"], "http://table:5000/m/"),
])
def test_seed_prints_links_for_the_server_it_is_asked_about(
    app_env: str, monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], args: list[str], start: str
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(cli, ["seed", *args])
    assert result.exit_code == 0, result.output
    assert all(line.startswith(start) for line in result.output.splitlines()), result.output


def test_seed_refuses_a_bad_file_and_loads_nothing(
    app_env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-good.json").write_text((SEEDS / "worked-sheet.json").read_text(encoding="utf-8"))
    (tmp_path / "b-bad.json").write_text('{"format": "pinochle-match/1", "sides": []}')
    assert main(["seed", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "b-bad.json: sides" in err
    app = create_app({"DATABASE_URL": app_env, "SECRET_KEY": "test-secret"})
    with app.app_context():
        assert get_session().scalar(select(func.count()).select_from(MatchRow)) == 0
    app.extensions["scorekeeper.engine"].dispose()


def test_seed_with_an_empty_folder_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["seed", "--dir", str(tmp_path)]) == 2
    assert "no match files" in capsys.readouterr().err


def test_serve_options() -> None:
    assert server_options("0.0.0.0", 9000, 8) == {"host": "0.0.0.0", "port": 9000, "threads": 8,
                                                  "ident": "scorekeeper", "max_request_body_size": MAX_REQUEST_BYTES,
                                                  "connection_limit": CONNECTIONS, "asyncore_use_poll": True}
    help_text = CliRunner().invoke(cli, ["serve", "--help"]).output
    assert "--host" in help_text and "127.0.0.1" in help_text and "8000" in help_text
    assert "--threads" in help_text


@pytest.mark.parametrize("args", [["--port", "0"], ["--port", "http"], ["--threads", "0"],
                                  ["--hold-slots", "-1"], ["--hold-slots", "many"], ["--hold-slots", "5000"]])
def test_serve_refuses_bad_options_with_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *args]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_answers_on_the_chosen_port(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite'}", "SECRET_KEY": "test-secret"}
    server = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules", timeout=5) as response:
                    assert response.status == 200
                    assert b"House rules" in response.read()
                    assert response.headers["Server"] == "scorekeeper"
                    break
            except OSError:
                assert server.poll() is None, server.stdout.read() if server.stdout else ""
                assert time.monotonic() < deadline, "the server did not answer within 30 seconds"
                time.sleep(0.1)
        # A body over the app's limit is refused by waitress from its Content-Length, before it is read.
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(b"POST /api/v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                               b"Content-Type: application/json\r\n"
                               + f"Content-Length: {MAX_REQUEST_BYTES + 1}\r\n\r\n".encode())
            assert connection.recv(200).startswith(b"HTTP/1.1 413")
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_table_file_goes_out_and_in_through_the_command(app_env: str, tmp_path: Path) -> None:
    app = create_app({"DATABASE_URL": app_env, "SECRET_KEY": "test-secret", "TESTING": True,
                      "RATELIMIT_ENABLED": False})
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"name": "Club", "players": ["Ann", "Bob"]}).get_json()
    table_id = table["id"]
    match = json.loads((SEEDS / "worked-sheet.json").read_text(encoding="utf-8"))
    match["table"] = table_id
    match["sides"] = [{"name": "A", "players": ["Ann"]}, {"name": "B", "players": ["Bob"]}]
    started = client.post("/api/v1/matches", json=match, headers={"Authorization": f"Bearer {table['token']}"})
    assert started.status_code == 201
    out = tmp_path / "club.json"
    assert CliRunner().invoke(cli, ["table", "export", table_id, "-o", str(out)]).exit_code == 0
    result = CliRunner().invoke(cli, ["table", "import", str(out)])
    assert result.exit_code == 0, result.output
    new_id = result.output.split()[1]
    assert client.get(f"/api/v1/tables/{new_id}/export").get_json() == json.loads(out.read_text(encoding="utf-8"))
    (tmp_path / "bad.json").write_text('{"players": ["Ann", "ANN"]}', encoding="utf-8")
    refused = CliRunner().invoke(cli, ["table", "import", str(tmp_path / "bad.json")])
    assert refused.exit_code == 2 and "players[1]" in refused.output
    app.extensions["scorekeeper.engine"].dispose()
