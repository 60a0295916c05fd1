"""The table's own meld prices (house rule ``meld_prices``): for some combinations, the price of a group of
1, 2, 3 or 4 sets, in place of the meld table's row for that combination.

A combination not listed keeps the meld table's prices. A listed one is priced by its own four groups only;
``None`` is a group that is not priced (``[40, None]``: no double pinochle, two pinochles are 40 + 40).
Marriages and royal marriages are priced one at a time: their own prices take the price of one, and a group
price for them is refused (a stored one, written before that rule, is read as its first number only).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .combinations import Combination
from .errors import HouseRuleError, RulesError
from .messages import say
from .problems import ProblemCode, join_path

GROUPS = 4  # a group holds 1 to 4 sets of one combination
MAX_PRICE = 10_000  # any one group's price (a quadruple run on the large table is 3,000)
KEY = "meld_prices"

GroupPrices = tuple[int | None, int | None, int | None, int | None]


@dataclass(frozen=True)
class MeldPrices:
    """The combinations the table prices its own way, in the order of ``Combination``."""

    rows: tuple[tuple[Combination, GroupPrices], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.rows)

    def groups(self, combination: Combination) -> GroupPrices | None:
        """The combination's four group prices, or None when it keeps the meld table's."""
        for listed, prices in self.rows:
            if listed is combination:
                return prices
        return None

    def over(self, table: Mapping[Combination, Mapping[int, int]]) -> dict[Combination, dict[int, int]]:
        """``table`` (group → price per combination) with this table's own rows in place of its rows.

        Sets that fit no priced group are left over and worth nothing (with only doubles priced, three sets
        are a double): a row that prices some group but not single sets prices a single set 0. A row that
        prices nothing leaves the combination off the table.
        """
        priced = {combination: dict(groups) for combination, groups in table.items()}
        for combination, prices in self.rows:
            groups = {size: price for size, price in enumerate(prices, 1) if price is not None}
            priced[combination] = {1: 0, **groups} if groups else {}
        return priced

    def to_json(self) -> dict[str, list[int | None]]:
        """As the match file writes it: ``{"pinochle": [40, null, null, null]}``."""
        return {combination.value: list(prices) for combination, prices in self.rows}

    def label(self) -> str:
        """How the prices read on a page: 'pinochle 40 / – / – / –; run 25 / 150 / 225 / 300'."""
        if not self.rows:
            return "the meld table's"
        return "; ".join(
            f"{combination.label} " + " / ".join("–" if price is None else str(price) for price in prices)
            for combination, prices in self.rows
        )

    @classmethod
    def from_json(cls, raw: object, *, stored: bool = False) -> MeldPrices:
        """Read the rule's value: an object of combination → list of 1 to 4 prices, each a whole number from 0
        to ``MAX_PRICE`` or null; a shorter list leaves the later groups unpriced; a combination priced one at a
        time takes one price. ``stored``: prices this app stored earlier, read back: a group price of such a
        combination (allowed before) is left out, its first number kept. (JSON text is the caller's to decode:
        the match file holds the object itself.)"""
        if isinstance(raw, MeldPrices):
            return raw
        if not isinstance(raw, dict):
            raise _fail("", say("wrong_type.prices"), ProblemCode.WRONG_TYPE)
        found: dict[Combination, GroupPrices] = {}
        for key, value in raw.items():
            try:
                combination = Combination.from_key(str(key))
            except RulesError as error:
                raise _fail(str(key), error.problem.message, error.code) from None
            found[combination] = _group_prices(combination, value, stored)
        if not found:  # none: the one empty table, which the pricing tells by identity (``same_meld_prices``)
            return NO_PRICES
        return cls(tuple((combination, found[combination]) for combination in Combination if combination in found))


NO_PRICES = MeldPrices()


def _group_prices(combination: Combination, value: object, stored: bool) -> GroupPrices:
    if not isinstance(value, list) or not 1 <= len(value) <= GROUPS:
        message = say("wrong_type.price_list", combination=combination.label, groups=GROUPS)
        raise _fail(combination.value, message, ProblemCode.WRONG_TYPE)
    one_at_a_time = combination.priced_one_at_a_time
    prices: list[int | None] = []
    for index, price in enumerate(value):
        if price is not None and (isinstance(price, bool) or not isinstance(price, int)):
            raise _price_fail(combination, index, say("not_a_number.price"), ProblemCode.NOT_A_NUMBER)
        if price is not None and not 0 <= price <= MAX_PRICE:
            message = say("out_of_range.price", most=MAX_PRICE)
            raise _price_fail(combination, index, message, ProblemCode.OUT_OF_RANGE)
        if price is not None and index and one_at_a_time and not stored:
            message = say(ProblemCode.PRICED_ONE_AT_A_TIME, combination=combination.label)
            raise _price_fail(combination, index, message, ProblemCode.PRICED_ONE_AT_A_TIME)
        prices.append(None if index and one_at_a_time else price)
    prices += [None] * (GROUPS - len(prices))
    return (prices[0], prices[1], prices[2], prices[3])


def _price_fail(combination: Combination, index: int, message: str, code: ProblemCode) -> HouseRuleError:
    """A refused price: the ``index``-th of ``combination``'s list."""
    sets = say("prices.one_set") if index == 0 else say("prices.sets", sets=index + 1)
    return _fail(f"{combination.value}[{index}]", say("prices.price", combination=combination.label, sets=sets,
                                                     message=message), code)


def _fail(where: str, message: str, code: ProblemCode) -> HouseRuleError:
    return HouseRuleError(join_path(KEY, where), say("prices", message=message), code)
