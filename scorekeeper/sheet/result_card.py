"""The result card of a decided match: a small standalone SVG a phone can send through its share sheet.

Standard library only. Every piece of user text (the match's and the sides' names) is escaped, and cut
short with an ellipsis where it would run off the card: SVG text does not wrap.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from html import escape

from .view import SheetView, points

WIDTH = 600
TOP = 150  # where the totals start
LINE = 44  # one side's line of the totals
LONGEST_TITLE = 34  # characters of the match's name that fit across the card
LONGEST_WINNER = 20  # characters of the winner's name in the headline
LONGEST_SIDE = 22  # characters of a side's name left of its total
ELLIPSIS = "…"


def _cut(text: str, longest: int) -> str:
    return text if len(text) <= longest else text[: longest - 1].rstrip() + ELLIPSIS


def _text(value: str) -> str:
    """User text made safe inside an SVG element or attribute (<, &, quotes)."""
    return escape(value, quote=True)


@dataclass(frozen=True)
class ResultCard:
    """What the card shows: the match, its winner, the final totals by rank, the deals that counted and
    the day it was decided."""

    name: str
    winner: str
    totals: tuple[tuple[str, int], ...]
    deals: int
    day: date

    @classmethod
    def of(cls, name: str, view: SheetView, deal_days: list[date]) -> ResultCard | None:
        """The card of a decided match, dated by the day its deciding deal was entered (``deal_days``: each
        deal's, in order); None while it is not decided."""
        winner = view.winner_name()
        if winner is None or view.sheet is None or view.sheet.ended_at is None:
            return None
        ended_at = view.sheet.ended_at
        return cls(name, winner, tuple(view.ranked()), ended_at, deal_days[ended_at - 1])

    def svg(self) -> bytes:
        height = TOP + LINE * len(self.totals) + 70
        deals = f"{self.deals} deal{'' if self.deals == 1 else 's'} · {self.day:%d %b %Y}"
        lines = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH * 2}" '
            f'height="{height * 2}" role="img" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif">',
            f"<title>{_text(f'{self.name}: {self.winner} won')}</title>",
            f'<rect width="{WIDTH}" height="{height}" rx="24" fill="#fffdf7"/>',
            f'<rect x="12" y="12" width="{WIDTH - 24}" height="{height - 24}" rx="16" fill="none" '
            'stroke="#1f5130" stroke-width="3"/>',
            f'<text x="40" y="62" font-size="26" fill="#333">{_text(_cut(self.name, LONGEST_TITLE))}</text>',
            f'<text x="40" y="112" font-size="36" font-weight="700" fill="#1f5130">'
            f"★ {_text(_cut(self.winner, LONGEST_WINNER))} won</text>",
        ]
        for rank, (side, total) in enumerate(self.totals):
            y = TOP + LINE * rank + 30
            weight = ' font-weight="700"' if rank == 0 else ""
            lines.append(f'<text x="40" y="{y}" font-size="28" fill="#111"{weight}>'
                         f"{rank + 1}. {_text(_cut(side, LONGEST_SIDE))}</text>")
            lines.append(f'<text x="{WIDTH - 40}" y="{y}" font-size="28" text-anchor="end" fill="#111"{weight}>'
                         f"{points(total)}</text>")
        lines.append(f'<text x="40" y="{height - 40}" font-size="20" fill="#555">{_text(deals)}</text>')
        lines.append("</svg>")
        return "\n".join(lines).encode()
