"""The parts of a score sheet's row that the phone fills in to draw a deal it has not sent yet
(static/js/offline/sheet.js): each is drawn by the sheet's own row cells (sheet/rows.py) for a stand-in line
whose numbers are marks (``FILL``), which the phone replaces with the twin's numbers. So a row drawn on the phone
is the server's markup, whatever the server's row shows."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from ..rules.pricing import MeldLostReason
from ..rules.scoring import MADE, PASSED, SET, THROWN_IN, DealLine, LostMeld
from .chart import Chart, SetMark, Tick
from .chart_svg import chart_svg
from .rows import bid_cell, sheet_rows, side_cells

# Numbers no sheet shows, which the phone finds in a part's text and addresses and replaces.
FILL = {"number": 987601, "bid": 987602, "total": 987603, "score": 987604, "meld": 987605}
STATUSES = (PASSED, MADE, SET, THROWN_IN)
ROLES = {"plain": None, "bidder": MADE, "bidder-set": SET}  # a side cell's look: not the bidders, or as made or set


@dataclass(frozen=True)
class RowParts:
    """The stand-in lines, each with the name the phone asks for it by (``data-part``)."""

    fill: dict[str, int]
    rows: list[tuple[str, DealLine]]  # a row's own markup and number cell (and the note after the end)
    bids: list[tuple[str, DealLine]]  # the bid cell by status; "forced" and "going out" after it
    sides: list[tuple[str, DealLine, int]]  # each side's cell by its look, a score's parts, each meld lost


def _line(sides: int, *, status: str = MADE, bidder: int | None = None, after_end: bool = False,
          sign: int = 1, forced: bool = False, out: bool = False, lost: tuple[LostMeld, ...] = (),
          as_entered: tuple[int, ...] = ()) -> DealLine:
    """A stand-in line: its numbers are the marks, negative with ``sign`` -1 (a score of 0 with 0)."""
    totals = None if after_end else ((-1 if sign < 0 else 1) * FILL["total"],) * sides
    scores = None if after_end else (sign * FILL["score"],) * sides
    return DealLine(FILL["number"], status, bidder, FILL["bid"], scores, totals, status == MADE, after_end,
                    as_entered, lost, out, forced)


def row_parts(sides: int) -> RowParts:
    """Every part a row of a match of ``sides`` sides can be made of."""
    rows = [("row", _line(sides)), ("row-after", _line(sides, after_end=True))]
    bids = [(f"bid-{status}", _line(sides, status=status)) for status in STATUSES]
    bids += [("bid-after", _line(sides, after_end=True)), ("bid-forced", _line(sides, forced=True)),
             ("bid-out", _line(sides, out=True))]  # of the last two, the phone takes the last word
    cells = [(f"side-{side}-{role}{'-none' * after_end}",
              _line(sides, status=status or MADE, bidder=side if status else None, after_end=after_end), side)
             for side in range(sides) for role, status in ROLES.items() for after_end in (False, True)]
    cells += [("negative", _line(sides, sign=-1), 0), ("zero", _line(sides, sign=0), 0),
              ("as-entered", _line(sides, as_entered=(0,)), 0)]
    cells += [(f"lost-{reason.value}", _line(sides, lost=(LostMeld(0, FILL["meld"], reason),)), 0)
              for reason in MeldLostReason]
    return RowParts(FILL, rows, bids, cells)


def draw_row_parts(parts: RowParts, names: Sequence[str], auction: bool, edit_url: Callable[[int], str]) -> Markup:
    """The ``<template>`` of the parts, each in a ``<tbody data-part>`` of its own, drawn by the sheet's cells."""
    drawn = [f'<template data-sheet-rows data-fill="{escape(json.dumps(parts.fill))}">']
    drawn += [f'<tbody data-part="{key}">{sheet_rows([line], [] if auction else names, auction, False, edit_url)}'
              "</tbody>" for key, line in parts.rows]
    drawn += [f'<tbody data-part="{key}"><tr>{_cell(bid_cell, line)}</tr></tbody>' for key, line in parts.bids]
    drawn += [f'<tbody data-part="{key}"><tr>{_cell(side_cells, line, [(side, str(escape(names[side])))])}</tr></tbody>'
              for key, line, side in parts.sides]
    drawn.append('<tbody data-part="pending"><tr><td><span class="status status-pending">not sent yet</span></td>'
                 "</tr></tbody>\n</template>")
    return Markup("".join(drawn))


def stand_in_chart() -> Markup:
    """The chart's drawing for a stand-in: its target the mark of ``total``, one set deal the mark of ``number``
    (the phone takes its words; it draws the lines itself)."""
    chart = Chart(width=0, height=0, left=0, right=0, top=0, bottom=0, series=(),
                  set_marks=(SetMark(0, FILL["number"], 0, 0),), target=Tick(FILL["total"], 0), ticks=(),
                  after_end_x=None, deal_labels=())
    return chart_svg(chart)


def _cell(draw: Callable[..., None], *args: object) -> str:
    """The markup a cell of sheet/rows.py draws."""
    pieces: list[str] = []
    draw(pieces.append, *args)
    return "".join(pieces)
