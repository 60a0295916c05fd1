"""Each deal's history (entered, corrected, deleted, put back: before and after, when, by whom) and undoing the
last change of any kind, in the store, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.models import DealChangeRow, MatchRow
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.match import Match, SideInfo
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.rules.rescale import Factor
from scorekeeper.rules.scoring import score_match
from scorekeeper.store import history, reading, writing
from scorekeeper.store.write_keys import WriteKey

pytestmark = pytest.mark.both_databases

WE_THEY = (SideInfo("We", ("Ann", "Bob")), SideInfo("They", ("Cy", "Di")))
ANN = history.Author("phone:k3f9x2aa", "Ann")


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def quick(bidder: int, bid: int, we: int, they: int) -> dict[str, object]:
    return {"bidder": bidder, "bid": bid, "sides": [{"total": we}, {"total": they}]}


def fresh(public_id: str) -> reading.Loaded:
    """The match as the next request reads it."""
    get_session().expire_all()
    return reading.load_match(public_id)


def played(*deals: dict[str, object]) -> str:
    """A match with ``deals`` entered one by one from Ann's phone; its link."""
    row = writing.create_match(Match(sides=WE_THEY, rules=HouseRules(), name="History"))
    history.act_as(ANN)
    for deal in deals:
        writing.add_deal(fresh(row.public_id), deal, None)
    return row.public_id


def deal_id(public_id: str, number: int) -> int:
    found = history.current_deal_id(fresh(public_id).row, number)
    assert found is not None
    return found


@pytest.mark.usefixtures("ctx")
def test_a_correction_keeps_the_deal_before_and_after_and_the_phone_that_made_it() -> None:
    public_id = played(quick(0, 50, 60, 20), quick(1, 60, 10, 70))
    first = deal_id(public_id, 1)
    history.act_as(history.Author("phone:zz99yy88"))
    writing.replace_deal(fresh(public_id), 1, quick(0, 55, 66, 20), None)
    entries = history.deal_history(fresh(public_id).row, first)
    assert [(entry.what, entry.who) for entry in entries] == [("Entered", "Ann's phone"),
                                                            ("Corrected", "a phone (zz99)")]
    assert entries[1].before == "Ann & Bob bid 50; Ann & Bob 60, Cy & Di 20"
    assert entries[1].after == "Ann & Bob bid 55; Ann & Bob 66, Cy & Di 20"
    assert entries[1].before_facts is not None and entries[1].before_facts["bid"] == 50
    assert entries[0].before is None


@pytest.mark.usefixtures("ctx")
def test_a_deleted_deal_keeps_its_history_and_an_undo_puts_it_back_in_its_place() -> None:
    public_id = played(quick(0, 50, 60, 20), quick(1, 60, 10, 70), quick(0, 50, 55, 25))
    before = fresh(public_id).match
    second = deal_id(public_id, 2)
    writing.delete_deal(fresh(public_id), 2, None)
    assert [entry.what for entry in history.deal_history(fresh(public_id).row, second)] == ["Entered", "Deleted"]
    loaded = fresh(public_id)
    writing.undo_last(loaded, loaded.row.version)
    after = fresh(public_id)
    assert after.match.deals == before.deals and deal_id(public_id, 2) == second
    assert [(entry.what, entry.undo) for entry in history.deal_history(after.row, second)] == [
        ("Entered", False), ("Deleted", False), ("Put back", True)]


@pytest.mark.usefixtures("ctx")
def test_undo_takes_back_an_entry_and_a_correction() -> None:
    public_id = played(quick(0, 50, 60, 20))
    before = fresh(public_id).match
    writing.replace_deal(fresh(public_id), 1, quick(1, 60, 10, 70), None)
    loaded = fresh(public_id)
    writing.undo_last(loaded, loaded.row.version)
    assert fresh(public_id).match.deals == before.deals
    writing.add_deal(fresh(public_id), quick(1, 50, 0, 60), None)
    loaded = fresh(public_id)
    writing.undo_last(loaded, loaded.row.version)
    assert fresh(public_id).match.deals == before.deals


@pytest.mark.usefixtures("ctx")
def test_undo_of_a_rule_change_and_of_a_rescale_brings_back_the_sheet() -> None:
    public_id = played(quick(0, 50, 60, 20))
    before = fresh(public_id).match
    writing.change_rules(fresh(public_id), before.rules.replace(target=300), None)
    undoing = writing.undoing(fresh(public_id))
    assert undoing.old_rules is not None and undoing.old_rules.target == before.rules.target
    loaded = fresh(public_id)
    writing.undo_last(loaded, loaded.row.version)
    assert fresh(public_id).match.rules == before.rules
    writing.rescale_match(fresh(public_id), Factor.UP, None)
    undoing = writing.undoing(fresh(public_id))
    assert undoing.preview.after.totals == score_match(before).totals  # the preview shows the sheet back
    loaded = fresh(public_id)
    writing.undo_last(loaded, loaded.row.version)
    assert fresh(public_id).match == before


@pytest.mark.usefixtures("ctx")
def test_a_stale_undo_is_refused_and_writes_nothing() -> None:
    public_id = played(quick(0, 50, 60, 20), quick(1, 60, 10, 70))
    seen = fresh(public_id).row.version
    writing.replace_deal(fresh(public_id), 1, quick(0, 55, 66, 20), None)  # another phone, meanwhile
    after = fresh(public_id)
    changes = get_session().scalar(select(func.count()).select_from(DealChangeRow))
    with pytest.raises(writing.StaleEdit, match="deal 1 was changed"):
        writing.undo_last(after, seen)
    again = fresh(public_id)
    assert again.match == after.match and again.row.version == after.row.version
    assert get_session().scalar(select(func.count()).select_from(DealChangeRow)) == changes


@pytest.mark.usefixtures("ctx")
def test_an_undo_sent_twice_with_its_key_counts_once() -> None:
    public_id = played(quick(0, 50, 60, 20), quick(1, 60, 10, 70))
    loaded = fresh(public_id)
    key = WriteKey.of("undo-key-1", "POST", f"/m/{public_id}/undo")
    first = writing.undo_last(loaded, loaded.row.version, key)
    again = writing.undo_last(fresh(public_id), loaded.row.version, key)
    assert again.replayed and again.version == first.version
    assert len(fresh(public_id).match.deals) == 1


@pytest.mark.usefixtures("ctx")
def test_nothing_to_undo_on_a_new_match_nor_after_an_import() -> None:
    row = writing.create_match(match_from_json({"format": "pinochle-match/1", "sides": [{"name": "A"}, {"name": "B"}],
                                                "deals": [quick(0, 50, 60, 20)]}))
    loaded = fresh(row.public_id)
    assert [entry.what for entry in history.match_history(loaded.row)] == ["Entered"]  # an import's deals
    with pytest.raises(writing.NothingToUndo):
        writing.undo_last(loaded, loaded.row.version)


@pytest.mark.usefixtures("ctx")
def test_the_api_is_named_and_a_match_deleted_takes_its_history_along() -> None:
    public_id = played()
    history.act_as(history.THE_API)
    writing.add_deal(fresh(public_id), quick(0, 50, 60, 20), None)
    row = fresh(public_id).row
    assert [entry.who for entry in history.match_history(row)] == ["the API"]
    get_session().delete(get_session().get(MatchRow, row.id))
    get_session().commit()
    assert get_session().scalar(select(func.count()).select_from(DealChangeRow)) == 0
