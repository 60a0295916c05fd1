"""The seats of a match's table: the order players sit in, the hands each side plays, who deals next, and new
partnerships."""

from __future__ import annotations

import pytest

from scorekeeper.rules.match import Match, SideInfo
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.rules.rotation import next_dealer, rotated_sides, seat_order, side_hands, side_name

PAIRS = (SideInfo("We", ("Ann", "Bob")), SideInfo("They", ("Cy", "Di")))


def match_dealt(dealers: list[str | None], first: str | None = None, sides: tuple[SideInfo, ...] = PAIRS) -> Match:
    """A match of the two pairs whose deals were dealt by ``dealers`` (None: a passed deal, no dealer named)."""
    deals = [{"passed": True} if dealer is None else
             {"bidder": 0, "bid": 50, "dealt_by": dealer, "sides": [{"total": 60}, {"total": 10}]}
             for dealer in dealers]
    data = {"format": "pinochle-match/1", "sides": [{"name": s.name, "players": list(s.players)} for s in sides],
            "rules": {}, "deals": deals, **({"first_dealer": first} if first else {})}
    return match_from_json(data)


@pytest.mark.parametrize(("sides", "seats"), [
    (PAIRS, ["Ann", "Cy", "Bob", "Di"]),
    ((SideInfo("A", ("Ann",)), SideInfo("B", ("Bob", "Cy")), SideInfo("C", ())), ["Ann", "Bob", "Cy"]),
    ((SideInfo("We", ()), SideInfo("They", ())), []),
])
def test_players_sit_in_turn_from_each_side(sides: tuple[SideInfo, ...], seats: list[str]) -> None:
    assert seat_order(sides) == seats


@pytest.mark.parametrize(("players", "auction", "hands"), [
    ([["Ann", "Bob"], ["Cy", "Di"]], True, (2, 2)),
    ([[], []], True, (2, 2)),  # the four-handed game with no names: two partners a side
    ([[], []], False, (1, 1)),  # no auction: two players face each other
    ([["Ann"], []], True, (1, 2)),
    ([["Ann", "Bob"], []], False, (2, 1)),
    ([[], [], []], True, (1, 1, 1)),  # three sides: each one player
    ([["Ann", "Bob"], [], ["Cy"]], True, (2, 1, 1)),
    ([[], [], [], []], True, (1, 1, 1, 1)),
])
def test_a_side_plays_a_hand_for_each_player_and_two_unnamed_partners_in_the_four_handed_game(
        players: list[list[str]], auction: bool, hands: tuple[int, ...]) -> None:
    data = {"format": "pinochle-match/1", "rules": {}, "deals": [], "auction": auction,
            "sides": [{"name": f"Side {n}", "players": named} for n, named in enumerate(players, 1)]}
    assert side_hands(match_from_json(data)) == hands


@pytest.mark.parametrize(("dealers", "first", "dealer"), [
    ([], None, "Ann"),
    ([], "Bob", "Bob"),
    (["Ann"], None, "Cy"),
    (["Di"], "Cy", "Ann"),
    (["Cy", None], None, "Di"),  # a passed deal names no dealer, yet the deal moved on
    ([None, None], "Cy", "Di"),
])
def test_the_deal_passes_one_seat_on(dealers: list[str | None], first: str | None, dealer: str) -> None:
    assert next_dealer(match_dealt(dealers, first)) == dealer


def test_no_one_deals_when_the_sides_name_no_players() -> None:
    assert next_dealer(match_dealt([], sides=(SideInfo("We", ()), SideInfo("They", ())))) is None


def test_rotated_partners_come_round_in_turn_and_sides_are_named_after_them() -> None:
    once = rotated_sides(PAIRS)
    assert once == (SideInfo("Ann & Cy", ("Ann", "Cy")), SideInfo("Di & Bob", ("Di", "Bob")))
    twice = rotated_sides(once)
    assert [side.players for side in twice] == [("Ann", "Di"), ("Bob", "Cy")]
    assert [side.players for side in rotated_sides(twice)] == [side.players for side in PAIRS]
    assert side_name(("Ann", "Bob")) == "Ann & Bob"


def test_two_players_keep_their_sides() -> None:
    sides = (SideInfo("We", ("Ann",)), SideInfo("They", ("Bob",)))
    assert rotated_sides(sides) == sides
