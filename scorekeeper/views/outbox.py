"""The outbox's side on the server (static/js/offline/): what a phone that kept forms offline asks before it
sends them, each to its own address (views/replay.py): the match as the server holds it, a fresh CSRF token
and which of its write keys are done; and the parts of a row of the sheet, kept with the match's kit.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request, url_for
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from ..device import players_only
from ..rules.matchfile import match_to_json
from ..sheet.row_parts import row_parts, stand_in_chart
from ..store import reading, write_keys

bp = Blueprint("outbox", __name__, url_prefix="/m/<public_id>/outbox")
bp.before_request(players_only)

MAX_KEYS_ASKED = 50


@bp.get("")
def facts(public_id: str) -> Response:
    """The match as the server holds it (the phone's last confirmed facts), a fresh CSRF token, and which
    of the write keys asked about (``?keys=a,b``) the server has already done."""
    row, match = reading.load_match(public_id)
    asked = [key for key in request.args.get("keys", "").split(",") if write_keys.is_write_key(key)][:MAX_KEYS_ASKED]
    response = jsonify({"version": row.version, "match": match_to_json(match), "csrf_token": generate_csrf(),
                        "done": sorted(write_keys.stored_keys(row, asked))})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/rows")
def rows(public_id: str) -> Response:
    """The parts of a row of the match's sheet, drawn by the sheet's row template, that the phone fills with
    the twin's numbers for a deal not sent yet (static/js/offline/sheet.js); kept with the match's kit."""
    match = reading.load_match(public_id).match
    names = [side.shown_name for side in match.sides]
    html = render_template("matches/row_parts.html", parts=row_parts(len(names)), names=names, auction=match.auction,
                           edit_url=lambda number: url_for("deals.edit", public_id=public_id, number=number),
                           chart=stand_in_chart())
    return Response(html, mimetype="text/html", headers={"Cache-Control": "private, no-cache"})


@bp.app_template_global()
def outbox_config(public_id: str) -> dict[str, Any]:
    """What the page's outbox script needs (the ``<meta name="outbox">`` of a match's forms and sheet):
    the match, its addresses, and the hashed addresses of the outbox and of the rules core's twin."""
    return {
        "match": public_id,
        "sheet": url_for("matches.sheet", public_id=public_id),
        "api": url_for("outbox.facts", public_id=public_id),
        "module": url_for("static", filename="outbox.js"),
        "rules": url_for("static", filename="twin.js"),
    }
