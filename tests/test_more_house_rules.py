"""The house rules beyond the eight (RULES.md, "More house rules"), each on deals worked out by hand.

Every deal is on the default rules unless a test says otherwise: double deck, one point a counter (48 in
the cards), 2 for the last trick, opening bid 50, a side must take a trick to keep its meld.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.errors import ContradictionError
from scorekeeper.rules.house_rules import RULE_SPECS, HouseRules
from scorekeeper.rules.matchfile import loads_match, match_from_json, match_to_json
from scorekeeper.rules.problems import ProblemCode
from scorekeeper.rules.scoring import score_match
from scorekeeper.samples import seeds_dir


def sheet(deals: list[dict[str, Any]], sides: int = 2, **rules: Any) -> Any:
    data = {"format": "pinochle-match/1", "sides": [{"name": f"S{i}"} for i in range(sides)],
            "rules": rules, "deals": deals}
    return score_match(match_from_json(data))


def scores(deal: dict[str, Any], **rules: Any) -> list[int]:
    line = sheet([deal], **rules).deals[0]
    return list(line.scores)


# Bidders bid 60 and take 30 meld + 20 card points + the last trick (2): 52, short by 8.
SET_DEAL = {"bidder": 0, "bid": 60, "sides": [{"meld": 30, "tricks": 20, "last_trick": True},
                                               {"meld": 12, "tricks": 28}]}
# Bidders (side 1) bid 50: 16 meld + 38 + 2 = 56, made. Side 0: 8 meld + 10 card points = 18.
MADE_DEAL = {"bidder": 1, "bid": 50, "sides": [{"meld": 8, "tricks": 10},
                                                {"meld": 16, "tricks": 38, "last_trick": True}]}
# Bidders bid 60 and throw in with 20 meld; the defenders showed 8.
THROWN_IN = {"bidder": 0, "bid": 60, "thrown_in": True, "sides": [{"meld": 20}, {"meld": 8}]}


@pytest.mark.parametrize(("penalty", "expected"), [("bid", [-60, 40]), ("shortfall", [-8, 40]), ("double", [-120, 40])])
def test_what_a_set_costs(penalty: str, expected: list[int]) -> None:
    """Set by 8 on 60: minus the bid (-60); minus only what was missing (52 - 60 = -8); twice the bid (-120).
    The defenders keep 12 + 28 = 40 whatever the rule."""
    assert scores(SET_DEAL, set_penalty=penalty) == expected


@pytest.mark.parametrize(("penalty", "expected"), [("bid", [-60, 8]), ("shortfall", [-60, 8]), ("double", [-120, 8])])
def test_a_throw_in_costs_the_bid_or_twice_it(penalty: str, expected: list[int]) -> None:
    """A throw-in is about hands not played: the shortfall rule still takes the whole bid."""
    assert scores(THROWN_IN, set_penalty=penalty) == expected


def test_meld_below_the_minimum_counts_nothing() -> None:
    """Meld needed 10: side 0's 8 meld counts 0 (10 card points left); side 1's 16 counts: 56, made.
    Meld needed 20 on the set deal: the bidders' 30 counts (still 52: set), the defenders' 12 does not (28)."""
    assert scores(MADE_DEAL, min_meld=10) == [10, 56]
    assert scores(SET_DEAL, min_meld=20) == [-60, 28]
    line = sheet([MADE_DEAL], min_meld=10).deals[0]
    assert [(lost.side, lost.meld, lost.reason.value) for lost in line.lost_meld] == [(0, 8, "below_min_meld")]


def test_card_points_below_the_minimum_score_nothing_and_set_the_bidders() -> None:
    """Card points needed 20: side 0 took 10 (last trick aside) and scores 0 of its 18; on the set deal the
    bidders' 20 card points are enough. Bidders with 60 meld and 15 card points earn 0: set, -50."""
    assert scores(MADE_DEAL, save_points=20) == [0, 56]
    assert scores(SET_DEAL, save_points=20) == [-60, 40]
    short = {"bidder": 0, "bid": 50,
             "sides": [{"meld": 60, "tricks": 15}, {"meld": 0, "tricks": 33, "last_trick": True}]}
    assert scores(short) == [75, 35]
    assert scores(short, save_points=20) == [-50, 35]


def test_one_number_per_side_is_what_the_side_earned() -> None:
    """A one-number entry cannot be split into meld and card points, so neither minimum touches it."""
    deal = {"bidder": 0, "bid": 50, "sides": [{"total": 55}, {"total": 5}]}
    assert scores(deal, min_meld=100, save_points=40) == [55, 5]


def test_the_defenders_bonus_on_a_throw_in() -> None:
    """Bonus 10: the defenders score their 8 meld + 10; with meld needed 10 their 8 counts 0: bonus only."""
    assert scores(THROWN_IN, throw_in_bonus=10) == [-60, 18]
    assert scores(THROWN_IN, throw_in_bonus=10, min_meld=10) == [-60, 10]


def bid(bidder: int, ours: int, theirs: int, **more: Any) -> dict[str, Any]:
    return {"bidder": bidder, "bid": 50, "sides": [{"total": ours}, {"total": theirs}], **more}


def test_going_out_by_announcing_it() -> None:
    """To 100. Side 0 makes 80, then 60 (140): by the target it wins on deal 2. Bidding out, deal 2 was not
    announced and side 0 plays on; deal 3, announced and made (195), takes it out."""
    deals = [bid(0, 80, 20), bid(0, 60, 0), bid(0, 55, 0, out=True)]
    assert sheet(deals, target=100).ended_at == 2
    announced = sheet(deals, target=100, going_out="announce")
    assert (announced.winner, announced.ended_at, announced.totals) == (0, 3, (195, 20))


def test_bidding_out_never_lets_the_defenders_win() -> None:
    """To 100, bidding out: side 1 passes 100 defending (120) and plays on; side 0 is set twice (-100),
    the second time on an announced deal."""
    deals = [bid(0, 0, 120), bid(0, 10, 0, out=True)]
    result = sheet(deals, target=100, going_out="announce")
    assert result.winner is None and result.totals == (-100, 120)


def test_a_match_without_an_auction_goes_out_by_the_target() -> None:
    data = {"format": "pinochle-match/1", "sides": [{"name": "A"}, {"name": "B"}], "auction": False,
            "rules": {"target": 100, "going_out": "announce"},
            "deals": [{"bidder": None, "sides": [{"total": 120}, {"total": 10}]}]}
    assert score_match(match_from_json(data)).winner == 0


def test_a_number_of_deals() -> None:
    """Two deals, passed deals not counted: after deal 3 (the second played) side 1 leads 90 to 60 and wins.
    If they tie at 70 after it, the match plays on until deal 4 leaves side 0 alone at the top."""
    passed = {"passed": True}
    assert sheet([passed, bid(0, 60, 20), bid(1, 10, 70)], deal_limit=2).ended_at == 3
    tied = sheet([passed, bid(0, 60, 20), bid(1, 10, 50), bid(0, 55, 5)], deal_limit=2)
    assert [line.totals for line in tied.deals[1:]] == [(60, 20), (70, 70), (125, 75)]
    assert (tied.winner, tied.ended_at) == (0, 4)


def test_the_target_decides_before_the_number_of_deals() -> None:
    """To 100 in at most 2 deals: side 0 reaches 110 on its made bid at deal 1."""
    assert sheet([bid(0, 110, 0), bid(1, 0, 200)], target=100, deal_limit=2).ended_at == 1


def test_a_forced_bid_and_an_announcement_are_kept() -> None:
    """`forced` and `out` are facts: written back as given, scoring no differently under the default rules."""
    deals = [bid(0, 60, 20, forced=True), bid(1, 10, 70, out=True)]
    data = {"format": "pinochle-match/1", "sides": [{"name": "A"}, {"name": "B"}], "rules": {"all_pass": "forced"},
            "deals": deals}
    match = match_from_json(data)
    assert match_to_json(match)["deals"] == deals
    assert sheet(deals).totals == sheet([bid(0, 60, 20), bid(1, 10, 70)]).totals


@pytest.mark.parametrize("key", ["out", "forced"])
def test_only_bidders_announce_or_are_forced(key: str) -> None:
    data = {"format": "pinochle-match/1", "sides": [{"name": "A"}, {"name": "B"}], "auction": False,
            "deals": [{"bidder": None, key: True, "sides": [{"total": 1}, {"total": 2}]}]}
    with pytest.raises(ContradictionError) as caught:
        score_match(match_from_json(data))
    found = [(p.code, p.path) for p in caught.value.rooted()]
    assert found == [(ProblemCode(f"{key}_without_bidder"), f"deals[0].{key}")]


def test_a_game_to_5000() -> None:
    assert HouseRules().replace(target=5000).target == 5000


def test_every_seed_is_written_and_scored_as_before_the_new_rules() -> None:
    """The new rules at their defaults are not written, and spelled out they change no score."""
    later = [spec.key for spec in RULE_SPECS[8:]]
    seeds = sorted(seeds_dir().glob("*.json"))
    assert len(seeds) >= 4
    for path in seeds:
        match, name = loads_match(path.read_text(encoding="utf-8")), path.name
        assert not set(later) & set(match_to_json(match)["rules"]), name
        spelled = match.with_rules(HouseRules.from_mapping(match.rules.to_mapping(complete=True)))
        assert score_match(spelled) == score_match(match), name
