"""The store: rows to rules-core facts and back, checked writes, versions and stale edits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper.db import get_session
from scorekeeper.models import MatchRow, RuleChangeRow
from scorekeeper.rules.errors import ContradictionError, MatchFileError
from scorekeeper.rules.house_rules import HouseRules, MeldTableName
from scorekeeper.rules.match import Match, PricingBasis, SideInfo, SideTotal
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.rules.problems import Problem, ProblemCode
from scorekeeper.rules.scoring import score_match
from scorekeeper.store import describe, reading, writing

pytestmark = pytest.mark.both_databases

WE_THEY = (SideInfo("We", ("Ann", "Bob")), SideInfo("They", ("Cy", "Di")))


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def new_match(**rules: object) -> MatchRow:
    return writing.create_match(Match(sides=WE_THEY, rules=HouseRules().replace(**rules), name="Test"))


def loaded(row: MatchRow) -> reading.Loaded:
    """The row as a request holds it: with the facts read from it."""
    return reading.Loaded(row, reading.to_core(row))


def quick(bidder: int, bid: int, we: int, they: int) -> dict[str, object]:
    return {"bidder": bidder, "bid": bid, "sides": [{"total": we}, {"total": they}]}


@pytest.mark.usefixtures("ctx")
def test_created_match_reads_back_as_the_same_facts() -> None:
    row = new_match(target=300)
    match = reading.to_core(reading.get_match_or_404(row.public_id))
    assert match.sides == WE_THEY and match.rules.target == 300 and match.name == "Test"
    assert match.deals == ()


@pytest.mark.usefixtures("ctx")
def test_imported_deals_are_stored_with_the_pricing_they_were_entered_under() -> None:
    data = {
        "format": "pinochle-match/1", "sides": [{"name": "A"}, {"name": "B"}],
        "rules": {"meld_table": "double-large"},
        "deals": [{"bidder": 0, "bid": 50, "entered_under": {"meld_table": "double-small"},
                   "sides": [{"meld": 20, "tricks": 30, "last_trick": True}, {"meld": 4, "tricks": 18}]}],
    }
    imported = match_from_json(data)
    row = writing.create_match(imported)
    assert row.deals[0].meld_table == "double-small"
    assert row.deals[0].last_trick == 2
    again = reading.to_core(row)
    assert score_match(again) == score_match(imported)


@pytest.mark.usefixtures("ctx")
def test_add_deal_bumps_the_version_and_records_the_rules_in_force() -> None:
    row = new_match(target=300)
    version = row.version
    written = writing.add_deal(loaded(row), quick(0, 60, 67, 20), version)
    deal = row.deals[0]
    assert row.version == version + 1 and written.number == 1 and written.sheet.totals == (67, 20)
    assert (deal.position, deal.meld_table, deal.trick_scale, deal.last_trick) == (1, "double-small", "one-point", 2)
    assert reading.to_core(row).deals[0].sides == (SideTotal(67), SideTotal(20))
    assert row.last_change == "deal 1 was added"


@pytest.mark.usefixtures("ctx")
def test_deal_below_the_minimum_bid_is_refused_and_nothing_is_written() -> None:
    row = new_match(min_bid=50)
    version = row.version
    with pytest.raises(writing.InvalidDeal) as refused:
        writing.add_deal(loaded(row), quick(0, 40, 67, 20), version)
    assert refused.value.problems == [
        Problem(ProblemCode.BID_BELOW_MINIMUM, "bid", "bid 40 is below the minimum opening bid of 50")
    ]
    get_session().rollback()
    assert row.version == version and row.deals == []


@pytest.mark.usefixtures("ctx")
def test_unreadable_deal_names_the_place() -> None:
    row = new_match()
    with pytest.raises(MatchFileError) as refused:
        writing.add_deal(loaded(row), {"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": "x"}]}, row.version)
    assert refused.value.path == "sides[1].total"  # within the deal


@pytest.mark.usefixtures("ctx")
def test_edit_based_on_an_old_version_is_stale_and_says_what_changed() -> None:
    row = new_match()
    old = row.version
    writing.add_deal(loaded(row), quick(0, 60, 67, 20), old)
    with pytest.raises(writing.StaleEdit) as stale:
        writing.add_deal(loaded(row), quick(1, 55, 38, 51), old)
    assert "deal 1 was added on another phone" in stale.value.message
    assert stale.value.current_version == row.version
    with pytest.raises(writing.StaleEdit) as stale:
        writing.replace_deal(loaded(row), 1, quick(0, 60, 70, 20), old)
    # The sides are "We" and "They" with their players named: the message names them as the sheet does.
    assert "Deal 1 now reads: Ann & Bob bid 60; Ann & Bob 67, Cy & Di 20" in stale.value.message


@pytest.mark.usefixtures("ctx")
def test_several_missed_changes_are_counted() -> None:
    row = new_match()
    old = row.version
    writing.add_deal(loaded(row), quick(0, 60, 67, 20), row.version)
    writing.add_deal(loaded(row), quick(1, 55, 38, 51), row.version)
    with pytest.raises(writing.StaleEdit, match="2 changes were saved on another phone; the latest: deal 2"):
        writing.delete_deal(loaded(row), 1, old)


def test_concurrent_write_from_another_session_is_caught(app: Flask) -> None:
    """Two requests read the same version; the second to commit is refused, not lost."""
    with app.app_context():
        public_id = new_match().public_id
    with app.app_context():
        first = reading.get_match_or_404(public_id)
        seen = first.version
        with app.app_context():  # another phone, its own session
            second = reading.get_match_or_404(public_id)
            writing.add_deal(loaded(second), quick(0, 60, 67, 20), seen)
        with pytest.raises(writing.StaleEdit, match="deal 1 was added"):
            writing.add_deal(loaded(first), quick(1, 55, 38, 51), seen)
    with app.app_context():
        assert len(reading.get_match_or_404(public_id).deals) == 1


@pytest.mark.usefixtures("ctx")
def test_replace_keeps_the_pricing_the_deal_was_entered_under() -> None:
    row = new_match()
    writing.add_deal(loaded(row), {"bidder": 0, "bid": 50, "sides": [
        {"meld": 20, "tricks": 30, "last_trick": True}, {"meld": 4, "tricks": 18}]}, row.version)
    writing.change_rules(loaded(row), HouseRules.from_mapping(row.rules).replace(meld_table="double-large"),
                         row.version)
    writing.replace_deal(loaded(row), 1, {"bidder": 0, "bid": 55, "sides": [
        {"meld": 20, "tricks": 30, "last_trick": True}, {"meld": 4, "tricks": 18}]}, row.version)
    assert row.deals[0].meld_table == "double-small" and row.deals[0].bid == 55
    writing.add_deal(loaded(row), quick(1, 60, 10, 70), row.version)
    assert row.deals[1].meld_table == "double-large"


@pytest.mark.usefixtures("ctx")
def test_delete_moves_later_deals_up() -> None:
    row = new_match()
    for deal in (quick(0, 60, 67, 20), quick(1, 55, 38, 51), quick(0, 80, 95, 15)):
        writing.add_deal(loaded(row), deal, row.version)
    writing.delete_deal(loaded(row), 1, row.version)
    get_session().expire_all()
    row = reading.get_match_or_404(row.public_id)
    assert [(deal.position, deal.bid) for deal in row.deals] == [(1, 55), (2, 80)]


@pytest.mark.usefixtures("ctx")
def test_change_rules_records_each_change_and_refuses_contradictions() -> None:
    row = new_match()
    writing.add_deal(loaded(row), {"bidder": 0, "bid": 50, "sides": [
        {"meld": {"aces_around": 3}, "tricks": 30, "last_trick": True}, {"tricks": 18}]}, row.version)
    rules = HouseRules.from_mapping(row.rules)
    changed = writing.change_rules(loaded(row), rules.replace(target=1000, min_bid=40), row.version)
    assert changed is not None and changed.changed_rules == ("target", "min_bid")
    history = [(c.rule, c.old_value, c.new_value, c.after_deal) for c in row.rule_changes]
    assert history == [("target", 500, 1000, 1), ("min_bid", 50, 40, 1)]
    version = row.version
    with pytest.raises(ContradictionError) as refused:
        writing.change_rules(loaded(row), HouseRules.from_mapping(row.rules).replace(
            deck="single", meld_table=MeldTableName.SINGLE_CLASSIC.value), version)
    assert refused.value.deal_numbers == [1]
    get_session().rollback()
    assert row.version == version and len(get_session().query(RuleChangeRow).all()) == 2


@pytest.mark.usefixtures("ctx")
def test_throw_in_keeps_meld_and_drops_the_play() -> None:
    row = new_match()
    writing.add_deal(loaded(row), {"bidder": 0, "bid": 90, "sides": [
        {"meld": 10, "tricks": 30}, {"meld": 8, "tricks": 18, "last_trick": True}]}, row.version)
    writing.throw_in(loaded(row), 1, row.version)
    deal = reading.to_core(row).deals[0]
    assert deal.thrown_in and deal.entered_under == PricingBasis.of(HouseRules())
    assert row.deals[0].sides == [{"meld": 10}, {"meld": 8}]


@pytest.mark.usefixtures("ctx")
def test_matches_by_public_id_keeps_the_order_and_skips_unknown_links() -> None:
    first, second = new_match(), new_match()
    found = reading.matches_by_public_id([second.public_id, "unknown", first.public_id])
    assert [row.public_id for row in found] == [second.public_id, first.public_id]


@pytest.mark.parametrize(("fact", "words"), [
    (12, "12"),
    ({"run": 1, "royal_marriage": 2}, "1 run, 2 royal marriage"),
    ({"counters": 27}, "27 counters"),
    ({"cards": ["AH", "10H"], "trump": "H"}, "cards AH 10H"),
    ([14, {"pinochle": 1}], "14 + 1 pinochle"),
])
def test_describe_fact(fact: object, words: str) -> None:
    assert describe.describe_fact(fact) == words


@pytest.mark.parametrize(("fact", "trump", "rules", "words"), [
    ({"cards": "AS 10S KS QS JS QS JD JD AH AD AC KS".split(), "trump": "S"}, "", {},
     "run 15 + royal marriage 4 + 2 pinochle 30 + aces around 10 = 59 (♠ trump)"),
    ({"cards": "AH 10H KH QH JH KH QH 9H QS JD AS AC".split()}, "H", {"deck": "single", "meld_table": "single-classic"},
     "run 150 + royal marriage 40 + dix 10 + pinochle 40 = 240 (♥ trump)"),  # RULES.md's worked meld
    ({"cards": "QS JD QS JD".split(), "trump": "D"}, "", {"meld_prices": {"pinochle": [4]}},
     "2 pinochle 8 = 8 (♦ trump)"),
    ({"cards": ["AS", "10H"]}, "", {}, "2 cards, priced once the trump is chosen"),
    ({"cards": ["AS"]}, "C", {}, "no meld = 0 (♣ trump)"),
    ({"cards": ["ZZ"]}, "C", {}, None),
    ({"run": 1}, "H", {}, None),
    (12, "H", {}, None),
])
def test_describe_cards(fact: object, trump: str, rules: dict[str, object], words: str | None) -> None:
    """A hand kept as its cards, meld by meld on the match's table and prices (the faces' dialog writes the same)."""
    assert describe.describe_cards(fact, trump, HouseRules.from_mapping(rules)) == words


def test_every_write_leaves_the_facts_that_reading_its_rows_back_gives(app: Flask) -> None:
    """Each write's facts are remembered for the version it made (``facts_of``): they must be what
    reading the stored rows gives, for every kind of write and every kind of fact."""
    rich = [
        {"bidder": 0, "bid": 50, "trump": "H", "sides": [
            {"meld": {"cards": "AH 10H KH QH JH KH QH QS JD AS".split(), "trump": "H"},
             "tricks": {"counters": 30}, "last_trick": True}, {"meld": 6, "tricks": 18}]},
        {"bidder": 1, "bid": 55, "sides": [{"meld": {"aces_around": 1}, "tricks": 20},
                                           {"meld": [14, {"pinochle": 1}], "tricks": 28, "last_trick": True}]},
        {"passed": True},
        {"bidder": 0, "bid": 90, "sides": [{"meld": 10, "tricks": 30}, {"meld": 8, "tricks": 18, "last_trick": True}]},
        quick(1, 60, 10, 70),
    ]

    def read_back(public_id: str) -> Match:
        get_session().expire_all()
        return reading.to_core(reading.get_match_or_404(public_id))

    with app.app_context():
        public_id = new_match().public_id
        writes = [lambda data=data: writing.add_deal(reading.load_match(public_id), data, None) for data in rich]
        writes += [
            lambda: writing.replace_deal(reading.load_match(public_id), 2, rich[0], None),
            lambda: writing.throw_in(reading.load_match(public_id), 4, None),
            lambda: writing.change_rules(reading.load_match(public_id), HouseRules.from_mapping(
                {"meld_table": "double-large"}), None),
            lambda: writing.replace_deal(reading.load_match(public_id), 1, rich[1], None),
            lambda: writing.delete_deal(reading.load_match(public_id), 3, None),
        ]
        for write in writes:
            written = write()
            assert written is not None
            assert read_back(public_id) == written.match
            assert reading.to_core(reading.get_match_or_404(public_id)) == written.match


def test_an_import_inserts_its_deals_in_one_statement_after_working_them_out(app: Flask) -> None:
    """The first write statement takes SQLite's write lock: the deals' rows are ready before it."""
    from sqlalchemy import event

    data = {"format": "pinochle-match/1", "sides": [{"name": "A"}, {"name": "B"}],
            "deals": [quick(n % 2, 60, 67, 20) for n in range(200)]}
    imported = match_from_json(data)
    writes: list[str] = []

    def on_execute(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            writes.append(statement)

    engine = app.extensions["scorekeeper.engine"]
    event.listen(engine, "before_cursor_execute", on_execute)
    try:
        with app.app_context():
            row = writing.create_match(imported)
            public_id = row.public_id
    finally:
        event.remove(engine, "before_cursor_execute", on_execute)
    assert sum("INTO deal " in statement for statement in writes) == 1 and len(writes) <= 3 + 1 + 1
    assert sum("INTO deal_change " in statement for statement in writes) == 1  # each deal's "entered"
    with app.app_context():
        again = reading.get_match_or_404(public_id)
        assert [deal.position for deal in again.deals] == list(range(1, 201))
        assert reading.to_core(again) == imported.with_deals(reading.to_core(again).deals)
        assert score_match(reading.to_core(again)) == score_match(imported)
