"""A match's changes: each deal's history (also of a deleted deal), undoing the last change of any kind after
its preview, and "I am …", the name this phone is known by in the history."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..device import players_only, remember_match, say_who, this_phone_label
from ..forms.history import UndoLastForm, WhoForm
from ..models import MatchRow
from ..rules.errors import RulesError
from ..rules.numbers import whole_number_or_none
from ..store import history, reading, write_keys, writing
from .undo_pages import undo_preview
from .write_keys import SENT_BEFORE, key_reused_page, sent_write_key

bp = Blueprint("history", __name__, url_prefix="/m/<public_id>")
bp.before_request(players_only)


@bp.get("/history")
def changes(public_id: str) -> tuple[str, int]:
    """Every change of the match's deals, newest first, and the undo of the last change of any kind."""
    row = reading.get_match_or_404(public_id)
    remember_match(public_id)
    return _render_changes(row)


@bp.get("/deals/<int:number>/history")
def deal(public_id: str, number: int) -> str:
    """The history of the match's deal ``number``."""
    row = reading.get_match_or_404(public_id)
    deal_id = history.current_deal_id(row, number)
    if deal_id is None:
        abort(404, f"This match has no deal {number}.")
    remember_match(public_id)
    return _render_deal(row, deal_id)


@bp.get("/history/<int:deal_id>")
def deal_by_id(public_id: str, deal_id: int) -> str:
    """A deal's history by the id its changes name it with: a deleted deal's too."""
    row = reading.get_match_or_404(public_id)
    remember_match(public_id)
    return _render_deal(row, deal_id)


@bp.post("/undo")
def undo(public_id: str) -> str | Response | tuple[str, int]:
    """Undo the last change: first its preview (the sheet before and after), then, confirmed, the undo,
    only while the match is at the version the preview showed."""
    loaded = reading.load_match(public_id)
    row = loaded.row
    form = UndoLastForm()
    if not form.validate():
        return _render_changes(row, "The form was too old, so nothing was undone: try again.", 400)
    version = whole_number_or_none(form.version.data or "")
    version = -1 if version is None else version  # an unreadable version is a stale one
    try:
        if form.confirm.data != "yes":
            return undo_preview(loaded, form, writing.undoing(loaded, version),
                                url_for("history.undo", public_id=public_id),
                                url_for("history.changes", public_id=public_id))
        last = history.last_change(row)  # named before it is undone; a stale one is refused below
        what = last.describe(row) if last is not None else ""
        written = writing.undo_last(loaded, version, sent_write_key("nothing was undone"))
    except writing.StaleEdit as stale:
        return _render_changes(reading.get_match_or_404(public_id),
                               f"Nothing was undone: {stale.message} Look at the changes again before undoing.", 409)
    except writing.NothingToUndo as nothing:
        return _render_changes(row, str(nothing), 422)
    except RulesError as error:  # the rules refuse what the undo would bring back (deals they contradict …)
        return _render_changes(row, f"That change cannot be undone: {error}.", 422)
    flash(SENT_BEFORE if written.replayed else f"Undone: {what[:1].lower() + what[1:]}.", "info")
    return redirect(url_for("matches.sheet", public_id=public_id))


@bp.route("/me", methods=["GET", "POST"])
def me(public_id: str) -> str | Response | tuple[str, int]:
    """"I am …": this phone says once who it is; kept in its session cookie, named in the deals' history."""
    row = reading.get_match_or_404(public_id)
    form = WhoForm()
    back = _back(request.values.get("next", ""), public_id)
    if request.method == "POST":
        if form.validate():
            say_who(form.name.data or "")
            flash(f"This phone is now {this_phone_label()} in the history.", "info")
            return redirect(back)
        status = 422
    else:
        remember_match(public_id)
        status = 200
    players = sorted({player for side in row.sides for player in side.players})
    return render_template("history/me.html", row=row, form=form, players=players, back=back,
                           me=this_phone_label()), status


@bp.errorhandler(write_keys.KeyReused)
def _key_reused(error: write_keys.KeyReused) -> tuple[str, int]:
    return key_reused_page("nothing was undone")


def _back(asked: str, public_id: str) -> str:
    """Where "I am …" returns to: a page of this match, never another site."""
    parts = urlsplit(asked)
    if not parts.scheme and not parts.netloc and (asked.startswith(f"/m/{public_id}/") or asked == f"/m/{public_id}"):
        return asked
    return url_for("matches.sheet", public_id=public_id)


def _render_changes(row: MatchRow, error: str | None = None, status: int = 200) -> tuple[str, int]:
    last = history.last_change(row)
    form = UndoLastForm(formdata=None, data={"version": row.version})
    page = render_template("history/changes.html", row=row, entries=history.match_history(row), form=form,
                           last=last.describe(row) if last is not None else None, error=error,
                           me=this_phone_label())
    return page, status


def _render_deal(row: MatchRow, deal_id: int) -> str:
    entries = history.deal_history(row, deal_id)
    if not entries:
        abort(404, "This match has no such deal in its history.")
    number = next((place for place, stored in enumerate(row.deals, start=1) if stored.id == deal_id), None)
    return render_template("history/deal.html", row=row, entries=entries, number=number,
                           last_number=entries[-1].number, me=this_phone_label())
