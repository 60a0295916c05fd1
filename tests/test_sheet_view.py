"""How the sheet pages print scores and read a match's sheet."""

from __future__ import annotations

import pytest

from matches import make_match
from scorekeeper.sheet.view import SheetView, points, signed_points


@pytest.mark.parametrize(("value", "printed", "signed"), [
    (318, "318", "+318"),
    (0, "0", "0"),
    (-35, "\u221235", "\u221235"),
])
def test_scores_print_with_a_true_minus_sign(value: int, printed: str, signed: str) -> None:
    assert points(value) == printed
    assert signed_points(value) == signed


def test_a_sheet_view_of_contradicting_facts_names_the_deals() -> None:
    match = make_match([{"bidder": 0, "bid": 40, "sides": [{"total": 50}, {"total": 10}]}], min_bid=50)
    view = SheetView.of(match)
    assert view.sheet is None and [number for number, _ in view.problems] == [1]
    assert view.totals() == [("We", 0), ("They", 0)] and view.to_go(0) == 500


def test_a_rows_deal_address_is_the_one_built_for_it() -> None:
    from scorekeeper.sheet.rows import _addresses

    built = _addresses(lambda number: f"/m/a&b/deals/{number}/edit")
    assert [built(n) for n in (1, 12, 1000)] == [f"/m/a&amp;b/deals/{n}/edit" for n in (1, 12, 1000)]
    twice = _addresses(lambda number: f"/deals/{number}/{number}")  # not one place for the number: each built
    assert twice(7) == "/deals/7/7"
