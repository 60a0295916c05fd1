"""The score sheet's rows, each drawn once and kept with the page for the next version of the match.

A row's HTML (``templates/matches/_sheet_row.html``) depends on nothing but its line of the sheet (a
named tuple of numbers: the deal's score, the running totals, the bid and its fate) and on what
``RowContext`` holds of the page around it. The template draws the row with a mark where each running
total goes (``shape_of``), and the totals are put in by ``running_total`` here: a correction moves the
running totals of every later deal, and those rows are then not drawn again, only given their new
totals. So a page drawn for a new version takes every row whose line, running totals aside, is the same
as on the page of the version before and draws only the others: the new deal's row after a deal is
added, the corrected deal's after a correction. Facts stay the only stored thing: a row is found again
only by its whole line (its totals aside)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from flask import current_app
from markupsafe import Markup

from ..rules.scoring import DealLine
from .view import points

ROW_TEMPLATE = "matches/_sheet_row.html"


@dataclass(frozen=True)
class RowContext:
    """What a row depends on besides its line: the sides' names, whether the match has an auction,
    the watch page or the players' page, and (on the players' page) the pattern of the edit links."""

    names: tuple[str, ...]
    auction: bool
    watching: bool
    edit_link: str  # the edit address of deal 0, standing for every deal's; empty on the watch page


def draw_rows(lines: Iterable[DealLine], context: RowContext, edit_url: Callable[[int], str] | None,
              kept: Mapping[DealLine, str]) -> tuple[list[str], dict[DealLine, str]]:
    """Every line's row, in order, and the rows drawn with their marks (by ``shape_of`` their lines), to
    keep for the next version: taken from ``kept`` (the marked rows of a page with the same context) when
    its line's shape is there, drawn otherwise."""
    row = None
    rows: list[str] = []
    shapes: dict[DealLine, str] = {}
    marks = [running_mark(side) for side in range(len(context.names))]
    for line in lines:
        shape = shape_of(line)
        html = kept.get(shape)
        if html is None:
            if row is None:
                row = current_app.jinja_env.get_template(ROW_TEMPLATE).module.row  # type: ignore[attr-defined]
            html = str(row(shape, list(context.names), context.auction, context.watching, edit_url, marks))
        shapes[shape] = html
        if line.totals is not None:
            for side, total in enumerate(line.totals):
                html = html.replace(marks[side], running_total(total), 1)
        rows.append(html)
    return rows, shapes


def running_mark(side: int) -> Markup:
    """Where a row's running total of ``side`` goes. Escaped text cannot produce it: it never holds a raw "<"."""
    return Markup(f"<!--running:{side}-->")


def shape_of(line: DealLine) -> DealLine:
    """The line without its running totals (kept as "there are some" or not): what a row is drawn from."""
    return line if line.totals is None else line._replace(totals=())


def running_total(total: int) -> str:
    """A running total as the sheet shows it: a negative one marked, with a true minus sign."""
    return f'<span class="negative">{points(total)}</span>' if total < 0 else str(total)


def joined(rows: Iterable[str]) -> Markup:
    """The rows as the sheet's table body (each row was escaped when drawn)."""
    return Markup("".join(rows))
