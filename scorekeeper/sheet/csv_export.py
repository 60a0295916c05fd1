"""The score sheet as CSV: one row per deal, each side's score and running total."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from ..rules.match import Match
from ..rules.scoring import Sheet


def sheet_csv(match: Match, sheet: Sheet) -> str:
    """Deal number, bidder, bid, status, then score and total per side, then whether it came after the end."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    names = [side.name for side in match.sides]
    writer.writerow(_safe(
        ["deal", "bidder", "bid", "status"]
        + [heading for name in names for heading in (f"{name} score", f"{name} total")]
        + ["after end"]
    ))
    for line in sheet.deals:
        cells: list[object] = [
            line.number,
            names[line.bidder] if line.bidder is not None else "",
            line.bid if line.bid is not None else "",
            line.status,
        ]
        for index in range(len(names)):
            cells.append(line.scores[index] if line.scores is not None else "")
            cells.append(line.totals[index] if line.totals is not None else "")
        cells.append("yes" if line.after_end else "no")
        writer.writerow(_safe(cells))
    return out.getvalue()


def _safe(cells: Sequence[object]) -> list[object]:
    """Keep a spreadsheet from reading a side's name as a formula."""
    return [f"'{cell}" if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@") else cell for cell in cells]
