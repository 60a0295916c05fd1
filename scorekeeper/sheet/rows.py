"""The score sheet's rows, each drawn once and kept with the page for the next version of the match.

A row's HTML (``templates/matches/_sheet_row.html``) depends on nothing but its line of the sheet (a
named tuple of numbers: the deal's score, the running totals, the bid and its fate) and on what
``RowContext`` holds of the page around it. So a page drawn for a new version takes every row whose
line is unchanged from the page of the version before and draws only the others: the new deal's row
after a deal is added; after a correction, the corrected deal's and every later one (their running
totals moved). Facts stay the only stored thing: a row is found again only by its whole line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from flask import current_app
from markupsafe import Markup

from ..rules.scoring import DealLine

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
              kept: Mapping[DealLine, str]) -> dict[DealLine, str]:
    """Every line's row, in order: taken from ``kept`` (the rows of a page with the same context) when
    its line is there, drawn otherwise."""
    row = None
    rows: dict[DealLine, str] = {}
    for line in lines:
        html = kept.get(line)
        if html is None:
            if row is None:
                row = current_app.jinja_env.get_template(ROW_TEMPLATE).module.row  # type: ignore[attr-defined]
            html = str(row(line, list(context.names), context.auction, context.watching, edit_url))
        rows[line] = html
    return rows


def joined(rows: Mapping[DealLine, str]) -> Markup:
    """The rows as the sheet's table body (each row was escaped when drawn)."""
    return Markup("".join(rows.values()))
