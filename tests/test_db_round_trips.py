"""What a deal added and a phone's look at the sheet ask of the database: the statements they run on
either database and, on PostgreSQL, every request sent to the server, read from libpq's own trace of
the messages on the wire. No pooled connection is pinged; one whose session the server ended is dropped
when taken from the pool, and the write that takes it is saved all the same."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, event, text
from test_one_load import DEALS, deal, long_match, version_of

from scorekeeper.db import make_engine, reading_engine

__all__ = ["long_match"]  # the fixture, shared with test_one_load

WRITE_STATEMENTS = ["SELECT match", "UPDATE match", "INSERT deal"]  # read the row, claim it, add the deal
LOOK_STATEMENTS = ["SELECT match"]  # the match's version


def statement_name(sql: str) -> str:
    """``"SELECT match"``: a statement's verb and the table it reads or changes; BEGIN, COMMIT as they are."""
    verb = sql.split(None, 1)[0].upper() if sql.strip() else sql
    table = re.search(r"\b(?:FROM|INTO|UPDATE)\s+\"?(\w+)", sql, re.I)
    return f"{verb} {table.group(1)}" if table and verb in ("SELECT", "INSERT", "UPDATE", "DELETE") else verb


@dataclass
class Wire:
    """The requests one piece of work sent to PostgreSQL, in order, by name (``statement_name``; the
    empty query ``;`` is what a pool's ping sends), and how many times the client waited for answers."""

    requests: list[str] = field(default_factory=list)
    round_trips: int = 0


def read_trace(trace: str, named: dict[str, str]) -> Wire:
    """The requests in libpq's trace (regress mode): a simple ``Query`` is one request and one round trip;
    in the extended protocol each ``Execute`` runs the statement its ``Bind`` named (prepared earlier,
    ``named``, or just parsed), and a ``Sync`` ends a round trip. A trip that only prepares a statement
    (psycopg does so once a connection has run it a few times) is no request and is not counted."""
    wire, unnamed, bound, executed = Wire(), "", "", False
    messages: list[list[str]] = []
    for line in trace.splitlines():
        parts = line.split("\t", 3)
        if len(parts) >= 3 and parts[0] in ("F", "B") and parts[1].isdigit():
            messages.append([parts[0], parts[2], parts[3] if len(parts) > 3 else ""])
        elif messages:
            messages[-1][2] += "\n" + line  # a statement's text goes on over several lines
    for direction, kind, rest in messages:
        if direction != "F":
            continue
        quoted = re.findall(r'"((?:[^"]|"")*)"', rest, re.S)
        if kind == "Query":
            wire.requests.append(statement_name(quoted[0]) if quoted and quoted[0] != ";" else ";")
            wire.round_trips += 1
        elif kind == "Parse":
            name, sql = quoted[0], quoted[1]
            if name:
                named[name] = sql
            else:
                unnamed = sql
        elif kind == "Bind":
            bound = named[quoted[1]] if quoted[1] else unnamed
        elif kind == "Execute":
            wire.requests.append(statement_name(bound))
            executed = True
        elif kind == "Sync":
            wire.round_trips += executed
            executed = False
    return wire


class Tracer:
    """What the database drivers of an app's engines (the one for sessions and the reading one) send,
    one window of work at a time: on PostgreSQL libpq's trace of the messages on the wire, on SQLite
    every statement the sqlite3 module hands to SQLite (its trace callback). The pools are emptied
    first, so every connection is traced from the moment it is made."""

    def __init__(self, app: Flask) -> None:
        engine: Engine = app.extensions["scorekeeper.engine"]
        self.postgres = engine.dialect.name == "postgresql"
        self.engines = [engine] if reading_engine(engine) is engine else [engine, reading_engine(engine)]
        self.connections: list[Any] = []
        self.named: dict[str, str] = {}
        self.file: Any = None
        self.statements: list[str] | None = None
        self.on_connect = self._connected  # one bound method, to listen with and to remove

    def _connected(self, dbapi_connection: Any, _record: Any) -> None:
        self.connections.append(dbapi_connection)
        if self.postgres:
            self._trace(dbapi_connection)
        else:
            dbapi_connection.set_trace_callback(self._sqlite_statement)

    def _sqlite_statement(self, sql: str) -> None:
        if self.statements is not None:
            self.statements.append(statement_name(sql))

    def _trace(self, dbapi_connection: Any) -> None:
        from psycopg import pq

        if self.file is not None and not dbapi_connection.closed:
            dbapi_connection.pgconn.trace(self.file.fileno())
            dbapi_connection.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)

    def __enter__(self) -> Tracer:
        for engine in self.engines:
            engine.dispose()
            event.listen(engine, "connect", self.on_connect)
        return self

    def __exit__(self, *_: object) -> None:
        for engine in self.engines:
            event.remove(engine, "connect", self.on_connect)

    @contextmanager
    def window(self) -> Iterator[Wire]:
        """What the work done within sent (filled in at the end of the window). On SQLite every
        statement is a request and nothing goes over a wire: ``round_trips`` stays 0."""
        wire = Wire()
        if not self.postgres:
            self.statements = wire.requests
            try:
                yield wire
            finally:
                self.statements = None
            return
        with tempfile.TemporaryFile("w+") as self.file:
            for connection in self.connections:
                self._trace(connection)
            try:
                yield wire
            finally:
                for connection in self.connections:
                    if not connection.closed:
                        connection.pgconn.untrace()  # flushes libpq's trace into the file
                self.file.seek(0)
                found = read_trace(self.file.read(), self.named)
                self.file = None
        wire.requests, wire.round_trips = found.requests, found.round_trips


def is_postgres(app: Flask) -> bool:
    return bool(app.extensions["scorekeeper.engine"].dialect.name == "postgresql")


def add_deal(client: FlaskClient, public_id: str, token: str, number: int) -> None:
    answer = client.post(f"/api/v1/matches/{public_id}/deals", json=deal(number),
                         headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201, answer.get_data(as_text=True)


def look(client: FlaskClient, public_id: str, etag: str | None = None) -> str:
    """A phone's look at the live part of the sheet (with the ETag it shows); the ETag it now shows."""
    answer = client.get(f"/m/{public_id}/live", headers={"If-None-Match": etag} if etag else {})
    assert answer.status_code == (304 if etag else 200)
    return etag or answer.headers["ETag"]


def test_the_trace_reader_counts_requests_and_round_trips() -> None:
    """A ping (``;``), then BEGIN, a prepared statement run twice in one trip, a trip that only
    prepares, and COMMIT: five requests in four round trips."""
    trace = "\n".join([
        'F\t6\tQuery\t ";"', 'B\t5\tReadyForQuery\t I',
        'F\t10\tQuery\t "BEGIN"', 'B\t5\tReadyForQuery\t T',
        'F\t60\tParse\t "_pg3_0" "INSERT INTO deal (match_id)\nVALUES ($1)" 0', 'F\t4\tSync',
        'F\t20\tBind\t "" "_pg3_0" 0', 'F\t9\tExecute\t "" 0',
        'F\t20\tBind\t "" "_pg3_0" 0', 'F\t9\tExecute\t "" 0', 'F\t4\tSync',
        'F\t11\tQuery\t "COMMIT"',
    ])
    assert read_trace(trace, {}) == Wire([";", "BEGIN", "INSERT deal", "INSERT deal", "COMMIT"], 4)


def test_a_deal_added_sends_its_three_statements_in_one_transaction_and_nothing_more(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    """On PostgreSQL: BEGIN, the three statements and COMMIT, each one round trip, and no ping of the
    pooled connection (``;``) before them. On SQLite the sqlite3 module begins the transaction at the
    first change, after the read."""
    public_id, token = long_match
    postgres, before = is_postgres(app), version_of(app, public_id)
    with Tracer(app) as tracer:
        add_deal(client, public_id, token, DEALS)  # the pool's connection is made (and traced) here
        for number in range(DEALS + 1, DEALS + 4):
            with tracer.window() as wire:
                add_deal(client, public_id, token, number)
            if postgres:
                assert wire.requests == ["BEGIN", *WRITE_STATEMENTS, "COMMIT"]
                assert wire.round_trips == len(wire.requests)
            else:
                assert wire.requests == [WRITE_STATEMENTS[0], "BEGIN", *WRITE_STATEMENTS[1:], "COMMIT"]
    assert version_of(app, public_id) == before + 4


def test_a_look_at_an_unchanged_sheet_is_one_statement_and_on_postgresql_one_round_trip(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    public_id, _ = long_match
    etag = look(client, public_id)
    with Tracer(app) as tracer:
        look(client, public_id, etag)
        for _ in range(3):
            with tracer.window() as wire:
                look(client, public_id, etag)
            assert wire.requests == LOOK_STATEMENTS
            assert wire.round_trips == (1 if is_postgres(app) else 0)


def test_a_look_at_a_changed_sheet_reads_its_version_once(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    """The poll reads the version, finds the phone's ETag old, and the new live part is sent from the
    sheet cache (drawn after the write) with that same version: one statement, not two."""
    public_id, token = long_match
    with Tracer(app) as tracer:
        etag = look(client, public_id)
        for number in range(DEALS + 1, DEALS + 4):
            add_deal(client, public_id, token, number)
            with tracer.window() as wire:
                answer = client.get(f"/m/{public_id}/live", headers={"If-None-Match": etag})
            assert answer.status_code == 200 and answer.headers["ETag"] != etag
            assert wire.requests == LOOK_STATEMENTS
            assert wire.round_trips == (1 if is_postgres(app) else 0)
            etag = answer.headers["ETag"]


OTHER_SESSIONS = text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                      "AND pid <> pg_backend_pid() AND backend_type = 'client backend'")


def end_every_other_session(engine: Engine) -> int:
    """End the server's other sessions of this database, as a restart of the server would, and wait
    until each has gone (``pg_terminate_backend`` with a timeout waits for it); how many there were."""
    killer = make_engine(engine.url.render_as_string(hide_password=False))
    with killer.connect() as connection:
        pids = connection.execute(OTHER_SESSIONS).scalars().all()
        for pid in pids:
            assert connection.execute(text("SELECT pg_terminate_backend(:pid, 10000)"), {"pid": pid}).scalar()
    killer.dispose()
    return len(pids)


def test_a_write_on_a_connection_whose_session_the_server_ended_is_saved(
    app: Flask, client: FlaskClient, long_match: tuple[str, str]
) -> None:
    """Without a ping the pool still never hands out a connection the server has ended: the deal is
    saved (201, not 500) and so is the next."""
    if not is_postgres(app):
        pytest.skip("only a server ends sessions")
    public_id, token = long_match
    add_deal(client, public_id, token, DEALS)  # the pools now hold live connections
    etag = look(client, public_id)
    assert end_every_other_session(app.extensions["scorekeeper.engine"]) >= 2  # the write's and the look's
    before = version_of(app, public_id)
    add_deal(client, public_id, token, DEALS + 1)
    add_deal(client, public_id, token, DEALS + 2)
    assert version_of(app, public_id) == before + 2
    assert client.get(f"/m/{public_id}/live", headers={"If-None-Match": etag}).status_code == 200
