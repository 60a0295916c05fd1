"""An event's pages: the director's (at the event's link) and the public standings. Placeholders that
name the event until its pages are drawn."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..events.loading import get_event_or_404

bp = Blueprint("events", __name__)


@bp.get("/e/<public_id>")
def director(public_id: str) -> str:
    return render_template("events/placeholder.html", event=get_event_or_404(public_id, whole=False))


@bp.get("/standings/<standings_id>")
def standings(standings_id: str) -> str:
    return render_template("events/placeholder.html", event=get_event_or_404(standings_id, whole=False, public=True))
