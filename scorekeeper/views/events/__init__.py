"""An event's pages: a new event (``new_event``), the director's page at the event's link and its changes
(``director``, ``closing``), and the public standings: a phone's page, the big screen, CSV (``standings``).

The director's writes call the same functions as the API (``events.director``); every form's token is
checked before the view (``CSRFProtect``); each form carries the event's version it was drawn from, so a
page another director's change overtook is refused and drawn again as the event is now.
"""

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


from . import closing, director, new_event, standings  # noqa: E402, F401  (their routes join the blueprint)
