"""One-row reads of a match (its version, its watch link): no transaction left open, and a connection that
died between two requests (the database restarted) is replaced, not an error."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy import Engine, text

from scorekeeper.db import make_engine
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.match import Match, SideInfo
from scorekeeper.store import reading, writing

pytestmark = pytest.mark.both_databases


@pytest.fixture
def public_id(app: Flask) -> Iterator[str]:
    with app.app_context():
        row = writing.create_match(Match(sides=(SideInfo("We"), SideInfo("They")), rules=HouseRules(), name="Reads"))
        yield row.public_id


def engine_of(app: Flask) -> Engine:
    engine: Engine = app.extensions["scorekeeper.engine"]
    return engine


def test_the_version_reads_as_the_match_row_holds_it(app: Flask, public_id: str) -> None:
    with app.app_context():
        row = reading.get_match_or_404(public_id)
        assert reading.match_version(public_id) == row.version
        assert reading.watched_match(row.watch_id) == (public_id, row.version)
        assert reading.match_version("no-such-match") is None and reading.watched_match("bad\x00link") is None


def postgres_only(app: Flask) -> Engine:
    engine = engine_of(app)
    if engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL's sessions")
    return engine


OTHER_SESSIONS = text("SELECT pid, state FROM pg_stat_activity WHERE datname = current_database() "
                      "AND pid <> pg_backend_pid() AND backend_type = 'client backend'")


def our_sessions(engine: Engine) -> list[tuple[int, str]]:
    """The other server sessions of this database: (process id, state)."""
    looking = make_engine(engine.url.render_as_string(hide_password=False))
    with looking.connect() as connection:
        found = [(pid, state) for pid, state in connection.execute(OTHER_SESSIONS)]
    looking.dispose()
    return found


def test_a_version_read_leaves_no_transaction_open(app: Flask, public_id: str) -> None:
    engine = postgres_only(app)
    engine.dispose()
    with app.app_context():
        for _ in range(3):
            assert reading.match_version(public_id) is not None
    states = [state for _, state in our_sessions(engine)]
    assert states and "idle in transaction" not in states


def test_the_next_request_outlives_a_dropped_connection(app: Flask, public_id: str) -> None:
    engine = postgres_only(app)
    engine.dispose()
    with app.app_context():
        version = reading.match_version(public_id)
    killer = make_engine(engine.url.render_as_string(hide_password=False))
    with killer.connect() as connection:  # as a restart of the server would: every session ends
        for pid, _ in connection.execute(OTHER_SESSIONS).all():
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    killer.dispose()
    with app.app_context():  # the next request
        assert reading.match_version(public_id) == version
        row = writing.create_match(Match(sides=(SideInfo("We"), SideInfo("They")), rules=HouseRules(), name="After"))
        assert reading.match_version(row.public_id) == row.version
