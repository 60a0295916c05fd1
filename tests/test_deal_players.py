"""Who won the auction and who dealt (``bid_by``, ``dealt_by``): kept with the deal, checked against the seats."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorekeeper.rules.errors import ContradictionError
from scorekeeper.rules.matchfile import match_from_json, match_to_json
from scorekeeper.rules.problems import ProblemCode
from scorekeeper.rules.scoring import score_match

FILE: dict[str, Any] = {
    "format": "pinochle-match/1",
    "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
    "deals": [
        {"bidder": 1, "bid": 250, "bid_by": "Di", "dealt_by": "Ann", "sides": [{"total": 90}, {"total": 300}]},
        {"passed": True},
        {"bidder": 0, "bid": 260, "dealt_by": "Cy", "sides": [{"total": 310}, {"total": 40}]},
    ],
}


def with_deal(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(FILE)
    data["deals"][0].update(changes)
    return data


def test_the_names_are_kept_and_written_back() -> None:
    match = match_from_json(FILE)
    assert [(deal.bid_by, deal.dealt_by) for deal in match.deals] == [("Di", "Ann"), (None, None), (None, "Cy")]
    assert match_from_json(match_to_json(match)) == match
    assert match_to_json(match)["deals"][2] == FILE["deals"][2]


def test_the_names_change_no_score() -> None:
    bare = copy.deepcopy(FILE)
    for deal in bare["deals"]:
        deal.pop("bid_by", None)
        deal.pop("dealt_by", None)
    assert score_match(match_from_json(FILE)) == score_match(match_from_json(bare))


@pytest.mark.parametrize(
    ("changes", "code", "path"),
    [
        ({"bid_by": "Ann"}, ProblemCode.BID_BY_NOT_BIDDER, "deals[0].bid_by"),
        ({"bid_by": "Zed"}, ProblemCode.BID_BY_NOT_BIDDER, "deals[0].bid_by"),
        ({"bid_by": "di"}, ProblemCode.BID_BY_NOT_BIDDER, "deals[0].bid_by"),  # written as seated
        ({"dealt_by": "Zed"}, ProblemCode.DEALER_UNKNOWN, "deals[0].dealt_by"),
    ],
)
def test_a_name_not_at_its_place_is_a_contradiction(changes: dict[str, Any], code: ProblemCode, path: str) -> None:
    match = match_from_json(with_deal(**changes))
    with pytest.raises(ContradictionError) as caught:
        score_match(match)
    assert [(problem.code, problem.path) for problem in caught.value.rooted()] == [(code, path)]


def test_a_deal_with_no_auction_has_no_bid_by() -> None:
    data = copy.deepcopy(FILE)
    data["auction"] = False
    data["deals"] = [{"bidder": None, "bid_by": "Ann", "sides": [{"total": 90}, {"total": 300}]}]
    with pytest.raises(ContradictionError) as caught:
        score_match(match_from_json(data))
    assert [problem.code for problem in caught.value.rooted()] == [ProblemCode.BID_BY_NOT_BIDDER]
