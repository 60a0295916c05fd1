"""The rows of the score sheet's table, drawn in one pass over the sheet's lines.

A long match's sheet has a row for each of up to 1,000 deals, so they are drawn here rather than by a template
macro called once a row: the side names are escaped once, every other value is a number or a fixed word that
needs no escaping, and the rows are joined into one ``Markup``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

from ..rules.scoring import MADE, PASSED, SET, THROWN_IN, DealLine
from .view import points, signed_points

STATUS_WORDS = {MADE: "made", SET: "set", THROWN_IN: "thrown in"}
NOT_COUNTED = ' <span class="status status-after" data-not-counted>not counted for the event</span>'
AS_ENTERED_MARK = '<a href="#as-entered" class="mark" title="kept as entered">*</a>'


def sheet_rows(lines: Sequence[DealLine], names: Sequence[str], auction: bool, watching: bool,
               edit_url: Callable[[int], str] | None, counted: int | None = None) -> Markup:
    """Every deal's row (with, in a match without an auction, the note under a deal played after the end);
    ``edit_url``: the address of a deal's form (the players' page; the watch page has no links); ``counted``:
    at a table of a club event, the last deal the event counts (those after it are marked so)."""
    sides = [(side, str(escape(name))) for side, name in enumerate(names)]
    after_note = (f'<tr class="after-end"><td colspan="{len(names) + 1}" class="left small">'
                  'Deal {}: after the end</td></tr>\n')
    address = None if watching or edit_url is None else _addresses(edit_url)
    parts: list[str] = []
    add = parts.append
    for line in lines:
        number = line.number
        after_end = line.after_end
        uncounted = counted is not None and number > counted
        add(f'<tr id="deal-{number}" class="after-end">' if after_end or uncounted else f'<tr id="deal-{number}">')
        if address is None:
            add(f'<td class="left num deal-number">{number}')
        else:
            add(f'<td class="left num deal-number"><a href="{address(number)}" '
                f'aria-label="Edit deal {number}">{number}</a>')
        add(NOT_COUNTED if uncounted else "")
        add("</td>")
        status, bidder, bid = line.status, line.bidder, line.bid
        if auction:
            add('<td class="left bid-cell">')
            if status == PASSED:
                add('<span class="status status-passed">passed</span>')
            else:
                add(f'<span class="bid">{bid}</span> ')
                if after_end:
                    add('<span class="status status-after">after the end</span>')
                else:
                    add(f'<span class="status status-{escape(status)}">{STATUS_WORDS.get(status, "")}</span>')
                if line.forced:
                    add(' <span class="status status-passed">forced</span>')
                if line.out:
                    add(' <span class="status status-made">going out</span>')
            add("</td>")
        totals, scores = line.totals, line.scores
        for side, name in sides:
            if bidder == side:
                add('<td class="num bidder bidder-set">' if status in (SET, THROWN_IN) else '<td class="num bidder">')
                add(f'<span class="visually-hidden">{name} bid {bid}:</span> ')
            else:
                add('<td class="num">')
            if totals is not None and scores is not None:
                total, score = totals[side], scores[side]
                if total < 0:
                    add(f'<span class="running"><span class="negative">{points(total)}</span></span> ')
                else:
                    add(f'<span class="running">{total}</span> ')
                add('<span class="hand negative">' if score < 0 else '<span class="hand">')
                add(signed_points(score))
                if side in line.as_entered:
                    add(AS_ENTERED_MARK)
                add("</span>")
                for lost in line.lost_meld:
                    if lost.side == side:
                        add(f' <span class="lost-meld">{escape(lost.reason.label)}<span class="visually-hidden">: '
                            f'meld {lost.meld} did not count</span></span>')
            else:
                add('<span class="hand">—</span>')
            add("</td>")
        add("</tr>\n")
        if not auction and after_end:
            add(after_note.format(number))
    return Markup("".join(parts))


SAMPLE_NUMBER = 987654321  # a number no sheet reaches, to find where a deal's number stands in its address


def _addresses(edit_url: Callable[[int], str]) -> Callable[[int], str]:
    """Each deal's escaped address: the parts around the number of one address built, when deal 1's address
    is made of them too (a number stands in an address as its digits); else each one built."""
    head, mark, tail = edit_url(SAMPLE_NUMBER).partition(str(SAMPLE_NUMBER))
    if mark and str(SAMPLE_NUMBER) not in tail and edit_url(1) == f"{head}1{tail}":
        before, after = escape(head), escape(tail)
        return lambda number: f"{before}{number}{after}"
    return lambda number: str(escape(edit_url(number)))
