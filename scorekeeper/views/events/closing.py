"""Closing a late table or the round: asked on a page of its own, done once the director confirms."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...events import director as directing
from ...events.loading import get_event_or_404
from ...events.pages import round_now
from ...extensions import rate_limited
from ...forms.common import sentence
from ...forms.events import CloseRoundForm, VersionForm
from ...models import EventRow, utc_now
from ...rules.refusals import Refusal
from ..errors import refusal_status
from .blueprint import bp
from .director import STALE_PAGE, director_page


@bp.route("/e/<public_id>/tables/<match_id>/close", methods=["GET", "POST"])
@rate_limited("edit-token")
def close_table(public_id: str, match_id: str) -> Response:
    """A late table closed with its score as it stands, once the director confirms on this page."""
    row = get_event_or_404(public_id)
    try:
        played, table = directing.find_table(row, match_id)
    except Refusal as problem:
        abort(refusal_status(problem), sentence(problem.message))
    current = round_now(row, utc_now())
    state = next((state for state in current.tables if state.row is table), None) if current else None
    form = VersionForm()
    return _confirmed(row, form, lambda: directing.close_table(row, match_id, form.expected(), utc_now()),
                      "events/close_table.html", played=played, table=table, state=state)


@bp.route("/e/<public_id>/rounds/<int:number>/close", methods=["GET", "POST"])
@rate_limited("edit-token")
def close_round(public_id: str, number: int) -> Response:
    """Close the round; the tables still playing close with their scores as they stand, once confirmed."""
    row = get_event_or_404(public_id)
    current = round_now(row, utc_now())
    if current is None or current.row.number != number:
        abort(404, f"Round {number} is not the round being played.")
    form = CloseRoundForm()
    return _confirmed(row, form, lambda: directing.close_round(row, number, form.late.data == "yes",
                                                               form.expected(), utc_now()),
                      "events/close_round.html", current=current)


def _confirmed(row: EventRow, form: VersionForm, write: Callable[[], object], template: str,
               **values: Any) -> Response:
    """A change asked on its own page (GET) and made once confirmed (POST); a refusal shows on that page."""
    status = 200
    if request.method == "POST":
        try:
            write()
        except Refusal as problem:
            if problem.code == directing.STALE:
                return director_page(row, 409, notice=STALE_PAGE)
            form.form_errors.append(sentence(problem.message))
            status = refusal_status(problem)
        else:
            return redirect(url_for("events.director", public_id=row.public_id, _anchor="tables"), 303)
    html = render_template(template, event=row, form=form, **values)
    return Response(html, status=status, mimetype="text/html", headers={"Cache-Control": "no-store"})
