"""Recorded facts that cannot have happened are reported with the deal's number and a clear message."""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches import SEEDS, detailed_match, format_example, make_match, match_file, worked_sheet
from scorekeeper.rules.checks import check_match, check_new_deal, deal_problems
from scorekeeper.rules.errors import ContradictionError
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.match import Match
from scorekeeper.rules.matchfile import deal_from_json, match_from_json
from scorekeeper.rules.problems import Problem, ProblemCode
from scorekeeper.rules.scoring import score_match

PASSED: dict[str, Any] = {"passed": True}
SINGLE: dict[str, Any] = {"deck": "single"}  # one-point: 24 card points
SINGLE_TEN: dict[str, Any] = {"deck": "single", "meld_table": "single-classic", "trick_scale": "ten-point",
                              "last_trick": 10}
CLASSIC: dict[str, Any] = {"deck": "single", "meld_table": "single-classic", "trick_scale": "classic"}


def played(we: dict[str, Any], they: dict[str, Any], **deal: Any) -> dict[str, Any]:
    """A deal that We bid 50 for, with the two sides' entries."""
    return {"bidder": 0, "bid": 50, **deal, "sides": [we, they]}


def with_tricks(we_meld: Any, they_meld: Any, we: int = 30, they: int = 18, **deal: Any) -> dict[str, Any]:
    """A deal with the given melds: We take ``we`` card points and the last trick, They ``they``."""
    return played({"meld": we_meld, "tricks": we, "last_trick": True}, {"meld": they_meld, "tricks": they}, **deal)


def problems(deal: dict[str, Any], sides: int = 2, **rules: Any) -> list[tuple[int, str]]:
    """What ``check_match`` reports for ``deal`` recorded as deal 3, after two passed deals: the messages."""
    match = make_match([PASSED, PASSED, deal], sides, **rules)
    return [(number, problem.message) for number, problem in check_match(match)]


# (rules, deal, fragment of the message): each a contradiction that RULES.md names.
CONTRADICTIONS = [
    pytest.param(SINGLE, played({"tricks": {"counters": 25}, "last_trick": True}, {"tricks": 0}),
                 "We: 25 counters but a single deck has 24", id="counters-single"),
    pytest.param({}, played({"tricks": 0}, {"tricks": {"counters": 49}, "last_trick": True}),
                 "They: 49 counters but a double deck has 48", id="counters-double"),
    pytest.param({}, with_tricks(10, 4, we=30, they=17),
                 "trick points add up to 47, but a double deck holds 48 on the one-point scale", id="short"),
    pytest.param({}, with_tricks(10, 4, we=32, they=18),  # the last trick's 2 counted in as card points
                 "trick points add up to 50, but a double deck holds 48", id="bonus-counted-as-cards"),
    pytest.param(SINGLE_TEN, with_tricks(150, 40, we=150, they=80),
                 "add up to 230, but a single deck holds 240 on the ten-point scale", id="ten-point"),
    pytest.param(SINGLE_TEN, with_tricks(150, 40, we=150, they=90, entered_under={"trick_scale": "one-point"}),
                 "add up to 240, but a single deck holds 24 on the one-point scale", id="entered-scale"),
    pytest.param(CLASSIC, played({"tricks": {"cards": {"A": 4}}, "last_trick": True},
                                 {"tricks": {"cards": {"A": 4, "T": 8}}}),
                 "add up to 168, but a single deck holds 240 on the classic scale", id="classic-cards"),
    pytest.param({}, played({"meld": 10, "tricks": 30}, {"meld": 4, "tricks": 18}),
                 "no side took the last trick", id="no-last-trick"),
    pytest.param({}, played({"tricks": 30, "last_trick": True}, {"tricks": 18, "last_trick": True}),
                 "two sides took the last trick", id="two-last-tricks"),
    pytest.param({}, with_tricks(10, 4, bid=40), "bid 40 is below the minimum opening bid of 50", id="bid"),
    pytest.param({**SINGLE_TEN, "min_bid": 250}, with_tricks(150, 40, we=150, they=90, bid=240),
                 "bid 240 is below the minimum opening bid of 250", id="bid-house-minimum"),
    pytest.param(SINGLE, with_tricks({"run": 3}, 0, we=14, they=10),
                 "We: 3 × run in one hand, but a single deck allows at most 2", id="three-runs-single"),
    pytest.param({}, with_tricks(0, {"dix": 1}),
                 "They: 1 × dix in one hand, but a double deck allows at most 0", id="dix-double"),
    pytest.param({}, with_tricks({"pinochle": 5}, 0),
                 "We: 5 × pinochle in one hand, but a double deck allows at most 4", id="five-pinochles"),
    pytest.param(SINGLE, with_tricks({"run": 1, "royal_marriage": 2}, 0, we=14, they=10),
                 "We: runs and royal marriages in one hand need 3 trump kings, but a single deck has 2",
                 id="trump-kings-hand"),
    pytest.param({}, with_tricks({"run": 1, "royal_marriage": 2}, {"royal_marriage": 2}),
                 "runs and royal marriages in the deal need 5 trump kings, but a double deck has 4",
                 id="trump-kings-deal"),
    pytest.param(SINGLE, with_tricks({"run": 2}, {"run": 1}, we=14, they=10),
                 "3 × run in the deal, but a single deck allows at most 2", id="runs-across-sides"),
    pytest.param(SINGLE, with_tricks({"pinochle": 2}, {"queens_around": 1}, we=14, they=10),
                 "the melds of the deal need at least three Q♠ but a single deck has two", id="queen-of-spades"),
    pytest.param(SINGLE, with_tricks({"cards": ["AH", "AH", "KS"]}, {"aces_around": 1}, we=14, they=10, trump="S"),
                 "the melds of the deal need at least three A♥ but a single deck has two", id="cards-and-sets"),
    pytest.param(SINGLE, played({"meld": [{"run": 1}, {"cards": ["KH", "QH", "KH"]}], "tricks": 14, "last_trick": True},
                                {"meld": 0, "tricks": 10}, trump="H"),
                 "the melds of the deal need at least three K♥ but a single deck has two", id="run-and-hand"),
    pytest.param(SINGLE, with_tricks({"cards": ["AH", "AH", "AH"]}, 0, we=14, they=10, trump="H"),
                 "We: three A♥ but a single deck has two", id="hand-copies"),
    pytest.param({}, with_tricks(0, {"cards": ["9H", "AH"]}, trump="H"),
                 "They: 9♥ is not in a double deck", id="nine-in-double-deck"),
    pytest.param(SINGLE, with_tricks({"cards": ["AH", "AH"]}, {"cards": ["AH"]}, we=14, they=10, trump="H"),
                 "the hands hold three A♥ but a single deck has two", id="copies-across-sides"),
    pytest.param(SINGLE, with_tricks([{"cards": ["JD", "JD"]}, {"cards": ["JD"]}], 0, we=14, they=10, trump="H"),
                 "the hands hold three J♦ but a single deck has two", id="copies-across-partners"),
    pytest.param({}, with_tricks({"cards": ["KS", "QS"]}, 0),
                 "We: meld from cards needs a trump", id="cards-without-trump"),
    pytest.param({}, played({"tricks": 30, "last_trick": True}, {"tricks": 18, "took_trick": False}),
                 "They took no trick but has trick points or the last trick", id="took-no-trick-with-points"),
    pytest.param({}, played({"tricks": 48}, {"tricks": 0, "last_trick": True, "took_trick": False}),
                 "They took no trick but has trick points or the last trick", id="took-no-trick-with-last"),
    pytest.param({}, played({"meld": 20, "tricks": 30}, {"meld": 4}, thrown_in=True),
                 "We has tricks, but a thrown-in deal is not played", id="tricks-when-thrown-in"),
    pytest.param({}, played({"meld": 20, "last_trick": True}, {"meld": 4}, thrown_in=True),
                 "We has tricks, but a thrown-in deal is not played", id="last-trick-when-thrown-in"),
    pytest.param({**CLASSIC}, played({"tricks": {"counters": 12}, "last_trick": True}, {"tricks": {"counters": 12}}),
                 "counters cannot be priced on the classic scale; enter the cards taken by rank",
                 id="counters-classic"),
    pytest.param(SINGLE, played({"tricks": {"cards": {"A": 9}}, "last_trick": True}, {"tricks": 0}),
                 "We: 9 As taken but a single deck has 8", id="aces-taken"),
    pytest.param({}, played({"tricks": {"cards": {"9": 1, "A": 16}}, "last_trick": True}, {"tricks": 32}),
                 "We: 1 9s taken but a double deck has 0", id="nines-taken-double"),
    pytest.param(SINGLE, played({"tricks": {"cards": {"A": 8}}, "last_trick": True},
                                {"tricks": {"cards": {"A": 8, "T": 8}}}),
                 "the sides took 16 As together but a single deck has 8", id="ranks-across-sides"),
    pytest.param(SINGLE, played({"tricks": {"counters": 20}, "last_trick": True}, {"tricks": {"counters": 20}},
                                entered_under={"trick_scale": "classic"}),
                 "the sides took 40 counters together but a single deck has 24", id="counters-across-sides"),
]


@pytest.mark.parametrize(("rules", "deal", "fragment"), CONTRADICTIONS)
def test_contradiction_is_reported_with_the_deal_number(rules: dict[str, Any], deal: dict[str, Any],
                                                        fragment: str) -> None:
    found = problems(deal, **rules)
    assert any(fragment in text for _, text in found), found
    assert {number for number, _ in found} == {3}


@pytest.mark.parametrize(("rules", "deal", "fragment"), CONTRADICTIONS)
def test_check_new_deal_refuses_the_same_deal(rules: dict[str, Any], deal: dict[str, Any], fragment: str) -> None:
    match = make_match([PASSED, PASSED], **rules)
    new_deal = deal_from_json(deal, 2, rules=match.rules)
    assert any(fragment in problem.message for problem in check_new_deal(match, new_deal))


@pytest.mark.parametrize(("rules", "deal", "fragment"), CONTRADICTIONS)
def test_score_match_refuses_the_deal_naming_it(rules: dict[str, Any], deal: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ContradictionError) as caught:
        score_match(make_match([PASSED, PASSED, deal], **rules))
    assert caught.value.deal_numbers == [3]
    assert "deal 3: " in str(caught.value) and fragment in str(caught.value)


@pytest.mark.parametrize(("rules", "deal", "fragment"), CONTRADICTIONS)
def test_scoring_a_match_as_checked_never_spares_a_later_unchecked_score(
    rules: dict[str, Any], deal: dict[str, Any], fragment: str
) -> None:
    match = make_match([PASSED, deal], **rules)
    score_match(match, checked=True)  # a caller vouching for facts it should not: its own business
    with pytest.raises(ContradictionError):
        score_match(match)


def test_three_sides_taking_the_last_trick() -> None:
    deal = {"bidder": 0, "bid": 50, "sides": [{"tricks": 16, "last_trick": True}] * 3}
    assert problems(deal, sides=3) == [(3, "three sides took the last trick")]


def test_every_bad_deal_is_named_once_in_order() -> None:
    deals = [with_tricks(10, 4), with_tricks(10, 4, bid=40), PASSED, with_tricks(10, 4, we=20)]
    with pytest.raises(ContradictionError) as caught:
        score_match(make_match(deals))
    assert caught.value.deal_numbers == [2, 4]
    assert [number for number, _ in caught.value.problems] == [2, 4]


def test_a_deal_with_no_bidder_is_refused_in_an_auction_match_only() -> None:
    two_hand = {"bidder": None, "sides": [{"meld": 40, "tricks": 30, "last_trick": True}, {"meld": 8, "tricks": 18}]}
    assert check_match(make_match([two_hand])) == []  # the file has no auction: every deal lacks a bidder
    data = match_file([two_hand])
    data["auction"] = True
    assert check_match(match_from_json(data)) == [
        (1, Problem(ProblemCode.BIDDER_MISSING, "bidder", "who won the auction? The bidder is missing"))
    ]


def test_no_auction_deal_cannot_be_thrown_in() -> None:
    deal = deal_from_json({"bidder": None, "sides": [{"meld": 4}, {"meld": 8}]}, 2)
    two_hand = Match(sides=worked_sheet().sides, auction=False)
    assert check_new_deal(two_hand, deal._replace(thrown_in=True)) == [
        Problem(ProblemCode.THROWN_IN_WITHOUT_AUCTION, "thrown_in", "a deal with no auction cannot be thrown in")
    ]


def test_deal_problems_counts_the_sides_of_the_match() -> None:
    deal = deal_from_json(with_tricks(10, 4), 2)
    sides = make_match([], sides=3).sides
    assert deal_problems(HouseRules(), deal, sides) == [
        Problem(ProblemCode.SIDE_COUNT, "sides", "the deal has 2 sides but the match has 3")
    ]


def test_bidder_must_be_a_side_of_the_match() -> None:
    deal = deal_from_json(with_tricks(10, 4), 2)
    found = deal_problems(HouseRules(), deal._replace(bidder=2), worked_sheet().sides)
    assert found == [Problem(ProblemCode.BIDDER_UNKNOWN, "bidder", "bidder 2 is not a side of this match")]


def test_bid_missing_is_reported() -> None:
    deal = deal_from_json(with_tricks(10, 4), 2)._replace(bid=None)
    assert deal_problems(HouseRules(), deal, worked_sheet().sides) == [
        Problem(ProblemCode.BID_MISSING, "bid", "the bid is missing")
    ]


# Facts that fit the rules give no problem.
CONSISTENT = [
    pytest.param({}, with_tricks(10, 4), id="double-one-point"),
    pytest.param({}, with_tricks(10, 4, bid=50), id="bid-exactly-the-minimum"),
    pytest.param({}, played({"meld": 30, "tricks": 48, "last_trick": True}, {"meld": 8, "took_trick": False}),
                 id="a-side-took-no-trick"),
    pytest.param({}, played({"meld": 30, "tricks": 48, "last_trick": True}, {"meld": 8, "tricks": 0,
                                                                             "took_trick": True}),
                 id="tricks-worth-nothing"),
    pytest.param(SINGLE_TEN, with_tricks(150, 40, we=150, they=90), id="single-ten-point"),
    pytest.param(SINGLE_TEN, with_tricks(150, 40, we=15, they=9, entered_under={"trick_scale": "one-point"}),
                 id="entered-on-one-point"),
    pytest.param(CLASSIC, played({"tricks": {"cards": {"A": 5, "T": 5, "K": 5, "Q": 4, "J": 6, "9": 3}},
                                  "last_trick": True},
                                 {"tricks": {"cards": {"A": 3, "10": 3, "K": 3, "Q": 4, "J": 2, "9": 5}}}),
             id="classic-cards-add-up"),
    pytest.param({**CLASSIC}, played({"tricks": {"counters": 12}, "last_trick": True}, {"tricks": {"counters": 12}},
                                     entered_under={"trick_scale": "one-point"}),
                 id="counters-entered-on-one-point"),
    pytest.param({}, played({"meld": 20}, {"meld": 4, "took_trick": False}, thrown_in=True), id="thrown-in"),
    pytest.param({}, with_tricks({"run": 2, "royal_marriage": 1}, {"royal_marriage": 1}), id="four-trump-kings"),
    pytest.param(SINGLE, with_tricks({"pinochle": 1}, {"queens_around": 1}, we=14, they=10), id="two-q-spades"),
    pytest.param(SINGLE, with_tricks({"pinochle": 2, "queens_around": 2}, {"kings_around": 1}, we=14, they=10),
                 id="one-hand-shares-cards-between-classes"),
    pytest.param(SINGLE, with_tricks({"marriage": 6, "dix": 2}, {"kings_around": 0}, we=14, they=10),
                 id="six-marriages"),
    pytest.param(SINGLE, with_tricks({"run": 1, "dix": 1}, {"run": 1, "dix": 1}, we=14, they=10, trump="C"),
                 id="a-run-each"),
    pytest.param(SINGLE, with_tricks({"cards": ["AH", "TH"], "trump": "H"}, {"cards": ["AH", "10H"]},
                                     we=14, they=10, trump="S"),
                 id="cards-with-own-or-deal-trump"),
    pytest.param(SINGLE, with_tricks([{"cards": ["JD"]}, {"cards": ["JD"]}], 0, we=14, they=10, trump="H"),
                 id="partners-hold-one-each"),
]


@pytest.mark.parametrize(("rules", "deal"), CONSISTENT)
def test_consistent_facts_give_no_problem(rules: dict[str, Any], deal: dict[str, Any]) -> None:
    assert problems(deal, **rules) == []
    score_match(make_match([deal], **rules))  # and the deal scores


def seed_matches() -> list[Match]:
    return [match_from_json(json.loads(path.read_text(encoding="utf-8"))) for path in sorted(SEEDS.glob("*.json"))]


def test_sample_matches_hold_no_contradiction() -> None:
    samples = [detailed_match(), worked_sheet(), match_from_json(format_example()), *seed_matches()]
    assert [check_match(match) for match in samples] == [[] for _ in samples]


def plain_deals(count: int, seed: int) -> list[dict[str, Any]]:
    """Deals in plain numbers, near and across every line a check draws: bids about the minimum, trick points
    about the deck's, no, one or two last tricks, sides said to have taken no trick, throw-ins, players named."""
    import random

    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        sides = []
        for _side in range(2):
            if rng.random() < 0.15:
                sides.append({"total": rng.choice([0, 40, 70])})
                continue
            entry: dict[str, Any] = {"meld": rng.choice([0, 20, [10, 4]])}
            if rng.random() < 0.9:
                entry["tricks"] = rng.choice([0, 24, 25, 48, 23])
            if rng.random() < 0.5:
                entry["last_trick"] = True
            if rng.random() < 0.15:
                entry["took_trick"] = rng.random() < 0.5
            sides.append(entry)
        deal: dict[str, Any] = {"bidder": rng.choice([0, 1, None]), "sides": sides}
        if deal["bidder"] is not None:
            deal["bid"] = rng.choice([49, 50, 60])
            if rng.random() < 0.2:
                deal["thrown_in"] = True
            if rng.random() < 0.2:
                deal["bid_by"] = rng.choice(["Ann", "Cy"])
        if rng.random() < 0.2:
            deal["dealt_by"] = rng.choice(["Ann", "Zed"])
        deals.append(deal)
    return deals


@pytest.mark.parametrize("auction", [True, False])
def test_a_plain_deal_passes_the_quick_look_only_when_no_check_objects(auction: bool) -> None:
    from scorekeeper.rules.checks import plainly_fine

    match = match_file([], 2)
    match["sides"] = [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}]
    sides = match_from_json(match).sides
    rules = HouseRules()
    fine = 0
    for data in plain_deals(3000, 7):
        deal = deal_from_json(data, 2)
        if plainly_fine(rules, deal, sides, auction):
            assert deal_problems(rules, deal, sides, auction) == [], data
            fine += 1
    assert fine > 50  # the quick look passes deals, not only refers them to the checks
