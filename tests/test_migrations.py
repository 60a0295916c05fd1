"""The migrations: they build what the models describe, adopt databases made before them, and run once.

Databases come from ``conftest.database_url`` (SQLite, and PostgreSQL when configured); the starts of
many processes at once are in ``test_starts.py``.
"""

from __future__ import annotations

import os
import re
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, make_url, text
from sqlalchemy.exc import IntegrityError

from processes import start_together
from scorekeeper import create_app
from scorekeeper.cli import main, seeds_dir
from scorekeeper.db import (
    MIGRATIONS_DIR,
    SQLITE_BUSY_TIMEOUT_MS,
    Base,
    alembic_config,
    current_revision,
    drop_schema,
    get_engine,
    head_revision,
    make_engine,
    upgrade,
)
from scorekeeper.instance import StartupError
from scorekeeper.rules.matchfile import loads_match
from scorekeeper.store import reading, writing

POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "")

# What the app's start ran before migrations existed (metadata.create_all, then a schema_version row
# holding 1), as SQLAlchemy 2 wrote it for each database. Kept verbatim so that the test below goes on
# adopting *that* layout when the models move on.
LEGACY_DDL = {
    "sqlite": """
CREATE TABLE "match" (
	id INTEGER NOT NULL, public_id VARCHAR(64) NOT NULL, edit_token VARCHAR(64) NOT NULL,
	name VARCHAR(200) NOT NULL, auction BOOLEAN NOT NULL, rules JSON NOT NULL, created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL, version INTEGER NOT NULL, last_change TEXT NOT NULL, PRIMARY KEY (id)
);
CREATE UNIQUE INDEX ix_match_public_id ON "match" (public_id);
CREATE TABLE schema_version (version INTEGER NOT NULL, PRIMARY KEY (version));
CREATE TABLE deal (
	id INTEGER NOT NULL, match_id INTEGER NOT NULL, position INTEGER NOT NULL, passed BOOLEAN NOT NULL,
	bidder INTEGER, bid INTEGER, trump VARCHAR(1), thrown_in BOOLEAN NOT NULL, meld_table VARCHAR(32) NOT NULL,
	trick_scale VARCHAR(32) NOT NULL, last_trick INTEGER NOT NULL, sides JSON NOT NULL,
	created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL, PRIMARY KEY (id), UNIQUE (match_id, position),
	FOREIGN KEY(match_id) REFERENCES "match" (id) ON DELETE CASCADE
);
CREATE INDEX ix_deal_match_id ON deal (match_id);
CREATE TABLE rule_change (
	id INTEGER NOT NULL, match_id INTEGER NOT NULL, changed_at DATETIME NOT NULL, rule VARCHAR(32) NOT NULL,
	old_value JSON NOT NULL, new_value JSON NOT NULL, after_deal INTEGER NOT NULL, PRIMARY KEY (id),
	FOREIGN KEY(match_id) REFERENCES "match" (id) ON DELETE CASCADE
);
CREATE INDEX ix_rule_change_match_id ON rule_change (match_id);
CREATE TABLE side (
	id INTEGER NOT NULL, match_id INTEGER NOT NULL, position INTEGER NOT NULL, name VARCHAR(100) NOT NULL,
	players JSON NOT NULL, PRIMARY KEY (id), UNIQUE (match_id, position),
	FOREIGN KEY(match_id) REFERENCES "match" (id) ON DELETE CASCADE
);
CREATE INDEX ix_side_match_id ON side (match_id);
INSERT INTO schema_version (version) VALUES (1)
""",
    "postgresql": """
CREATE TABLE match (
	id SERIAL NOT NULL, public_id VARCHAR(64) NOT NULL, edit_token VARCHAR(64) NOT NULL,
	name VARCHAR(200) NOT NULL, auction BOOLEAN NOT NULL, rules JSON NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL, updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
	version INTEGER NOT NULL, last_change TEXT NOT NULL, PRIMARY KEY (id)
);
CREATE UNIQUE INDEX ix_match_public_id ON match (public_id);
CREATE TABLE schema_version (version SERIAL NOT NULL, PRIMARY KEY (version));
CREATE TABLE deal (
	id SERIAL NOT NULL, match_id INTEGER NOT NULL, position INTEGER NOT NULL, passed BOOLEAN NOT NULL,
	bidder INTEGER, bid INTEGER, trump VARCHAR(1), thrown_in BOOLEAN NOT NULL, meld_table VARCHAR(32) NOT NULL,
	trick_scale VARCHAR(32) NOT NULL, last_trick INTEGER NOT NULL, sides JSON NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL, updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
	PRIMARY KEY (id), UNIQUE (match_id, position), FOREIGN KEY(match_id) REFERENCES match (id) ON DELETE CASCADE
);
CREATE INDEX ix_deal_match_id ON deal (match_id);
CREATE TABLE rule_change (
	id SERIAL NOT NULL, match_id INTEGER NOT NULL, changed_at TIMESTAMP WITH TIME ZONE NOT NULL,
	rule VARCHAR(32) NOT NULL, old_value JSON NOT NULL, new_value JSON NOT NULL, after_deal INTEGER NOT NULL,
	PRIMARY KEY (id), FOREIGN KEY(match_id) REFERENCES match (id) ON DELETE CASCADE
);
CREATE INDEX ix_rule_change_match_id ON rule_change (match_id);
CREATE TABLE side (
	id SERIAL NOT NULL, match_id INTEGER NOT NULL, position INTEGER NOT NULL, name VARCHAR(100) NOT NULL,
	players JSON NOT NULL, PRIMARY KEY (id), UNIQUE (match_id, position),
	FOREIGN KEY(match_id) REFERENCES match (id) ON DELETE CASCADE
);
CREATE INDEX ix_side_match_id ON side (match_id);
INSERT INTO schema_version (version) VALUES (1)
""",
}

TABLES = ("match", "side", "deal", "rule_change", "schema_version")


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on the clean test database, left empty (no tables at all)."""
    engine = make_engine(database_url)
    drop_schema(engine)
    yield engine
    engine.dispose()


def model_differences(engine: Engine) -> list[Any]:
    from scorekeeper import models  # noqa: F401

    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))


def alembic_versions(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        return list(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())


ADDED_BY_0004 = frozenset({"bid_by", "dealt_by"})  # deal columns, empty in every deal stored before
ADDED_BY_0005 = frozenset({"table_id"})  # the match's table, empty in every match stored before
ADDED_BY_0006 = frozenset({"started_match_id"})  # the match a keyed rematch started, empty in every key before
ADDED_BY_0007 = frozenset({"meld_prices"})  # the deal's own meld prices, empty in every deal stored before
ADDED_BY_0008 = frozenset({"batch", "action", "out", "forced"})  # rules changed together; bidding out, forced bids
ADDED_BY_0012 = frozenset({"by", "by_name"})  # who changed the rules, empty in every change stored before
ADDED_BY_0013 = frozenset({"follows_id", "first_dealer", "started_by"})  # a next match's, empty in every match before
ADDED_BY_0015 = frozenset({"movement"})  # a team event's movement, empty in every event before
ADDED_BY_0016 = frozenset({"season_best"})  # a table's season, empty in every table before
ADDED_SINCE_0003 = (ADDED_BY_0004 | ADDED_BY_0005 | ADDED_BY_0006 | ADDED_BY_0007 | ADDED_BY_0008 | ADDED_BY_0012
                    | ADDED_BY_0013 | ADDED_BY_0015 | ADDED_BY_0016)


def snapshot(engine: Engine, leaving_out: frozenset[str] = frozenset()) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the app's tables, in primary-key order, without the columns named in ``leaving_out``."""
    with engine.connect() as connection:
        return {
            table: [
                tuple(value for key, value in row._mapping.items() if key not in leaving_out)
                for row in connection.execute(text(f'SELECT * FROM "{table}" ORDER BY 1'))
            ]
            for table in TABLES
        }


def test_the_migrations_ship_inside_the_package() -> None:
    assert MIGRATIONS_DIR.parent.name == "scorekeeper"
    assert (MIGRATIONS_DIR / "env.py").is_file() and (MIGRATIONS_DIR / "script.py.mako").is_file()
    assert head_revision() == "0016"  # move on when a revision is added


def test_an_empty_database_is_migrated_to_what_the_models_describe(engine: Engine) -> None:
    assert upgrade(engine) == f"created the tables at {head_revision()}"
    assert model_differences(engine) == []
    assert alembic_versions(engine) == [head_revision()]
    assert snapshot(engine)["schema_version"] == [(1,)]
    assert upgrade(engine) == f"already at {head_revision()}"


def write_old_matches(engine: Engine, tmp_path: Path, more: int = 0) -> list[str]:
    """Matches as the app writes them (one finished, one with a house rule changed mid-match, ``more``
    copies of the first), put into
    ``engine``'s older layout: written by today's app to a scratch database, then copied over column by
    column, leaving out the columns the older layout does not have."""
    from sqlalchemy import column, inspect, select, table

    scratch = tmp_path / "scratch"
    app = create_app({"DATABASE_URL": f"sqlite:///{scratch / 'scratch.sqlite'}", "SECRET_KEY": "test-secret",
                      "TESTING": True, "INSTANCE_PATH": str(scratch)})
    with app.test_request_context():
        public_ids = []
        for name in ("worked-sheet.json", "double-deck-in-progress.json"):
            row = writing.create_match(loads_match((seeds_dir() / name).read_text(encoding="utf-8")))
            public_ids.append(row.public_id)
        writing.change_rules(reading.load_match(row.public_id), reading.rules_of(row).replace(target=1000),
                             row.version)
        for _ in range(more):
            writing.create_match(loads_match((seeds_dir() / "worked-sheet.json").read_text(encoding="utf-8")))
        source = get_engine()
        with source.connect() as old, engine.begin() as new:
            for name in ("match", "side", "deal", "rule_change"):
                kept = {found["name"] for found in inspect(new).get_columns(name)}
                columns = [column(c.name, c.type) for c in Base.metadata.tables[name].c if c.name in kept]
                rows = [dict(row._mapping) for row in old.execute(select(*columns).select_from(table(name)))]
                new.execute(table(name, *columns).insert(), rows)
        source.dispose()
    return public_ids


def test_a_database_made_before_migrations_is_adopted_with_its_matches(engine: Engine, tmp_path: Path) -> None:
    with engine.begin() as connection:
        for statement in LEGACY_DDL[engine.dialect.name].split(";"):
            connection.exec_driver_sql(statement)
    url = engine.url.render_as_string(hide_password=False)
    config = {"DATABASE_URL": url, "SECRET_KEY": "test-secret", "TESTING": True, "INSTANCE_PATH": str(tmp_path)}
    public_ids = write_old_matches(engine, tmp_path)
    before = snapshot(engine)
    assert len(before["deal"]) > 5 and len(before["rule_change"]) == 1
    with engine.connect() as connection:
        assert current_revision(connection) is None

    app = create_app(config)  # the ordinary start migrates
    try:
        assert alembic_versions(engine) == [head_revision()]
        after = snapshot(engine, ADDED_SINCE_0003)
        watch_ids = [row[-1] for row in after["match"]]  # 0002 added the watch link, last
        assert after | {"match": [row[:-1] for row in after["match"]]} == before
        assert len(set(watch_ids)) == len(watch_ids) == 2 and all(len(value) >= 22 for value in watch_ids)
        assert model_differences(engine) == []
        client = app.test_client()
        for public_id in public_ids:
            sheet = client.get(f"/api/v1/matches/{public_id}")
            assert sheet.status_code == 200
        assert client.get(f"/api/v1/matches/{public_ids[1]}").get_json()["match"]["rules"]["target"] == 1000
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_a_database_at_0001_gets_a_distinct_watch_link_for_every_match(engine: Engine, tmp_path: Path) -> None:
    from alembic import command

    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
    write_old_matches(engine, tmp_path, more=18)
    before = snapshot(engine)
    assert len(before["match"]) == 20
    assert upgrade(engine) == f"upgraded from 0001 to {head_revision()}"
    after = snapshot(engine, ADDED_SINCE_0003)
    assert [row[:-1] for row in after["match"]] == before["match"] and after["deal"] == before["deal"]
    watch_ids = [row[-1] for row in after["match"]]
    public_ids = {row[1] for row in after["match"]}
    assert len(set(watch_ids)) == 20 and not set(watch_ids) & public_ids
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", value) for value in watch_ids)
    assert model_differences(engine) == []
    with engine.begin() as connection, pytest.raises(IntegrityError):  # the index keeps them apart
        connection.execute(text("UPDATE match SET watch_id = :w"), {"w": watch_ids[0]})


def test_a_database_at_0002_gets_the_write_keys_and_keeps_its_matches(engine: Engine, tmp_path: Path) -> None:
    from alembic import command

    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0002")
    public_ids = write_old_matches(engine, tmp_path)
    before = snapshot(engine)
    assert len(before["deal"]) > 5
    assert upgrade(engine) == f"upgraded from 0002 to {head_revision()}"
    assert snapshot(engine, ADDED_SINCE_0003) == before
    assert model_differences(engine) == []
    if engine.dialect.name == "postgresql":  # the rows were copied in with their ids
        with engine.begin() as connection:
            for name in ("match", "side", "deal"):
                connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                        f"(SELECT max(id) FROM {name}))"))
    url = engine.url.render_as_string(hide_password=False)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "test-secret", "TESTING": True,
                      "INSTANCE_PATH": str(tmp_path)})
    try:
        client = app.test_client()
        with app.app_context():
            token = reading.get_match_or_404(public_ids[1]).edit_token
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": "after-the-upgrade"}
        deal = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}
        answers = [client.post(f"/api/v1/matches/{public_ids[1]}/deals", json=deal, headers=headers)
                   for _ in range(2)]
        assert [answer.status_code for answer in answers] == [201, 201]
        assert answers[0].get_json() == answers[1].get_json()
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM write_key")).scalar() == 1
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_a_database_at_0003_records_who_bid_and_who_dealt_and_keeps_its_deals(engine: Engine, tmp_path: Path) -> None:
    from alembic import command

    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0003")
    public_ids = write_old_matches(engine, tmp_path)
    before = snapshot(engine)
    assert upgrade(engine) == f"upgraded from 0003 to {head_revision()}"
    after = snapshot(engine)
    assert snapshot(engine, ADDED_SINCE_0003) == before
    with engine.connect() as connection:
        assert set(connection.execute(text("SELECT bid_by, dealt_by FROM deal"))) == {(None, None)}
    assert model_differences(engine) == []
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            for name in ("match", "side", "deal"):
                connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                        f"(SELECT max(id) FROM {name}))"))
    url = engine.url.render_as_string(hide_password=False)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "test-secret", "TESTING": True,
                      "INSTANCE_PATH": str(tmp_path)})
    try:
        client = app.test_client()
        with app.app_context():
            token = reading.get_match_or_404(public_ids[1]).edit_token
        match = client.get(f"/api/v1/matches/{public_ids[1]}").get_json()["match"]
        bidder, dealer = match["sides"][0]["players"][0], match["sides"][1]["players"][0]
        deal = {"bidder": 0, "bid": match["rules"]["min_bid"], "bid_by": bidder, "dealt_by": dealer,
                "sides": [{"total": 60}, {"total": 20}]}
        answer = client.post(f"/api/v1/matches/{public_ids[1]}/deals", json=deal,
                             headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 201, answer.get_json()
        stored = client.get(f"/api/v1/matches/{public_ids[1]}").get_json()["match"]["deals"][-1]
        assert (stored["bid_by"], stored["dealt_by"]) == (bidder, dealer)
        assert len(snapshot(engine)["deal"]) == len(after["deal"]) + 1
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_a_database_at_0004_gets_tables_and_keeps_its_matches(engine: Engine, tmp_path: Path) -> None:
    from alembic import command

    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0004")
    public_ids = write_old_matches(engine, tmp_path)
    before = snapshot(engine)
    assert upgrade(engine) == f"upgraded from 0004 to {head_revision()}"
    assert snapshot(engine, ADDED_BY_0005 | ADDED_BY_0006 | ADDED_BY_0007 | ADDED_BY_0008 | ADDED_BY_0012
                    | ADDED_BY_0013 | ADDED_BY_0016) == before
    with engine.connect() as connection:
        assert set(connection.execute(text("SELECT table_id FROM match"))) == {(None,)}
        assert connection.execute(text("SELECT count(*) FROM play_table")).scalar() == 0
    assert model_differences(engine) == []
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            for name in ("match", "side", "deal", "rule_change"):
                connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                        f"(SELECT max(id) FROM {name}))"))
    url = engine.url.render_as_string(hide_password=False)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "test-secret", "TESTING": True,
                      "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": False})
    try:
        client = app.test_client()
        for public_id in public_ids:
            assert client.get(f"/api/v1/matches/{public_id}").status_code == 200
        made = client.post("/api/v1/tables", json={"name": "Thursdays", "players": ["Ann", "Bob", "Cy", "Di"]})
        assert made.status_code == 201, made.get_json()
        table_id = made.get_json()["id"]
        match = {"format": "pinochle-match/1", "table": table_id, "sides": [{"name": "A", "players": ["Ann", "Bob"]},
                                               {"name": "B", "players": ["Cy", "Di"]}], "deals": []}
        started = client.post("/api/v1/matches", json=match,
                              headers={"Authorization": f"Bearer {made.get_json()['token']}"})
        assert started.status_code == 201, started.get_json()
        listed = client.get(f"/api/v1/tables/{table_id}").get_json()["matches"]
        assert [entry["id"] for entry in listed] == [started.get_json()["id"]]
    finally:
        app.extensions["scorekeeper.engine"].dispose()


# A match as a server started before 0002 inserts it: it knows nothing of the watch link.
OLD_SERVER_INSERT = (
    "INSERT INTO match (public_id, edit_token, name, auction, rules, created_at, updated_at, version, last_change) "
    "VALUES (:public_id, 'token', 'Old server', true, '{}', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1, 'created')"
)
OLD_SERVER_SIDE = "INSERT INTO side (match_id, position, name, players) VALUES (:match, :position, :name, '[]')"


def insert_as_an_old_server(engine: Engine, public_id: str) -> None:
    with engine.begin() as connection:
        connection.execute(text(OLD_SERVER_INSERT), {"public_id": public_id})
        match = connection.execute(text("SELECT id FROM match WHERE public_id = :p"), {"p": public_id}).scalar()
        for position, name in enumerate(("We", "They")):
            connection.execute(text(OLD_SERVER_SIDE), {"match": match, "position": position, "name": name})


def test_matches_an_older_server_writes_after_the_upgrade_get_a_watch_link(engine: Engine, tmp_path: Path) -> None:
    """Issue 25, D6: no match is left with an empty watch link, whose page would answer 404."""
    upgrade(engine)
    for public_id in ("oldServerMatchNumber01", "oldServerMatchNumber02"):
        insert_as_an_old_server(engine, public_id)
    with engine.connect() as connection:
        watch_ids = list(connection.execute(text("SELECT watch_id FROM match ORDER BY id")).scalars())
    assert len(set(watch_ids)) == 2 and all(reading.is_public_id(value) and len(value) >= 22 for value in watch_ids)
    app = create_app({"DATABASE_URL": engine.url.render_as_string(hide_password=False), "SECRET_KEY": "s",
                      "TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    try:
        client = app.test_client()
        for watch_id in watch_ids:
            page = client.get(f"/w/{watch_id}")
            assert page.status_code == 200 and "Old server" in page.get_data(as_text=True)
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_a_match_left_without_a_watch_link_gets_one_on_upgrade(engine: Engine) -> None:
    from alembic import command

    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0008")
    with engine.begin() as connection:  # as SQLite's empty default left it for an older server's match
        connection.execute(text(OLD_SERVER_INSERT.replace("(public_id,", "(watch_id, public_id,")
                                .replace("VALUES (:public_id,", "VALUES ('', :public_id,")), {"public_id": "leftEmpty"})
    upgrade(engine)
    with engine.connect() as connection:
        watch_id = connection.execute(text("SELECT watch_id FROM match")).scalar()
    assert isinstance(watch_id, str) and reading.is_public_id(watch_id) and len(watch_id) >= 22


def test_a_database_with_some_of_the_tables_and_no_record_is_refused(engine: Engine) -> None:
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE match (id INTEGER PRIMARY KEY)")
    with pytest.raises(StartupError, match="has some of the app's tables \\(match\\).*scorekeeper db upgrade"):
        upgrade(engine)
    with engine.connect() as connection:
        assert current_revision(connection) is None


def test_a_database_with_an_unknown_schema_version_is_refused(engine: Engine) -> None:
    with engine.begin() as connection:
        for statement in LEGACY_DDL[engine.dialect.name].split(";"):
            connection.exec_driver_sql(statement)
        connection.exec_driver_sql("UPDATE schema_version SET version = 2")
    with pytest.raises(StartupError, match="no migration record"):
        upgrade(engine)


def test_a_failed_migration_leaves_the_database_as_it_was(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    from alembic import command

    real_upgrade = command.upgrade

    def upgrade_then_fail(config: Any, revision: str) -> None:
        real_upgrade(config, revision)
        raise RuntimeError("the power went")

    monkeypatch.setattr(command, "upgrade", upgrade_then_fail)
    with pytest.raises(RuntimeError, match="the power went"):
        upgrade(engine)
    with engine.connect() as connection:
        assert current_revision(connection) is None
    assert not set(snapshot_tables(engine)) & set(TABLES)
    monkeypatch.undo()
    upgrade(engine)
    assert alembic_versions(engine) == [head_revision()]


def snapshot_tables(engine: Engine) -> list[str]:
    from sqlalchemy import inspect

    with engine.connect() as connection:
        return inspect(connection).get_table_names()


def test_sqlite_waits_for_a_lock_rather_than_failing(app: Any) -> None:
    with app.app_context():
        with get_engine().connect() as connection:
            if connection.dialect.name != "sqlite":
                pytest.skip("SQLite only")
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == SQLITE_BUSY_TIMEOUT_MS
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


# The command ----------------------------------------------------------------------------------------

def test_db_upgrade_and_current(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", engine.url.render_as_string(hide_password=False))
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("SECRET_KEY", "test-secret")
    head = head_revision()
    assert main(["db", "current"]) == 1
    assert f"none (empty: `scorekeeper db upgrade` creates the tables), latest {head}" in capsys.readouterr().out
    assert main(["db", "upgrade"]) == 0
    assert capsys.readouterr().out.strip().endswith(f": created the tables at {head}")
    assert main(["db", "upgrade"]) == 0
    assert capsys.readouterr().out.strip().endswith(f": already at {head}")
    assert main(["db", "current"]) == 0
    assert capsys.readouterr().out.strip().endswith(f": {head}, latest {head}")


def test_db_upgrade_reports_an_unrecognised_database_in_a_line(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE deal (id INTEGER PRIMARY KEY)")
    monkeypatch.setenv("DATABASE_URL", engine.url.render_as_string(hide_password=False))
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("SECRET_KEY", "test-secret")
    assert main(["db", "upgrade"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("scorekeeper: the database ") and "(deal)" in err and "Traceback" not in err


# Many processes starting at once -----------------------------------------------------------------------

def _start_app(instance: str, database_url: str | None, barrier: Any, results: Any) -> None:
    """In a child process: wait for the others, then build the app as a server would."""
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    os.environ["SCOREKEEPER_INSTANCE"] = instance
    os.environ.pop("SECRET_KEY", None)
    try:
        barrier.wait()
        app = create_app()
        with app.app_context(), get_engine().connect() as connection:
            revision = current_revision(connection)
        app.extensions["scorekeeper.engine"].dispose()
        results.put((app.config["SECRET_KEY"], revision))
    except BaseException as error:
        results.put(("failed", repr(error)))
        raise


@pytest.fixture
def fresh_database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None for SQLite in the instance folder, or the URL of a new PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    if not POSTGRES_URL:
        pytest.skip("SCOREKEEPER_TEST_DATABASE_URL is not set")
    with postgres_database() as url:
        yield url


class postgres_database:  # noqa: N801  (used as a context manager)
    """A new, empty PostgreSQL database on the test server, dropped on exit."""

    def __init__(self) -> None:
        self.name = f"scorekeeper_test_{uuid.uuid4().hex[:12]}"
        self.admin = make_engine(POSTGRES_URL).execution_options(isolation_level="AUTOCOMMIT")

    def __enter__(self) -> str:
        with self.admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{self.name}"')
        return make_url(POSTGRES_URL).set(database=self.name).render_as_string(hide_password=False)

    def __exit__(self, *_: object) -> None:
        with self.admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        self.admin.dispose()


@pytest.mark.parametrize("fresh_database", ["sqlite", "postgresql"], indirect=True)
def test_processes_starting_together_migrate_once_and_share_one_key(
    fresh_database: str | None, tmp_path: Path
) -> None:
    instance = tmp_path / "instance"
    results = start_together(8, _start_app, str(instance), fresh_database)
    keys = {key for key, _ in results}
    assert len(keys) == 1 and {revision for _, revision in results} == {head_revision()}
    assert (instance / "secret_key").read_text(encoding="utf-8") == keys.pop()
    url = fresh_database or f"sqlite:///{instance / 'scorekeeper.sqlite'}"
    engine = make_engine(url)
    try:
        assert alembic_versions(engine) == [head_revision()]
        assert snapshot(engine)["schema_version"] == [(1,)]
    finally:
        engine.dispose()
    assert stat.S_IMODE(instance.stat().st_mode) == 0o700
    assert sorted(p.name for p in instance.iterdir() if p.name.startswith(".secret_key")) == []
