"""A match's own meld prices: each combination's price for 1–4 sets beside the meld table's, previewed and
applied like any house-rule change (one entry in the match's history of changes)."""

from __future__ import annotations

import json

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..device import event_rules_are_the_directors, players_only, remember_match
from ..forms.meld_prices import MeldPricesForm
from ..models import MatchRow
from ..rules.errors import ContradictionError, RulesError
from ..rules.house_rules import RULE_SPECS_BY_KEY, HouseRules
from ..rules.match import Match
from ..rules.meld import price_list
from ..rules.meld_prices import MeldPrices
from ..rules.numbers import whole_number_or_none
from ..rules.price_presets import PRICE_PRESETS, preset_prices
from ..rules.scoring import RulesPreview, preview_rules
from ..rules.text import load_json
from ..store import reading, write_keys, writing
from . import replay
from .errors import request_wants_json
from .write_keys import SENT_BEFORE, key_reused_page, sent_write_key

bp = Blueprint("meld_prices", __name__, url_prefix="/m/<public_id>/rules/meld")
bp.before_request(players_only)

bp.before_request(event_rules_are_the_directors)
SPEC = RULE_SPECS_BY_KEY["meld_prices"]


@bp.get("")
def show(public_id: str) -> str:
    row, match = reading.load_match(public_id)
    remember_match(public_id)
    form = MeldPricesForm(data={"version": row.version})
    form.fill(match.rules.meld_table, match.rules.meld_prices)
    return _render(row, match, form)


@bp.post("")
def change(public_id: str) -> str | Response | tuple[str | Response, int]:
    if request_wants_json():  # a form the phone kept offline (views/replay.py)
        return replay.replay(public_id, replay.change_meld_prices)
    loaded = reading.load_match(public_id)
    row, match = loaded
    table = match.rules.meld_table
    form = MeldPricesForm()
    preset = request.form.get("preset", "")
    if preset in dict(PRICE_PRESETS):  # fill the boxes in; nothing changes until previewed and applied
        form.fill(table, preset_prices(preset, table))
        return _render(row, match, form, filled=dict(PRICE_PRESETS)[preset])
    if not form.validate():
        return _render(row, match, form), 422
    prices = _chosen(form) if form.confirm.data == "yes" else form.prices(table)
    if prices is None:
        return _render(row, match, form), 422
    new_rules = match.rules.replace(meld_prices=prices)
    if not match.rules.differences(new_rules):
        flash("The meld prices are unchanged.", "info")
        return redirect(url_for("matches.sheet", public_id=public_id))
    try:
        if form.confirm.data == "yes":
            written = writing.change_rules(loaded, new_rules, _version(form), key=sent_write_key())
            replayed = written is not None and written.replayed
            flash(SENT_BEFORE if replayed
                  else f"House rules changed: {SPEC.label} {_label(match.rules)} → {_label(new_rules)}.", "info")
            return redirect(url_for("matches.sheet", public_id=public_id))
        preview = preview_rules(match, new_rules)
    except ContradictionError as error:
        form.form_errors.append("The recorded deals contradict these prices: " + str(error) + ".")
        return _render(row, match, form), 422
    except writing.StaleEdit as stale:
        form.form_errors.append(stale.message + " Check the prices below and preview again to keep yours.")
        form.version.data = str(stale.current_version)
        return _render(row, reading.to_core(row), form), 409
    form.confirm.data = "yes"
    form.chosen.data = json.dumps(prices.to_json())
    return _render(row, match, form, preview=preview, new_rules=new_rules)


@bp.errorhandler(write_keys.KeyReused)
def _key_reused(error: write_keys.KeyReused) -> tuple[str, int]:
    return key_reused_page("nothing was changed")


def _chosen(form: MeldPricesForm) -> MeldPrices | None:
    """The prices the preview showed (its hidden field), or None with the problem on the form."""
    try:
        return MeldPrices.from_json(load_json(form.chosen.data or "{}"))
    except RulesError as error:
        form.form_errors.append(str(error))
        return None


def _version(form: MeldPricesForm) -> int:
    version = whole_number_or_none(form.version.data or "")
    return -1 if version is None else version  # an unreadable version is a stale one


def _label(rules: HouseRules) -> str:
    return SPEC.value_label(rules.meld_prices)


def _render(row: MatchRow, match: Match, form: MeldPricesForm, preview: RulesPreview | None = None,
            new_rules: HouseRules | None = None, filled: str = "") -> str:
    return render_template(
        "meld_prices/edit.html", row=row, match=match, form=form, preview=preview, filled=filled,
        base=price_list(match.rules.meld_table), presets=PRICE_PRESETS, names=[side.shown_name for side in match.sides],
        table_label=RULE_SPECS_BY_KEY["meld_table"].value_label(match.rules.meld_table),
        before=_label(match.rules), after=_label(new_rules) if new_rules else "",
    )
