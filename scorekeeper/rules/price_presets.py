"""Ready-made meld prices a table can start from, fitted to the scale of its meld table."""

from __future__ import annotations

from .combinations import Combination
from .house_rules import MeldTableName
from .meld import DOUBLE_SMALL, MELD_TABLES
from .meld_prices import NO_PRICES, MeldPrices

NPA_DOUBLE_DECK: dict[str, list[int | None]] = {"run": [25, 150, 225, 300], "pinochle": [15, 30, 60, 90]}
"""The NPA's double-deck run and pinochle, on the small table's scale."""

PRICE_PRESETS: tuple[tuple[str, str], ...] = (
    ("no-double-pinochle", "No double pinochle"),
    ("npa", "NPA double deck"),
    ("table", "The meld table's prices"),
)


def preset_prices(key: str, table: MeldTableName) -> MeldPrices:
    """The preset ``key``'s prices on ``table``.

    No double pinochle: pinochle priced by single sets only, at the table's price of one (4 on the small
    table, 40 on the others). NPA double deck: its prices times the table's single run over the small
    table's (×1 on the small table, ×10 on the large one and on single-deck classic). Unknown keys and
    "table": no prices of the table's own.
    """
    groups = MELD_TABLES[table]
    if key == "no-double-pinochle":
        return MeldPrices.from_json({"pinochle": [groups[Combination.PINOCHLE][1]]})
    if key == "npa":
        factor = groups[Combination.RUN][1] // DOUBLE_SMALL[Combination.RUN][1]
        return MeldPrices.from_json({
            combination: [None if price is None else price * factor for price in prices]
            for combination, prices in NPA_DOUBLE_DECK.items()
        })
    return NO_PRICES
