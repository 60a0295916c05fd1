"""The table's own meld prices as a form: per combination and group of 1–4 sets a price, or "not priced"; a
combination priced one at a time (marriages) has the box of one set only."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, HiddenField, StringField
from wtforms.validators import ValidationError

from ..rules.combinations import Combination
from ..rules.errors import RulesError
from ..rules.house_rules import MeldTableName
from ..rules.meld import price_list
from ..rules.meld_prices import GROUPS, MAX_PRICE, NO_PRICES, MeldPrices
from ..rules.numbers import parse_whole_number
from .common import new_write_key

SIZES = tuple(range(1, GROUPS + 1))


def sizes(combination: Combination) -> tuple[int, ...]:
    """The groups the form offers a price for: one set only for a combination priced one at a time."""
    return SIZES[:1] if combination.priced_one_at_a_time else SIZES


def price_name(combination: Combination, size: int) -> str:
    return f"{combination.value}-{size}"


def off_name(combination: Combination, size: int) -> str:
    return f"{combination.value}-{size}-off"


def _check_price(form: FlaskForm, field: Field) -> None:
    text = (field.data or "").strip()
    if not text or form[f"{field.name}-off"].data:
        return
    try:
        value = parse_whole_number(text)
    except RulesError:
        raise ValidationError(f"Give a whole number from 0 to {MAX_PRICE:,}, or leave it empty.") from None
    if value > MAX_PRICE:
        raise ValidationError(f"At most {MAX_PRICE:,}.")


class MeldPricesForm(FlaskForm):
    """Each combination's price for 1, 2, 3 and 4 sets; ``confirm`` and ``chosen`` (the prices previewed, as
    JSON) are set on the preview."""

    version = HiddenField()
    write_key = HiddenField(default=new_write_key)  # kept from the prices page through its preview to the apply
    confirm = HiddenField()
    chosen = HiddenField()

    def fill(self, table: MeldTableName, prices: MeldPrices) -> None:
        """Show the prices in force: the meld table's, with ``prices`` over them."""
        base = price_list(table)
        for combination in Combination:
            row = prices.groups(combination) or tuple(base[combination].get(size) for size in SIZES)
            for size, price in zip(sizes(combination), row):
                self[price_name(combination, size)].data = "" if price is None else str(price)
                self[off_name(combination, size)].data = price is None

    def prices(self, table: MeldTableName) -> MeldPrices:
        """The prices typed in (call after validation): the combinations whose four groups differ from the
        meld table's; an empty box is not priced."""
        base = price_list(table, NO_PRICES)
        own: dict[str, list[int | None]] = {}
        for combination in Combination:
            row = [self.group_price(combination, size) for size in sizes(combination)]
            if row != [base[combination].get(size) for size in sizes(combination)]:
                own[combination.value] = row
        return MeldPrices.from_json(own)

    def group_price(self, combination: Combination, size: int) -> int | None:
        text = (self[price_name(combination, size)].data or "").strip()
        if not text or self[off_name(combination, size)].data:
            return None
        return parse_whole_number(text)

    def cells(self, combination: Combination) -> list[tuple[int, Field, Field]]:
        """(sets, price field, not-priced box) for each group of the combination."""
        return [(size, self[price_name(combination, size)], self[off_name(combination, size)])
                for size in sizes(combination)]


for _combination in Combination:
    for _size in sizes(_combination):
        setattr(MeldPricesForm, price_name(_combination, _size), StringField(
            f"{_combination.label.capitalize()}, {_size} set{'s' if _size > 1 else ''}", validators=[_check_price],
            render_kw={"inputmode": "numeric", "autocomplete": "off"},
        ))
        setattr(MeldPricesForm, off_name(_combination, _size), BooleanField("not priced"))
