"""A match's deals read from their rows: the same facts as the match file reader makes of the rows, each
row's content parsed once per process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from sqlalchemy import update

from matches import detailed_match
from scorekeeper import store
from scorekeeper.db import get_session
from scorekeeper.models import DealRow
from scorekeeper.rules.match import Match
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


@pytest.mark.usefixtures("ctx")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(matches(max_deals=6))
def test_the_facts_read_from_the_rows_are_those_the_match_file_reader_makes(match: Match) -> None:
    row = store.create_match(match)
    assert store.to_core(row) == read_through_the_match_file(row.id)


@pytest.mark.usefixtures("ctx")
def test_a_deal_changed_by_another_process_is_read_anew_and_the_others_are_the_objects_read_before() -> None:
    row = store.create_match(detailed_match())
    before = store.to_core(row)
    get_session().execute(update(DealRow).where((DealRow.match_id == row.id) & (DealRow.position == 2))
                          .values(bid=70))  # as a write of another process changes a deal's row
    after = store.to_core(row)
    assert after == read_through_the_match_file(row.id)
    assert after.deals[1].bid == 70 and before.deals[1].bid == 60
    assert after.deals[0] is before.deals[0] and after.deals[2] is before.deals[2]


@pytest.mark.usefixtures("ctx")
def test_past_its_bound_the_reader_starts_afresh_and_reads_the_same_facts() -> None:
    row = store.create_match(detailed_match())
    rules = store.to_core(row).rules

    def read(reader: DealReader) -> tuple[object, ...]:
        return reader.deals(get_session().connection(), row.id, rules, 2, lambda deal: deal)

    roomy, tight = DealReader(limit=100), DealReader(limit=2)
    first = read(roomy)
    assert all(again is deal for again, deal in zip(read(roomy), first))
    assert read(tight) == read(tight) == first == store.to_core(row).deals
