"""The season's form on a table's page: how many of each player's best events count."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import IntegerField
from wtforms.validators import NumberRange, Optional

from ..rules.season import MAX_BEST


class SeasonBestForm(FlaskForm):
    best = IntegerField("Count each player's best", validators=[
        Optional(), NumberRange(1, MAX_BEST, f"Give a number of events from 1 to {MAX_BEST}, or leave it empty.")],
        render_kw={"min": 1, "max": MAX_BEST, "inputmode": "numeric", "placeholder": "every"})
