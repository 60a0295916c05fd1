"""The event's house rules on the director's pages: the form, the preview (each table whose outcome moves,
the standings before and after), then, confirmed, the change for every table."""

from __future__ import annotations

from flask import redirect, render_template, url_for
from werkzeug.wrappers import Response

from ...events import director as directing
from ...events.event_rules import change_event_rules, event_rules, preview_event_rules
from ...events.loading import get_event_or_404
from ...extensions import rate_limited
from ...forms.common import sentence
from ...forms.events import EventRulesForm, event_rules_form
from ...models import EventRow, utc_now
from ...rules.refusals import Refusal
from ..errors import refusal_status
from .blueprint import bp
from .director import STALE_PAGE, director_page


@bp.get("/e/<public_id>/rules")
def event_rules_page(public_id: str) -> Response:
    row = get_event_or_404(public_id)
    form = event_rules_form(event_rules(row))
    form.version.data = str(row.version)
    return _page(row, form)


def _page(row: EventRow, form: EventRulesForm, status: int = 200) -> Response:
    html = render_template("events/rules.html", event=row, form=form)
    return Response(html, status=status, mimetype="text/html", headers={"Cache-Control": "no-store"})


@bp.post("/e/<public_id>/rules")
@rate_limited("edit-token")
def change_rules(public_id: str) -> Response:
    """First the preview of the change; its button (``confirm``) applies it, at the event's version shown."""
    row = get_event_or_404(public_id)
    form = EventRulesForm()
    if not form.validate():
        return _page(row, form, 422)
    new = form.rules.form.house_rules(event_rules(row))
    try:
        if form.confirm.data == "yes":
            change_event_rules(row, new, form.expected(), utc_now())
            return redirect(url_for("events.director", public_id=public_id), 303)
        directing.check_version(row, form.expected())
        preview = preview_event_rules(row, new, utc_now())
    except Refusal as problem:
        if problem.code == directing.STALE:
            return director_page(row, 409, notice=STALE_PAGE)
        form.form_errors.append(sentence(problem.message))
        return _page(row, form, refusal_status(problem))
    form.confirm.data = "yes"
    html = render_template("events/rules_preview.html", event=row, form=form, preview=preview,
                           pairs=list(zip(preview.before, preview.after, strict=True)))
    return Response(html, mimetype="text/html", headers={"Cache-Control": "no-store"})
