"""Test databases on the PostgreSQL server of SCOREKEEPER_TEST_DATABASE_URL: a database of its own for each
xdist worker, and the database the tests run on, kept at the head revision and emptied of rows between tests."""

from __future__ import annotations

from sqlalchemy import inspect, make_url

from scorekeeper.db import current_revision, drop_schema, head_revision, make_engine, upgrade


def make_database(server_url: str, name: str) -> str:
    """Make database ``name`` new and empty on the server (dropping any left by an earlier run); its URL."""
    drop_database(server_url, name)
    _as_admin(server_url, f'CREATE DATABASE "{name}"')
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


def drop_database(server_url: str, name: str) -> None:
    _as_admin(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _as_admin(server_url: str, statement: str) -> None:
    admin = make_engine(server_url).execution_options(isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(statement)
    finally:
        admin.dispose()


class MigratedPostgres:
    """The PostgreSQL database at the head revision, holding only the rows the migrations write."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.emptied = self._migrate()

    def _migrate(self) -> list[str]:
        """Migrate the database from empty; the tables the migrations leave empty, to empty between tests."""
        drop_schema(self.engine)
        upgrade(self.engine)
        with self.engine.connect() as connection:
            tables = inspect(connection).get_table_names()
            return [name for name in tables if name != "alembic_version"
                    and connection.exec_driver_sql(f'SELECT count(*) FROM "{name}"').scalar() == 0]

    def reset(self) -> None:
        """As a new database just migrated: rows emptied, or everything made again when a test left the
        database at another revision or with other tables."""
        with self.engine.connect() as connection:
            as_left = current_revision(connection) == head_revision() and set(self.emptied) <= set(
                inspect(connection).get_table_names())
        if not as_left:
            self.emptied = self._migrate()
            return
        names = ", ".join(f'"{name}"' for name in self.emptied)
        with self.engine.begin() as connection:
            connection.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
