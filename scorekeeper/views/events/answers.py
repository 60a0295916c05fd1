"""What the event pages answer besides a page: a live part (or 304) and a download."""

from __future__ import annotations

from collections.abc import Callable

from flask import abort, request
from werkzeug.wrappers import Response

from ...events.loading import standings_tag
from ...models import utc_now
from ...sheet.cache import unchanged_headers


def _live_tag(standings_id: str) -> str:
    """What a live part is drawn from: the event's and its matches' versions, whether time is up."""
    tag = standings_tag(standings_id, utc_now())
    if tag is None:
        abort(404, "There is no event at this link.")
    return tag


def live_answer(standings_id: str, draw: Callable[[], str]) -> Response:
    """A live part, or 304 when the phone shows the one drawn from the same facts. The tag is read before
    the part is drawn, so a part never goes with a newer tag than its own. (The pages themselves start with
    no tag: their first look brings the live part with its tag.)"""
    etag = _live_tag(standings_id)
    if request.if_none_match.contains_weak(etag):
        return Response(status=304, headers=unchanged_headers(etag))
    return Response(draw(), mimetype="text/html", headers=unchanged_headers(etag))


def download(body: bytes, mimetype: str, name: str) -> Response:
    """A file to save (``name``), not to show."""
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'})
