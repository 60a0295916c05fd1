"""From recorded facts to the score sheet: each deal's scores, running totals, the winner."""

from __future__ import annotations

from dataclasses import dataclass
from operator import add
from typing import Any, NamedTuple

from .checks import deal_problems
from .errors import ContradictionError
from .house_rules import GoingOut, HouseRules, SetPenalty
from .match import Deal, Match, SideDetail, SideInfo
from .pricing import MeldLostReason, PricedSide, price_meld, price_side
from .problems import Problem
from .tricks import trick_total

MADE = "made"
SET = "set"
THROWN_IN = "thrown_in"
PASSED = "passed"
NO_AUCTION = "no_auction"


class DealScore:
    """What one deal is worth to each side.

    A plain class with slots rather than a dataclass: a cold recompute builds one for every deal. Equal
    when everything but ``hand_melds`` is equal.
    """

    __slots__ = ("status", "scores", "made", "as_entered", "lost_meld", "hand_melds")

    def __init__(self, status: str, scores: tuple[int, ...], made: bool | None, as_entered: tuple[int, ...],
                 lost_meld: tuple[LostMeld, ...] = (), hand_melds: tuple[tuple[tuple[int, bool], ...], ...] = ()
                 ) -> None:
        self.status = status  # made, set, thrown_in, passed or no_auction
        self.scores = scores
        self.made = made
        self.as_entered = as_entered  # sides whose numbers were kept as entered
        self.lost_meld = lost_meld  # sides whose meld did not count, and why
        # Each side's meld per hand as ``price_meld`` priced it (empty for a one-number entry): the
        # statistics read it rather than pricing the meld again.
        self.hand_melds = hand_melds

    def _key(self) -> tuple[str, tuple[int, ...], bool | None, tuple[int, ...], tuple[LostMeld, ...]]:
        return self.status, self.scores, self.made, self.as_entered, self.lost_meld

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealScore) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"DealScore(status={self.status!r}, scores={self.scores!r}, made={self.made!r}, "
                f"as_entered={self.as_entered!r}, lost_meld={self.lost_meld!r})")


class LostMeld(NamedTuple):
    """A side's meld that did not count under the must-take-a-trick rule: how much, and why."""

    side: int
    meld: int
    reason: MeldLostReason


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
    if deal.passed:
        return DealScore(PASSED, (0,) * side_count, None, ())
    played = not deal.thrown_in or deal.bidder is None
    priced = []
    earned = []
    reasons = []
    as_entered = []
    hands = []
    for index, entry in enumerate(deal.sides):
        side = price_side(entry, deal, rules)
        points, reason = side.settled(rules, played)
        priced.append(side)
        earned.append(points)
        reasons.append(reason)
        hands.append(side.hands)
        if not side.exact:
            as_entered.append(index)
    if deal.bidder is None:
        return DealScore(NO_AUCTION, tuple(earned), None, tuple(as_entered), _lost_meld(priced, reasons), tuple(hands))
    bid = deal.bid or 0
    if deal.thrown_in:
        penalty = -2 * bid if rules.set_penalty is SetPenalty.DOUBLE else -bid
        bonus = rules.throw_in_bonus
        scores = tuple([penalty if i == deal.bidder else points + bonus for i, points in enumerate(earned)])
        return DealScore(THROWN_IN, scores, False, tuple(as_entered), _lost_meld(priced, reasons, skip=deal.bidder),
                         tuple(hands))
    made = earned[deal.bidder] >= bid
    if not made:
        earned[deal.bidder] = set_score(rules, bid, earned[deal.bidder])
    kept = made or rules.set_penalty is SetPenalty.SHORTFALL  # otherwise the bid is the score anyway
    lost = _lost_meld(priced, reasons, skip=None if kept else deal.bidder)
    return DealScore(MADE if made else SET, tuple(earned), made, tuple(as_entered), lost, tuple(hands))


def set_score(rules: HouseRules, bid: int, earned: int) -> int:
    """What bidders who earned ``earned`` on a bid of ``bid`` score when set."""
    if rules.set_penalty is SetPenalty.SHORTFALL:
        return earned - bid
    if rules.set_penalty is SetPenalty.DOUBLE:
        return -2 * bid
    return -bid


def _lost_meld(priced: list[PricedSide], reasons: list[MeldLostReason | None],
               skip: int | None = None) -> tuple[LostMeld, ...]:
    """The sides whose meld did not count, and why (``skip``: a side whose score does not depend on it)."""
    if not any(reasons):
        return ()
    lost = []
    for index, (side, reason) in enumerate(zip(priced, reasons)):
        if reason is not None and side.meld > 0 and index != skip:
            lost.append(LostMeld(index, side.meld, reason))
    return tuple(lost)


class DealOutcome(NamedTuple):
    """A deal worked out under some rules: what contradicts them, or else its score."""

    problems: tuple[Problem, ...]
    score: DealScore | None


def evaluate_deal(rules: HouseRules, deal: Deal, sides: tuple[SideInfo, ...], auction: bool,
                  checked: bool = False) -> DealOutcome:
    """``checked``: the facts were checked against these rules when they were recorded, so only the
    score is worked out."""
    problems = () if checked else tuple(deal_problems(rules, deal, sides, auction))
    return DealOutcome(problems, None if problems else score_deal(rules, deal, len(sides)))


class OutcomeMemo:
    """Deal outcomes already worked out, by the rules and sides they were worked out under.

    A deal's outcome depends on nothing else, so the sheet is recomputed from the facts every time
    but a deal is only worked out again when its facts or the rules change. Bounded: past ``limit``
    deals it starts afresh.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.by_context: dict[tuple[HouseRules, tuple[SideInfo, ...], bool, bool], dict[Deal, DealOutcome]] = {}

    def clear(self) -> None:
        self.by_context.clear()
        self.size = 0

    def outcomes(self, match: Match, checked: bool = False) -> list[DealOutcome]:
        context = (match.rules, match.sides, match.auction, checked)
        if self.size + len(match.deals) > self.limit:
            self.clear()
        known = self.by_context.setdefault(context, {})
        outcomes = []
        for deal in match.deals:
            outcome = known.get(deal)
            if outcome is None:
                outcome = known[deal] = evaluate_deal(match.rules, deal, match.sides, match.auction, checked)
                self.size += 1
            outcomes.append(outcome)
        return outcomes


OUTCOMES = OutcomeMemo(limit=50_000)


def score_match(match: Match, *, checked: bool = False) -> Sheet:
    """Recompute the whole sheet from the facts; refuse facts that contradict the rules.

    ``checked``: every deal was checked against the match's rules when it was recorded (a stored match:
    a deal that contradicts the rules is refused at entry, and so is a rule change that would make a
    recorded deal contradict), so the checks are not run again.
    """
    return sheet_and_scores(match, checked=checked)[0]


def sheet_and_scores(match: Match, *, checked: bool = False) -> tuple[Sheet, list[DealScore]]:
    """``score_match``, with each deal's score beside the sheet (the statistics read the meld from them)."""
    outcomes = OUTCOMES.outcomes(match, checked)
    scores = [outcome.score for outcome in outcomes if outcome.score is not None]
    if len(scores) < len(outcomes):
        problems = [(number, problem) for number, outcome in enumerate(outcomes, 1) for problem in outcome.problems]
        raise ContradictionError(problems)
    return _sheet(match, scores), scores


def _sheet(match: Match, results: list[DealScore]) -> Sheet:
    rules = match.rules
    target, deal_limit = rules.target, rules.deal_limit
    totals = tuple(0 for _ in match.sides)
    winner: int | None = None
    ended_at: int | None = None
    lines = []
    played = 0
    announce = rules.going_out is GoingOut.ANNOUNCE and match.auction
    for number, (deal, result) in enumerate(zip(match.deals, results), start=1):
        if winner is not None:  # a deal played after the end
            lines.append(DealLine(number, result.status, deal.bidder, deal.bid, None, None, result.made, True,
                                  result.as_entered, (), deal.out, deal.forced))
            continue
        totals = tuple(map(add, totals, result.scores))
        if not deal.passed:
            played += 1
            if max(totals) >= target:
                winner = _winner(rules, deal, result, totals, announce)
        if winner is None and deal_limit and played >= deal_limit:
            winner = _highest(list(range(len(totals))), totals)  # a tie at the top plays on
        if winner is not None:
            ended_at = number
        lines.append(DealLine(number, result.status, deal.bidder, deal.bid, result.scores, totals, result.made,
                              False, result.as_entered, result.lost_meld, deal.out, deal.forced))
    rank = tuple(sorted(range(len(totals)), key=lambda i: (i != winner, -totals[i], i)))
    return Sheet(totals, winner, ended_at, rank, tuple(lines))


def _winner(rules: HouseRules, deal: Deal, result: DealScore, totals: tuple[int, ...], announce: bool) -> int | None:
    """Who wins on this deal by the target, if anyone (``announce``: only by bidding out)."""
    if deal.passed:
        return None
    reached = [i for i, total in enumerate(totals) if total >= rules.target]
    if not reached:
        return None
    if deal.bidder is None:
        return _highest(reached, totals)
    if announce:
        return deal.bidder if deal.out and result.made and deal.bidder in reached else None
    if result.made and deal.bidder in reached:
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
