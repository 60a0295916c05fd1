"""Coordinates of a form chart: each player's share of matches won after each finished match, drawn as
inline SVG by the statistics pages (``templates/tables/_form_chart.html``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..rules.stats import FormPoint

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 14, 24
LINES = 4  # colours the stylesheet gives lines (series-0 … series-3)


@dataclass(frozen=True)
class FormSeries:
    colour: int
    name: str
    points: str  # SVG polyline points "x,y x,y …"
    last: tuple[float, float]
    summary: str  # the line in words, for the chart's description


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

    def x_of(played: int) -> float:
        return round(LEFT + plot_w * played / max(most, 1), 1)

    def y_of(percent: float) -> float:
        return round(TOP + plot_h * (100 - percent) / 100, 1)

    series = []
    for index, name in enumerate(chosen):
        points = [(x_of(point.played), y_of(point.win_percent)) for point in form[name]]
        last = form[name][-1]
        series.append(FormSeries(
            colour=index % LINES, name=name,
            points=" ".join(f"{x},{y}" for x, y in points), last=points[-1],
            summary=f"{name}: won {last.won} of {last.played}",
        ))
    step = max(1, -(-most // 8))
    return FormChart(
        width=WIDTH, height=HEIGHT, left=LEFT, right=WIDTH - RIGHT, top=TOP, bottom=HEIGHT - BOTTOM,
        series=tuple(series), ticks=tuple((value, y_of(value)) for value in (0, 50, 100)),
        match_labels=tuple((n, x_of(n)) for n in range(step, most + 1, step)),
    )
