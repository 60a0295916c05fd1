"""The database engine and a session per request.

Tables are created on first start with ``metadata.create_all``. The ``schema_version`` table records
which layout a database has; when a table changes, bump ``SCHEMA_VERSION`` and add a migration step
(Alembic, or a small function keyed by the old version) before ``create_all`` runs.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, g
from sqlalchemy import Engine, create_engine, event, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from .models import Base

SCHEMA_VERSION = 1


class SchemaVersion(Base):
    """One row: the layout version of this database."""

    __tablename__ = "schema_version"

    version: Mapped[int] = mapped_column(primary_key=True)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets write-ahead logging and foreign keys."""
    engine = create_engine(url, pool_pre_ping=not url.startswith("sqlite"))
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
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


def create_schema(engine: Engine) -> None:
    """Create missing tables and record the layout version."""
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        if session.scalars(select(SchemaVersion)).first() is None:
            session.add(SchemaVersion(version=SCHEMA_VERSION))
            session.commit()


def drop_schema(engine: Engine) -> None:
    """Drop every table (tests start each run from a clean schema)."""
    Base.metadata.drop_all(engine)


def init_app(app: Flask) -> None:
    """Open the engine, close the session after each request, create tables on first start."""
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["scorekeeper.engine"] = engine
    app.teardown_appcontext(close_session)
    create_schema(engine)
