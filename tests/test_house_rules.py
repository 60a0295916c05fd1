"""The house rules: allowed values, refusals that name the rule, defaults and presets."""

from __future__ import annotations

import pytest

from scorekeeper.rules.cards import Deck
from scorekeeper.rules.errors import HouseRuleError
from scorekeeper.rules.house_rules import (
    FIRST_EIGHT,
    PRESETS,
    PRESETS_BY_KEY,
    RULE_SPECS,
    RULE_SPECS_BY_KEY,
    HouseRules,
    MeldTableName,
    MustTake,
    Preset,
    RuleSpec,
    TrickScale,
)

# Values as a match file (int, bool, text), a form (text) or the command line (text) give them.
ALLOWED = [
    ("target", 500, 500),
    ("target", "1500", 1500),
    ("target", " 100 ", 100),
    ("target", 2000, 2000),
    ("target", "1050", 1050),
    ("deck", "single", Deck.SINGLE),
    ("deck", "Double", Deck.DOUBLE),
    ("deck", Deck.SINGLE, Deck.SINGLE),
    ("meld_table", "single-classic", MeldTableName.SINGLE_CLASSIC),
    ("meld_table", "double-small", MeldTableName.DOUBLE_SMALL),
    ("meld_table", "DOUBLE-LARGE", MeldTableName.DOUBLE_LARGE),
    ("trick_scale", "one-point", TrickScale.ONE_POINT),
    ("trick_scale", "ten-point", TrickScale.TEN_POINT),
    ("trick_scale", "classic", TrickScale.CLASSIC),
    ("min_bid", 10, 10),
    ("min_bid", "250", 250),
    ("min_bid", 600, 600),
    ("last_trick", 0, 0),
    ("last_trick", "10", 10),
    ("last_trick", 20, 20),
    ("must_take_trick", "trick", MustTake.TRICK),
    ("must_take_trick", "points", MustTake.POINTS),
    ("must_take_trick", "off", MustTake.OFF),
    ("must_take_trick", True, MustTake.TRICK),
    ("must_take_trick", False, MustTake.OFF),
    ("must_win_own_bid", True, True),
    ("must_win_own_bid", False, False),
    ("must_win_own_bid", "on", True),
    ("must_win_own_bid", "off", False),
    ("must_win_own_bid", "Yes", True),
    ("must_win_own_bid", "no", False),
    ("must_win_own_bid", "true", True),
    ("must_win_own_bid", "0", False),
]

REFUSED = [
    ("target", 50, "from 100 to 5000 in steps of 50"),
    ("target", 5050, "from 100 to 5000 in steps of 50"),
    ("target", 525, "from 100 to 5000 in steps of 50"),
    ("target", "five hundred", "from 100 to 5000 in steps of 50"),
    ("target", True, "from 100 to 5000 in steps of 50"),
    ("target", 500.5, "from 100 to 5000 in steps of 50"),
    ("deck", "triple", "one of double, single"),
    ("deck", 2, "one of double, single"),
    ("meld_table", "classic", "one of double-small, double-large, single-classic"),
    ("trick_scale", "two-point", "one of one-point, ten-point, classic"),
    ("min_bid", 9, "from 10 to 600"),
    ("min_bid", 601, "from 10 to 600"),
    ("min_bid", "fifty", "from 10 to 600"),
    ("last_trick", -1, "from 0 to 20"),
    ("last_trick", 21, "from 0 to 20"),
    ("last_trick", "", "from 0 to 20"),
    ("must_take_trick", "sometimes", "one of trick, points, off"),
    ("must_win_own_bid", "maybe", "on or off"),
    ("must_win_own_bid", 2, "on or off"),
    ("must_win_own_bid", None, "on or off"),
]


def test_every_rule_is_declared_once_the_first_eight_first() -> None:
    keys = [spec.key for spec in RULE_SPECS]
    assert keys == [
        "target", "deck", "meld_table", "trick_scale", "min_bid", "last_trick", "must_take_trick",
        "must_win_own_bid", "set_penalty", "min_meld", "save_points", "going_out", "deal_limit", "throw_in_bonus",
        "all_pass", "meld_prices",
    ]
    assert FIRST_EIGHT == set(keys[:8])
    assert set(RULE_SPECS_BY_KEY) == set(keys)
    assert {spec.key for spec in RULE_SPECS} == {field for field in HouseRules.__dataclass_fields__}


@pytest.mark.parametrize(("key", "raw", "value"), ALLOWED)
def test_allowed_values(key: str, raw: object, value: object) -> None:
    assert RULE_SPECS_BY_KEY[key].parse(raw) == value
    assert getattr(HouseRules.from_mapping({key: raw}), key) == value


@pytest.mark.parametrize(("key", "raw", "allowed"), REFUSED)
def test_refused_values_name_the_rule_and_what_is_allowed(key: str, raw: object, allowed: str) -> None:
    spec = RULE_SPECS_BY_KEY[key]
    with pytest.raises(HouseRuleError) as caught:
        spec.parse(raw)
    assert caught.value.key == key
    assert spec.label in str(caught.value)
    assert allowed in str(caught.value)


@pytest.mark.parametrize("spec", RULE_SPECS, ids=lambda spec: spec.key)
def test_every_rule_accepts_its_default_in_file_form(spec: RuleSpec) -> None:
    rules = HouseRules()
    value = getattr(rules, spec.key)
    assert spec.default == value
    assert spec.parse(rules.to_mapping(complete=True)[spec.key]) == value


def test_defaults_are_double_deck_to_500() -> None:
    assert HouseRules() == HouseRules(
        target=500, deck=Deck.DOUBLE, meld_table=MeldTableName.DOUBLE_SMALL,
        trick_scale=TrickScale.ONE_POINT, min_bid=50, last_trick=2,
        must_take_trick=MustTake.TRICK, must_win_own_bid=True,
    )
    assert HouseRules.from_mapping({}) == HouseRules()


def test_to_mapping_writes_plain_values() -> None:
    assert HouseRules().to_mapping() == {
        "target": 500, "must_win_own_bid": True, "deck": "double", "meld_table": "double-small",
        "trick_scale": "one-point", "last_trick": 2, "must_take_trick": "trick", "min_bid": 50,
    }


@pytest.mark.parametrize("rules", [HouseRules()] + [preset.rules for preset in PRESETS],
                         ids=["defaults"] + [preset.key for preset in PRESETS])
def test_mapping_round_trip(rules: HouseRules) -> None:
    assert HouseRules.from_mapping(rules.to_mapping()) == rules


def test_from_mapping_keeps_the_base_for_missing_keys() -> None:
    base = PRESETS_BY_KEY["single-1500"].rules
    rules = HouseRules.from_mapping({"target": "1000"}, base=base)
    assert rules.target == 1000
    assert rules.differences(base) == ["target"]


def test_from_mapping_refuses_an_unknown_rule() -> None:
    with pytest.raises(HouseRuleError, match="'colour' is not a house rule") as caught:
        HouseRules.from_mapping({"colour": "red"})
    assert caught.value.key == "colour"


def test_replace_validates_each_change() -> None:
    rules = HouseRules().replace(target=1000, deck="single")
    assert (rules.target, rules.deck) == (1000, Deck.SINGLE)
    with pytest.raises(HouseRuleError, match="Play to"):
        HouseRules().replace(target=1025)


# --- the four presets ---

def test_the_four_presets() -> None:
    assert [preset.key for preset in PRESETS] == ["double-500", "single-1500", "auction-3", "two-hand"]


def test_preset_double_deck_to_500_is_all_defaults() -> None:
    preset = PRESETS_BY_KEY["double-500"]
    assert preset.rules == HouseRules()
    assert (len(preset.side_names), preset.players_per_side, preset.auction) == (2, 2, True)


def test_preset_single_deck_to_1500() -> None:
    preset = PRESETS_BY_KEY["single-1500"]
    assert preset.rules == HouseRules(
        target=1500, deck=Deck.SINGLE, meld_table=MeldTableName.SINGLE_CLASSIC,
        trick_scale=TrickScale.TEN_POINT, min_bid=250, last_trick=10,
        must_take_trick=MustTake.POINTS, must_win_own_bid=False,
    )
    assert (len(preset.side_names), preset.players_per_side, preset.auction) == (2, 2, True)


def test_preset_auction_three_players() -> None:
    preset = PRESETS_BY_KEY["auction-3"]
    rules = preset.rules
    assert (rules.deck, rules.meld_table, rules.trick_scale, rules.target) == (
        Deck.SINGLE, MeldTableName.SINGLE_CLASSIC, TrickScale.TEN_POINT, 1000,
    )
    assert (len(preset.side_names), preset.players_per_side, preset.auction) == (3, 1, True)


def test_preset_two_hand() -> None:
    preset = PRESETS_BY_KEY["two-hand"]
    rules = preset.rules
    assert (rules.deck, rules.meld_table, rules.trick_scale, rules.target) == (
        Deck.SINGLE, MeldTableName.SINGLE_CLASSIC, TrickScale.TEN_POINT, 1000,
    )
    assert (len(preset.side_names), preset.players_per_side, preset.auction) == (2, 1, False)


@pytest.mark.parametrize("preset", PRESETS, ids=lambda preset: preset.key)
def test_presets_obey_their_own_rules(preset: Preset) -> None:
    for spec in RULE_SPECS:
        value = getattr(preset.rules, spec.key)
        assert spec.parse(value) == value
    assert len(set(preset.side_names)) == len(preset.side_names)
