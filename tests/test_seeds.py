"""The sample matches in seeds/ are consistent with their rules and play out as they are meant to."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.rules.checks import check_match
from scorekeeper.rules.house_rules import PRESETS_BY_KEY
from scorekeeper.rules.match import Match, MeldCards, MeldSets, SideDetail, TrickCards, TrickCounters
from scorekeeper.rules.matchfile import loads_match
from scorekeeper.rules.scoring import dead_contract, score_match

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
FINISHED = {"single-deck-1500.json": True, "three-handed-auction.json": True, "worked-sheet.json": True,
            "double-deck-in-progress.json": False}


def load(name: str) -> Match:
    return loads_match((SEEDS / name).read_text(encoding="utf-8"))


def facts(match: Match) -> list[object]:
    """Every meld and trick fact of every side in every deal."""
    found: list[object] = []
    for deal in match.deals:
        for entry in deal.sides:
            if isinstance(entry, SideDetail):
                found += [*entry.meld, entry.tricks]
    return found


def test_every_seed_file_is_listed() -> None:
    assert sorted(path.name for path in SEEDS.glob("*.json")) == sorted(FINISHED)


@pytest.mark.parametrize("name", sorted(FINISHED))
def test_seed_facts_fit_its_rules(name: str) -> None:
    match = load(name)
    assert check_match(match) == []
    assert all(deal.bid is None or deal.bid >= match.rules.min_bid for deal in match.deals)


@pytest.mark.parametrize("name", sorted(FINISHED))
def test_seed_reaches_a_winner_where_intended(name: str) -> None:
    sheet = score_match(load(name))
    if FINISHED[name]:
        assert sheet.winner is not None
        assert sheet.ended_at == len(sheet.deals), "played through to the deciding deal, not beyond"
        assert sheet.rank[0] == sheet.winner
    else:
        assert sheet.winner is None and sheet.ended_at is None


def test_single_deck_seed_uses_the_preset_cards_counters_and_a_dead_throw_in() -> None:
    match = load("single-deck-1500.json")
    assert match.rules == PRESETS_BY_KEY["single-1500"].rules
    kinds = {type(fact) for fact in facts(match)}
    assert {MeldCards, TrickCounters, TrickCards} <= kinds
    thrown = [deal for deal in match.deals if deal.thrown_in]
    assert thrown and all(dead_contract(match.rules, deal) for deal in thrown)


def test_three_handed_seed_is_three_single_players_on_the_auction_preset() -> None:
    match = load("three-handed-auction.json")
    assert match.rules == PRESETS_BY_KEY["auction-3"].rules
    assert len(match.sides) == 3 and all(len(side.players) == 1 for side in match.sides)
    assert any(deal.passed for deal in match.deals)


def test_double_deck_seed_records_meld_as_sets() -> None:
    match = load("double-deck-in-progress.json")
    assert match.rules == PRESETS_BY_KEY["double-500"].rules
    assert any(isinstance(fact, MeldSets) for fact in facts(match))
