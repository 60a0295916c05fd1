"""Small builders for match files used across the rules tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scorekeeper.rules.match import Match
from scorekeeper.rules.matchfile import FORMAT, match_from_json

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def match_file(deals: list[dict[str, Any]], sides: int = 2, **rules: Any) -> dict[str, Any]:
    names = ["We", "They", "Third", "Fourth"][:sides]
    return {
        "format": FORMAT,
        "name": "Test",
        "sides": [{"name": name, "players": []} for name in names],
        "rules": rules,
        "deals": deals,
    }


def make_match(deals: list[dict[str, Any]], sides: int = 2, **rules: Any) -> Match:
    return match_from_json(match_file(deals, sides, **rules))


def worked_sheet() -> Match:
    return match_from_json(json.loads((SEEDS / "worked-sheet.json").read_text(encoding="utf-8")))


def detailed_match(**rules: Any) -> Match:
    """A double-deck match to 100 whose deals record meld and tricks in every form.

    Deal 1: We bid 50 and make it: run + pinochle (15 + 4) + 30 points + last trick 2 = 51;
            They: 10 meld + 18 counters = 28.
    Deal 2: They bid 60 and are set (14 + 20 = 34); We defend with 22 + 28 + last trick 2 = 52, passing 100.
    Deal 3: We bid 50 with the meld of a hand of cards (31) and take every trick (48 + 2);
            They showed 8 but took no trick.
    """
    deals = [
        {"bidder": 0, "bid": 50, "trump": "H", "sides": [
            {"meld": {"run": 1, "pinochle": 1}, "tricks": 30, "last_trick": True},
            {"meld": 10, "tricks": {"counters": 18}}]},
        {"bidder": 1, "bid": 60, "trump": "C", "sides": [
            {"meld": 22, "tricks": {"cards": {"A": 10, "T": 10, "K": 8, "Q": 4}}, "last_trick": True},
            {"meld": 14, "tricks": 20}]},
        {"bidder": 0, "bid": 50, "trump": "S", "sides": [
            {"meld": {"cards": ["AS", "10S", "KS", "QS", "JS", "KD", "QD", "QS", "JD", "AH", "AC", "AD"]},
             "tricks": 48, "last_trick": True},
            {"meld": 8, "took_trick": False}]},
    ]
    return make_match(deals, target=100, **rules)


def format_example() -> dict[str, Any]:
    """The example file of MATCH_FORMAT.md.

    Deal 1: 67 / 20 as one number each. Deal 2: They bid 55 with a run and a pinochle (19) and 27 counters:
    46, set (-55); We 14 + 21 + last trick 2 = 37. Deal 3: We throw in a bid of 50; They keep their 8.
    Deal 4: all passed.
    """
    return {
        "format": FORMAT,
        "name": "Friday at Ann's",
        "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
        "rules": {"target": 500, "deck": "double", "meld_table": "double-small", "trick_scale": "one-point",
                  "min_bid": 50, "last_trick": 2, "must_take_trick": "trick", "must_win_own_bid": True},
        "deals": [
            {"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]},
            {"bidder": 1, "bid": 55, "trump": "H",
             "sides": [{"meld": 14, "tricks": 21, "last_trick": True},
                       {"meld": {"run": 1, "pinochle": 1}, "tricks": {"counters": 27}}]},
            {"bidder": 0, "bid": 50, "thrown_in": True, "sides": [{"meld": 12}, {"meld": 8}]},
            {"passed": True},
        ],
    }
