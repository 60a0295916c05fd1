"""The instance folder: made 0700, a secret key made once (0600) and shared, a SQLite file made 0600."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from processes import start_together
from scorekeeper import create_app
from scorekeeper.cli import main
from scorekeeper.db import make_engine
from scorekeeper.instance import StartupError, secret_key


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that lets everyone read new files, so that only the code's own modes protect them."""
    previous = os.umask(0)
    yield
    os.umask(previous)


def _race_for_key(instance: str, barrier: Any, results: Any) -> None:
    barrier.wait()
    results.put(secret_key(instance))


def test_processes_racing_for_the_key_all_get_the_one_written(tmp_path: Path, open_umask: None) -> None:
    keys = start_together(24, _race_for_key, str(tmp_path))
    assert len(set(keys)) == 1 and len(keys[0]) == 64
    key_file = tmp_path / "secret_key"
    assert key_file.read_text(encoding="utf-8") == keys[0]
    assert mode(key_file) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no temporary files left behind


def test_the_key_is_kept_across_starts(tmp_path: Path) -> None:
    assert secret_key(str(tmp_path)) == secret_key(str(tmp_path))


def test_an_empty_key_file_is_an_error_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "secret_key").write_text("\n", encoding="utf-8")
    with pytest.raises(StartupError, match=f"the secret key file {tmp_path / 'secret_key'} is empty; delete it"):
        secret_key(str(tmp_path))


@pytest.mark.parametrize("spoil", ["directory", "binary"])
def test_an_unreadable_key_file_is_an_error_naming_the_file(tmp_path: Path, spoil: str) -> None:
    key_file = tmp_path / "secret_key"
    if spoil == "directory":
        key_file.mkdir()
    else:
        key_file.write_bytes(b"\xff\xfe\x00key")
    with pytest.raises(StartupError, match=f"cannot read the secret key file {key_file}: .*or set SECRET_KEY"):
        secret_key(str(tmp_path))


def test_the_command_reports_a_bad_key_file_in_a_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "secret_key").write_text("", encoding="utf-8")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(instance))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    assert main(["db", "current"]) == 1
    err = capsys.readouterr().err
    assert err == f"scorekeeper: the secret key file {instance / 'secret_key'} is empty; " + err.split("; ", 1)[1]
    assert "Traceback" not in err


def test_the_instance_folder_key_and_database_are_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_umask: None
) -> None:
    instance = tmp_path / "new" / "instance"
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    app = create_app({"INSTANCE_PATH": str(instance)})
    try:
        assert mode(instance) == 0o700
        assert mode(instance / "secret_key") == 0o600
        database = instance / "scorekeeper.sqlite"
        assert app.config["DATABASE_URL"] == f"sqlite:///{database}"
        files = sorted(instance.glob("scorekeeper.sqlite*"))  # with WAL: -wal and -shm beside it
        assert database in files
        assert {path.name: mode(path) for path in files} == {path.name: 0o600 for path in files}
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_an_existing_database_file_keeps_its_mode(tmp_path: Path) -> None:
    database = tmp_path / "shared.sqlite"
    database.touch(mode=0o640)
    database.chmod(0o640)
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "DATABASE_URL": f"sqlite:///{database}",
                      "SECRET_KEY": "test-secret"})
    app.extensions["scorekeeper.engine"].dispose()
    assert mode(database) == 0o640


def test_an_instance_folder_made_before_is_made_private(tmp_path: Path, open_umask: None) -> None:
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "test-secret"})
    app.extensions["scorekeeper.engine"].dispose()
    assert mode(instance) == 0o700


def test_a_new_database_file_is_in_write_ahead_logging_before_anyone_opens_it(tmp_path: Path) -> None:
    """Bytes 18 and 19 of an SQLite header are 2 in WAL; no draft file is left beside the database."""
    database = tmp_path / "new.sqlite"
    engine = make_engine(f"sqlite:///{database}")  # creates the file; opens no connection yet
    try:
        assert database.read_bytes()[18:20] == b"\x02\x02"
        assert [path.name for path in tmp_path.iterdir()] == ["new.sqlite"]
    finally:
        engine.dispose()


def _open_new_database(path: str, barrier: Any, results: Any) -> None:
    barrier.wait()
    try:
        engine = make_engine(f"sqlite:///{path}")
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT count(*) FROM sqlite_master").all()
        engine.dispose()
        results.put("opened")
    except Exception as error:  # the parent reports what failed
        results.put(repr(error))


def test_processes_opening_a_new_database_together_all_open_it(tmp_path: Path) -> None:
    """Two processes switching a new file to WAL at once could deadlock; SQLite then failed one at once."""
    for trial in range(12):
        path = tmp_path / f"together-{trial}.sqlite"
        assert start_together(8, _open_new_database, str(path)) == ["opened"] * 8
        assert sorted(p.name for p in tmp_path.glob(f"together-{trial}.sqlite*.new")) == []
