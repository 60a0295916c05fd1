"""From recorded facts to the score sheet: each deal's scores, running totals, the winner."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import add
from typing import Any, NamedTuple

from .checks import check_match
from .errors import ContradictionError
from .house_rules import GoingOut, HouseRules, SetPenalty
from .match import Deal, Match, SideDetail
from .pricing import MeldLostReason, price_meld, settle_entry
from .tricks import trick_total

MADE = "made"
SET = "set"
THROWN_IN = "thrown_in"
PASSED = "passed"
NO_AUCTION = "no_auction"


@dataclass(frozen=True)
class DealScore:
    """What one deal is worth to each side."""

    status: str  # made, set, thrown_in, passed or no_auction
    scores: tuple[int, ...]
    made: bool | None
    as_entered: tuple[int, ...]  # sides whose numbers were kept as entered
    lost_meld: tuple[LostMeld, ...] = ()  # sides whose meld did not count, and why


class LostMeld(NamedTuple):
    """A side's meld that did not count under the must-take-a-trick rule: how much, and why."""

    side: int
    meld: int
    reason: MeldLostReason


class Settled(NamedTuple):
    """A deal settled, as the sheet and the statistics read it: ``DealScore``'s figures, and each hand's meld
    points as priced, side after side (a side entered as meld and tricks has one per fact of
    ``SideDetail.meld``, a one-number side none), None where not exact."""

    status: str
    scores: tuple[int, ...]
    made: bool | None
    as_entered: tuple[int, ...]
    lost_meld: tuple[LostMeld, ...]
    hand_melds: tuple[int | None, ...]


class DealLine(NamedTuple):
    """One row of the score sheet (a named tuple: a long sheet builds thousands of them)."""

    number: int
    status: str
    bidder: int | None
    bid: int | None
    scores: tuple[int, ...] | None  # None for a deal played after the end
    totals: tuple[int, ...] | None
    made: bool | None
    after_end: bool
    as_entered: tuple[int, ...]
    lost_meld: tuple[LostMeld, ...] = ()  # the reason the sheet prints beside a side's score ("no trick")
    out: bool = False  # the bidders announced going out (the sheet says so beside the bid)
    forced: bool = False  # everybody passed and the dealer's side was forced to take the minimum bid

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "scores": list(self.scores) if self.scores is not None else None,
            "totals": list(self.totals) if self.totals is not None else None,
            "made": self.made,
            "after_end": self.after_end,
            "as_entered": list(self.as_entered),
            "status": self.status,
            "bidder": self.bidder,
            "bid": self.bid,
        }


@dataclass(frozen=True)
class Sheet:
    """The recomputed score sheet of a match."""

    totals: tuple[int, ...]
    winner: int | None
    ended_at: int | None
    rank: tuple[int, ...]
    deals: tuple[DealLine, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "winner": self.winner,
            "ended_at": self.ended_at,
            "rank": list(self.rank),
            "deals": [line.to_json() for line in self.deals],
        }


@dataclass(frozen=True)
class RulesPreview:
    """The sheet before and after a change of house rules: the deals whose scores change, and those
    whose bidders flip between made and set."""

    before: Sheet
    after: Sheet
    changed: tuple[int, ...]
    flipped: tuple[int, ...] = ()

    @property
    def winner_changes(self) -> bool:
        return (self.before.winner, self.before.ended_at) != (self.after.winner, self.after.ended_at)


def score_deal(rules: HouseRules, deal: Deal, side_count: int) -> DealScore:
    """Settle one deal: the bidders make it or are set; defenders keep what they earned."""
    settled = settle_deal(rules, deal, side_count)
    return DealScore(settled.status, settled.scores, settled.made, settled.as_entered, settled.lost_meld)


def settle_deal(rules: HouseRules, deal: Deal, side_count: int) -> Settled:
    """``score_deal``'s figures, with each hand's meld as priced."""
    if deal.passed:
        return Settled(PASSED, (0,) * side_count, None, (), (), ())
    bidder, thrown_in = deal.bidder, deal.thrown_in
    played = not thrown_in or bidder is None
    earned = []
    melds: list[int | None] = []
    as_entered: tuple[int, ...] = ()  # the sides, and the meld lost, are few and rare: tuples grown as found
    lost: tuple[LostMeld, ...] = ()
    index = 0
    for entry in deal.sides:  # a loop rather than a comprehension, which is a function call of its own
        points, meld, reason, exact = settle_entry(entry, deal, rules, played, melds)
        earned.append(points)
        if reason is not None and meld > 0:
            lost += (LostMeld(index, meld, reason),)
        if not exact:
            as_entered += (index,)
        index += 1
    hand_melds = tuple(melds)
    if bidder is None:
        return Settled(NO_AUCTION, tuple(earned), None, as_entered, lost, hand_melds)
    bid = deal.bid or 0
    if thrown_in:
        penalty = -2 * bid if rules.set_penalty is _DOUBLE else -bid
        bonus = rules.throw_in_bonus
        scores = tuple([penalty if i == bidder else points + bonus for i, points in enumerate(earned)])
        return Settled(THROWN_IN, scores, False, as_entered, _lost_meld(lost, bidder), hand_melds)
    if earned[bidder] >= bid:
        return Settled(MADE, tuple(earned), True, as_entered, lost, hand_melds)
    earned[bidder] = set_score(rules, bid, earned[bidder])
    kept = rules.set_penalty is _SHORTFALL  # otherwise the bid is the score anyway
    return Settled(SET, tuple(earned), False, as_entered, lost if kept or not lost else _lost_meld(lost, bidder),
                   hand_melds)


def set_score(rules: HouseRules, bid: int, earned: int) -> int:
    """What bidders who earned ``earned`` on a bid of ``bid`` score when set."""
    penalty = rules.set_penalty
    if penalty is _SHORTFALL:
        return earned - bid
    if penalty is _DOUBLE:
        return -2 * bid
    return -bid


# Members of an enum read once: in Python 3.11 reading one from its class is slow, and most deals are set.
_SHORTFALL, _DOUBLE = SetPenalty.SHORTFALL, SetPenalty.DOUBLE


def _lost_meld(lost: tuple[LostMeld, ...], skip: int) -> tuple[LostMeld, ...]:
    """The sides whose meld did not count, but ``skip``, a side whose score does not depend on it."""
    return tuple([side for side in lost if side.side != skip]) if lost else ()


def score_match(match: Match, *, checked: bool = False) -> Sheet:
    """Recompute the whole sheet from the facts; refuse facts that contradict the rules.

    ``checked``: every deal was checked against the match's rules when it was recorded (a stored match:
    a deal that contradicts the rules is refused at entry, and so is a rule change that would make a
    recorded deal contradict), so the checks are not run again.
    """
    _refuse_contradictions(match, checked)
    rules, side_count = match.rules, len(match.sides)
    lines: list[DealLine] = []
    # Each deal settled as it is added up: a settled deal is let go once its line is drawn.
    totals, winner, ended_at = play(match, (settle_deal(rules, deal, side_count) for deal in match.deals), lines)
    rank = tuple(sorted(range(len(totals)), key=lambda i: (i != winner, -totals[i], i)))
    return Sheet(totals, winner, ended_at, rank, tuple(lines))


def settle_match(match: Match, *, checked: bool = False) -> list[Settled]:
    """Each deal of the match settled, as ``score_match`` settles them (what the statistics read, with
    ``play``, rather than the whole sheet); ``ContradictionError`` (every problem of every deal) when the
    facts of any deal contradict the rules."""
    _refuse_contradictions(match, checked)
    side_count = len(match.sides)
    return [settle_deal(match.rules, deal, side_count) for deal in match.deals]


def _refuse_contradictions(match: Match, checked: bool) -> None:
    problems = [] if checked else check_match(match)
    if problems:
        raise ContradictionError(problems)


class Standing(NamedTuple):
    """Where a match stands after its deals: each side's total, the winner and the deal that ended it."""

    totals: tuple[int, ...]
    winner: int | None
    ended_at: int | None


def play(match: Match, settled: Iterable[Settled], lines: list[DealLine] | None = None) -> Standing:
    """Add up the settled deals in order, to the end of the match; each deal's line of the sheet goes into
    ``lines`` when given, deals played after the end included (without it, adding stops at the end)."""
    rules = match.rules
    target, deal_limit = rules.target, rules.deal_limit
    totals = (0,) * len(match.sides)
    winner: int | None = None
    ended_at: int | None = None
    played = 0
    announce = rules.going_out is GoingOut.ANNOUNCE and match.auction
    number = 0
    for deal, outcome in zip(match.deals, settled):
        number += 1
        if winner is not None:  # a deal played after the end
            if lines is None:
                break
            lines.append(DealLine(number, outcome.status, deal.bidder, deal.bid, None, None, outcome.made, True,
                                  outcome.as_entered, (), deal.out, deal.forced))
            continue
        made = outcome.made
        if not deal.passed:  # a passed deal scores nothing
            totals = tuple(map(add, totals, outcome.scores))
            played += 1
            if max(totals) >= target:
                winner = _winner(rules, deal, made, totals, announce)
        if winner is None and deal_limit and played >= deal_limit:
            winner = _highest(list(range(len(totals))), totals)  # a tie at the top plays on
        if winner is not None:
            ended_at = number
        if lines is not None:
            lines.append(DealLine(number, outcome.status, deal.bidder, deal.bid, outcome.scores, totals, made, False,
                                  outcome.as_entered, outcome.lost_meld, deal.out, deal.forced))
    return Standing(totals, winner, ended_at)


def _winner(rules: HouseRules, deal: Deal, made: bool | None, totals: tuple[int, ...], announce: bool) -> int | None:
    """Who wins on this deal by the target, if anyone (``announce``: only by bidding out)."""
    reached = [i for i, total in enumerate(totals) if total >= rules.target]
    if not reached:
        return None
    if deal.bidder is None:
        return _highest(reached, totals)
    if announce:
        return deal.bidder if deal.out and made and deal.bidder in reached else None
    if made and deal.bidder in reached:
        return deal.bidder
    if rules.must_win_own_bid:
        return None
    return _highest([i for i in reached if i != deal.bidder], totals)


def _highest(candidates: list[int], totals: tuple[int, ...]) -> int | None:
    """The candidate with the highest total; None when there are none or the top is tied."""
    if not candidates:
        return None
    best = max(totals[i] for i in candidates)
    leaders = [i for i in candidates if totals[i] == best]
    return leaders[0] if len(leaders) == 1 else None


def preview_rules(match: Match, rules: HouseRules) -> RulesPreview:
    """The sheet under ``rules`` beside the current one; refuses rules that recorded facts contradict."""
    return compare_sheets(score_match(match), score_match(match.with_rules(rules)))


def compare_sheets(before: Sheet, after: Sheet) -> RulesPreview:
    """What a change does to the sheet: only deals whose scores change are listed (a deal now played after
    the end has none), and the bids that flip between made and set."""
    changed = tuple(old.number for old, new in zip(before.deals, after.deals) if old.scores != new.scores)
    flipped = tuple(
        old.number for old, new in zip(before.deals, after.deals)
        if old.made is not None and new.made is not None and old.made != new.made
    )
    return RulesPreview(before, after, changed, flipped)


def bidder_meld(rules: HouseRules, deal: Deal) -> int | None:
    """The bidding side's meld points, when the deal records them apart from its tricks."""
    if deal.bidder is None or not 0 <= deal.bidder < len(deal.sides):
        return None
    entry = deal.sides[deal.bidder]
    if not isinstance(entry, SideDetail):
        return None
    return sum(price_meld(fact, deal, rules)[0] for fact in entry.meld)


def is_dead(rules: HouseRules, bid: int, meld: int) -> bool:
    """The throw-in test: the bid cannot be made even by taking every trick point."""
    return bid > meld + trick_total(rules)


def dead_contract(rules: HouseRules, deal: Deal) -> bool:
    """Whether the deal's contract was dead once meld was shown (bid > meld + all trick points)."""
    meld = bidder_meld(rules, deal)
    return deal.bid is not None and meld is not None and is_dead(rules, deal.bid, meld)


def offers_throw_in(match: Match, number: int) -> bool:
    """Whether deal ``number``'s contract was dead and it was not thrown in: the sheet offers to throw it in."""
    deal = match.deals[number - 1]
    return dead_contract(match.rules, deal) and not deal.thrown_in
