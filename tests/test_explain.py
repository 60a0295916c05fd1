"""Why a deal scores what it does: each side's meld (every hand summed) and why a meld was lost."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.explain import explain_deal, side_meld
from scorekeeper.rules.house_rules import HouseRules, MustTake
from scorekeeper.rules.matchfile import deal_from_json
from scorekeeper.rules.pricing import MeldLostReason


def deal(*sides: dict[str, Any], bidder: int | None = 0, bid: int | None = 50, **facts: Any) -> Any:
    return deal_from_json({"bidder": bidder, "bid": bid, "sides": list(sides), **facts}, len(sides))


def test_a_sides_meld_is_every_hands_meld_summed() -> None:
    played = deal({"meld": [20, {"run": 1, "pinochle": 1}], "tricks": 30}, {"meld": [0, 4], "tricks": 18})
    assert side_meld(HouseRules(), played, 0) == 20 + 15 + 4
    assert side_meld(HouseRules(), played, 1) == 4
    assert side_meld(HouseRules(), deal({"total": 60}, {"total": 20}), 0) is None


@pytest.mark.parametrize(("rule", "they", "score", "lost"), [
    # Must take a trick (the default): tricks worth nothing keep the meld; no trick loses it.
    (MustTake.TRICK, {"meld": 6, "tricks": 0, "took_trick": True}, 6, None),
    (MustTake.TRICK, {"meld": 6, "took_trick": False}, 0, MeldLostReason.NO_TRICK),
    (MustTake.TRICK, {"meld": 6, "tricks": 0}, 0, MeldLostReason.NO_TRICK),  # inferred: nothing taken
    # Must take trick points: tricks worth nothing lose it too.
    (MustTake.POINTS, {"meld": 6, "tricks": 0, "took_trick": True}, 0, MeldLostReason.NO_TRICK_POINTS),
    (MustTake.POINTS, {"meld": 6, "tricks": 3}, 9, None),
    # Off: the meld always counts.
    (MustTake.OFF, {"meld": 6, "took_trick": False}, 6, None),
])
def test_a_lost_meld_gives_its_reason(rule: MustTake, they: dict[str, Any], score: int,
                                      lost: MeldLostReason | None) -> None:
    rules = HouseRules(must_take_trick=rule)
    tricks = 48 - they.get("tricks", 0)
    played = deal({"meld": 20, "tricks": tricks, "last_trick": True}, they)
    result, (we, other) = explain_deal(rules, played)
    assert (other.score, other.meld, other.lost) == (score, 6, lost)
    assert we.score == 20 + tricks + 2 and we.lost is None
    assert result.scores == (we.score, other.score)


def test_a_thrown_in_deal_loses_no_meld_for_want_of_a_trick() -> None:
    _, (we, they) = explain_deal(HouseRules(), deal({"meld": 20}, {"meld": 6}, bid=80, thrown_in=True))
    assert (we.score, they.score, they.lost) == (-80, 6, None)
