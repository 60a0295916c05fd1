"""Alembic's environment: the models' metadata and the connection to migrate.

``scorekeeper.db.upgrade`` passes its own connection (``config.attributes["connection"]``), already
holding the migration lock and inside a transaction that it commits. Run from the ``alembic`` command
(a source checkout's ``alembic.ini``), the database is ``sqlalchemy.url`` or ``DATABASE_URL``.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy.engine import Connection

from scorekeeper.db import make_engine
from scorekeeper.models import Base

config = context.config


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite cannot alter most of a table in place; batch operations copy it instead.
        render_as_batch=connection.dialect.name == "sqlite",
        # SQLite's DDL is transactional too: a failed upgrade leaves the database as it was.
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run_migrations(connection)
        return
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL")
    if not url:
        raise SystemExit("set DATABASE_URL (or sqlalchemy.url in alembic.ini) to the database to migrate")
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            run_migrations(connection)
            connection.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported; run them against a database")
run_online()
