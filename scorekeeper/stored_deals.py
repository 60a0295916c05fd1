"""A match's deals read from their rows for the rules core, each row's content parsed once per process.

A new version of a match differs from the one before by a deal or two. A process reading it (say, after
a write by another gunicorn worker) finds every other deal's row just as before and takes the deal it
made of that row then, rather than parsing it again: one query, then a lookup per deal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from sqlalchemy import Connection, Text, bindparam, cast, select

from .models import Base, DealRow
from .rules.house_rules import HouseRules
from .rules.match import Deal
from .rules.matchfile import auction_to_json, deal_from_json


class StoredDeal(NamedTuple):
    """The columns of a deal's row that hold its facts (the JSON ones decoded)."""

    passed: bool
    bidder: int | None
    bid: int | None
    trump: str | None
    thrown_in: bool
    out: bool
    forced: bool
    bid_by: str | None
    dealt_by: str | None
    meld_table: str
    trick_scale: str
    last_trick: int
    meld_prices: dict[str, Any] | None
    sides: list[dict[str, Any]]


_JSON_COLUMNS = frozenset({"meld_prices", "sides"})
_DEAL = Base.metadata.tables["deal"]
# The JSON columns come as their text, so that a row's content can be a key as it is.
_DEALS_OF_MATCH = (
    select(*(cast(_DEAL.c[name], Text) if name in _JSON_COLUMNS else _DEAL.c[name] for name in StoredDeal._fields))
    .where(_DEAL.c.match_id == bindparam("match"))
    .order_by(_DEAL.c.position)
)


class DealReader:
    """Reads a match's deals, each made of the rules core's kept objects by ``canonical``, and remembers
    the deal made of each row content it parsed, per house rules and count of sides (bounded: past
    ``limit`` entries it starts afresh; threads may add a few past it between two checks)."""

    def __init__(self, limit: int, canonical: Callable[[Deal], Deal]) -> None:
        self.limit = limit
        self.canonical = canonical
        self._parsed: dict[tuple[HouseRules, int], dict[tuple[Any, ...], Deal]] = {}
        self._count = 0

    def deals(self, connection: Connection, match_id: int, rules: HouseRules, side_count: int) -> tuple[Deal, ...]:
        """The match's deals in order."""
        rows = connection.execute(_DEALS_OF_MATCH, {"match": match_id}).all()
        if not rows:
            return ()
        key, deals = (rules, side_count), []
        for index, row in enumerate(rows):
            values = tuple(row)
            deal = self._parsed.get(key, {}).get(values)
            if deal is None:
                deal = self.canonical(_parse(values, index, rules, side_count))
                if self._count >= self.limit:
                    self._parsed.clear()
                    self._count = 0
                self._parsed.setdefault(key, {})[values] = deal
                self._count += 1
            deals.append(deal)
        return tuple(deals)

    def __len__(self) -> int:
        """How many row contents are remembered."""
        return sum(len(parsed) for parsed in self._parsed.values())


def _parse(values: tuple[Any, ...], index: int, rules: HouseRules, side_count: int) -> Deal:
    stored = StoredDeal._make(
        json.loads(value) if name in _JSON_COLUMNS and value is not None else value
        for name, value in zip(StoredDeal._fields, values, strict=True)
    )
    return deal_from_json(deal_json(stored), side_count, f"deals[{index}]", rules, stored=True)


def deal_json(deal: StoredDeal | DealRow) -> dict[str, Any]:
    """One stored deal (its row, or the columns read) in the match file format, with the pricing it was
    entered under."""
    data = auction_to_json(deal, deal.trump or None)
    if deal.passed:
        return data
    data["sides"] = deal.sides
    data["entered_under"] = {
        "meld_table": deal.meld_table, "trick_scale": deal.trick_scale, "last_trick": deal.last_trick,
        "meld_prices": deal.meld_prices or {},
    }
    return data
