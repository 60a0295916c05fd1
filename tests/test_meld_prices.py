"""The table's own meld prices (house rule ``meld_prices``, RULES.md "More house rules"), on values worked by hand.

Tables (RULES.md): double-small pinochle 4 / 30 / 60 / 90, run 15 / 150 / 225 / 300, royal marriage 4;
single-classic pinochle 40 / 300, run 150 / 1500, aces around 100 / 1000.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from scorekeeper.cli import cli
from scorekeeper.rules.cards import Deck, Hand, Suit
from scorekeeper.rules.combinations import Combination
from scorekeeper.rules.errors import HouseRuleError, MatchFileError
from scorekeeper.rules.house_rules import HouseRules, MeldTableName
from scorekeeper.rules.matchfile import dumps_match, loads_match, match_from_json, match_to_json
from scorekeeper.rules.meld import best_meld, price, price_sets
from scorekeeper.rules.meld_prices import NO_PRICES, MeldPrices
from scorekeeper.rules.price_presets import preset_prices
from scorekeeper.rules.problems import ProblemCode
from scorekeeper.rules.scoring import score_match
from scorekeeper.samples import seeds_dir

SMALL, LARGE, CLASSIC = MeldTableName.DOUBLE_SMALL, MeldTableName.DOUBLE_LARGE, MeldTableName.SINGLE_CLASSIC
NO_DOUBLE_PINOCHLE = MeldPrices.from_json({"pinochle": [40, None]})
NPA = MeldPrices.from_json({"run": [25, 150, 225, 300], "pinochle": [15, 30, 60, 90]})
P = Combination.PINOCHLE


@pytest.mark.parametrize(("table", "prices", "combination", "sets", "expected"), [
    (CLASSIC, NO_DOUBLE_PINOCHLE, P, 2, 80),  # 40 + 40, where the table says 300
    (CLASSIC, NO_DOUBLE_PINOCHLE, P, 1, 40),
    (CLASSIC, NO_DOUBLE_PINOCHLE, Combination.RUN, 2, 1500),  # not listed: the table's double run
    (SMALL, NPA, Combination.RUN, 1, 25),  # 15 on the table
    (SMALL, NPA, Combination.RUN, 2, 150),
    (SMALL, NPA, Combination.RUN, 5, 375),  # the best split: 225 (three) + 150 (two), not 300 + 25
    (SMALL, NPA, P, 1, 15),
    (SMALL, NPA, Combination.ACES_AROUND, 2, 100),  # not listed
    (SMALL, MeldPrices.from_json({"pinochle": [None, 30]}), P, 3, 30),  # a double, the third left over
    (SMALL, MeldPrices.from_json({"pinochle": [None, 30]}), P, 1, 0),  # a single set left over: worth nothing
    (SMALL, MeldPrices.from_json({"pinochle": [None]}), P, 2, None),  # no group priced: not on the table
    (SMALL, MeldPrices.from_json({"dix": [0]}), Combination.DIX, 3, 0),  # 0 is a price
])
def test_sets_are_priced_by_the_tables_own_groups(
    table: MeldTableName, prices: MeldPrices, combination: Combination, sets: int, expected: int | None
) -> None:
    assert price(combination, sets, table, prices) == expected


def test_a_hand_is_priced_with_the_tables_own_prices() -> None:
    """Hearts trump on double-small: A 10 K Q J of hearts is a run, two Q♠ J♦ a double pinochle.
    On the table 15 + 30 = 45; with NPA prices 25 + 30 = 55; with no double pinochle (4 a set) 15 + 8 = 23."""
    hand = Hand.from_text("AH 10H KH QH JH QS JD QS JD", Deck.DOUBLE)
    assert best_meld(hand, Suit.HEARTS, SMALL).total == 45
    assert best_meld(hand, Suit.HEARTS, SMALL, NPA).total == 55
    assert best_meld(hand, Suit.HEARTS, SMALL, preset_prices("no-double-pinochle", SMALL)).total == 23


def test_an_unpriced_combination_is_marked_not_on_the_table() -> None:
    result = price_sets({P: 1}, SMALL, prices=MeldPrices.from_json({"pinochle": [None, None]}))
    assert [(line.points, line.on_table) for line in result.lines] == [(0, False)]


@pytest.mark.parametrize(("raw", "path", "code"), [
    ("{}", "rules.meld_prices", ProblemCode.WRONG_TYPE),  # JSON text is the CLI's to decode
    ([40], "rules.meld_prices", ProblemCode.WRONG_TYPE),
    ({"pinochles": [40]}, "rules.meld_prices.pinochles", ProblemCode.UNKNOWN_COMBINATION),
    ({"pinochle": 40}, "rules.meld_prices.pinochle", ProblemCode.WRONG_TYPE),
    ({"pinochle": []}, "rules.meld_prices.pinochle", ProblemCode.WRONG_TYPE),
    ({"pinochle": [1, 2, 3, 4, 5]}, "rules.meld_prices.pinochle", ProblemCode.WRONG_TYPE),
    ({"pinochle": [40, "x"]}, "rules.meld_prices.pinochle[1]", ProblemCode.NOT_A_NUMBER),
    ({"pinochle": [40, True]}, "rules.meld_prices.pinochle[1]", ProblemCode.NOT_A_NUMBER),
    ({"run": [15, 150, -1]}, "rules.meld_prices.run[2]", ProblemCode.OUT_OF_RANGE),
    ({"run": [10_001]}, "rules.meld_prices.run[0]", ProblemCode.OUT_OF_RANGE),
    ({"marriage": [20, 100]}, "rules.meld_prices.marriage[1]", ProblemCode.PRICED_ONE_AT_A_TIME),
    ({"royal_marriage": [None, None, 0]}, "rules.meld_prices.royal_marriage[2]", ProblemCode.PRICED_ONE_AT_A_TIME),
])
def test_bad_prices_are_refused_naming_the_place(raw: Any, path: str, code: ProblemCode) -> None:
    with pytest.raises(HouseRuleError) as caught:
        HouseRules().replace(meld_prices=raw)
    assert (caught.value.problem.path, caught.value.code) == (path, code)
    assert caught.value.problem.message.startswith("Meld prices: ")


def test_a_match_file_refuses_bad_prices_at_their_place() -> None:
    data = {"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}],
            "rules": {"meld_prices": {"run": [15, "x"]}}}
    with pytest.raises(MatchFileError) as caught:
        match_from_json(data)
    assert caught.value.path == "rules.meld_prices.run[1]"


def test_marriages_take_the_price_of_one_and_two_in_different_suits_are_two() -> None:
    """RULES.md: marriages are priced one at a time. Hearts trump on double-small, K Q of spades and of clubs:
    two marriages, 30 each with the table's own price of one; a royal marriage at 10."""
    own = MeldPrices.from_json({"marriage": [30], "royal_marriage": [10, None, None, None]})
    assert own.to_json() == {"royal_marriage": [10, None, None, None], "marriage": [30, None, None, None]}
    hand = Hand.from_text("KS QS KC QC KH QH", Deck.DOUBLE)
    assert [(line.name, line.points) for line in best_meld(hand, Suit.HEARTS, SMALL, own).lines] == [
        ("royal_marriage", 10), ("marriage", 60)]
    assert price(Combination.MARRIAGE, 3, SMALL, own) == 90


def test_a_stored_group_price_of_marriages_reads_as_the_price_of_one() -> None:
    """A match stored before the rule, whose prices (and a deal's pricing) give two marriages 100, still opens:
    only the first number is read, so We's two marriages are 2 + 2 = 4, and 4 + 32 falls short of the bid of 50."""
    grouped = {"marriage": [2, 100]}
    data = {"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}],
            "rules": {"meld_prices": grouped}, "deals": [
                {"bidder": 0, "bid": 50, "entered_under": {"meld_prices": grouped}, "sides": [
                    {"meld": {"marriage": 2}, "tricks": 30, "last_trick": True}, {"meld": {"run": 1}, "tricks": 18}]}]}
    with pytest.raises(MatchFileError) as caught:
        match_from_json(data)
    assert (caught.value.path, caught.value.code) == ("rules.meld_prices.marriage[1]", ProblemCode.PRICED_ONE_AT_A_TIME)
    match = match_from_json(data, stored=True)
    assert match.rules.meld_prices.to_json() == {"marriage": [2, None, None, None]}
    assert match.deals[0].entered_under is not None
    assert match.deals[0].entered_under.meld_prices == match.rules.meld_prices
    assert score_match(match).totals == (-50, 33)
    assert HouseRules.from_mapping({"meld_prices": grouped}, stored=True).meld_prices == match.rules.meld_prices


def test_shorter_lists_leave_later_groups_unpriced_and_write_all_four() -> None:
    assert MeldPrices.from_json({"pinochle": [40]}) == NO_DOUBLE_PINOCHLE
    assert NO_DOUBLE_PINOCHLE.to_json() == {"pinochle": [40, None, None, None]}
    rules = HouseRules(meld_prices=NPA)
    assert HouseRules.from_mapping(json.loads(json.dumps(rules.to_mapping()))) == rules


@pytest.mark.parametrize("path", sorted(seeds_dir().glob("*.json")), ids=lambda path: path.name)
def test_seeds_are_written_and_scored_as_before(path: Path) -> None:
    """No prices of the table's own: the file is written without the key, and an explicit empty table of
    prices scores the same sheet."""
    match = loads_match(path.read_text(encoding="utf-8"))
    assert match.rules.meld_prices is NO_PRICES or match.rules.meld_prices == NO_PRICES
    assert "meld_prices" not in dumps_match(match)
    data = match_to_json(match)
    data["rules"]["meld_prices"] = {}
    assert score_match(match_from_json(data)).to_json() == score_match(match).to_json()


def two_deals(**rules: Any) -> dict[str, Any]:
    """Double-small, to 500. Deal 1: We bid 50, meld two pinochles as sets (30), take 30 + the last trick: 62,
    made; They meld a run (15) + 18 = 33. Deal 2: We bid 50, meld 30 typed as a number, 30 + 2: 62; They 4 + 18."""
    return {"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}], "rules": rules, "deals": [
        {"bidder": 0, "bid": 50, "sides": [{"meld": {"pinochle": 2}, "tricks": 30, "last_trick": True},
                                           {"meld": {"run": 1}, "tricks": 18}]},
        {"bidder": 0, "bid": 50, "sides": [{"meld": 30, "tricks": 30, "last_trick": True},
                                           {"meld": 4, "tricks": 18}]},
    ]}


def test_a_change_of_prices_reprices_sets_and_keeps_typed_numbers_as_entered() -> None:
    """No double pinochle (4 a set on the small table): deal 1 We meld 8, 8 + 32 = 40 < 50: set, −50; They 33.
    Deal 2's typed 30 and 4 cannot be re-priced (pinochle no longer scales with the rest): kept, marked, 62 / 22."""
    match = match_from_json(two_deals())
    assert score_match(match).totals == (124, 55)
    changed = match.with_rules(match.rules.replace(meld_prices={"pinochle": [4]}))
    sheet = score_match(changed)
    assert [line.scores for line in sheet.deals] == [(-50, 33), (62, 22)]
    assert sheet.deals[1].as_entered == (0, 1)
    written = match_to_json(changed)
    assert written["deals"][1]["entered_under"] == {"meld_table": "double-small", "trick_scale": "one-point",
                                                    "last_trick": 2, "meld_prices": {}}
    assert score_match(match_from_json(written)).to_json() == sheet.to_json()


# Spades trump, double deck: a run, one more K Q of spades, two pinochles and aces around.
COUNTED_HAND = ["AS", "10S", "KS", "QS", "JS", "QS", "JD", "JD", "AH", "AD", "AC", "KS"]


@pytest.mark.parametrize(("rules", "expected"), [
    ({}, (59 + 32, 18)),  # run 15 + royal marriage 4 + double pinochle 30 + aces around 10
    ({"meld_prices": {"run": [25], "pinochle": [4]}}, (47 + 32, 18)),  # run 25, two single pinochles 4 + 4
    ({"meld_table": "double-large", "trick_scale": "ten-point", "last_trick": 20, "target": 5000}, (590 + 320, 180)),
])
def test_a_hand_kept_as_its_cards_is_priced_again_with_the_match_s_meld_prices(rules: dict[str, Any],
                                                                               expected: tuple[int, int]) -> None:
    """A hand counted by card faces is kept as its cards: whatever prices the match has later, the sheet prices
    those cards with them, exactly (never kept as entered), in the match file read back too."""
    deal = {"bidder": 0, "bid": 50, "sides": [
        {"meld": [{"cards": COUNTED_HAND, "trump": "S"}, 0], "tricks": 30, "last_trick": True}, {"tricks": 18}]}
    match = match_from_json({"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}],
                             "deals": [deal]})
    changed = match.with_rules(HouseRules.from_mapping(rules, base=match.rules))
    sheet = score_match(changed)
    assert sheet.deals[0].scores == expected and sheet.deals[0].as_entered == ()
    written = match_to_json(changed)
    kept = written["deals"][0]["sides"][0]["meld"][0]
    assert kept["trump"] == "S" and sorted(kept["cards"]) == sorted(COUNTED_HAND)
    assert score_match(match_from_json(written)).to_json() == sheet.to_json()


def test_typed_meld_converts_when_the_prices_scale_by_one_factor() -> None:
    """NPA on the small table, then on the large table with the NPA ×10: every price is ten times, so deal 2's
    typed 30 becomes 300 and 4 becomes 40, as the tricks do on the ten-point scale with last trick 20 (the bids
    of 50 stay as recorded): We 300 + 320 = 620, They 40 + 180 = 220."""
    match = match_from_json(two_deals(meld_prices=NPA.to_json()))
    large = match.with_rules(match.rules.replace(
        meld_table="double-large", trick_scale="ten-point", last_trick=20, target=5000,
        meld_prices=preset_prices("npa", LARGE)))
    sheet = score_match(large)
    assert sheet.deals[1].scores == (620, 220) and sheet.deals[1].as_entered == ()


def test_cli_score_sets_meld_prices_as_json(tmp_path: Path) -> None:
    """Deal 1 as above under no double pinochle: We −50, They 33; deal 2 kept as entered: 62 and 22."""
    path = tmp_path / "match.json"
    path.write_text(json.dumps(two_deals()), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli, ["score", str(path), "--json", "--set", 'meld_prices={"pinochle": [4, null]}'])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["totals"] == [12, 55]
    bad = runner.invoke(cli, ["score", str(path), "--json", "--set", "meld_prices={pinochle"])
    assert bad.exit_code != 0 and "takes JSON" in bad.output
