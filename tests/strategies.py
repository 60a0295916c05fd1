"""Hypothesis strategies for valid random matches.

Every played deal is dealt from a shuffled deck: each hand's meld is what those cards show (entered as
points, sets or the cards themselves), and the cards taken in play are the deck split among the sides
(entered as points, counters or cards by rank, one side taking the last trick). So the facts pass the
checks whatever the house rules: trick points add up to the deck, melds fit the deck, bids reach the minimum.

Choices drawn inside a composite are given as tuples: Hypothesis keeps a strategy made from hashable arguments
and hands it out again, while one made from a list is made and checked anew on every draw (a tenth of the
property tests' time).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from hypothesis import strategies as st

from scorekeeper.rules.cards import ALL_CARDS, Card, Deck, Hand, Rank, Suit
from scorekeeper.rules.combinations import Combination
from scorekeeper.rules.house_rules import HouseRules, MeldTableName, MustTake, TrickScale
from scorekeeper.rules.limits import MAX_SIDES, MIN_SIDES
from scorekeeper.rules.match import (
    Deal,
    Match,
    MeldCards,
    MeldFact,
    MeldSets,
    PricingBasis,
    SideDetail,
    SideEntry,
    SideInfo,
    SideTotal,
    TrickCards,
    TrickCounters,
    TrickFact,
)
from scorekeeper.rules.meld import best_meld
from scorekeeper.rules.tricks import CARD_POINTS, COUNTER_RANKS, cards_of_rank, trick_total

_COMBINATION_ORDER = {combination: i for i, combination in enumerate(Combination)}


def house_rules() -> st.SearchStrategy[HouseRules]:
    """Any valid house rules; opening bids lean low so that bids are made as well as set."""
    return st.builds(
        HouseRules,
        target=st.integers(2, 40).map(lambda n: n * 50),
        deck=st.sampled_from(Deck),
        meld_table=st.sampled_from(MeldTableName),
        trick_scale=st.sampled_from(TrickScale),
        min_bid=st.one_of(st.integers(10, 60), st.integers(10, 600)),
        last_trick=st.integers(0, 20),
        must_take_trick=st.sampled_from(MustTake),
        must_win_own_bid=st.booleans(),
    )


def pricing_basis(rules: HouseRules) -> st.SearchStrategy[PricingBasis]:
    """Rules that a deal's plain numbers were entered under, other than the match's own."""
    return st.builds(
        PricingBasis, st.sampled_from(MeldTableName), st.sampled_from(TrickScale), st.integers(0, 20)
    ).filter(lambda basis: basis != PricingBasis.of(rules))


@dataclass(frozen=True)
class DealOptions:
    """Which forms a generated deal may use."""

    pricing_bases: bool = True  # deals entered under other rules (``entered_under``)
    totals: bool = True  # one-number entries
    zero_point_tricks: bool = True  # a side may take tricks worth no points


def name_text(min_size: int = 0, max_size: int = 12) -> st.SearchStrategy[str]:
    """Names as the match file keeps them: NFC, no surrounding spaces, no control or invisible characters, of
    ``min_size`` to ``max_size`` characters once normalized (NFC makes some texts longer: U+0F43 is two)."""
    chars = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Cf"))
    text = st.text(chars, min_size=min_size, max_size=max_size)
    return text.map(lambda name: unicodedata.normalize("NFC", name).strip()).filter(
        lambda name: min_size <= len(name) <= max_size)


def side_names(count: int) -> st.SearchStrategy[list[str]]:
    return st.lists(name_text(min_size=1), min_size=count, max_size=count, unique_by=str.casefold)


def _split(draw: st.DrawFn, total: int, parts: int) -> list[int]:
    """``total`` cards shared among ``parts`` takers at random."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0, *cuts, total]
    return [b - a for a, b in zip(bounds, bounds[1:])]


def _taken(draw: st.DrawFn, deck: Deck, side_count: int, zero_point_tricks: bool) -> list[dict[Rank, int]]:
    """The cards of the deck each side took, by rank.

    Without ``zero_point_tricks`` only sides that took a counter take any card, so a side's trick points
    are zero exactly when it took no trick.
    """
    taken: list[dict[Rank, int]] = [{} for _ in range(side_count)]
    for rank in COUNTER_RANKS:
        for side, n in enumerate(_split(draw, cards_of_rank(deck, rank), side_count)):
            taken[side][rank] = n
    takers = [i for i in range(side_count) if zero_point_tricks or any(taken[i].values())]
    for rank in deck.ranks:
        if rank in COUNTER_RANKS:
            continue
        for side, n in zip(takers, _split(draw, cards_of_rank(deck, rank), len(takers))):
            taken[side][rank] = n
    return taken


def _meld_fact(draw: st.DrawFn, hand: Hand, trump: Suit, deal_trump: Suit | None, rules: HouseRules,
               basis: PricingBasis) -> MeldFact:
    form = draw(st.sampled_from(("points", "sets", "cards")))
    if form == "points":
        return best_meld(hand, trump, basis.meld_table).total
    if form == "sets":
        sets = best_meld(hand, trump, rules.meld_table).sets()
        return MeldSets(tuple(sorted(sets.items(), key=lambda pair: _COMBINATION_ORDER[pair[0]])))
    own_trump = trump if deal_trump is None else draw(st.sampled_from((None, trump)))
    return MeldCards(hand, own_trump)


def _trick_fact(draw: st.DrawFn, taken: dict[Rank, int], rules: HouseRules, basis: PricingBasis) -> TrickFact | None:
    forms = ["points", "cards"]
    if not (rules.trick_scale is TrickScale.CLASSIC and basis.trick_scale is TrickScale.CLASSIC):
        forms.append("counters")
    if not any(taken.values()):
        forms.append("none")
    form = draw(st.sampled_from(tuple(forms)))
    if form == "points":
        return sum(CARD_POINTS[basis.trick_scale][rank] * n for rank, n in taken.items())
    if form == "counters":
        return TrickCounters(sum(taken.get(rank, 0) for rank in COUNTER_RANKS))
    if form == "cards":
        return TrickCards(tuple((rank, taken[rank]) for rank in Rank if taken.get(rank)))
    return None


@st.composite
def played_deal_twins(draw: st.DrawFn, rules: HouseRules, side_count: int, auction: bool,
                      options: DealOptions = DealOptions()) -> tuple[Deal, Deal]:
    """A deal played (or thrown in) with a shuffled deck, its facts entered in random forms; and its twin
    with every side entered as one number (meld + trick points + last trick, took_trick carried)."""
    deck = rules.deck
    players = 4 if side_count == 2 else side_count
    cards = [card for card in ALL_CARDS for _ in range(deck.copies_of(card))]
    order: list[Card] = draw(st.permutations(tuple(cards)))
    size = len(cards) // players
    hands = [Hand.from_cards(order[i * size:(i + 1) * size], deck) for i in range(players)]
    trump = draw(st.sampled_from(Suit))
    deal_trump = draw(st.sampled_from((trump, trump, None)))
    entered_under = draw(st.none() | pricing_basis(rules)) if options.pricing_bases else None
    basis = entered_under or PricingBasis.of(rules)
    bidder = draw(st.integers(0, side_count - 1)) if auction else None
    bid = draw(st.integers(rules.min_bid, rules.min_bid + trick_total(rules))) if auction else None
    thrown_in = auction and draw(st.integers(0, 9)) == 0
    taken = [{} for _ in range(side_count)] if thrown_in else _taken(
        draw, deck, side_count, options.zero_point_tricks
    )
    took = [any(t.values()) for t in taken]
    last = None if thrown_in else draw(st.sampled_from(tuple(i for i in range(side_count) if took[i])))
    sides: list[SideEntry] = []
    totals: list[SideEntry] = []
    for side in range(side_count):
        own_hands = hands[side::side_count]
        meld = sum(best_meld(hand, trump, basis.meld_table).total for hand in own_hands)
        card_points = sum(CARD_POINTS[basis.trick_scale][rank] * n for rank, n in taken[side].items())
        total = SideTotal(meld + card_points + (basis.last_trick if side == last else 0), took[side])
        totals.append(total)
        if options.totals and draw(st.integers(0, 3)) == 0:
            sides.append(total if not took[side] else SideTotal(total.total, draw(st.sampled_from((None, True)))))
            continue
        melds: tuple[MeldFact, ...]
        if draw(st.integers(0, 4)) == 0:  # the partnership's meld as one number
            melds = (meld,)
        else:
            melds = tuple(_meld_fact(draw, hand, trump, deal_trump, rules, basis) for hand in own_hands)
        tricks = None if thrown_in else _trick_fact(draw, taken[side], rules, basis)
        took_trick = draw(st.sampled_from((None, took[side])))
        sides.append(SideDetail(meld=melds, tricks=tricks, last_trick=side == last, took_trick=took_trick))
    deal = Deal(sides=tuple(sides), bidder=bidder, bid=bid, trump=deal_trump, thrown_in=thrown_in,
                entered_under=entered_under)
    return deal, deal._replace(sides=tuple(totals))


def deal_twins(rules: HouseRules, side_count: int, auction: bool,
               options: DealOptions) -> st.SearchStrategy[tuple[Deal, Deal]]:
    """A played deal and its one-number twin, or now and then a deal that everybody passed."""
    passed = Deal(passed=True)
    return st.one_of(st.just((passed, passed)), *[played_deal_twins(rules, side_count, auction, options)] * 5)


@st.composite
def match_twins(draw: st.DrawFn, max_deals: int = 8, options: DealOptions = DealOptions()) -> tuple[Match, Match]:
    """A valid match (2 to 4 sides, random house rules, deals in every form), and the same match with
    every side of every deal entered as one number."""
    side_count = draw(st.integers(MIN_SIDES, MAX_SIDES))
    rules = draw(house_rules())
    auction = draw(st.sampled_from((True, True, True, False)))
    names = draw(side_names(side_count))
    everyone = draw(st.lists(name_text(min_size=1, max_size=10), max_size=2 * side_count, unique_by=str.casefold))
    seats = [draw(st.integers(0, 2)) for _ in names]
    sides = []
    for name, count in zip(names, seats):  # one player sits at one place
        sides.append(SideInfo(name, tuple(everyone[:count])))
        everyone = everyone[count:]
    twins = draw(st.lists(deal_twins(rules, side_count, auction, options), max_size=max_deals))
    match = Match(sides=tuple(sides), rules=rules, deals=tuple(deal for deal, _ in twins),
                  name=draw(name_text(max_size=20)), auction=auction)
    return match, match.with_deals(tuple(twin for _, twin in twins))


def matches(max_deals: int = 8, options: DealOptions = DealOptions()) -> st.SearchStrategy[Match]:
    """A valid match: 2 to 4 sides, random house rules, deals in every form."""
    return match_twins(max_deals, options).map(lambda twins: twins[0])
