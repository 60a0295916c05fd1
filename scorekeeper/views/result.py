"""A decided match's result card (an SVG image to share), at the players' link and at the watch link."""

from __future__ import annotations

from flask import Blueprint, abort, request
from werkzeug.wrappers import Response

from ..sheet.cache import sheet_etag, unchanged_headers
from ..sheet.result_card import ResultCard
from ..sheet.view import SheetView
from ..store import reading

bp = Blueprint("result", __name__)

NOT_DECIDED = "This match is not decided yet: its result card comes with its winner."


@bp.get("/m/<public_id>/result.svg")
def card(public_id: str) -> Response:
    return _card(public_id, reading.match_version(public_id))


@bp.get("/w/<watch_id>/result.svg")
def watched_card(watch_id: str) -> Response:
    found = reading.watched_match(watch_id)
    return _card(*found) if found is not None else _card("", None)


def _card(public_id: str, version: int | None) -> Response:
    """The card of this version of the match, or 304 to a phone that has it; 404 until the match is decided.
    Its ETag follows the match's version, as the sheet's does."""
    if version is None:
        abort(404, "There is no match at this link.")
    etag = f"result-{sheet_etag(version)}"
    if request.if_none_match.contains_weak(etag):
        return Response(status=304, headers=unchanged_headers(etag))
    row, match = reading.load_match(public_id)
    view = SheetView.of(match)
    ended_at = view.sheet.ended_at if view.sheet else None
    if ended_at is None:
        abort(404, NOT_DECIDED)
    result = ResultCard.of(row.name, view, row.deals[ended_at - 1].created_at.date())  # the day it was decided
    if result is None:
        abort(404, NOT_DECIDED)
    return Response(result.svg(), mimetype="image/svg+xml", headers=unchanged_headers(etag))
