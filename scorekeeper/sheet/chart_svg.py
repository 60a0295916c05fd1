"""The score-progression chart (``sheet/chart.py``) as inline SVG, for the live part of the sheet.

Drawn here rather than by a template: a chart has an element for every few deals (a label, a ring on each
set deal) made of numbers only, which a template would send one by one through HTML escaping. The sides'
names are the only text and are escaped. The layout, down to its spaces and line breaks, is the one the
sheet has always had (``templates/matches/_sheet_live.html`` puts the chart in its card).
"""

from __future__ import annotations

from markupsafe import Markup, escape

from .chart import Chart, Series, SetMark, Tick

# Each repeated element stands on a line of its own, indented, between these.
_ITEM, _AFTER_ITEMS = "\n    ", "\n  "


def chart_svg(chart: Chart) -> Markup:
    """The chart's ``<svg>`` and its legend."""
    parts = [
        f'\n<svg class="chart" viewBox="0 0 {chart.width} {chart.height}" role="img" '
        'aria-labelledby="chart-title chart-desc">\n'
        '  <desc id="chart-desc">Running totals after each deal; the dashed line is the target of '
        f'{chart.target.value}.</desc>\n  ',
        _after_end_zone(chart),
        "\n  ",
        *[_tick(chart, tick) for tick in chart.ticks],
        f'\n  <line class="target" x1="{chart.left}" x2="{chart.right}" y1="{chart.target.y}" '
        f'y2="{chart.target.y}"></line>\n'
        f'  <text class="label" x="{chart.left - 6}" y="{chart.target.y + 4}" text-anchor="end">'
        f"{chart.target.value}</text>\n  ",
        *[_deal_label(chart, number, x) for number, x in chart.deal_labels],
        "\n  ",
        *[_line(series) for series in chart.series],
        "\n  ",
        *[_set_mark(mark) for mark in chart.set_marks],
        '\n</svg>\n<ul class="legend">\n  ',
        *[_legend_entry(series) for series in chart.series],
        "\n  ",
        '<li><span aria-hidden="true">○</span> set</li>' if chart.set_marks else "",
        "\n</ul>",
    ]
    return Markup("".join(parts))


def _after_end_zone(chart: Chart) -> str:
    """The shaded zone of the deals played after the end (none when the match did not end early)."""
    if chart.after_end_x is None:
        return ""
    return (f'{_ITEM}<rect class="after-end-zone" x="{chart.after_end_x}" y="{chart.top}" '
            f'width="{chart.right - chart.after_end_x}" height="{chart.bottom - chart.top}"></rect>{_AFTER_ITEMS}')


def _tick(chart: Chart, tick: Tick) -> str:
    return (f'{_ITEM}<line class="axis" x1="{chart.left}" x2="{chart.right}" y1="{tick.y}" y2="{tick.y}"></line>'
            f'{_ITEM}<text class="label" x="{chart.left - 6}" y="{tick.y + 4}" text-anchor="end">{tick.value}</text>'
            f"{_AFTER_ITEMS}")


def _deal_label(chart: Chart, number: int, x: float) -> str:
    return (f'{_ITEM}<text class="label" x="{x}" y="{chart.height - 6}" text-anchor="middle">{number}</text>'
            f"{_AFTER_ITEMS}")


def _line(series: Series) -> str:
    """The side's line, and its name at the end (shown in print, where the lines differ by their dashes)."""
    return (f'{_ITEM}<polyline class="line series-{series.side % 4}" points="{series.points}"></polyline>'
            f'{_ITEM}<text class="end-label series-{series.side % 4}" x="{series.end[0]}" y="{series.label_y}" '
            f'text-anchor="end">{escape(series.name)}</text>{_AFTER_ITEMS}')


def _legend_entry(series: Series) -> str:
    """A side's colour and name (escaped: the one text the players typed)."""
    return (f'<li class="series-{series.side % 4}"><span class="legend-swatch"></span>'
            f'<span class="legend-name">{escape(series.name)}</span></li>')


def _set_mark(mark: SetMark) -> str:
    return (f'{_ITEM}<circle class="set-mark series-{mark.side % 4}" cx="{mark.x}" cy="{mark.y}" r="5">'
            f"<title>Deal {mark.deal}: set</title></circle>{_AFTER_ITEMS}")
