"""Coordinates of the score-progression chart, drawn as inline SVG by the score sheet template."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.scoring import Sheet

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 14, 24
MIN_LABEL_GAP = 14  # labels on the value axis closer than this would overlap


@dataclass(frozen=True)
class Series:
    """One side's running total after each deal, from 0 before the first deal."""

    side: int
    name: str
    points: str  # SVG polyline points "x,y x,y …"
    end: tuple[float, float]


@dataclass(frozen=True)
class SetMark:
    """A deal where the bidders were set, on the bidders' line."""

    side: int
    deal: int
    x: float
    y: float


@dataclass(frozen=True)
class Tick:
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
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(index: int) -> float:
        return round(LEFT + plot_w * index / max(deals, 1), 1)

    def y_of(value: int) -> float:
        return round(TOP + plot_h * (high - value) / span, 1)

    # Each point's x once for all the sides, as text: a long sheet has thousands of points.
    xs = [f"{x_of(index)}," for index in range(len(rows))]
    series = tuple(
        Series(
            side=side,
            name=name,
            points=" ".join([x + str(y_of(row[side])) for x, row in zip(xs, rows, strict=True)]),
            end=(x_of(len(rows) - 1), y_of(rows[-1][side])),
        )
        for side, name in enumerate(side_names)
    )
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
