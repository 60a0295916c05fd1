"""A match's house rules: see them, preview a change, apply it, and the history of changes."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import store
from ..device import players_only, remember_match
from ..forms.house_rules import HouseRulesForm, rule_values
from ..models import MatchRow
from ..rules.errors import ContradictionError
from ..rules.house_rules import RULE_SPECS, RULE_SPECS_BY_KEY, HouseRules
from ..rules.match import Match
from ..rules.numbers import whole_number_or_none
from ..rules.scoring import preview_rules

bp = Blueprint("house_rules", __name__, url_prefix="/m/<public_id>/rules")
bp.before_request(players_only)


@bp.get("")
def show(public_id: str) -> str:
    row, match = store.load_match(public_id)
    remember_match(public_id)
    form = HouseRulesForm(data={"version": row.version, "rules": rule_values(match.rules)})
    return _render_rules(row, match, form)


@bp.post("")
def change(public_id: str) -> str | Response | tuple[str, int]:
    loaded = store.load_match(public_id)
    row, match = loaded
    form = HouseRulesForm()
    if not form.validate():
        return _render_rules(row, match, form), 422
    new_rules = form.rules.form.house_rules(match.rules)
    if not match.rules.differences(new_rules):
        flash("The house rules are unchanged.", "info")
        return redirect(url_for("matches.sheet", public_id=public_id))
    try:
        if form.confirm.data == "yes":  # apply what the preview showed, unless the match changed since
            store.change_rules(loaded, new_rules, _version(form))
            flash(f"House rules changed: {_changes_text(match.rules, new_rules)}.", "info")
            return redirect(url_for("matches.sheet", public_id=public_id))
        preview = preview_rules(match, new_rules)
    except ContradictionError as error:
        form.form_errors.append(
            "The recorded deals contradict these rules, so they cannot change: "
            + "; ".join(f"deal {number}: {text}" for number, text in error.problems) + "."
        )
        return _render_rules(row, match, form, refused=error.deal_numbers), 422
    except store.StaleEdit as stale:
        form.form_errors.append(stale.message + " Check the rules below and apply again to keep yours.")
        form.version.data = str(stale.current_version)
        return _render_rules(row, store.to_core(row), form), 409
    form.confirm.data = "yes"
    return render_template(
        "house_rules/preview.html", row=row, match=match, form=form, preview=preview,
        names=[side.name for side in row.sides], changes=_changes(match.rules, new_rules),
    )


def _version(form: HouseRulesForm) -> int:
    version = whole_number_or_none(form.version.data or "")
    return -1 if version is None else version  # an unreadable version is a stale one


def _changes(old: HouseRules, new: HouseRules) -> list[tuple[str, str, str]]:
    """(label, old value, new value) for each rule that differs."""
    return [
        (RULE_SPECS_BY_KEY[key].label,
         RULE_SPECS_BY_KEY[key].value_label(getattr(old, key)),
         RULE_SPECS_BY_KEY[key].value_label(getattr(new, key)))
        for key in old.differences(new)
    ]


def _changes_text(old: HouseRules, new: HouseRules) -> str:
    return "; ".join(f"{label} {before} → {after}" for label, before, after in _changes(old, new))


def _render_rules(row: MatchRow, match: Match, form: HouseRulesForm, refused: list[int] | None = None) -> str:
    history = [
        (change, RULE_SPECS_BY_KEY[change.rule],
         _value_label(change.rule, change.old_value), _value_label(change.rule, change.new_value))
        for change in reversed(row.rule_changes)
    ]
    return render_template("house_rules/show.html", row=row, match=match, form=form, specs=RULE_SPECS,
                           history=history, refused=refused or [])


def _value_label(key: str, raw: object) -> str:
    """How a stored rule value reads on the page; a value the rules no longer accept is shown raw."""
    spec = RULE_SPECS_BY_KEY[key]
    try:
        return spec.value_label(spec.parse(raw))
    except ValueError:
        return str(raw)
