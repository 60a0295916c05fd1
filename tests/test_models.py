"""The tables, on SQLite and (when configured) PostgreSQL: facts only, links, versions, cascades."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy import inspect, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from scorekeeper import models
from scorekeeper.db import SCHEMA_VERSION, SchemaVersion, get_engine, get_session
from scorekeeper.models import DealRow, MatchRow, RuleChangeRow, SideRow
from scorekeeper.rules.house_rules import HouseRules

pytestmark = pytest.mark.both_databases


@pytest.fixture
def session(app: Flask) -> Iterator[Session]:
    with app.app_context():
        yield get_session()


def make_match(session: Session, name: str = "M") -> MatchRow:
    match = MatchRow(name=name, rules=HouseRules().to_mapping())
    match.sides = [SideRow(position=0, name="We", players=["Ann", "Bob"]), SideRow(position=1, name="They")]
    session.add(match)
    session.commit()
    return match


def test_tables_and_schema_version_exist(session: Session) -> None:
    names = set(inspect(get_engine()).get_table_names())
    assert {"match", "side", "deal", "rule_change", "schema_version"} <= names
    assert session.scalars(select(SchemaVersion.version)).all() == [SCHEMA_VERSION]


def test_no_column_holds_a_score(session: Session) -> None:
    columns = {column["name"] for table in ("match", "side", "deal")
               for column in inspect(get_engine()).get_columns(table)}
    assert not {name for name in columns if "score" in name or "total" in name}


def test_new_match_gets_random_links_and_version_one(session: Session) -> None:
    first, second = make_match(session), make_match(session)
    assert first.public_id != second.public_id and first.edit_token != second.edit_token
    assert len(first.public_id) >= 22 and len(first.edit_token) >= 32
    assert first.version == 1
    assert first.created_at is not None and first.updated_at is not None


def test_every_write_bumps_the_version(session: Session) -> None:
    match = make_match(session)
    match.name = "Renamed"
    session.commit()
    assert match.version == 2


def test_public_ids_are_unique(session: Session) -> None:
    first = make_match(session)
    clash = MatchRow(name="clash", rules={}, public_id=first.public_id)
    session.add(clash)
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()


def test_json_columns_round_trip(session: Session) -> None:
    match = make_match(session)
    match.deals.append(DealRow(position=1, bidder=0, bid=60, meld_table="double-small", trick_scale="one-point",
                            last_trick=2, sides=[{"meld": {"run": 1}, "tricks": 30, "last_trick": True},
                                                 {"total": 20}]))
    match.rule_changes.append(RuleChangeRow(rule="target", old_value=500, new_value=300))
    session.commit()
    session.expire_all()
    again = session.scalars(select(MatchRow).where(MatchRow.public_id == match.public_id)).one()
    assert again.deals[0].sides[0] == {"meld": {"run": 1}, "tricks": 30, "last_trick": True}
    assert again.sides[0].players == ["Ann", "Bob"] and again.sides[1].players == []
    assert (again.rule_changes[0].old_value, again.rule_changes[0].new_value) == (500, 300)
    assert again.rules == HouseRules().to_mapping()


def test_deleting_a_match_deletes_its_sides_deals_and_changes(session: Session) -> None:
    match = make_match(session)
    match.deals.append(DealRow(position=1, passed=True, meld_table="double-small", trick_scale="one-point",
                            last_trick=2))
    match.rule_changes.append(RuleChangeRow(rule="target", old_value=500, new_value=300))
    session.commit()
    session.delete(match)
    session.commit()
    for table in ("side", "deal", "rule_change"):
        assert session.execute(text(f"select count(*) from {table}")).scalar_one() == 0


def test_two_deals_cannot_share_a_position(session: Session) -> None:
    match = make_match(session)
    for _ in range(2):
        match.deals.append(DealRow(position=1, passed=True, meld_table="double-small", trick_scale="one-point",
                                last_trick=2))
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()


def test_sqlite_runs_with_write_ahead_log_and_foreign_keys(app: Flask, session: Session) -> None:
    if get_engine().dialect.name != "sqlite":
        pytest.skip("SQLite only")
    with get_engine().connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar_one() == 1


def test_a_new_link_never_starts_with_a_dash_which_a_command_line_reads_as_an_option() -> None:
    links = [models.new_public_id() for _ in range(3_000)] + [models.new_watch_id() for _ in range(3_000)]
    assert not [link for link in links if link.startswith("-")]  # one in 64 would, unchecked
    assert all(len(link) == 22 for link in links) and len(set(links)) == len(links)
