"""The database engine, a session per request, and the migrations that shape the database.

The tables are made and changed by Alembic migrations kept in ``scorekeeper/migrations/versions/``,
written out by hand (the first, ``0001``, is the layout the app has always had). ``alembic_version``
records which revision a database is at. ``scorekeeper db upgrade`` brings a database to the latest
revision, and so does every app start (``init_app`` → ``upgrade``): it looks at ``alembic_version``
first and, when the database is behind, takes a lock, looks again and migrates, so that any number of
processes starting together (gunicorn workers) migrate once and never race:

- PostgreSQL: a session-level ``pg_advisory_lock`` held on the migrating connection;
- SQLite: ``BEGIN EXCLUSIVE`` on the database itself, and the migration runs inside that transaction,
  so a failed migration leaves the file as it was.

A database made before migrations (``metadata.create_all`` with a ``schema_version`` row holding 1) is
stamped at ``0001`` and then upgraded; its rows are kept. The ``schema_version`` table stays as it is.

A new SQLite file is created 0600 and in write-ahead logging before it takes its name, so processes
starting together all open it in WAL; SQLite waits up to ``busy_timeout`` for a lock.

A pooled connection is checked before each use (``pool_pre_ping``): one the server ended (a restart) is
replaced rather than failing the request.
"""

from __future__ import annotations

import functools
import logging
import os
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app, g
from sqlalchemy import Connection, Engine, create_engine, event, inspect, make_url, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Mapped, Session, mapped_column

from .instance import StartupError
from .models import Base

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1  # the old layout marker, kept in schema_version; alembic_version has the revision

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
FIRST_REVISION = "0001"
# The tables create_all made before migrations; such a database is at FIRST_REVISION.
LEGACY_TABLES = frozenset({"match", "side", "deal", "rule_change", "schema_version"})

SQLITE_BUSY_TIMEOUT_MS = 5000  # how long a statement waits for another connection's write lock
MIGRATION_WAIT_MS = 120_000  # how long a starting process waits for another one's migration (SQLite)
# Key of the PostgreSQL advisory lock taken around migrations (the bytes of "scorekee").
MIGRATION_LOCK_KEY = 0x73636F72656B6565


class SchemaVersion(Base):
    """One row: the layout version written before migrations existed (always 1)."""

    __tablename__ = "schema_version"

    version: Mapped[int] = mapped_column(primary_key=True)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets a 0600 file, write-ahead logging, foreign keys and a busy timeout.
    A database server's pooled connection is checked before use (``pool_pre_ping``), so one the server ended
    (a restart) is replaced; a SQLite file has no server to end it."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        _create_sqlite_file(parsed)
        engine = create_engine(url)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _create_sqlite_file(url: URL) -> None:
    """Create the database file readable by its owner only and already in write-ahead logging.

    The file is made under a name of its own, switched to WAL, then linked into place, which fails when
    another process got there first. Processes starting together therefore never open a new file in
    SQLite's rollback journal mode, where two of them switching it to WAL at once can deadlock, and SQLite
    then fails one at once ("database is locked") instead of waiting.
    """
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:") or url.query.get("uri"):
        return
    if os.path.exists(database):
        return
    draft = f"{database}.{os.getpid()}.{secrets.token_hex(4)}.new"
    try:
        os.close(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        try:
            connection = sqlite3.connect(draft)
            try:
                connection.execute("PRAGMA journal_mode=WAL")
            finally:
                connection.close()  # the last connection: SQLite removes the draft's -wal and -shm
            os.link(draft, database)
        except FileExistsError:
            pass  # another process created it meanwhile
        finally:
            os.unlink(draft)
    except (OSError, sqlite3.Error) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise StartupError(f"cannot create the SQLite database {database}: {reason}") from None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # First, so that a file made by an older version, still in rollback journal mode, waits for a lock.
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def get_engine() -> Engine:
    engine: Engine = current_app.extensions["scorekeeper.engine"]
    return engine


def get_session() -> Session:
    """The session of the current request (or app context), opened on first use."""
    if "db_session" not in g:
        g.db_session = Session(get_engine(), expire_on_commit=False)
    session: Session = g.db_session
    return session


def close_session(error: BaseException | None = None) -> None:
    session: Session | None = g.pop("db_session", None)
    if session is not None:
        if error is not None:
            session.rollback()
        session.close()


# Migrations ------------------------------------------------------------------------------------------

def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration: the packaged script directory, and the connection to migrate on."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


@functools.cache
def head_revision() -> str:
    """The latest revision in ``migrations/versions``."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, f"no migrations in {MIGRATIONS_DIR}"
    return head


def current_revision(connection: Connection) -> str | None:
    """The revision in ``alembic_version``; None when the database has none (empty, or made before migrations)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> str:
    """Bring the database to the head revision, migrating once however many processes call this together.

    Returns what was done, in a line: nothing, created the tables, stamped an old database, upgraded.
    """
    head = head_revision()
    with engine.connect() as connection:
        if current_revision(connection) == head:  # the usual start: no lock needed
            return f"already at {head}"
    with _migration_lock(engine) as connection:
        before = current_revision(connection)  # again: another process may have migrated meanwhile
        if before == head:
            return f"already at {head}"
        done = ""
        if before is None and _unversioned_layout(connection, engine) == "legacy":
            command.stamp(alembic_config(connection), FIRST_REVISION)
            before = FIRST_REVISION
            done = f"stamped a database made before migrations at {FIRST_REVISION}"
        if before != head:
            command.upgrade(alembic_config(connection), "head")
            step = f"created the tables at {head}" if before is None else f"upgraded from {before} to {head}"
            done = f"{done}, then {step}" if done else step
    log.info("database %s: %s", engine.url.render_as_string(hide_password=True), done)
    return done


def _unversioned_layout(connection: Connection, engine: Engine) -> str:
    """A database without ``alembic_version``: "empty" (none of our tables) or "legacy" (create_all's)."""
    ours = set(inspect(connection).get_table_names()) & LEGACY_TABLES
    if not ours:
        return "empty"
    if ours == LEGACY_TABLES:
        versions = set(connection.execute(text("SELECT version FROM schema_version")).scalars())
        if versions <= {SCHEMA_VERSION}:
            return "legacy"
    where = engine.url.render_as_string(hide_password=True)
    raise StartupError(
        f"the database {where} has some of the app's tables ({', '.join(sorted(ours))}) but no migration "
        "record (alembic_version) and not the layout the app made before migrations; "
        "restore it from a backup or move those tables out of the way, then run `scorekeeper db upgrade`"
    )


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[Connection]:
    """A connection holding the database's migration lock, in a transaction committed on success."""
    with engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            with _pg_advisory_lock(connection):
                yield from _in_transaction(connection)
        elif engine.dialect.name == "sqlite":
            # BEGIN EXCLUSIVE waits (busy_timeout) for other writers, then shuts them out until COMMIT;
            # the migration runs in this transaction. Pending readers in WAL mode carry on.
            connection.exec_driver_sql(f"PRAGMA busy_timeout={MIGRATION_WAIT_MS}")
            try:
                connection.exec_driver_sql("BEGIN EXCLUSIVE")
                yield from _in_transaction(connection)
            finally:
                connection.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        else:
            raise StartupError(f"no migration lock for the {engine.dialect.name} database")


@contextmanager
def _pg_advisory_lock(connection: Connection) -> Iterator[None]:
    connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
    connection.commit()
    try:
        yield
    finally:
        try:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
            connection.commit()
        except DBAPIError:  # the connection broke: its session, and so its lock, is gone
            connection.invalidate()


def _in_transaction(connection: Connection) -> Iterator[Connection]:
    try:
        yield connection
    except BaseException:
        connection.rollback()
        raise
    connection.commit()


def drop_schema(engine: Engine) -> None:
    """Drop every table and the migration record (tests start each run from a clean schema)."""
    from . import models  # noqa: F401

    Base.metadata.drop_all(engine)
    with engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")


def init_app(app: Flask) -> None:
    """Open the engine, close the session after each request, migrate the database to the latest revision.

    ``MIGRATE_ON_START = False`` in the config leaves the database alone (``scorekeeper db`` does that).
    """
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["scorekeeper.engine"] = engine
    app.teardown_appcontext(close_session)
    if app.config.get("MIGRATE_ON_START", True):
        upgrade(engine)
