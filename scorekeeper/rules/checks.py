"""Recorded facts that contradict the house rules, reported deal by deal.

A deal that fails a check is refused at entry, and a house-rule change that would make a recorded deal
fail is refused, naming the deals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from operator import gt, le

from .cards import ALL_CARDS, Card, Deck, Hand, Rank, Suit, number_word
from .combinations import Combination
from .errors import CardError
from .house_rules import HouseRules
from .limits import MAX_DEALS
from .match import (
    Deal,
    Match,
    MeldCards,
    MeldPoints,
    MeldSets,
    SideDetail,
    SideInfo,
    SideTotal,
    TrickCards,
    TrickCounters,
    TrickFact,
    TrickPoints,
)
from .meld import max_sets
from .messages import problem, say
from .pricing import basis_of, meld_of_hand, took_any_trick
from .problems import Problem, ProblemCode
from .tricks import CARD_POINTS, COUNTER_RANKS, cards_of_rank, counter_value, deck_card_points, deck_counters

Code = ProblemCode


def check_match(match: Match) -> list[tuple[int, Problem]]:
    """Every contradiction in the match as (deal number from 1, problem with its path within the deal)."""
    rules, sides, auction = match.rules, match.sides, match.auction
    holds = deck_card_points(rules.deck, rules.trick_scale)
    found: list[tuple[int, Problem]] = []
    number = 0
    for deal in match.deals:
        number += 1
        if not plainly_fine(rules, deal, sides, auction, holds):
            found += [(number, problem) for problem in deal_problems(rules, deal, sides, auction)]
    return found


def plainly_fine(rules: HouseRules, deal: Deal, sides: Sequence[SideInfo], auction: bool,
                 holds: int | None = None) -> bool:
    """Whether ``deal_problems`` has nothing to say of a deal entered in plain numbers, told in one look: True
    only when each of its checks passes (a bid on a side of the match at the minimum or more, the players it
    names seated, meld as numbers, trick points adding up to the deck's with one side taking the last trick).
    False means "look closer", not that something is wrong: cards, sets and counters are checked in full.
    ``holds``: the deck's card points on the scale of ``rules``, when the caller has them."""
    if deal.passed:
        return True
    bidder, bid, bid_by, dealt_by = deal.bidder, deal.bid, deal.bid_by, deal.dealt_by  # each field read once
    if bidder is None or not 0 <= bidder < len(sides) or bid is None or bid < rules.min_bid:
        return False
    if bid_by is not None and bid_by not in sides[bidder].players:
        return False
    if dealt_by is not None and all(dealt_by not in side.players for side in sides):
        return False
    entries = deal.sides
    if len(entries) != len(sides):
        return False
    thrown_in = deal.thrown_in
    taken = 0
    claims = 0
    details = 0  # sides entered as meld and tricks (a one-number side has nothing to check)
    tricks_given = False
    for entry in entries:
        if type(entry) is SideTotal:
            continue
        if type(entry) is not SideDetail:
            return False
        details += 1
        for fact in entry.meld:
            if type(fact) is not MeldPoints:
                return False
        tricks, last_trick = entry.tricks, entry.last_trick
        if tricks is None:
            took = last_trick
        elif type(tricks) is TrickPoints:
            points = tricks
            taken += points
            tricks_given = True
            took = points > 0 or last_trick
        else:
            return False
        if took and (thrown_in or entry.took_trick is False):
            return False
        claims += last_trick
    if thrown_in or not details:
        return True
    under = deal.entered_under
    if holds is None or (under is not None and under.trick_scale is not rules.trick_scale):
        holds = deck_card_points(rules.deck, basis_of(deal, rules).trick_scale)
    if claims > 1 or taken > holds:
        return False
    complete = details == len(entries) and tricks_given
    return not complete or (taken == holds and claims == 1)


def check_new_deal(match: Match, deal: Deal) -> list[Problem]:
    """The contradictions of one deal about to be recorded in ``match``, and a deal beyond the most a
    match may hold."""
    if len(match.deals) >= MAX_DEALS:
        return [problem(Code.TOO_MANY_DEALS, "", deals=len(match.deals))]
    return deal_problems(match.rules, deal, match.sides, match.auction)


def deal_problems(rules: HouseRules, deal: Deal, sides: Sequence[SideInfo], auction: bool = True) -> list[Problem]:
    """What in this deal cannot have happened under ``rules``; paths are relative to the deal."""
    if deal.passed:
        return []
    problems = _contract_problems(rules, deal, sides, auction) + _player_problems(deal, sides)
    if len(deal.sides) != len(sides):
        side_count = problem(Code.SIDE_COUNT, "sides", deal_sides=len(deal.sides), match_sides=len(sides))
        return problems + [side_count]
    return problems + _meld_problems(rules, deal, sides) + _trick_problems(rules, deal, sides)


def _contract_problems(rules: HouseRules, deal: Deal, sides: Sequence[SideInfo], auction: bool) -> list[Problem]:
    if deal.bidder is None:
        if auction:
            return [problem(Code.BIDDER_MISSING, "bidder")]
        if deal.out:
            return [problem(Code.OUT_WITHOUT_BIDDER, "out")]
        if deal.forced:
            return [problem(Code.FORCED_WITHOUT_BIDDER, "forced")]
        if deal.thrown_in:
            return [problem(Code.THROWN_IN_WITHOUT_AUCTION, "thrown_in")]
        return []
    if not 0 <= deal.bidder < len(sides):
        return [problem(Code.BIDDER_UNKNOWN, "bidder", bidder=deal.bidder)]
    if deal.bid is None:
        return [problem(Code.BID_MISSING, "bid")]
    if deal.bid < rules.min_bid:
        return [problem(Code.BID_BELOW_MINIMUM, "bid", bid=deal.bid, minimum=rules.min_bid)]
    return []


def _player_problems(deal: Deal, sides: Sequence[SideInfo]) -> list[Problem]:
    """``bid_by`` plays on the bidding side; ``dealt_by`` plays in the match."""
    problems = []
    if deal.bid_by is not None:
        bidding = sides[deal.bidder].players if deal.bidder is not None and 0 <= deal.bidder < len(sides) else ()
        if deal.bid_by not in bidding:
            problems.append(problem(Code.BID_BY_NOT_BIDDER, "bid_by", player=deal.bid_by))
    if deal.dealt_by is not None and all(deal.dealt_by not in side.players for side in sides):
        problems.append(problem(Code.DEALER_UNKNOWN, "dealt_by", player=deal.dealt_by))
    return problems


def _side(index: int, key: str) -> str:
    return f"sides[{index}].{key}"


def _meld_path(side: int, index: int, entry: SideDetail) -> str:
    """Where a side's meld fact is: ``meld`` when it is the only one, as the match file writes it."""
    return _side(side, "meld" if len(entry.meld) == 1 else f"meld[{index}]")


def _meld_problems(rules: HouseRules, deal: Deal, sides: Sequence[SideInfo]) -> list[Problem]:
    problems: list[Problem] = []
    deck = rules.deck
    copies = _COPIES[deck]
    shown: list[tuple[int, ...]] = []  # the counts of each hand shown as cards (and priced), in the deal's order
    set_totals: Counter[Combination] = Counter()
    needed: Counter[int] = Counter()  # the fewest copies of each card that all the hands hold
    for side, (info, entry) in enumerate(zip(sides, deal.sides)):
        if not isinstance(entry, SideDetail):
            continue
        for index, fact in enumerate(entry.meld):  # a fact's place is written only when it is refused
            if isinstance(fact, MeldCards):
                trump = fact.trump or deal.trump
                too_many = _copies_problem(fact.hand, deck)
                if too_many:
                    problems.append(Problem(too_many.code, _meld_path(side, index, entry),
                                            say("side", side=info.name, message=too_many)))
                    continue
                if trump is None:
                    problems.append(problem(Code.MELD_NEEDS_TRUMP, _meld_path(side, index, entry), side=info.name))
                    continue
                shown.append(fact.hand.counts)
                set_totals.update(meld_of_hand(fact.hand, trump, rules.meld_table, rules.meld_prices).sets())
            elif isinstance(fact, MeldSets):
                sets = dict(fact.sets)
                problems += [problem(code, _meld_path(side, index, entry), "hand", side=info.name, **fields)
                             for code, fields in _impossible_sets(sets, deck)]
                set_totals.update(sets)
                needed.update(_cards_needed(sets, deal.trump))
    card_totals = [sum(column) for column in zip(*shown)] if shown else [0] * len(ALL_CARDS)  # by card index
    if any(map(gt, card_totals, copies)):  # named card by card in the order the hands first show them
        for index in dict.fromkeys(i for counts in shown for i, n in enumerate(counts) if n):
            n = card_totals[index]
            if n > copies[index]:
                problems.append(problem(Code.HANDS_BEYOND_DECK, "", held=number_word(n), card=ALL_CARDS[index],
                                        deck=deck.label, copies=number_word(copies[index])))
    if not problems:
        problems += [problem(code, "", "deal", **fields) for code, fields in _impossible_sets(dict(set_totals), deck)]
    if not problems:
        needed.update({index: n for index, n in enumerate(card_totals) if n})
        problems += [
            problem(Code.MELDS_BEYOND_DECK, "", needed=number_word(n), card=ALL_CARDS[index], deck=deck.label,
                    copies=number_word(copies[index]))
            for index, n in sorted(needed.items())
            if n > copies[index]
        ]
    return problems


_COPIES = {deck: tuple(deck.copies_of(card) for card in ALL_CARDS) for deck in Deck}
"""For each deck, how many copies of each card (by index) it holds."""


def _copies_problem(hand: Hand, deck: Deck) -> CardError | None:
    """Why ``hand`` cannot come from ``deck`` (more copies of a card than it holds), or None."""
    if all(map(le, hand.counts, _COPIES[deck])):  # each card within its copies, told in C
        return None
    try:
        Hand.from_cards(hand, deck)
    except CardError as error:
        return error
    return None


def _cards_needed(sets: dict[Combination, int], trump: Suit | None) -> dict[int, int]:
    """The fewest copies of each card (by index) that one hand holding ``sets`` must have.

    A card serves once within a class, so it is needed as often as the class that uses it most.
    Marriages are left out because their suits are not recorded; without a trump, so is the trump class.
    """
    trump_class: dict[int, int] = {}  # runs and royal marriages share the trump K and Q
    needed: dict[int, int] = {}  # in classes 2 and 3 no two combinations share a card
    for combination, n in sets.items():
        cards, in_trump_class = _CARDS_OF_SET[combination, trump]
        for index in cards:
            if in_trump_class:
                trump_class[index] = trump_class.get(index, 0) + n
            elif n > needed.get(index, 0):
                needed[index] = n
    for index, n in trump_class.items():
        needed[index] = max(needed.get(index, 0), n)
    return needed


def _cards_of_set(combination: Combination, trump: Suit | None) -> tuple[int, ...]:
    """The cards (by index) that one set of ``combination`` takes, when they are known."""
    if combination in _AROUND_RANKS:
        return tuple(Card(suit, _AROUND_RANKS[combination]).index for suit in Suit)
    if combination is Combination.PINOCHLE:
        return Card(Suit.SPADES, Rank.QUEEN).index, Card(Suit.DIAMONDS, Rank.JACK).index
    if trump is None or combination is Combination.MARRIAGE:
        return ()
    ranks = {
        Combination.RUN: (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK),
        Combination.ROYAL_MARRIAGE: (Rank.KING, Rank.QUEEN),
        Combination.DIX: (Rank.NINE,),
    }[combination]
    return tuple(Card(trump, rank).index for rank in ranks)


_AROUND_RANKS = {
    Combination.ACES_AROUND: Rank.ACE,
    Combination.KINGS_AROUND: Rank.KING,
    Combination.QUEENS_AROUND: Rank.QUEEN,
    Combination.JACKS_AROUND: Rank.JACK,
}
_CARDS_OF_SET = {
    (combination, trump): (_cards_of_set(combination, trump), combination.meld_class == 1)
    for combination in Combination
    for trump in (None, *Suit)
}


def _impossible_sets(sets: dict[Combination, int], deck: Deck) -> list[tuple[ProblemCode, dict[str, object]]]:
    """Sets that need more copies of a card than the deck holds: each code and its message's fields."""
    problems: list[tuple[ProblemCode, dict[str, object]]] = []
    for combination, n in sets.items():
        limit = max_sets(combination, deck)
        if n > limit:
            problems.append((Code.IMPOSSIBLE_SETS,
                             {"sets": n, "combination": combination.label, "deck": deck.label, "limit": limit}))
    trump_pairs = sets.get(Combination.RUN, 0) + sets.get(Combination.ROYAL_MARRIAGE, 0)
    if trump_pairs > deck.copies and not problems:
        problems.append((Code.TRUMP_KINGS_SHORT, {"kings": trump_pairs, "deck": deck.label, "copies": deck.copies}))
    return problems


def _trick_problems(rules: HouseRules, deal: Deal, sides: Sequence[SideInfo]) -> list[Problem]:
    problems: list[Problem] = []
    details = [
        (side, info, entry)
        for side, (info, entry) in enumerate(zip(sides, deal.sides))
        if isinstance(entry, SideDetail)
    ]
    for side, info, entry in details:
        problems += [
            problem(code, _side(side, "tricks"), side=info.name, **fields)
            for code, fields in _side_trick_problems(rules, deal, entry)
        ]
        if entry.took_trick is False and took_any_trick(entry.tricks, entry.last_trick):
            problems.append(problem(Code.TRICKS_WITHOUT_TRICK, _side(side, "took_trick"), side=info.name))
        if deal.thrown_in and took_any_trick(entry.tricks, entry.last_trick):
            key = "tricks" if took_any_trick(entry.tricks, False) else "last_trick"
            problems.append(problem(Code.TRICKS_IN_THROWN_IN, _side(side, key), side=info.name))
    if problems or deal.thrown_in or not details:
        return problems
    problems += _taken_problems(rules.deck, [entry.tricks for _, _, entry in details])
    claims = [side for side, _, entry in details if entry.last_trick]
    if len(claims) > 1:
        problems.append(problem(Code.LAST_TRICK_COUNT, _side(claims[-1], "last_trick"), sides=number_word(len(claims))))
    basis = basis_of(deal, rules)
    points = [_entered_card_points(rules, deal, entry) for _, _, entry in details]
    if None in points:
        return problems
    taken = sum(p for p in points if p is not None)
    holds = deck_card_points(rules.deck, basis.trick_scale)
    complete = len(details) == len(deal.sides) and any(entry.tricks is not None for _, _, entry in details)
    if taken > holds or (complete and taken != holds):
        problems.append(problem(Code.TRICK_TOTAL, _side(details[-1][0], "tricks"), taken=taken,
                                deck=rules.deck.label, holds=holds, scale=basis.trick_scale.value))
    if complete and not claims:
        problems.append(problem(Code.LAST_TRICK_MISSING, _side(details[0][0], "last_trick")))
    return problems


def _taken_problems(deck: Deck, taken: Sequence[TrickFact | None]) -> list[Problem]:
    """Cards of a rank, or counters, that the sides took together beyond what the deck holds."""
    by_rank: Counter[Rank] = Counter()
    counters = 0
    for tricks in taken:
        if isinstance(tricks, TrickCards):
            by_rank.update(dict(tricks.by_rank))
            counters += sum(n for rank, n in tricks.by_rank if rank in COUNTER_RANKS)
        elif isinstance(tricks, TrickCounters):
            counters += tricks.counters
    problems = [
        problem(Code.RANK_TOTAL, "", taken=n, rank=rank.label, deck=deck.label, held=cards_of_rank(deck, rank))
        for rank in (Rank if by_rank else ())
        if (n := by_rank[rank]) > cards_of_rank(deck, rank)
    ]
    if not problems and counters > deck_counters(deck):
        problems.append(problem(Code.COUNTERS_TOTAL, "", counters=counters, deck=deck.label, held=deck_counters(deck)))
    return problems


def _side_trick_problems(
    rules: HouseRules, deal: Deal, entry: SideDetail,
) -> list[tuple[ProblemCode, dict[str, object]]]:
    """A side's tricks beyond its deck: each code and its message's fields (but the side's name)."""
    deck = rules.deck
    tricks = entry.tricks
    if isinstance(tricks, TrickCounters):
        problems: list[tuple[ProblemCode, dict[str, object]]] = []
        if tricks.counters > deck_counters(deck):
            problems.append((Code.COUNTERS_BEYOND_DECK,
                             {"counters": tricks.counters, "deck": deck.label, "held": deck_counters(deck)}))
        if counter_value(rules.trick_scale) is None and counter_value(basis_of(deal, rules).trick_scale) is None:
            problems.append((Code.COUNTERS_ON_CLASSIC, {}))
        return problems
    if isinstance(tricks, TrickCards):
        return [
            (Code.RANK_BEYOND_DECK, {"taken": n, "rank": rank.label, "deck": deck.label,
                                     "held": cards_of_rank(deck, rank)})
            for rank, n in tricks.by_rank
            if n > cards_of_rank(deck, rank)
        ]
    return []


def _entered_card_points(rules: HouseRules, deal: Deal, entry: SideDetail) -> int | None:
    """A side's card points on the scale the deal was entered under (None: cannot tell)."""
    scale = basis_of(deal, rules).trick_scale
    tricks = entry.tricks
    if tricks is None:
        return 0
    if isinstance(tricks, TrickCounters):
        value = counter_value(scale)
        return None if value is None else tricks.counters * value
    if isinstance(tricks, TrickCards):
        return sum(CARD_POINTS[scale][rank] * n for rank, n in tricks.by_rank)
    return tricks
