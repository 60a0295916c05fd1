"""A deal being entered, worded: the numbers of the rules core (``deal_numbers``) in the preview's words, and
the shared vectors that hold the phone's wording of the twin's numbers to the same lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import match_from_json
from scorekeeper.rules.explain import DealNumbers, SideNumbers, deal_numbers
from scorekeeper.rules.pricing import MeldLostReason
from scorekeeper.sheet.deal_preview import Side, preview, preview_lines, preview_sides

VECTORS = Path(__file__).resolve().parent / "vectors" / "previews.json"
WE, THEY, ANN = Side("We", True), Side("They", True), Side("Ann", False)


def side(score: int, total: int | None = None, meld: int | None = None,
         lost: MeldLostReason | None = None) -> SideNumbers:
    return SideNumbers(score, total, meld, lost)


@pytest.mark.parametrize(("numbers", "sides", "lines"), [
    (DealNumbers("made", 0, False, (side(62, 214), side(3, 96, 20, MeldLostReason.NO_TRICK))), (WE, THEY),
     ("We make it: +62 → 214", "They: +3 → 96 · meld 20 lost: no trick")),
    (DealNumbers("set", 1, False, (side(0, 0), side(-50, -35))), (WE, ANN),
     ("We: 0 → 0", "Ann is set: −50 → −35")),
    (DealNumbers("thrown_in", 2, False, (side(20, 40), side(20, 20), side(-60, -10, 4, MeldLostReason.BELOW_MIN_MELD))),
     (WE, THEY, ANN),
     ("We: +20 → 40", "They: +20 → 20", "Ann throws in: −60 → −10 · meld 4 lost: below the minimum meld")),
    (DealNumbers("no_auction", None, True, (side(30, meld=10, lost=MeldLostReason.NO_TRICK_POINTS), side(18))),
     (ANN, THEY),
     ("Ann: +30 · meld 10 lost: no trick points", "They: +18",
      "Played after the match was decided: it does not count.")),
    (DealNumbers("passed", None, False, (side(0, 10), side(0, 20))), (WE, THEY), ("All passed: nobody scores.",)),
])
def test_the_numbers_are_worded_side_by_side(numbers: DealNumbers, sides: tuple[Side, ...],
                                              lines: tuple[str, ...]) -> None:
    assert preview_lines(numbers, sides) == lines


def test_a_side_of_more_than_one_hand_takes_make() -> None:
    data = {"format": "pinochle-match/1", "name": "", "rules": {}, "deals": [],
            "sides": [{"name": "We", "players": []}, {"name": "They", "players": ["Cy", "Di"]}]}
    assert preview_sides(match_from_json(data)) == (Side("We", True), Side("Cy & Di", True))
    three = {**data, "sides": [*data["sides"], {"name": "Zoë", "players": ["Zoë"]}]}
    assert preview_sides(match_from_json(three)) == (Side("We", False), Side("Cy & Di", True), Side("Zoë", False))


def vectors() -> list[Any]:
    loaded: list[Any] = json.loads(VECTORS.read_text(encoding="utf-8"))
    return loaded


def test_the_vectors_draw_every_kind_of_preview_many_times() -> None:
    kinds: dict[str, int] = {}
    for vector in vectors():
        result = vector.get("result")
        found = ["contradiction"] if result is None else [
            result["status"], f"{len(vector['sides'])} sides", *(["after the end"] if result["after_end"] else []),
            *{f"lost: {each['lost']}" for each in result["sides"] if each["lost"]}]
        found += ["makes" if not plural else "make" for _, plural in vector["sides"]]
        for kind in found:
            kinds[kind] = kinds.get(kind, 0) + 1
    wanted = ["made", "set", "thrown_in", "passed", "no_auction", "2 sides", "3 sides", "4 sides", "after the end",
              "lost: no_trick", "lost: no_trick_points", "lost: below_min_meld", "contradiction", "make", "makes"]
    assert {kind: kinds.get(kind, 0) for kind in wanted if kinds.get(kind, 0) < 10} == {}


def test_each_vector_is_the_servers_preview_of_its_deal() -> None:
    """The lines a vector holds are the preview the server answers for that deal, from the core's numbers."""
    for vector in vectors()[::25]:
        match = match_from_json(vector["file"])
        shown = preview(match, vector["number"], preview_sides(match), ())
        assert (shown.ready, list(shown.lines)) == (vector["ready"], vector["lines"])
        if shown.ready:
            assert list(shown.lines) == list(preview_lines(deal_numbers(match, vector["number"]), preview_sides(match)))
