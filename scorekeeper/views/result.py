"""A decided match's result card (an SVG image to share), at the players' link and at the watch link."""

from __future__ import annotations

from flask import Blueprint, abort, request
from werkzeug.wrappers import Response

from ..extensions import rate_limited
from ..sheet.cache import sheet_etag, unchanged_headers
from ..sheet.result_card import ResultCard
from ..sheet.view import SheetView
from ..store import reading

bp = Blueprint("result", __name__)

NO_MATCH = "There is no match at this link."
NOT_DECIDED = "This match is not decided yet: its result card comes with its winner."


@bp.get("/m/<public_id>/result.svg")
@rate_limited("costly-read")
def card(public_id: str) -> Response:
    version = reading.match_version(public_id)
    if version is None:
        abort(404, NO_MATCH)
    return _card(public_id, version)


@bp.get("/w/<watch_id>/result.svg")
@rate_limited("costly-read")
def watched_card(watch_id: str) -> Response:
    found = reading.watched_match(watch_id)
    if found is None:
        abort(404, NO_MATCH)
    return _card(*found)


def _card(public_id: str, version: int) -> Response:
    """The card of this version of the match, or 304 to a phone that has it; 404 until the match is decided.
    Its ETag follows the match's version, as the sheet's does."""
    etag = f"result-{sheet_etag(version)}"
    if request.if_none_match.contains_weak(etag):
        return Response(status=304, headers=unchanged_headers(etag))
    row, match = reading.load_match(public_id)
    result = ResultCard.of(row.name, SheetView.of(match), [deal.created_at.date() for deal in row.deals])
    if result is None:
        abort(404, NOT_DECIDED)
    return Response(result.svg(), mimetype="image/svg+xml", headers=unchanged_headers(etag))
