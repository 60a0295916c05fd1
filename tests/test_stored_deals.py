"""A match's deals read from their rows: the same facts as the match file reader makes of the rows, each
row's content parsed once per process, and a table's matches read with their deals at once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from sqlalchemy import update
from test_one_load import watched
from test_tables import new_table, start

from matches import detailed_match
from scorekeeper import store
from scorekeeper.db import get_session
from scorekeeper.models import DealRow
from scorekeeper.rules.errors import MatchFileError
from scorekeeper.rules.match import Deal, Match
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.stored_deals import DealReader
from strategies import matches


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def read_through_the_match_file(row_id: int) -> Match:
    """The facts as the match file reader makes them of the whole match written out from its rows."""
    session = get_session()
    session.expire_all()
    row = session.get(store.MatchRow, row_id)
    assert row is not None
    return match_from_json(store.match_json(row), stored=True)


def as_read(deal: Deal) -> Deal:
    return deal


@pytest.mark.usefixtures("ctx")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(matches(max_deals=6))
def test_the_facts_read_from_the_rows_are_those_the_match_file_reader_makes(match: Match) -> None:
    row = store.create_match(match)
    get_session().expire(row, ["deals"])
    assert store.to_core(row) == read_through_the_match_file(row.id)


@pytest.mark.usefixtures("ctx")
def test_only_a_deal_whose_row_changed_is_parsed_again() -> None:
    row = store.create_match(detailed_match())
    rules, reader = store.to_core(row).rules, DealReader(limit=100, canonical=as_read)
    before = reader.deals(get_session().connection(), row.id, rules, 2)
    get_session().execute(update(DealRow).where((DealRow.match_id == row.id) & (DealRow.position == 2))
                          .values(bid=70))  # as a write of another process changes a deal's row
    after = reader.deals(get_session().connection(), row.id, rules, 2)
    assert after == read_through_the_match_file(row.id).deals
    assert len(after) == 3 and after[1].bid == 70 and before[1].bid == 60
    assert after[0] is before[0] and after[2] is before[2] and after[1] is not before[1]
    assert len(reader) == 4


@pytest.mark.usefixtures("ctx")
def test_rows_read_for_another_count_of_sides_are_parsed_again() -> None:
    row = store.create_match(detailed_match())
    rules, reader = store.to_core(row).rules, DealReader(limit=100, canonical=as_read)
    reader.deals(get_session().connection(), row.id, rules, 2)
    with pytest.raises(MatchFileError):  # each deal names two sides
        reader.deals(get_session().connection(), row.id, rules, 3)


@pytest.mark.usefixtures("ctx")
def test_past_its_bound_the_reader_starts_afresh_and_reads_the_same_facts() -> None:
    row = store.create_match(detailed_match())
    rules = store.to_core(row).rules
    tight = DealReader(limit=2, canonical=as_read)
    first = tight.deals(get_session().connection(), row.id, rules, 2)
    again = tight.deals(get_session().connection(), row.id, rules, 2)
    assert len(tight) <= 2
    assert len(first) == 3 and first == again == read_through_the_match_file(row.id).deals
    assert any(deal is not before for deal, before in zip(again, first))  # forgotten, so parsed again


def test_a_tables_statistics_read_its_matches_deals_in_one_statement(app: Flask, client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    deal = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}
    for _ in range(3):
        assert start(client, table_id, [deal, deal]).status_code == 201
    app.extensions.pop("scorekeeper.facts", None)  # as in a process that has read none of them yet
    app.extensions.pop("scorekeeper.tables", None)
    with watched(app) as work:
        assert client.get(f"/api/v1/tables/{table_id}/stats").status_code == 200
    assert work.count("SELECT", "deal") == 1
