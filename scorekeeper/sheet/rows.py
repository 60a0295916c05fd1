"""The rows of the score sheet's table, drawn in one pass over the sheet's lines, each of small cells.

A long match's sheet has a row for each of up to 1,000 deals, so they are drawn here rather than by a template
macro called once a row: the side names are escaped once, every other value is a number or a fixed word that
needs no escaping, and the rows are joined into one ``Markup``. The same cells draw the parts of a row the
phone fills for a deal it has not sent yet (sheet/row_parts.py), so a row has one drawing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

from ..rules.scoring import MADE, PASSED, SET, THROWN_IN, DealLine
from .view import points, signed_points

STATUS_WORDS = {MADE: "made", SET: "set", THROWN_IN: "thrown in"}
NOT_COUNTED = ' <span class="status status-after" data-not-counted>not counted for the event</span>'
AS_ENTERED_MARK = '<a href="#as-entered" class="mark" title="kept as entered">*</a>'
SET_LOOK = (SET, THROWN_IN)  # a bidder's cell drawn as lost
AFTER_NOTE = '<tr class="after-end"><td colspan="{}" class="left small">Deal {}: after the end</td></tr>\n'


Add = Callable[[str], object]  # where a cell's markup goes, piece by piece (a list's append)


def number_cell(add: Add, number: int, address: str | None, uncounted: bool = False) -> None:
    """A deal's number, the link to its form at ``address`` (already escaped; none on the watch page)."""
    end = NOT_COUNTED + "</td>" if uncounted else "</td>"
    if address is None:
        add(f'<td class="left num deal-number">{number}{end}')
    else:
        add(f'<td class="left num deal-number"><a href="{address}" aria-label="Edit deal {number}">{number}</a>{end}')


# What follows a bid by the status of its deal (one that did not count says "after the end").
_STATUS_SPANS = {status: f'<span class="status status-{escape(status)}">{word}</span>'
                 for status, word in STATUS_WORDS.items()}
_AFTER_SPAN = '<span class="status status-after">after the end</span>'


def bid_cell(add: Add, line: DealLine) -> None:
    """The bid and what became of it (in a match with an auction)."""
    status = line.status
    if status == PASSED:
        add('<td class="left bid-cell"><span class="status status-passed">passed</span></td>')
        return
    if line.after_end:
        span = _AFTER_SPAN
    else:
        span = _STATUS_SPANS.get(status) or f'<span class="status status-{escape(status)}"></span>'
    add(f'<td class="left bid-cell"><span class="bid">{line.bid}</span> {span}')
    if line.forced:
        add(' <span class="status status-passed">forced</span>')
    if line.out:
        add(' <span class="status status-made">going out</span>')
    add("</td>")


def side_cells(add: Add, line: DealLine, sides: Sequence[tuple[int, str]]) -> None:
    """Each side's running total and score of the deal, for ``sides``: (side, its name already escaped, said to
    readers in the bidders' cell)."""
    bidder, totals, scores, as_entered = line.bidder, line.totals, line.scores, line.as_entered
    for side, name in sides:
        if bidder == side:
            look = '<td class="num bidder bidder-set">' if line.status in SET_LOOK else '<td class="num bidder">'
            opening = f'{look}<span class="visually-hidden">{name} bid {line.bid}:</span> '
        else:
            opening = '<td class="num">'
        if totals is None or scores is None:
            add(f'{opening}<span class="hand">—</span></td>')
            continue
        total, score = totals[side], scores[side]
        if total < 0:
            running = f'<span class="running"><span class="negative">{points(total)}</span></span> '
        else:
            running = f'<span class="running">{total}</span> '
        if score < 0:
            hand = f'<span class="hand negative">{points(score)}'
        else:
            hand = f'<span class="hand">{signed_points(score)}'
        mark = AS_ENTERED_MARK if as_entered and side in as_entered else ""
        lost = _lost(line, side) if line.lost_meld else ""
        add(f"{opening}{running}{hand}{mark}</span>{lost}</td>")


def _lost(line: DealLine, side: int) -> str:
    """The side's meld that did not count, and why."""
    return "".join(f' <span class="lost-meld">{escape(meld.reason.label)}<span class="visually-hidden">: '
                   f'meld {meld.meld} did not count</span></span>' for meld in line.lost_meld if meld.side == side)


def sheet_rows(lines: Sequence[DealLine], names: Sequence[str], auction: bool, watching: bool,
               edit_url: Callable[[int], str] | None, counted: int | None = None) -> Markup:
    """Every deal's row (with, in a match without an auction, the note under a deal played after the end);
    ``edit_url``: the address of a deal's form (the players' page; the watch page has no links); ``counted``:
    at a table of a club event, the last deal the event counts (those after it are marked so)."""
    sides = [(side, str(escape(name))) for side, name in enumerate(names)]
    width = len(names) + 1
    address = None if watching or edit_url is None else _addresses(edit_url)
    parts: list[str] = []
    add = parts.append
    for line in lines:
        number = line.number
        after_end = line.after_end
        uncounted = counted is not None and number > counted
        add(f'<tr id="deal-{number}" class="after-end">' if after_end or uncounted else f'<tr id="deal-{number}">')
        number_cell(add, number, None if address is None else address(number), uncounted)
        if auction:
            bid_cell(add, line)
        side_cells(add, line, sides)
        add("</tr>\n")
        if not auction and after_end:
            add(AFTER_NOTE.format(width, number))
    return Markup("".join(parts))


SAMPLE_NUMBER = 987654321  # a number no sheet reaches, to find where a deal's number stands in its address


def _addresses(edit_url: Callable[[int], str]) -> Callable[[int], str]:
    """Each deal's escaped address: the parts around the number of one address built, when deal 1's address
    is made of them too (a number stands in an address as its digits); else each one built."""
    head, mark, tail = edit_url(SAMPLE_NUMBER).partition(str(SAMPLE_NUMBER))
    if mark and str(SAMPLE_NUMBER) not in tail and edit_url(1) == f"{head}1{tail}":
        before, after = str(escape(head)), str(escape(tail))
        return lambda number: f"{before}{number}{after}"
    return lambda number: str(escape(edit_url(number)))
