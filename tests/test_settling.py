"""Scoring prices and settles each side in one step (``pricing.settle_entry``); the explanation of a deal
prices it (``side_figures``) and settles it (``settle_side``) in two. Both must give the same figures for
every side, under the rules it was entered under and under any others."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.match import Match
from scorekeeper.rules.price_presets import PRICE_PRESETS, preset_prices
from scorekeeper.rules.pricing import settle_entry, settle_side, side_figures
from strategies import house_rules, matches


@st.composite
def other_rules(draw: st.DrawFn) -> HouseRules:
    """Any house rules, those that decide whether meld counts and what it is worth included."""
    rules = draw(house_rules())
    preset = draw(st.sampled_from(tuple(key for key, _ in PRICE_PRESETS)))
    return dataclasses.replace(rules, min_meld=draw(st.sampled_from((0, 10, 20, 40))),
                               save_points=draw(st.sampled_from((0, 5, 10, 25))),
                               meld_prices=preset_prices(preset, rules.meld_table))


@settings(max_examples=200, deadline=None)
@given(matches(), other_rules())
def test_a_side_settled_in_one_step_has_the_figures_of_the_two_steps(match: Match, other: HouseRules) -> None:
    for rules in (match.rules, other):
        for deal in match.deals:
            if deal.passed:
                continue
            played = not deal.thrown_in or deal.bidder is None
            for entry in deal.sides:
                meld, _, _, exact, _, hands = figures = side_figures(entry, deal, rules)
                points, reason = settle_side(figures, rules, played)
                melds: list[int | None] = []
                assert settle_entry(entry, deal, rules, played, melds) == (points, meld, reason, exact)
                assert melds == [hand if hand_exact else None for hand, hand_exact in hands]
