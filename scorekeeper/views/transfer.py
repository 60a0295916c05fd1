"""Export a match as its match file or its sheet as CSV; import a match file as a new match."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Blueprint, abort, redirect, render_template, url_for
from sqlalchemy.exc import DataError
from werkzeug.wrappers import Response as BaseResponse

from ..db import get_session
from ..device import remember_match
from ..events.loading import event_of_match
from ..extensions import rate_limited
from ..forms.transfer import ImportForm
from ..rules.match import Match
from ..rules.matchfile import dumps_match
from ..rules.scoring import score_match
from ..sheet.cache import Answer, Encoded
from ..sheet.csv_export import sheet_csv
from ..store import reading, writing
from ..store.reading import Loaded
from .errors import TOO_LARGE
from .sheet_pages import kept_answer

bp = Blueprint("transfer", __name__)

def download_name(match: Match, extension: str) -> str:
    """A file name from the match name: letters, digits and dashes only."""
    stem = re.sub(r"[^A-Za-z0-9]+", "-", match.name).strip("-").lower()[:60] or "match"
    return f"{stem}.{extension}"


def _download(public_id: str, kind: str, make: Callable[[Loaded], str], mimetype: str) -> BaseResponse:
    """The match's file of ``kind`` (its extension), made by ``make`` once per version of the match."""
    version = reading.match_version(public_id)
    if version is None:
        abort(404, "There is no match at this link.")

    def made() -> Answer:
        loaded = reading.load_match(public_id)
        body = make(loaded)
        disposition = f'attachment; filename="{download_name(loaded.match, kind)}"'
        return Answer(loaded.row.version, Encoded.of(body.encode()), mimetype, (("Content-Disposition", disposition),))

    return kept_answer(f"{kind}:{public_id}", version, made)


@bp.get("/m/<public_id>/export.json")
@rate_limited("costly-read")
def export_json(public_id: str) -> BaseResponse:
    return _download(public_id, "json", lambda loaded: dumps_match(loaded.match, event_of_match(loaded.row)),
                     "application/json")


@bp.get("/m/<public_id>/export.csv")
@rate_limited("costly-read")
def export_csv(public_id: str) -> BaseResponse:
    return _download(public_id, "csv", lambda loaded: sheet_csv(loaded.match, score_match(loaded.match)), "text/csv")


@bp.route("/import", methods=["GET", "POST"])
@rate_limited("create-match")
def import_match() -> str | BaseResponse:
    form = ImportForm()
    if form.validate_on_submit() and form.match is not None:
        try:
            row = writing.create_match(form.match)
        except (DataError, OverflowError):
            get_session().rollback()
            form.text.errors = [TOO_LARGE]
        else:
            remember_match(row.public_id)
            return redirect(url_for("matches.sheet", public_id=row.public_id))
    return render_template("transfer/import.html", form=form)
