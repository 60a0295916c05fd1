"""Export a match as its match file or its sheet as CSV; import a match file as a new match."""

from __future__ import annotations

import re

from flask import Blueprint, Response, redirect, render_template, url_for
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from sqlalchemy.exc import DataError
from wtforms import TextAreaField
from wtforms.validators import Optional, ValidationError

from .. import store
from ..csv_export import sheet_csv
from ..db import get_session
from ..device import remember_match
from ..rules.errors import ContradictionError, RulesError
from ..rules.match import Match
from ..rules.matchfile import dumps_match, loads_match
from ..rules.scoring import score_match
from .api import TOO_LARGE

bp = Blueprint("transfer", __name__)

MAX_FILE_BYTES = 2 * 1024 * 1024


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
    _, match = store.load_match(public_id)
    return _download(dumps_match(match), "application/json", download_name(match, "json"))


@bp.get("/m/<public_id>/export.csv")
def export_csv(public_id: str) -> Response:
    _, match = store.load_match(public_id)
    return _download(sheet_csv(match, score_match(match)), "text/csv", download_name(match, "csv"))


class ImportForm(FlaskForm):
    """A match file, uploaded or pasted; it must read as a match whose facts fit its rules."""

    file = FileField("Match file", validators=[Optional()])
    text = TextAreaField("Or paste the match file", validators=[Optional()],
                         render_kw={"rows": 8, "spellcheck": "false", "autocomplete": "off"})

    match: Match | None = None

    def validate_file(self, field: FileField) -> None:
        upload = field.data
        if not upload or not getattr(upload, "filename", ""):
            return
        raw = upload.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            raise ValidationError("This file is too large for a match file.")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError("This file is not a text file in UTF-8.") from None
        self.match = self._read(text)

    def validate_text(self, field: TextAreaField) -> None:
        if self.match is not None or self.file.errors or not (field.data or "").strip():
            return
        self.match = self._read(field.data or "")

    def validate(self, extra_validators: object = None) -> bool:
        valid = super().validate()
        if valid and self.match is None and not self.file.errors:
            self.text.errors = ["Choose a match file or paste one."]
            return False
        return valid

    @staticmethod
    def _read(text: str) -> Match:
        """The match in ``text``, or every problem at once as the field's errors."""
        try:
            match = loads_match(text)
            score_match(match)
        except ContradictionError as error:
            raise ValidationError("; ".join(f"deal {n}: {problem}" for n, problem in error.problems)) from None
        except RulesError as error:
            raise ValidationError(str(error)) from None
        return match


@bp.route("/import", methods=["GET", "POST"])
def import_match() -> str | Response:
    form = ImportForm()
    if form.validate_on_submit() and form.match is not None:
        try:
            row = store.create_match(form.match)
        except (DataError, OverflowError):
            get_session().rollback()
            form.text.errors = [TOO_LARGE]
        else:
            remember_match(row.public_id)
            return redirect(url_for("matches.sheet", public_id=row.public_id))
    return render_template("transfer/import.html", form=form)
