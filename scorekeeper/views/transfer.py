"""Export a match as its match file or its sheet as CSV; import a match file as a new match."""

from __future__ import annotations

import re

from flask import Blueprint, Response, redirect, render_template, url_for
from sqlalchemy.exc import DataError
from werkzeug.wrappers import Response as BaseResponse

from ..db import get_session
from ..device import remember_match
from ..events.loading import event_of_match
from ..extensions import count_made, rate_limited
from ..forms.transfer import ImportForm
from ..rules.match import Match
from ..rules.matchfile import dumps_match
from ..rules.scoring import score_match
from ..sheet.csv_export import sheet_csv
from ..store import reading, writing
from .errors import TOO_LARGE

bp = Blueprint("transfer", __name__)

def download_name(match: Match, extension: str) -> str:
    """A file name from the match name: letters, digits and dashes only."""
    stem = re.sub(r"[^A-Za-z0-9]+", "-", match.name).strip("-").lower()[:60] or "match"
    return f"{stem}.{extension}"


def _download(body: str, mimetype: str, name: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/m/<public_id>/export.json")
def export_json(public_id: str) -> Response:
    row, match = reading.load_match(public_id)
    return _download(dumps_match(match, event_of_match(row)), "application/json", download_name(match, "json"))


@bp.get("/m/<public_id>/export.csv")
def export_csv(public_id: str) -> Response:
    _, match = reading.load_match(public_id)
    return _download(sheet_csv(match, score_match(match)), "text/csv", download_name(match, "csv"))


@bp.route("/import", methods=["GET", "POST"])
@rate_limited("create-match")
def import_match() -> str | BaseResponse:
    form = ImportForm()
    if form.validate_on_submit() and form.match is not None:
        count_made(deals=len(form.match.deals))
        try:
            row = writing.create_match(form.match)
        except (DataError, OverflowError):
            get_session().rollback()
            form.text.errors = [TOO_LARGE]
        else:
            remember_match(row.public_id)
            return redirect(url_for("matches.sheet", public_id=row.public_id))
    return render_template("transfer/import.html", form=form)
