"""Coordinates of the score-progression chart, drawn as inline SVG by ``sheet/chart_svg.py``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from ..rules.scoring import Sheet

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 14, 24
PLOT_WIDTH, PLOT_HEIGHT = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
MIN_LABEL_GAP = 14  # labels on the value axis closer than this would overlap
END_LABEL_GAP = 12  # the sides' names at the lines' ends, one under the other


@dataclass(frozen=True)
class Series:
    """One side's running total after each deal, from 0 before the first deal."""

    side: int
    name: str
    points: str  # SVG polyline points "x,y x,y …"
    end: tuple[float, float]
    label_y: float = 0.0  # where the side's name stands at the line's end (printed), clear of the others'


class SetMark(NamedTuple):
    """A deal where the bidders were set, on the bidders' line (a named tuple: every third deal may have one)."""

    side: int
    deal: int
    x: float
    y: float


class Tick(NamedTuple):
    value: int
    y: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    series: tuple[Series, ...]
    set_marks: tuple[SetMark, ...]
    target: Tick
    ticks: tuple[Tick, ...]
    after_end_x: float | None  # where the deals played after the end start
    deal_labels: tuple[tuple[int, float], ...]


def tenths(value: float) -> str:
    """``str(round(value, 1))`` for a coordinate, in one step: both round the exact value to the nearest
    tenth (half to even), and a float rounded so prints as that tenth."""
    return f"{value:.1f}"


def x_texts(deals: int) -> tuple[str, ...]:
    """The x of each point (0 to ``deals``) on a chart of ``deals`` deals, as text followed by a comma."""
    return tuple(f"{tenths(_x(index, deals))}," for index in range(deals + 1))


def _x(index: int, deals: int) -> float:
    """Where the point after deal ``index`` stands across a chart of ``deals`` deals, unrounded."""
    return LEFT + PLOT_WIDTH * index / max(deals, 1)


def progression_chart(sheet: Sheet, side_names: list[str], target: int) -> Chart | None:
    """The chart of a sheet, or None before the first deal."""
    counted = [line for line in sheet.deals if line.totals is not None]
    if not counted:
        return None
    rows: list[tuple[int, ...]] = [tuple(0 for _ in side_names)]
    rows += [line.totals for line in counted if line.totals is not None]
    values = [value for row in rows for value in row]
    low, high = min(0, *values), max(target, *values)
    span = (high - low) or 1
    deals = len(sheet.deals)

    def x_of(index: int) -> float:
        return round(_x(index, deals), 1)

    def y_exact(value: int) -> float:
        return TOP + PLOT_HEIGHT * (high - value) / span

    def y_of(value: int) -> float:
        return round(y_exact(value), 1)

    xs = x_texts(deals)
    series = tuple(
        Series(
            side=side,
            name=name,
            # Each y as ``tenths`` writes it, inline: a long sheet has thousands of points.
            points=" ".join([f"{x}{y_exact(row[side]):.1f}" for x, row in zip(xs, rows)]),
            end=(x_of(len(rows) - 1), y_of(rows[-1][side])),
        )
        for side, name in enumerate(side_names)
    )
    series = _with_end_labels(series)
    marks = tuple(
        SetMark(line.bidder, line.number, x_of(line.number), y_of(line.totals[line.bidder]))
        for line in counted
        if line.status == "set" and line.bidder is not None and line.totals is not None
    )
    ticks = tuple(Tick(value, y_of(value)) for value in sorted({low, 0})
                  if value == 0 or abs(y_of(value) - y_of(0)) >= MIN_LABEL_GAP)
    step = max(1, deals // 8 + (1 if deals % 8 else 0))
    labels = tuple((n, x_of(n)) for n in range(step, deals + 1, step))
    after_end = x_of(sheet.ended_at) if sheet.ended_at is not None and sheet.ended_at < deals else None
    return Chart(
        width=WIDTH, height=HEIGHT, left=LEFT, right=WIDTH - RIGHT, top=TOP, bottom=HEIGHT - BOTTOM,
        series=series, set_marks=marks, target=Tick(target, y_of(target)), ticks=ticks,
        after_end_x=after_end, deal_labels=labels,
    )


def _with_end_labels(series: tuple[Series, ...]) -> tuple[Series, ...]:
    """Each side's name just above its line's end, the names at least END_LABEL_GAP apart from top to bottom (so
    that a printed chart names its lines without colour)."""
    placed: dict[int, float] = {}
    below = float("-inf")
    for line in sorted(series, key=lambda line: (line.end[1], line.side)):
        below = max(round(line.end[1] - 6, 1), round(below + END_LABEL_GAP, 1))
        placed[line.side] = below
    return tuple(replace(line, label_y=placed[line.side]) for line in series)
