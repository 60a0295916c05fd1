"""The checks' quick pass finds a deal clean exactly when the full pass finds nothing in it.

Deals come valid from ``strategies`` and are then spoiled at random in the ways a player can get them
wrong: a card or a set too many, trick counts or points off, the last trick given twice or to nobody, a
side said to take no trick, a deal thrown in after play, a trump forgotten.
"""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.cards import ALL_CARDS, Deck, Hand, Rank
from scorekeeper.rules.checks import _meld_clean, _meld_problems, _trick_problems, _tricks_clean
from scorekeeper.rules.combinations import Combination
from scorekeeper.rules.match import (
    Deal,
    Match,
    MeldCards,
    MeldFact,
    MeldSets,
    SideDetail,
    TrickCards,
    TrickCounters,
    TrickFact,
    TrickPoints,
)
from scorekeeper.rules.meld import max_sets
from scorekeeper.rules.price_presets import PRICE_PRESETS, preset_prices
from scorekeeper.rules.tricks import cards_of_rank, deck_counters
from strategies import matches

EXAMPLES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _spoil_meld(draw: st.DrawFn, fact: MeldFact, deck: Deck) -> MeldFact:
    """A card more (often up to what the deck holds: too many only with the other hands), a set more
    (often as many as one hand may hold), or the trump forgotten."""
    if isinstance(fact, MeldCards):
        if draw(st.integers(0, 4)) == 0:
            return dataclasses.replace(fact, trump=None)
        index = draw(st.integers(0, len(ALL_CARDS) - 1))
        counts = list(fact.hand.counts)
        most = deck.copies_of(ALL_CARDS[index])
        counts[index] = most if draw(st.booleans()) and most else counts[index] + draw(st.integers(1, 3))
        return MeldCards(Hand(counts, fact.hand.deck), fact.trump)
    if isinstance(fact, MeldSets):
        combination = draw(st.sampled_from(Combination))
        sets = dict(fact.sets)
        most = max_sets(combination, deck)
        sets[combination] = most if draw(st.booleans()) else sets.get(combination, 0) + draw(st.integers(1, 3))
        return MeldSets(tuple(sets.items()))
    return fact


def _spoil_tricks(draw: st.DrawFn, tricks: TrickFact | None, deck: Deck) -> TrickFact | None:
    """Points or counters off, or a rank's count raised (often to all the deck holds)."""
    if isinstance(tricks, TrickPoints):
        return TrickPoints(max(0, tricks.points + draw(st.integers(-12, 12))))
    if isinstance(tricks, TrickCounters):
        raised = deck_counters(deck) if draw(st.booleans()) else tricks.counters + draw(st.integers(-3, 30))
        return TrickCounters(max(0, raised))
    if isinstance(tricks, TrickCards):
        rank = draw(st.sampled_from(Rank))
        by_rank = dict(tricks.by_rank)
        by_rank[rank] = cards_of_rank(deck, rank) if draw(st.booleans()) else by_rank.get(rank, 0) + draw(
            st.integers(1, 20))
        return TrickCards(tuple(by_rank.items()))
    return tricks


@st.composite
def spoiled(draw: st.DrawFn, deal: Deal, deck: Deck) -> Deal:
    """``deal`` with a few of its facts changed at random."""
    sides = list(deal.sides)
    for _ in range(draw(st.integers(0, 3))):
        if not sides:
            break
        at = draw(st.integers(0, len(sides) - 1))
        entry = sides[at]
        if not isinstance(entry, SideDetail):
            continue
        how = draw(st.sampled_from(["meld", "tricks", "last_trick", "took_trick", "no tricks"]))
        if how == "meld" and entry.meld:
            i = draw(st.integers(0, len(entry.meld) - 1))
            meld = entry.meld[:i] + (_spoil_meld(draw, entry.meld[i], deck),) + entry.meld[i + 1:]
            entry = dataclasses.replace(entry, meld=meld)
        elif how == "tricks":
            entry = dataclasses.replace(entry, tricks=_spoil_tricks(draw, entry.tricks, deck))
        elif how == "last_trick":
            entry = dataclasses.replace(entry, last_trick=not entry.last_trick)
        elif how == "took_trick":
            entry = dataclasses.replace(entry, took_trick=draw(st.sampled_from([None, False, True])))
        else:
            entry = dataclasses.replace(entry, tricks=None)
        sides[at] = entry
    thrown_in = deal.thrown_in or (deal.bidder is not None and draw(st.integers(0, 9)) == 0)
    trump = None if draw(st.integers(0, 9)) == 0 else deal.trump
    return dataclasses.replace(deal, sides=tuple(sides), thrown_in=thrown_in, trump=trump)


@st.composite
def matches_and_deals(draw: st.DrawFn) -> tuple[Match, list[Deal]]:
    match = draw(matches(max_deals=4))
    played = [deal for deal in match.deals if not deal.passed]
    return match, played + [draw(spoiled(deal, match.rules.deck)) for deal in played for _ in range(3)]


@EXAMPLES
@given(matches_and_deals())
def test_the_quick_meld_pass_agrees_with_the_full_one(found: tuple[Match, list[Deal]]) -> None:
    match, deals = found
    for key, _ in PRICE_PRESETS:  # the table's own prices can change which sets a hand's best meld shows
        rules = match.rules.replace(meld_prices=preset_prices(key, match.rules.meld_table))
        for deal in deals:
            assert _meld_clean(rules, deal) == (not _meld_problems(rules, deal, match.sides)), (key, deal)


@EXAMPLES
@given(matches_and_deals())
def test_the_quick_trick_pass_agrees_with_the_full_one(found: tuple[Match, list[Deal]]) -> None:
    match, deals = found
    for deal in deals:
        assert _tricks_clean(match.rules, deal) == (not _trick_problems(match.rules, deal, match.sides)), deal
