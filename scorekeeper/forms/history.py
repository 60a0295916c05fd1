"""The forms of a match's changes: undo the last change (previewed first) and say who this phone is."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import Length

from ..rules.limits import MAX_PLAYER_NAME
from .common import new_write_key


class UndoLastForm(FlaskForm):
    """Undo the match's last change at the version the page showed; ``confirm`` is set on its preview."""

    version = HiddenField()
    write_key = HiddenField(default=new_write_key)  # kept from the changes page through the preview to the undo
    confirm = HiddenField()


class WhoForm(FlaskForm):
    """"I am …": the name this phone is known by in the deals' history."""

    name = StringField("I am", validators=[Length(max=MAX_PLAYER_NAME)], render_kw={"autocomplete": "nickname"},
                       description="Your name, as the history says who changed a deal: “Ann's phone”.")
