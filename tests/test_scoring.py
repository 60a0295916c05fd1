"""Deal and match scoring, as RULES.md states it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches import detailed_match, make_match, worked_sheet
from scorekeeper.rules.errors import ContradictionError
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.matchfile import deal_from_json, loads_match
from scorekeeper.rules.pricing import MeldLostReason
from scorekeeper.rules.scoring import LostMeld, dead_contract, is_dead, score_deal, score_match


def deal_scores(deal: dict[str, Any], sides: int = 2, **rules: Any) -> tuple[int, ...]:
    house = HouseRules.from_mapping(rules)
    return score_deal(house, deal_from_json(deal, sides, rules=house), sides).scores


# The worked score sheet of RULES.md: one number per side, play to 300.
WORKED_ROWS = [(1, (67, 20), (67, 20)), (2, (38, -55), (105, -35)), (3, (95, 15), (200, -20)),
               (4, (30, 84), (230, 64)), (5, (88, 12), (318, 76))]


@pytest.mark.parametrize(("number", "scores", "totals"), WORKED_ROWS)
def test_worked_sheet_row_by_row(number: int, scores: tuple[int, int], totals: tuple[int, int]) -> None:
    line = score_match(worked_sheet()).deals[number - 1]
    assert (line.scores, line.totals) == (scores, totals)


def test_worked_sheet_we_win_at_deal_5_on_our_own_bid() -> None:
    sheet = score_match(worked_sheet())
    assert (sheet.totals, sheet.winner, sheet.ended_at, sheet.rank) == ((318, 76), 0, 5, (0, 1))
    assert [line.made for line in sheet.deals] == [True, False, True, True, True]


# Bidders: meld + trick points if that reaches the bid, else minus the bid.
@pytest.mark.parametrize(
    ("bidder_side", "expected"),
    [
        ({"meld": 20, "tricks": 28, "last_trick": True}, 50),  # exactly the bid: made
        ({"meld": 20, "tricks": 27, "last_trick": True}, -50),  # one short: set, meld lost
        ({"meld": 0, "tricks": 48, "last_trick": True}, 50),  # tricks alone
    ],
)
def test_bidders_make_or_are_set(bidder_side: dict[str, Any], expected: int) -> None:
    other = {"meld": 4, "tricks": 48 - bidder_side["tricks"]}
    assert deal_scores({"bidder": 0, "bid": 50, "sides": [bidder_side, other]})[0] == expected


def test_defenders_score_meld_and_trick_points() -> None:
    deal = {"bidder": 0, "bid": 50, "sides": [{"meld": 30, "tricks": 40, "last_trick": True},
                                              {"meld": 12, "tricks": 8}]}
    assert deal_scores(deal) == (72, 20)


@pytest.mark.parametrize(
    ("rule", "took_trick", "tricks", "expected"),
    [
        ("trick", False, 0, 0),  # no trick: meld lost
        ("trick", True, 0, 12),  # tricks worth nothing still save the meld
        ("points", True, 0, 0),  # the stricter rule: no trick point, no meld
        ("off", False, 0, 12),  # rule off: meld always counts
    ],
)
def test_must_take_a_trick(rule: str, took_trick: bool, tricks: int, expected: int) -> None:
    deal = {"bidder": 0, "bid": 50, "sides": [
        {"meld": 30, "tricks": 48 - tricks, "last_trick": True},
        {"meld": 12, "tricks": tricks, "took_trick": took_trick}]}
    assert deal_scores(deal, must_take_trick=rule)[1] == expected


@pytest.mark.parametrize(
    ("rule", "took_trick", "tricks", "lost"),
    [
        ("trick", False, 0, (LostMeld(1, 12, MeldLostReason.NO_TRICK),)),
        ("trick", True, 0, ()),
        ("points", True, 0, (LostMeld(1, 12, MeldLostReason.NO_TRICK_POINTS),)),
        ("points", True, 2, ()),
        ("off", False, 0, ()),
    ],
)
def test_the_sheet_line_says_whose_meld_did_not_count_and_why(
    rule: str, took_trick: bool, tricks: int, lost: tuple[LostMeld, ...]
) -> None:
    deal = {"bidder": 0, "bid": 50, "sides": [
        {"meld": 30, "tricks": 48 - tricks, "last_trick": True},
        {"meld": 12, "tricks": tricks, "took_trick": took_trick}]}
    house = HouseRules.from_mapping({"must_take_trick": rule})
    assert score_deal(house, deal_from_json(deal, 2, rules=house), 2).lost_meld == lost
    match = loads_match(json.dumps({"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}],
                                    "rules": {"must_take_trick": rule}, "deals": [deal]}))
    assert score_match(match).deals[0].lost_meld == lost


def test_a_set_bidders_lost_meld_is_not_given_as_a_reason() -> None:
    """The set bidder scores minus the bid whatever its meld: no reason to show beside it."""
    deal = {"bidder": 0, "bid": 50, "sides": [{"meld": 60, "took_trick": False},
                                              {"meld": 0, "tricks": 48, "last_trick": True}]}
    house = HouseRules.from_mapping({})
    assert score_deal(house, deal_from_json(deal, 2, rules=house), 2).lost_meld == ()


def test_bidders_who_keep_no_meld_are_set_unless_tricks_alone_reach_the_bid() -> None:
    deal = {"bidder": 0, "bid": 50, "sides": [{"meld": 60, "took_trick": False},
                                              {"meld": 0, "tricks": 48, "last_trick": True}]}
    assert deal_scores(deal) == (-50, 50)
    assert deal_scores(deal, must_take_trick="off") == (60, 50)


def test_inferred_no_trick_when_nothing_was_taken() -> None:
    deal = {"bidder": 0, "bid": 50, "sides": [{"meld": 30, "tricks": 48, "last_trick": True}, {"meld": 12}]}
    assert deal_scores(deal)[1] == 0


def test_thrown_in_bidders_lose_the_bid_and_defenders_keep_their_meld() -> None:
    deal = {"bidder": 0, "bid": 80, "thrown_in": True, "sides": [{"meld": 20}, {"meld": 12}]}
    assert deal_scores(deal) == (-80, 12)


def test_passed_deal_scores_nothing() -> None:
    sheet = score_match(make_match([{"passed": True}]))
    assert sheet.deals[0].scores == (0, 0)
    assert sheet.deals[0].made is None and sheet.deals[0].status == "passed"


def test_no_auction_every_side_scores_what_it_earned() -> None:
    deal = {"bidder": None, "sides": [{"meld": 40, "tricks": 150, "last_trick": True}, {"meld": 20, "tricks": 90}]}
    scores = deal_scores(deal, deck="single", meld_table="single-classic", trick_scale="ten-point", last_trick=10)
    assert scores == (200, 110)


def test_three_sides_one_bidder_two_defenders() -> None:
    deal = {"bidder": 2, "bid": 300, "sides": [{"meld": 0, "tricks": 50}, {"meld": 40, "tricks": 30},
                                               {"meld": 150, "tricks": 160, "last_trick": True}]}
    rules = {"deck": "single", "meld_table": "single-classic", "trick_scale": "ten-point", "last_trick": 10,
             "min_bid": 250}
    assert deal_scores(deal, sides=3, **rules) == (50, 70, 320)


# Winning.
def total_deals(*rows: tuple[int, int, int]) -> list[dict[str, Any]]:
    """(bidder, bid, we, they) rows as one-number deals."""
    return [{"bidder": b, "bid": bid, "sides": [{"total": we}, {"total": they}]} for b, bid, we, they in rows]


def test_both_cross_on_the_same_deal_the_bidders_win_whatever_the_totals() -> None:
    sheet = score_match(make_match(total_deals((0, 60, 90, 50), (1, 60, 80, 70)), target=150))
    assert sheet.totals == (170, 120) and sheet.winner is None
    sheet = score_match(make_match(total_deals((0, 60, 90, 90), (1, 60, 80, 70)), target=150))
    assert (sheet.totals, sheet.winner, sheet.ended_at) == ((170, 160), 1, 2)


def test_defenders_past_the_target_play_on_under_must_win_on_own_bid() -> None:
    deals = total_deals((1, 60, 120, 70), (0, 50, 60, 0))
    on = score_match(make_match(deals, target=100))
    assert (on.winner, on.ended_at) == (0, 2)
    off = score_match(make_match(deals, target=100, must_win_own_bid=False))
    assert (off.winner, off.ended_at) == (0, 1)
    assert off.deals[1].after_end and off.deals[1].scores is None


def test_with_the_rule_off_a_tie_among_defenders_plays_on() -> None:
    deal = {"bidder": 0, "bid": 300, "sides": [{"total": 0}, {"total": 150}, {"total": 150}]}
    sheet = score_match(make_match([deal], sides=3, target=100, must_win_own_bid=False, min_bid=300))
    assert sheet.winner is None


def test_set_bidders_still_past_the_target_do_not_win() -> None:
    # We pass 100 while defending (and play on), then bid and are set but stay over 100.
    sheet = score_match(make_match(total_deals((1, 50, 160, 60), (0, 50, 40, 10)), target=100))
    assert sheet.totals == (110, 70) and sheet.winner is None


def test_no_auction_highest_over_target_wins_and_a_tie_plays_on() -> None:
    def two_hand(we: int, they: int) -> dict[str, Any]:
        return {"bidder": None, "sides": [{"total": we}, {"total": they}]}
    tie = score_match(make_match([two_hand(100, 100)], target=100))
    assert tie.winner is None
    win = score_match(make_match([two_hand(100, 100), two_hand(10, 20)], target=100))
    assert (win.winner, win.ended_at, win.rank) == (1, 2, (1, 0))


def test_rank_puts_the_winner_first_then_by_total() -> None:
    deals = [{"bidder": 1, "bid": 300, "sides": [{"total": 250}, {"total": 310}, {"total": 400}]}]
    sheet = score_match(make_match(deals, sides=3, target=300, min_bid=300))
    assert sheet.winner == 1 and sheet.rank == (1, 2, 0)


def test_totals_may_go_negative() -> None:
    sheet = score_match(make_match(total_deals((0, 80, 20, 30), (0, 60, 10, 40))))
    assert sheet.totals[0] == -140


def test_contradicting_facts_are_reported_deal_by_deal() -> None:
    deals = total_deals((0, 60, 67, 20), (1, 40, 30, 50), (0, 45, 10, 10))
    with pytest.raises(ContradictionError) as caught:
        score_match(make_match(deals))
    assert caught.value.deal_numbers == [2, 3]
    assert "bid 40 is below the minimum opening bid of 50" in str(caught.value)


# The throw-in test: dead when bid > bidder's meld + every trick point.
@pytest.mark.parametrize(
    ("rules", "bid", "meld", "dead"),
    [
        ({}, 60, 10, False),  # 10 + 50 = 60: a perfect sweep still makes it
        ({}, 61, 10, True),
        ({"deck": "single", "trick_scale": "ten-point", "last_trick": 10}, 320, 60, True),  # RULES.md's example
        ({"deck": "single", "trick_scale": "ten-point", "last_trick": 10}, 310, 60, False),
    ],
)
def test_dead_contract(rules: dict[str, Any], bid: int, meld: int, dead: bool) -> None:
    house = HouseRules.from_mapping(rules)
    assert is_dead(house, bid, meld) is dead


def test_dead_contract_of_a_recorded_deal_uses_the_bidders_meld() -> None:
    house = HouseRules()
    deal = deal_from_json({"bidder": 0, "bid": 90, "sides": [{"meld": {"run": 1}}, {"meld": 4}]}, 2, rules=house)
    assert dead_contract(house, deal)  # 15 + 50 < 90
    quick = deal_from_json({"bidder": 0, "bid": 90, "sides": [{"total": 10}, {"total": 4}]}, 2, rules=house)
    assert not dead_contract(house, quick)  # one number: the meld is not known apart


def test_detailed_match_scores_every_form_of_fact() -> None:
    sheet = score_match(detailed_match())
    assert [line.scores for line in sheet.deals] == [(51, 28), (52, -60), (81, 0)]
    assert (sheet.winner, sheet.ended_at) == (0, 3)
