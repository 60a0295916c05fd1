"""The score-progression chart: its coordinates (sheet/chart.py) and its SVG (sheet/chart_svg.py)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from matches import make_match
from scorekeeper.rules.scoring import score_match
from scorekeeper.sheet.chart import HEIGHT, WIDTH, Chart, progression_chart, tenths, x_texts
from scorekeeper.sheet.chart_svg import chart_svg


def quick(bidder: int, bid: int, *totals: int) -> dict[str, object]:
    return {"bidder": bidder, "bid": bid, "sides": [{"total": total} for total in totals]}


def chart_of(deals: list[dict[str, object]], sides: int = 2, names: tuple[str, ...] = ("We", "They"),
             **rules: object) -> Chart:
    match = make_match(deals, sides, **rules)
    chart = progression_chart(score_match(match), list(names), match.rules.target)
    assert chart is not None
    return chart


@given(st.floats(min_value=-2 * HEIGHT, max_value=2 * WIDTH, allow_nan=False))
def test_a_coordinate_is_written_as_its_rounded_value_prints(value: float) -> None:
    assert tenths(value) == str(round(value, 1))


@given(st.integers(min_value=-3000, max_value=3000), st.integers(min_value=1, max_value=6000),
       st.integers(min_value=0, max_value=3000))
def test_a_point_of_the_chart_is_written_as_its_rounded_value_prints(value: int, span: int, high: int) -> None:
    y = 14 + 162 * (high - value) / span  # as a line's point is worked out
    assert tenths(y) == str(round(y, 1))


def test_each_deal_has_an_x_from_the_left_edge_to_the_right_one() -> None:
    assert x_texts(4) == ("40.0,", "117.0,", "194.0,", "271.0,", "348.0,")
    assert x_texts(0) == ("40.0,",)


def test_the_lines_start_at_zero_and_go_through_each_running_total() -> None:
    chart = chart_of([quick(0, 50, 60, 20), quick(1, 50, 20, 20)], target=100)  # They are set: −50
    assert [series.points for series in chart.series] == [
        "40.0,138.6 194.0,63.8 348.0,38.9",  # 0, 60, 80 from 100 (top) down to −30 (bottom)
        "40.0,138.6 194.0,113.7 348.0,176.0",  # 0, 20, −30
    ]
    assert [(tick.value, tick.y) for tick in chart.ticks] == [(-30, 176.0), (0, 138.6)]
    assert [(mark.deal, mark.side) for mark in chart.set_marks] == [(2, 1)]


def test_the_svg_has_a_line_a_legend_entry_per_side_and_a_ring_per_set_deal() -> None:
    svg = str(chart_svg(chart_of([quick(0, 50, 60, 20), quick(1, 50, 20, 20)], target=100)))
    assert svg.count("<polyline") == 2 and svg.count('class="legend-name"') == 2
    assert re.findall(r'<circle class="set-mark series-1" cx="([\d.]+)" cy="([\d.]+)"', svg) == [("348.0", "176.0")]
    assert "<title>Deal 2: set</title>" in svg and "○</span> set" in svg
    assert 'points="40.0,138.6 194.0,63.8 348.0,38.9"' in svg


def test_a_chart_without_a_set_deal_has_no_ring_and_no_legend_for_one() -> None:
    svg = str(chart_svg(chart_of([quick(0, 50, 60, 20)], target=100)))
    assert "<circle" not in svg and "○" not in svg


def test_deals_played_after_the_end_are_shaded() -> None:
    chart = chart_of([quick(0, 50, 120, 20), quick(1, 50, 10, 30)], target=100)
    assert chart.after_end_x == 194.0
    assert '<rect class="after-end-zone" x="194.0" y="14" width="154.0" height="162"></rect>' in str(chart_svg(chart))


def test_the_sides_names_are_escaped() -> None:
    svg = str(chart_svg(chart_of([quick(0, 50, 60, 20)], names=("<script>alert(1)</script>", "A & B"))))
    assert "<script>" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg and "A &amp; B" in svg


def test_each_line_is_named_at_its_end_the_names_clear_of_each_other() -> None:
    deals = [quick(0, 50, 60, 58, 0), quick(1, 50, 20, 22, 61)]
    chart = chart_of(deals, sides=3, names=("We", "They", "Ed"), target=200)
    by_height = sorted(chart.series, key=lambda line: line.label_y)
    assert all(lower.label_y - upper.label_y >= 12 for upper, lower in zip(by_height, by_height[1:]))
    assert min(line.label_y for line in chart.series) == round(min(line.end[1] for line in chart.series) - 6, 1)
    svg = str(chart_svg(chart))
    label = r'<text class="end-label series-(\d)" x="([\d.]+)" y="([\d.]+)" text-anchor="end">(\w+)</text>'
    labels = re.findall(label, svg)
    assert [(side, name) for side, _, _, name in labels] == [("0", "We"), ("1", "They"), ("2", "Ed")]
    assert {x for _, x, _, _ in labels} == {str(chart.series[0].end[0])}
