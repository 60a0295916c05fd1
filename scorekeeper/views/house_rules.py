"""A match's house rules: see them, preview a change, apply it, and the history of changes."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ..device import event_rules_are_the_directors, players_only, remember_match
from ..extensions import rate_limited
from ..forms.house_rules import HouseRulesForm, RescaleForm, UndoForm, rule_values
from ..models import MatchRow
from ..rule_history import history_entries, rule_changes
from ..rules.errors import ContradictionError, HouseRuleError
from ..rules.house_rules import RULE_SPECS, HouseRules
from ..rules.match import Match
from ..rules.numbers import whole_number_or_none
from ..rules.rescale import Factor, rescale_offer, rescale_refusal, scales_disagree
from ..rules.scoring import RulesPreview, preview_rules
from ..store import reading, write_keys, writing
from . import replay
from .errors import request_wants_json
from .undo_pages import undo_preview
from .write_keys import SENT_BEFORE, key_reused_page, sent_write_key

bp = Blueprint("house_rules", __name__, url_prefix="/m/<public_id>/rules")
bp.before_request(players_only)

bp.before_request(event_rules_are_the_directors)


@bp.get("")
@rate_limited("costly-read")
def show(public_id: str) -> str:
    row, match = reading.load_match(public_id)
    remember_match(public_id)
    form = HouseRulesForm(data={"version": row.version, "rules": rule_values(match.rules)})
    return _render_rules(row, match, form)


@bp.post("")
def change(public_id: str) -> str | Response | tuple[str | Response, int]:
    if request_wants_json():  # a form the phone kept offline (views/replay.py)
        return replay.replay(public_id, replay.change_rules)
    loaded = reading.load_match(public_id)
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
            written = writing.change_rules(loaded, new_rules, _version(form), key=sent_write_key())
            replayed = written is not None and written.replayed
            flash(SENT_BEFORE if replayed else f"House rules changed: {_changes_text(match.rules, new_rules)}.", "info")
            return redirect(url_for("matches.sheet", public_id=public_id))
        preview = preview_rules(match, new_rules)
    except ContradictionError as error:
        form.form_errors.append(
            "The recorded deals contradict these rules, so they cannot change: "
            + "; ".join(f"deal {number}: {text}" for number, text in error.problems) + "."
        )
        return _render_rules(row, match, form, refused=error.deal_numbers), 422
    except writing.StaleEdit as stale:
        form.form_errors.append(stale.message + " Check the rules below and apply again to keep yours.")
        form.version.data = str(stale.current_version)
        return _render_rules(row, reading.to_core(row), form), 409
    form.confirm.data = "yes"
    return render_template(
        "house_rules/preview.html", row=row, match=match, form=form, preview=preview,
        names=[side.shown_name for side in match.sides], changes=rule_changes(match.rules, new_rules),
        mixed_scales=scales_disagree(new_rules), offer=rescale_offer(match.rules, new_rules),
    )


@bp.post("/rescale")
def rescale(public_id: str) -> str | Response | tuple[str | Response, int]:
    """Move the match to the ×10 numbers or back, as one change of the history, after its preview (the
    sheet before and after), as a change of rules."""
    if request_wants_json():
        return replay.replay(public_id, replay.rescale)
    loaded = reading.load_match(public_id)
    form = RescaleForm()
    factor = {"up": Factor.UP, "down": Factor.DOWN}.get(form.factor.data or "")
    if not form.validate() or factor is None:
        return _refused(loaded, "Tap ×10 or ÷10 to rescale the match.", 400)
    try:
        if form.confirm.data != "yes":
            return _rescale_preview(loaded, form, factor, *writing.rescaling(loaded, factor, _version(form)))
        written = writing.rescale_match(loaded, factor, _version(form), sent_write_key())
    except ContradictionError as error:
        return _refused(loaded, f"Rescaling {factor.label} is refused: "
                        + "; ".join(f"deal {number}: {problem}" for number, problem in error.problems) + ".",
                        422, error.deal_numbers)
    except HouseRuleError as error:
        return _refused(loaded, f"Rescaling {factor.label} is refused: {error}.", 422)
    except writing.StaleEdit as stale:
        return _refused(loaded, stale.message + " Look again before rescaling.", 409)
    flash(SENT_BEFORE if written.replayed
          else f"Rescaled {factor.label}: the rules, the bids and every number typed in. Undo it below.", "info")
    return redirect(url_for("house_rules.show", public_id=public_id))


def _rescale_preview(loaded: reading.Loaded, form: RescaleForm, factor: Factor, after: Match,
                     preview: RulesPreview) -> str:
    """The page that shows a rescale before it is made; its button sends ``form`` back with ``confirm``."""
    row, match = loaded
    form.factor.data = "up" if factor is Factor.UP else "down"
    form.confirm.data = "yes"
    return render_template("house_rules/rescale.html", row=row, form=form, factor=factor, preview=preview,
                           changes=rule_changes(match.rules, after.rules),
                           names=[side.shown_name for side in match.sides])


@bp.post("/undo/<int:change_id>")
def undo(public_id: str, change_id: int) -> str | Response | tuple[str | Response, int]:
    """Undo one change of the history after its preview (the sheet before and after); the undo is itself a
    change."""
    if request_wants_json():
        return replay.replay(public_id, replay.undo(change_id))
    loaded = reading.load_match(public_id)
    form = UndoForm()
    if not form.validate():
        return _refused(loaded, "The form was too old: try again.", 400)
    try:
        if form.confirm.data != "yes":  # first its preview, as a change of rules
            return undo_preview(loaded, form, writing.undoing_rules(loaded, change_id, _version(form)),
                                url_for("house_rules.undo", public_id=public_id, change_id=change_id),
                                url_for("house_rules.show", public_id=public_id), outbox=True)
        written = writing.undo_rules(loaded, change_id, _version(form), sent_write_key())
    except writing.NothingToUndo as nothing:
        return _refused(loaded, str(nothing), 422)
    except (ContradictionError, HouseRuleError) as error:
        numbers = error.deal_numbers if isinstance(error, ContradictionError) else None
        return _refused(loaded, f"That change cannot be undone: {error}.", 422, numbers)
    except writing.StaleEdit as stale:
        return _refused(loaded, stale.message + " Look again before undoing.", 409)
    flash(SENT_BEFORE if written.replayed else "Change undone; the undo is in the history too.", "info")
    return redirect(url_for("house_rules.show", public_id=public_id))


@bp.errorhandler(write_keys.KeyReused)
def _key_reused(error: write_keys.KeyReused) -> tuple[str, int]:
    return key_reused_page("nothing was changed")


def _refused(loaded: reading.Loaded, message: str, status: int, deals: list[int] | None = None) -> tuple[str, int]:
    row = reading.get_match_or_404(loaded.row.public_id)
    match = reading.to_core(row)
    form = HouseRulesForm(formdata=None, data={"version": row.version, "rules": rule_values(match.rules)})
    form.form_errors.append(message)
    return _render_rules(row, match, form, refused=deals), status


def _version(form: HouseRulesForm | RescaleForm | UndoForm) -> int:
    version = whole_number_or_none(form.version.data or "")
    return -1 if version is None else version  # an unreadable version is a stale one


def _changes_text(old: HouseRules, new: HouseRules) -> str:
    return "; ".join(f"{label} {before} → {after}" for label, before, after in rule_changes(old, new))


def _render_rules(row: MatchRow, match: Match, form: HouseRulesForm, refused: list[int] | None = None) -> str:
    scalable = [factor for factor in Factor if rescale_refusal(match.rules, factor) is None]
    return render_template("house_rules/show.html", row=row, match=match, form=form, specs=RULE_SPECS,
                           history=history_entries(row), refused=refused or [], scalable=scalable)
