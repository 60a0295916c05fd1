"""Coordinates of a form chart: each player's share of matches won after each finished match, drawn as
inline SVG by the statistics pages (``templates/tables/_form_chart.html``).

Readable however many matches: each match has a column and the points sit in its middle, so one match is
a column of dots in the middle, not dots on the chart's edge; the players' points in a column stand side by
side (a small step each, never more than a column's share), so partners with the same record are not one dot;
and a line drawn first is wider (``band``), so that a later line on the same course shows inside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..rules.stats import FormPoint

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 14, 24
LINES = 4  # colours the stylesheet gives lines (series-0 … series-3), and widths (band-0 … band-3)
DOT_STEP = 9.0  # pixels between the players' dots of one match, at most
DOTS_UP_TO = 12  # matches: up to this many every point has its dot, beyond only the last


@dataclass(frozen=True)
class FormSeries:
    colour: int
    band: int  # how many lines are drawn over this one: the stylesheet widens it by as many steps
    name: str
    points: str  # SVG polyline points "x,y x,y …"
    dots: tuple[tuple[float, float], ...]  # where a dot marks a point
    record: str  # the last point in words, for the legend: "1 of 3"

    @property
    def summary(self) -> str:
        """The line in words, for the chart's description: "Ann: won 1 of 3"."""
        return f"{self.name}: won {self.record}"


@dataclass(frozen=True)
class FormChart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    series: tuple[FormSeries, ...]
    ticks: tuple[tuple[int, float], ...]  # win % and its y
    match_labels: tuple[tuple[int, float], ...]  # match count and its x


def form_chart(form: Mapping[str, Sequence[FormPoint]], names: Sequence[str] | None = None) -> FormChart | None:
    """The chart of the players' form (``names`` in that order, all players otherwise); None before any
    of them finished a match."""
    chosen = [name for name in (names if names is not None else sorted(form, key=str.casefold)) if form.get(name)]
    if not chosen:
        return None
    most = max(len(form[name]) for name in chosen)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    column = plot_w / most
    step = min(DOT_STEP, column / len(chosen))

    def x_of(played: int, offset: float = 0.0) -> float:
        return round(LEFT + column * (played - 0.5) + offset, 1)

    def y_of(percent: float) -> float:
        return round(TOP + plot_h * (100 - percent) / 100, 1)

    series = []
    for index, name in enumerate(chosen):
        offset = step * (index - (len(chosen) - 1) / 2)
        points = [(x_of(point.played, offset), y_of(point.win_percent)) for point in form[name]]
        last = form[name][-1]
        series.append(FormSeries(
            colour=index % LINES, band=min(len(chosen) - 1 - index, LINES - 1), name=name,
            points=" ".join(f"{x},{y}" for x, y in points),
            dots=tuple(points) if most <= DOTS_UP_TO else (points[-1],),
            record=f"{last.won} of {last.played}",
        ))
    label_step = max(1, -(-most // 8))
    return FormChart(
        width=WIDTH, height=HEIGHT, left=LEFT, right=WIDTH - RIGHT, top=TOP, bottom=HEIGHT - BOTTOM,
        series=tuple(series), ticks=tuple((value, y_of(value)) for value in (0, 50, 100)),
        match_labels=tuple((n, x_of(n)) for n in range(label_step, most + 1, label_step)),
    )
