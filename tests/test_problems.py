"""Every problem the rules core reports is a value: a code for the situation and the path of the place."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from matches import make_match
from scorekeeper.rules.cards import Deck, Hand, Rank, Suit
from scorekeeper.rules.checks import check_new_deal, deal_problems
from scorekeeper.rules.errors import CardError, ContradictionError, HouseRuleError, MatchFileError
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.limits import MAX_DEALS, MAX_JSON_DEPTH, MAX_JSON_DIGITS, MAX_MATCH_NAME, MAX_PLAYERS
from scorekeeper.rules.matchfile import deal_from_json, loads_match, match_from_json
from scorekeeper.rules.problems import Problem, ProblemCode
from scorekeeper.rules.scoring import score_match

Code = ProblemCode
SINGLE: dict[str, Any] = {"deck": "single"}
CLASSIC: dict[str, Any] = {"deck": "single", "meld_table": "single-classic", "trick_scale": "classic"}


def played(we: dict[str, Any], they: dict[str, Any], **deal: Any) -> dict[str, Any]:
    return {"bidder": 0, "bid": 50, **deal, "sides": [we, they]}


def with_tricks(we_meld: Any, they_meld: Any, we: int = 30, they: int = 18, **deal: Any) -> dict[str, Any]:
    return played({"meld": we_meld, "tricks": we, "last_trick": True}, {"meld": they_meld, "tricks": they}, **deal)


# (rules, deal, code, path within the deal) of the first problem the checks report.
CHECKS = [
    pytest.param({}, with_tricks(10, 4, bid=40), Code.BID_BELOW_MINIMUM, "bid", id="bid-below-minimum"),
    pytest.param({}, with_tricks({"cards": ["KS", "QS"]}, 0), Code.MELD_NEEDS_TRUMP, "sides[0].meld", id="trump"),
    pytest.param({}, played({"meld": [{"run": 1}, {"cards": ["KH", "QH"]}], "tricks": 30, "last_trick": True},
                            {"meld": 0, "tricks": 18}),
                 Code.MELD_NEEDS_TRUMP, "sides[0].meld[1]", id="second-meld-of-a-side"),
    pytest.param(SINGLE, with_tricks({"cards": ["AH", "AH", "AH"]}, 0, we=14, they=10, trump="H"),
                 Code.TOO_MANY_COPIES, "sides[0].meld", id="copies"),
    pytest.param({}, with_tricks(0, {"cards": ["9H", "AH"]}, trump="H"), Code.CARD_NOT_IN_DECK, "sides[1].meld",
                 id="nine-in-double-deck"),
    pytest.param({}, with_tricks({"pinochle": 5}, 0), Code.IMPOSSIBLE_SETS, "sides[0].meld", id="sets-in-hand"),
    pytest.param(SINGLE, with_tricks({"run": 2}, {"run": 1}, we=14, they=10), Code.IMPOSSIBLE_SETS, "",
                 id="sets-in-deal"),
    pytest.param(SINGLE, with_tricks({"run": 1, "royal_marriage": 2}, 0, we=14, they=10),
                 Code.TRUMP_KINGS_SHORT, "sides[0].meld", id="trump-kings-hand"),
    pytest.param({}, with_tricks({"run": 1, "royal_marriage": 2}, {"royal_marriage": 2}), Code.TRUMP_KINGS_SHORT, "",
                 id="trump-kings-deal"),
    pytest.param(SINGLE, with_tricks({"cards": ["AH", "AH"]}, {"cards": ["AH"]}, we=14, they=10, trump="H"),
                 Code.HANDS_BEYOND_DECK, "", id="hands"),
    pytest.param(SINGLE, with_tricks({"pinochle": 2}, {"queens_around": 1}, we=14, they=10),
                 Code.MELDS_BEYOND_DECK, "", id="melds"),
    pytest.param(SINGLE, played({"tricks": {"counters": 25}, "last_trick": True}, {"tricks": 0}),
                 Code.COUNTERS_BEYOND_DECK, "sides[0].tricks", id="counters"),
    pytest.param(CLASSIC, played({"tricks": 12, "last_trick": True}, {"tricks": {"counters": 12}}),
                 Code.COUNTERS_ON_CLASSIC, "sides[1].tricks", id="counters-classic"),
    pytest.param(SINGLE, played({"tricks": {"cards": {"A": 9}}, "last_trick": True}, {"tricks": 0}),
                 Code.RANK_BEYOND_DECK, "sides[0].tricks", id="rank"),
    pytest.param({}, played({"tricks": 30, "last_trick": True}, {"tricks": 18, "took_trick": False}),
                 Code.TRICKS_WITHOUT_TRICK, "sides[1].took_trick", id="took-no-trick"),
    pytest.param({}, played({"meld": 20, "tricks": 30}, {"meld": 4}, thrown_in=True),
                 Code.TRICKS_IN_THROWN_IN, "sides[0].tricks", id="thrown-in-tricks"),
    pytest.param({}, played({"meld": 20}, {"meld": 4, "last_trick": True}, thrown_in=True),
                 Code.TRICKS_IN_THROWN_IN, "sides[1].last_trick", id="thrown-in-last-trick"),
    pytest.param(SINGLE, played({"tricks": {"cards": {"A": 8}}, "last_trick": True},
                                {"tricks": {"cards": {"A": 8, "T": 8}}}),
                 Code.RANK_TOTAL, "", id="rank-total"),
    pytest.param(SINGLE, played({"tricks": {"counters": 20}, "last_trick": True}, {"tricks": {"counters": 20}},
                                entered_under={"trick_scale": "classic"}),
                 Code.COUNTERS_TOTAL, "", id="counters-total"),
    pytest.param({}, played({"tricks": 30, "last_trick": True}, {"tricks": 18, "last_trick": True}),
                 Code.LAST_TRICK_COUNT, "sides[1].last_trick", id="two-last-tricks"),
    pytest.param({}, played({"tricks": 30}, {"tricks": 18}), Code.LAST_TRICK_MISSING, "sides[0].last_trick",
                 id="no-last-trick"),
    pytest.param({}, with_tricks(10, 4, we=30, they=17), Code.TRICK_TOTAL, "sides[1].tricks", id="trick-total"),
]


@pytest.mark.parametrize(("rules", "deal", "code", "path"), CHECKS)
def test_check_reports_code_and_path(rules: dict[str, Any], deal: dict[str, Any], code: ProblemCode,
                                     path: str) -> None:
    match = make_match([], **rules)
    found = check_new_deal(match, deal_from_json(deal, 2, rules=match.rules))
    assert found and (found[0].code, found[0].path) == (code, path), found


def _deal(**changes: Any) -> Any:
    return deal_from_json(with_tricks(10, 4), 2)._replace(**changes)


CONTRACTS = [
    (_deal(bidder=None, bid=None), 2, True, Code.BIDDER_MISSING, "bidder"),
    (deal_from_json({"bidder": None, "sides": [{"meld": 4}, {"meld": 8}]}, 2)._replace(thrown_in=True),
     2, False, Code.THROWN_IN_WITHOUT_AUCTION, "thrown_in"),
    (_deal(bidder=2), 2, True, Code.BIDDER_UNKNOWN, "bidder"),
    (_deal(bid=None), 2, True, Code.BID_MISSING, "bid"),
    (_deal(), 3, True, Code.SIDE_COUNT, "sides"),
    (_deal(bid_by="Zed"), 2, True, Code.BID_BY_NOT_BIDDER, "bid_by"),
    (_deal(dealt_by="Zed"), 2, True, Code.DEALER_UNKNOWN, "dealt_by"),
    (_deal(bidder=None, bid=None, out=True), 2, False, Code.OUT_WITHOUT_BIDDER, "out"),
    (_deal(bidder=None, bid=None, forced=True), 2, False, Code.FORCED_WITHOUT_BIDDER, "forced"),
]


@pytest.mark.parametrize(("deal", "sides", "auction", "code", "path"), CONTRACTS)
def test_contract_problems_name_the_contract(deal: Any, sides: int, auction: bool, code: ProblemCode,
                                            path: str) -> None:
    found = deal_problems(HouseRules(), deal, make_match([], sides=sides).sides, auction)
    assert [(problem.code, problem.path) for problem in found] == [(code, path)]


def test_contradictions_carry_the_deal_number_and_root_their_paths() -> None:
    passed = {"passed": True}
    with pytest.raises(ContradictionError) as caught:
        score_match(make_match([passed, with_tricks(10, 4, bid=40), with_tricks({"cards": ["KS", "QS"]}, 0)]))
    error = caught.value
    assert error.deal_numbers == [2, 3]
    assert (error.problem.code, error.problem.path) == (Code.CONTRADICTION, "deals[1]")
    assert [(problem.code, problem.path) for problem in error.rooted()] == [
        (Code.BID_BELOW_MINIMUM, "deals[1].bid"), (Code.MELD_NEEDS_TRUMP, "deals[2].sides[0].meld")]


# Match files: (change to a good file, code, path).
GOOD_DEAL: dict[str, Any] = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}
GOOD_FILE: dict[str, Any] = {"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}],
                             "deals": [GOOD_DEAL]}


def deal_with(**changes: Any) -> dict[str, Any]:
    return {**GOOD_FILE, "deals": [{**GOOD_DEAL, **changes}]}


def side_with(**changes: Any) -> dict[str, Any]:
    return deal_with(sides=[{"meld": 10, "tricks": 30, "last_trick": True, **changes}, {"meld": 4, "tricks": 18}])


FILES = [
    pytest.param({**GOOD_FILE, "format": "x"}, Code.WRONG_FORMAT, "format", id="format"),
    pytest.param({**GOOD_FILE, "name": "x" * (MAX_MATCH_NAME + 1)}, Code.TOO_LONG, "name", id="name-length"),
    pytest.param({**GOOD_FILE, "sides": [{"name": "We\x00"}, {"name": "They"}]}, Code.BAD_CHARACTER,
                 "sides[0].name", id="name-nul"),
    pytest.param({**GOOD_FILE, "sides": [{"name": "We"}, {"name": " we "}]}, Code.DUPLICATE_NAME, "sides[1].name",
                 id="side-names-alike"),
    pytest.param({**GOOD_FILE, "sides": [{"name": "We", "players": ["A"] * (MAX_PLAYERS + 1)}, {"name": "They"}]},
                 Code.TOO_MANY_PLAYERS, "sides[0].players", id="players"),
    pytest.param({**GOOD_FILE, "sides": [{"name": "We", "players": ["Ann"]}, {"name": "They", "players": ["ANN"]}]},
                 Code.DUPLICATE_PLAYER, "sides[1].players[0]", id="player-on-two-sides"),
    pytest.param({**GOOD_FILE, "deals": [GOOD_DEAL] * (MAX_DEALS + 1)}, Code.TOO_MANY_DEALS, "deals", id="deals"),
    pytest.param({**GOOD_FILE, "Deals": [GOOD_DEAL]}, Code.UNKNOWN_KEY, "Deals", id="file-key"),
    pytest.param({**GOOD_FILE, "sides": [{"name": "We", "colour": "red"}, {"name": "They"}]}, Code.UNKNOWN_KEY,
                 "sides[0].colour", id="side-key"),
    pytest.param({**GOOD_FILE, "sides": [{"name": "Solo"}]}, Code.SIDE_COUNT, "sides", id="match-sides"),
    pytest.param({**GOOD_FILE, "sides": [{"name": " "}, {"name": "They"}]}, Code.NAME_MISSING, "sides[0].name",
                 id="side-name"),
    pytest.param({**GOOD_FILE, "sides": "We"}, Code.WRONG_TYPE, "sides", id="sides-type"),
    pytest.param({**GOOD_FILE, "rules": {"target": 333}}, Code.BAD_RULE_VALUE, "rules.target", id="rule-value"),
    pytest.param({**GOOD_FILE, "rules": {"colour": "red"}}, Code.UNKNOWN_RULE, "rules.colour", id="rule-key"),
    pytest.param(deal_with(colour="red"), Code.UNKNOWN_KEY, "deals[0].colour", id="deal-key"),
    pytest.param(deal_with(bid="sixty"), Code.NOT_A_NUMBER, "deals[0].bid", id="bid-text"),
    pytest.param(deal_with(bid=0), Code.OUT_OF_RANGE, "deals[0].bid", id="bid-zero"),
    pytest.param(deal_with(bidder=2), Code.BIDDER_UNKNOWN, "deals[0].bidder", id="bidder-index"),
    pytest.param(deal_with(bid=None), Code.MISSING_KEY, "deals[0].bid", id="bid-missing"),
    pytest.param({**GOOD_FILE, "deals": [{"sides": GOOD_DEAL["sides"]}]}, Code.MISSING_KEY, "deals[0].bidder",
                 id="bidder-missing"),
    pytest.param(deal_with(bidder=None), Code.BID_WITHOUT_BIDDER, "deals[0].bid", id="bid-without-bidder"),
    pytest.param(deal_with(bidder=None, bid=None, thrown_in=True), Code.THROWN_IN_WITHOUT_BIDDER,
                 "deals[0].thrown_in", id="thrown-in"),
    pytest.param(deal_with(sides=[{"total": 1}]), Code.SIDE_COUNT, "deals[0].sides", id="deal-sides"),
    pytest.param(deal_with(trump="X"), Code.NOT_A_SUIT, "deals[0].trump", id="trump"),
    pytest.param(deal_with(thrown_in="yes"), Code.WRONG_TYPE, "deals[0].thrown_in", id="switch"),
    pytest.param(side_with(meld={"cards": ["AH", "AH", "1H"]}), Code.NOT_A_CARD, "deals[0].sides[0].meld.cards[2]",
                 id="card"),
    pytest.param(side_with(meld=[4, {"cards": "AH XX"}]), Code.NOT_A_CARD, "deals[0].sides[0].meld[1].cards[1]",
                 id="card-in-text"),
    pytest.param(side_with(meld={"straight": 1}), Code.UNKNOWN_COMBINATION, "deals[0].sides[0].meld.straight",
                 id="combination"),
    pytest.param(side_with(tricks={"cards": {"X": 1}}), Code.NOT_A_RANK, "deals[0].sides[0].tricks.cards.X",
                 id="rank"),
    pytest.param(side_with(tricks={"points": 1}), Code.WRONG_TYPE, "deals[0].sides[0].tricks", id="tricks-form"),
    pytest.param(side_with(last_trick=1), Code.WRONG_TYPE, "deals[0].sides[0].last_trick", id="last-trick"),
    pytest.param(deal_with(entered_under={"trick_scale": "half"}), Code.BAD_RULE_VALUE,
                 "deals[0].entered_under.trick_scale", id="entered-under"),
]


@pytest.mark.parametrize(("data", "code", "path"), FILES)
def test_match_file_error_carries_code_and_path(data: dict[str, Any], code: ProblemCode, path: str) -> None:
    with pytest.raises(MatchFileError) as caught:
        match_from_json(copy.deepcopy(data))
    assert (caught.value.code, caught.value.path) == (code, path)
    assert caught.value.detail == caught.value.problem.message


TEXTS = [("{", Code.NOT_JSON), ("[1]", Code.WRONG_TYPE), ("[" * 100_000, Code.TOO_DEEP),
         ("1" * 5000, Code.OUT_OF_RANGE)]


@pytest.mark.parametrize(("text", "code"), TEXTS)
def test_text_that_is_no_match_file_is_a_problem_of_the_whole(text: str, code: ProblemCode) -> None:
    with pytest.raises(MatchFileError) as caught:
        loads_match(text)
    assert (caught.value.code, caught.value.path) == (code, "")


@pytest.mark.parametrize(
    ("text", "code", "path"),
    [("[" * 40 + "]" * 40, Code.TOO_DEEP, "[0]" * MAX_JSON_DEPTH),
     ('{"format": "pinochle-match/1", "sides": [{"name": "We\\ud800"}]}', Code.BAD_CHARACTER, "sides[0].name"),
     ('{"sides": [{"\\udfff": 1}]}', Code.BAD_CHARACTER, "sides[0]"),
     ('{"deals": [{"bid": -%s}]}' % ("9" * (MAX_JSON_DIGITS + 1)), Code.OUT_OF_RANGE, ""),
     ('{"sides": [{"name": "We", "players": [], "name": "Us"}]}', Code.DUPLICATE_KEY, "sides[0].name"),
     ('{"deals": [], "format": "pinochle-match/1", "deals": [{"passed": true}]}', Code.DUPLICATE_KEY, "deals")],
)
def test_json_beyond_its_bounds_is_refused_where_it_is(text: str, code: ProblemCode, path: str) -> None:
    with pytest.raises(MatchFileError) as caught:
        loads_match(text)
    assert (caught.value.code, caught.value.path) == (code, path)


def test_a_deal_beyond_the_most_a_match_holds_is_refused() -> None:
    deal = deal_from_json(GOOD_DEAL, 2)
    full = make_match([]).with_deals((deal,) * MAX_DEALS)
    found = check_new_deal(full, deal)
    assert [(problem.code, problem.path) for problem in found] == [(Code.TOO_MANY_DEALS, "")]
    assert not check_new_deal(full.with_deals(full.deals[1:]), deal)


def test_a_deal_alone_has_paths_within_the_deal() -> None:
    with pytest.raises(MatchFileError) as caught:
        deal_from_json({**GOOD_DEAL, "sides": [{"total": 1}, {"total": "x"}]}, 2)
    assert caught.value.path == "sides[1].total"
    assert str(caught.value) == "sides[1].total: must be a whole number"


CARDS = [
    pytest.param(lambda: Hand.from_text("AH XQ 10H ZZ", Deck.SINGLE), Code.NOT_A_CARD, 1, id="card"),
    pytest.param(lambda: Hand.from_text(["9H"], Deck.DOUBLE), Code.CARD_NOT_IN_DECK, None, id="not-in-deck"),
    pytest.param(lambda: Hand.from_text("AH AH AH", Deck.SINGLE), Code.TOO_MANY_COPIES, None, id="copies"),
    pytest.param(lambda: Suit.from_text("X"), Code.NOT_A_SUIT, None, id="suit"),
    pytest.param(lambda: Rank.from_text("X"), Code.NOT_A_RANK, None, id="rank"),
]


@pytest.mark.parametrize(("read", "code", "index"), CARDS)
def test_card_error_carries_code_and_the_bad_token(read: Any, code: ProblemCode, index: int | None) -> None:
    with pytest.raises(CardError) as caught:
        read()
    assert (caught.value.code, caught.value.index) == (code, index)
    assert caught.value.problem.path == ("" if index is None else f"[{index}]")


def test_several_bad_tokens_keep_every_message_and_the_first_index() -> None:
    with pytest.raises(CardError) as caught:
        Hand.from_text("AH XQ ZZ", Deck.SINGLE)
    assert caught.value.index == 1
    assert str(caught.value) == "'XQ' is not a card; 'ZZ' is not a card"


@pytest.mark.parametrize(
    ("changes", "code", "path"),
    [({"target": 333}, Code.BAD_RULE_VALUE, "rules.target"), ({"colour": 1}, Code.UNKNOWN_RULE, "rules.colour")],
)
def test_house_rule_error_has_the_rule_path(changes: dict[str, Any], code: ProblemCode, path: str) -> None:
    with pytest.raises(HouseRuleError) as caught:
        HouseRules.from_mapping(changes)
    assert (caught.value.code, caught.value.problem.path) == (code, path)


@pytest.mark.parametrize(
    ("path", "prefix", "rooted"),
    [("bid", "deals[2]", "deals[2].bid"), ("", "deals[2]", "deals[2]"), ("[4]", "sides[0].meld.cards",
                                                                       "sides[0].meld.cards[4]"),
     ("sides[1].tricks", "", "sides[1].tricks")],
)
def test_at_roots_a_path(path: str, prefix: str, rooted: str) -> None:
    problem = Problem(Code.BID_MISSING, path, "the bid is missing")
    assert problem.at(prefix) == Problem(Code.BID_MISSING, rooted, "the bid is missing")
    assert str(problem) == "the bid is missing"


def test_codes_are_stable_snake_case_and_documented() -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    for code in ProblemCode:
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code.value), code
        assert f"| `{code.value}` |" in docs, f"docs/api.md does not explain {code.value}"


def test_every_code_has_a_case_in_the_tables_above() -> None:
    covered = {Code.CONTRADICTION}
    covered |= {param.values[2] for param in CHECKS} | {param.values[1] for param in FILES}
    covered |= {row[3] for row in CONTRACTS} | {code for _, code in TEXTS} | {param.values[1] for param in CARDS}
    covered |= {Code.BAD_RULE_VALUE, Code.UNKNOWN_RULE}
    covered |= {Code.NOT_A_MULTIPLE_OF_TEN}  # tests/test_rescale.py: ÷10 refused, naming the deals
    covered |= {Code.PRICED_ONE_AT_A_TIME}  # tests/test_meld_prices.py: a group price of marriages refused
    covered |= {Code.DUPLICATE_KEY}  # test_json_beyond_its_bounds_is_refused_where_it_is
    covered |= {Code.TOO_FEW_ENTRANTS, Code.TOO_MANY_ENTRANTS, Code.ENTRANT_SIZE}  # tests/test_events.py
    covered |= {Code.PLAYER_UNKNOWN}  # tests/test_seating.py: a swap naming someone not in the round
    assert set(ProblemCode) - covered == set()
