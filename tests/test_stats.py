"""A table's statistics: a small evening worked out by hand, and properties over random evenings."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.house_rules import HouseRules, MeldTableName
from scorekeeper.rules.match import Match, SideInfo
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.rules.stats import PlayerStats, TableStats, Together, table_stats
from tests.strategies import house_rules, played_deal_twins

WE_THEY = [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}]


def match(deals: list[dict[str, Any]], sides: list[dict[str, Any]] = WE_THEY, target: int = 100) -> Match:
    """A match on the default rules (double deck, one-point tricks: 48 in the cards and 2 for the last)."""
    return match_from_json({"format": "pinochle-match/1", "sides": sides, "rules": {"target": target},
                            "deals": deals})


def deal(bidder: int, bid: int, by: str | None, ours: Any, theirs: Any, **more: Any) -> dict[str, Any]:
    facts = {"bidder": bidder, "bid": bid, "sides": [ours, theirs], **more}
    if by is not None:
        facts["bid_by"] = by
    return facts


EVENING = [
    # To 100. Ann bids 60 and makes 80 (meld 30 + 20 of her partner Bob, 28 in tricks, 2 for the last);
    # Di bids 60 and is set (We reach 110, but only the bidders win on a deal); Bob bids 50 and makes 55:
    # We win on deal 3 with 165. Cy's bid on deal 4 comes after the end and counts for nothing.
    match([
        deal(0, 60, "Ann", {"meld": [30, 20], "tricks": 28, "last_trick": True}, {"meld": [10, 4], "tricks": 20}),
        deal(1, 60, "Di", {"total": 30}, {"total": 40}),
        deal(0, 50, "Bob", {"total": 55}, {"total": 20}),
        deal(1, 50, "Cy", {"total": 0}, {"total": 60}),
    ]),
    # Ann and Cy against Bob and Di: Cy throws in his 70; Di bids 50 and makes it; nobody has won yet.
    match([
        deal(0, 70, "Cy", {"meld": [12, 6]}, {"meld": [8, 2]}, thrown_in=True),
        deal(1, 50, "Di", {"total": 10}, {"total": 60}),
    ], sides=[{"name": "A", "players": ["Ann", "Cy"]}, {"name": "B", "players": ["Bob", "Di"]}]),
]


def test_an_evening_worked_out_by_hand() -> None:
    stats = table_stats(EVENING, players=["Ann", "Bob", "Cy", "Di", "Eve"])
    assert (stats.matches, stats.unfinished) == (1, 1)
    ann, bob, cy, di, eve = stats.players
    assert (ann.name, ann.matches, ann.won, ann.win_percent) == ("Ann", 1, 1, 100.0)
    assert [p.in_progress for p in stats.players] == [1, 1, 1, 1, 0]  # the second match, not decided yet
    assert (ann.bids, ann.made, ann.set, ann.made_percent, ann.biggest_bid_made) == (1, 1, 0, 100.0, 60)
    assert (ann.melds, ann.meld_points, ann.biggest_meld, ann.average_meld) == (2, 42, 30, 21.0)
    assert (bob.bids, bob.made, bob.average_bid) == (1, 1, 50.0)
    assert (bob.melds, bob.meld_points, bob.biggest_meld) == (2, 28, 20)
    assert (cy.matches, cy.won, cy.bids, cy.thrown_in, cy.made, cy.set) == (1, 0, 1, 1, 0, 0)
    assert (cy.melds, cy.meld_points) == (2, 16)
    assert (di.bids, di.made, di.set, di.made_percent, di.average_bid) == (2, 1, 1, 50.0, 55.0)
    assert (di.win_percent, di.biggest_bid_made) == (0.0, 50)
    assert eve == PlayerStats("Eve") and eve.win_percent is None and eve.average_bid is None
    assert stats.partnerships == (Together(("Ann", "Bob"), 1, 1), Together(("Cy", "Di"), 1, 0))
    facing = {t.players: (t.matches, t.won, t.lost) for t in stats.head_to_head}
    assert facing == {("Ann", "Cy"): (1, 1, 0), ("Ann", "Di"): (1, 1, 0), ("Bob", "Cy"): (1, 1, 0),
                      ("Bob", "Di"): (1, 1, 0)}
    assert [(p.played, p.won) for p in stats.form["Ann"]] == [(1, 1)]


def test_a_higher_target_lets_the_later_deals_count() -> None:
    longer = [EVENING[0].with_rules(EVENING[0].rules.replace(target=1000)), EVENING[1]]
    stats = table_stats(longer)
    assert (stats.matches, stats.unfinished) == (0, 2)
    cy = stats.player("Cy")
    assert cy is not None and (cy.matches, cy.bids, cy.made, cy.thrown_in) == (0, 2, 1, 1)


def test_a_bid_with_nobody_named_goes_to_a_lone_player_only() -> None:
    three = [{"name": "N", "players": ["Ann"]}, {"name": "E", "players": ["Bob"]}, {"name": "S", "players": ["Cy"]}]
    solo = match([{"bidder": 1, "bid": 50, "sides": [{"total": 10}, {"total": 60}, {"total": 0}]}], three)
    pair = match([deal(0, 50, None, {"total": 60}, {"total": 0})])
    assert table_stats([solo]).player("Bob") == PlayerStats("Bob", in_progress=1, bids=1, made=1, bid_points=50,
                                                            biggest_bid_made=50)
    assert all(p.bids == 0 for p in table_stats([pair]).players)


POOL = ("Ann", "Bob", "Cy", "Di", "Eve")


@st.composite
def evenings(draw: st.DrawFn) -> list[Match]:
    """A few matches among five players, seated at random, with low targets so that most finish."""
    played = []
    for _ in range(draw(st.integers(1, 4))):
        seated = draw(st.permutations(POOL))
        side_count = draw(st.sampled_from((2, 3)))
        sizes = [2, 2] if side_count == 2 else [1, 1, 1]
        sides, start = [], 0
        for i, size in enumerate(sizes):
            sides.append(SideInfo(f"Side {i + 1}", tuple(seated[start:start + size])))
            start += size
        rules = draw(house_rules()).replace(target=draw(st.sampled_from([100, 150, 250])))
        deals = []
        for _ in range(draw(st.integers(1, 5))):
            played_deal, _ = draw(played_deal_twins(rules, side_count, True))
            bidder = played_deal.bidder or 0
            bid_by = draw(st.sampled_from([None, *sides[bidder].players]))
            deals.append(played_deal._replace(bid_by=bid_by))
        played.append(Match(sides=tuple(sides), rules=rules, deals=tuple(deals)))
    return played


def counts(stats: TableStats) -> dict[str, Any]:
    """Every figure but the form over time, which follows the order of the matches by design."""
    return {"players": stats.players, "partnerships": set(map(_key, stats.partnerships)),
            "head_to_head": set(map(_key, stats.head_to_head)), "matches": (stats.matches, stats.unfinished)}


def _key(together: Together) -> tuple[Any, ...]:
    return (together.players, together.matches, together.won, together.lost)


def added(parts: list[TableStats]) -> dict[str, tuple[int, ...]]:
    """Each player's counts summed over ``parts`` (biggest figures as the largest)."""
    total: dict[str, tuple[int, ...]] = {}
    for part in parts:
        for player in part.players:
            row = _counts(player)
            total[player.name] = tuple(map(_combine, total.get(player.name, (0,) * len(row)), row, _BIGGEST))
    return total


_FIELDS = [f.name for f in dataclasses.fields(PlayerStats) if f.name != "name"]
_BIGGEST = [name.startswith("biggest") for name in _FIELDS]


def _counts(player: PlayerStats) -> tuple[int, ...]:
    return tuple(getattr(player, name) or 0 for name in _FIELDS)


def _combine(a: int, b: int, biggest: bool) -> int:
    return max(a, b) if biggest else a + b


@settings(max_examples=40, deadline=None)
@given(evenings(), st.randoms(use_true_random=False))
def test_the_order_of_the_matches_changes_nothing_but_the_form(played: list[Match], rng: Any) -> None:
    shuffled = played[:]
    rng.shuffle(shuffled)
    assert counts(table_stats(shuffled)) == counts(table_stats(played))


@settings(max_examples=40, deadline=None)
@given(evenings(), st.data())
def test_a_rule_change_in_one_match_changes_only_that_match_s_share(played: list[Match], data: st.DataObject) -> None:
    assert {p.name: _counts(p) for p in table_stats(played).players} == added([table_stats([m]) for m in played])
    k = data.draw(st.integers(0, len(played) - 1))
    rules: HouseRules = played[k].rules
    changed = played[k].with_rules(rules.replace(meld_table=data.draw(st.sampled_from(MeldTableName)),
                                                 target=data.draw(st.sampled_from([100, 500]))))
    others = played[:k] + played[k + 1:]
    after = table_stats([*others, changed])
    assert {p.name: _counts(p) for p in after.players} == added([table_stats(others), table_stats([changed])])
