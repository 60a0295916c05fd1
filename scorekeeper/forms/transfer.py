"""The import form: a match file, uploaded or pasted; and the reading of an uploaded file."""

from __future__ import annotations

from flask import current_app
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import TextAreaField
from wtforms.validators import Optional, ValidationError

from ..extensions import count_made
from ..rules.errors import ContradictionError, RulesError
from ..rules.match import Match
from ..rules.matchfile import match_from_json, sent_deals
from ..rules.scoring import score_match
from ..rules.text import load_json


def uploaded_text(field: FileField, kind: str) -> str | None:
    """The text of the file chosen in ``field`` (None when none was); a ValidationError when it cannot be ``kind``."""
    upload = field.data
    if not upload or not getattr(upload, "filename", ""):
        return None
    most = int(current_app.config["MAX_CONTENT_LENGTH"])  # the request limit: the largest file it can hold
    raw: bytes = upload.read(most + 1)
    if len(raw) > most:
        raise ValidationError(f"This file is too large for {kind}.")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError("This file is not a text file in UTF-8.") from None


class ImportForm(FlaskForm):
    """A match file, uploaded or pasted; it must read as a match whose facts fit its rules."""

    file = FileField("Match file", validators=[Optional()])
    text = TextAreaField("Or paste the match file", validators=[Optional()],
                         render_kw={"rows": 8, "spellcheck": "false", "autocomplete": "off"})

    match: Match | None = None

    def validate_file(self, field: FileField) -> None:
        text = uploaded_text(field, "a match file")
        if text is not None:
            self.match = self._read(text)

    def validate_text(self, field: TextAreaField) -> None:
        if self.match is not None or self.file.errors or not (field.data or "").strip():
            return
        self.match = self._read(field.data or "")

    def validate(self, extra_validators: object = None) -> bool:
        valid: bool = super().validate()
        if valid and self.match is None and not self.file.errors:
            self.text.errors = ["Choose a match file or paste one."]
            return False
        return valid

    @staticmethod
    def _read(text: str) -> Match:
        """The match in ``text``, or every problem at once as the field's errors."""
        try:
            data = load_json(text)
            count_made(deals=sent_deals(data))  # a file past the limit on deals is refused before it is read
            match = match_from_json(data)
            score_match(match)
        except ContradictionError as error:
            raise ValidationError("; ".join(f"deal {n}: {problem}" for n, problem in error.problems)) from None
        except RulesError as error:
            raise ValidationError(str(error)) from None
        return match
