"""The score sheet's rows, each drawn once and kept with the page for the next version of the match.

A row's HTML (``templates/matches/_sheet_row.html``) depends on nothing but its line of the sheet (a
named tuple of numbers: the deal's score, the running totals, the bid and its fate) and on what
``RowContext`` holds of the page around it. The template draws the row with a mark where each running
total goes (``RUNNING_MARK``), and the row is kept cut at those marks (``Row``); the totals are put in
between the pieces (``running_total``): a correction moves the running totals of every later deal, and
those rows are then not drawn again, only given their new totals. So a page drawn for a new version
takes every row whose line, running totals aside, is the same as on the page of the version before and
draws only the others: the new deal's row after a deal is added, the corrected deal's after a correction.
Facts stay the only stored thing: a row is found again only by its whole line (its totals aside)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import current_app
from markupsafe import Markup

from ..rules.scoring import DealLine
from .view import points

ROW_TEMPLATE = "matches/_sheet_row.html"

# Where a row's running totals go, one mark a side in the sides' order. Escaped text cannot produce it: it
# never holds a raw "<".
RUNNING_MARK = Markup("<!--running-->")

Row = tuple[str, ...]
"""A row's HTML cut at its running-total marks: one piece more than the sides, or one piece without totals."""


@dataclass(frozen=True)
class RowContext:
    """What a row depends on besides its line: the sides' names, whether the match has an auction,
    the watch page or the players' page, and (on the players' page) the pattern of the edit links."""

    names: tuple[str, ...]
    auction: bool
    watching: bool
    edit_link: str  # the edit address of deal 0, standing for every deal's; empty on the watch page


def draw_rows(lines: Iterable[DealLine], context: RowContext, edit_url: Callable[[int], str] | None,
              kept: Mapping[DealLine, Row]) -> tuple[list[str], dict[DealLine, Row]]:
    """The pieces of the sheet's table body, in order (``joined`` puts them together), and each line's
    row by its shape (``shape_of``), to keep for the next version: taken from ``kept`` (the rows of a
    page with the same context) when its line's shape is there, drawn otherwise."""
    macro: Callable[..., Any] | None = None
    pieces: list[str] = []
    shapes: dict[DealLine, Row] = {}
    for line in lines:
        shape = shape_of(line)
        row = kept.get(shape)
        if row is None:
            if macro is None:
                macro = current_app.jinja_env.get_template(ROW_TEMPLATE).module.row  # type: ignore[attr-defined]
            row = tuple(str(macro(shape, list(context.names), context.auction, context.watching, edit_url,
                                  RUNNING_MARK)).split(RUNNING_MARK))
        shapes[shape] = row
        pieces.append(row[0])
        if line.totals is not None:
            for total, piece in zip(line.totals, row[1:], strict=True):
                pieces += (running_total(total), piece)
    return pieces, shapes


_TOTALS = DealLine._fields.index("totals")
_deal_line: Callable[[tuple[Any, ...]], DealLine] = partial(tuple.__new__, DealLine)


def shape_of(line: DealLine) -> DealLine:
    """The line without its running totals (kept as "there are some" or not): what a row is drawn from."""
    return line if line.totals is None else _deal_line((*line[:_TOTALS], (), *line[_TOTALS + 1:]))


def running_total(total: int) -> str:
    """A running total as the sheet shows it: a negative one marked, with a true minus sign."""
    return f'<span class="negative">{points(total)}</span>' if total < 0 else str(total)


def joined(pieces: Iterable[str]) -> Markup:
    """The rows as the sheet's table body (each row was escaped when drawn)."""
    return Markup("".join(pieces))
