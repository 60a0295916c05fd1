"""The recorded facts of a match as values: equal facts are equal and hash alike, whatever was asked before."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pickle
import pkgutil

import scorekeeper.rules as rules_package
from scorekeeper.rules.cards import Deck, Suit
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.match import (
    Deal,
    Match,
    SideDetail,
    SideInfo,
    SideTotal,
    TrickCounters,
)


def a_deal(**changes: object) -> Deal:
    deal = Deal(sides=(SideDetail(meld=(20,), tricks=30, last_trick=True), SideTotal(12)),
                bidder=0, bid=50, trump=Suit.HEARTS, bid_by="Ann")
    return deal._replace(**changes) if changes else deal


def test_equal_deals_are_equal_and_hash_alike_whether_hashed_before_or_not() -> None:
    first, second = a_deal(), a_deal()
    hash(first)  # the first keeps its hash; the second has not worked one out yet
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second}) == 1


def test_a_changed_deal_is_another_deal_with_its_own_hash() -> None:
    deal = a_deal()
    hash(deal)
    changed = deal._replace(bid=60)
    assert changed != deal
    assert hash(changed) == hash(a_deal(bid=60))
    assert {deal: 1}.get(changed) is None


def test_a_deal_shows_and_compares_only_its_facts() -> None:
    deal = a_deal()
    assert repr(deal).startswith("Deal(sides=(SideDetail(meld=(20,), tricks=30, last_trick=True")
    assert not hasattr(deal, "__dict__")  # facts read at every recompute
    assert deal != a_deal(sides=(SideDetail(meld=(20,), tricks=TrickCounters(30), last_trick=True),
                                 SideTotal(12)))  # points are not counters


def test_a_deal_survives_a_round_trip_through_pickle() -> None:
    deal = a_deal()
    assert pickle.loads(pickle.dumps(deal)) == deal


def test_equal_matches_hash_alike_and_a_rule_change_makes_another_match() -> None:
    sides = (SideInfo("We", ("Ann", "Bob")), SideInfo("They", ("Cy", "Di")))
    match = Match(sides=sides, deals=(a_deal(),))
    hash(match)
    again = Match(sides=sides, deals=(a_deal(),))
    assert match == again and hash(match) == hash(again)
    other = match.with_rules(HouseRules(target=1000))
    assert other != match and hash(other) == hash(Match(sides=sides, rules=HouseRules(target=1000),
                                                          deals=other.deals))
    assert not hasattr(match, "__dict__")


def test_every_value_of_the_rules_core_keeps_its_fields_where_they_are_read_fast() -> None:
    """A dataclass default is kept on the class. When its type is one of ours (an enum member, a meld price
    list), Python 3.11 reads that field through the slow generic path on every instance, and the house
    rules are read for every side of every deal: such a class keeps its fields in slots instead."""
    slow = []
    for module in pkgutil.iter_modules(rules_package.__path__, "scorekeeper.rules."):
        for cls in vars(importlib.import_module(module.name)).values():
            if not (inspect.isclass(cls) and dataclasses.is_dataclass(cls)) or "__slots__" in vars(cls):
                continue
            slow += [f"{cls.__qualname__}.{field.name}" for field in dataclasses.fields(cls)
                     if type(vars(cls).get(field.name)).__module__.startswith("scorekeeper")]
    assert slow == []
    assert not hasattr(HouseRules(), "__dict__")
    assert pickle.loads(pickle.dumps(HouseRules(target=1000, deck=Deck.SINGLE))) == HouseRules(target=1000,
                                                                                                 deck=Deck.SINGLE)
