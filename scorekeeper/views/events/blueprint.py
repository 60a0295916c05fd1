"""The events blueprint and the check every write to an event passes first."""

from __future__ import annotations

from flask import Blueprint, abort, request

from ...device import NOT_THE_DIRECTOR, may_direct

bp = Blueprint("events", __name__)


@bp.before_request
def _directors_only() -> None:
    """A write (POST) to an event from a phone that has not opened its director's link is refused (403)."""
    public_id = (request.view_args or {}).get("public_id")
    if request.method == "POST" and isinstance(public_id, str) and not may_direct(public_id):
        abort(403, NOT_THE_DIRECTOR)
