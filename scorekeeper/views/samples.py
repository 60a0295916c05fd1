"""Sample matches for a phone that has none yet: a tap gives it its own copy of one, in its list."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, url_for
from werkzeug.wrappers import Response

from ..device import remember_match
from ..extensions import count_made, rate_limited
from ..samples import bundled_samples
from ..store import writing

bp = Blueprint("samples", __name__)


@bp.post("/samples/<key>")
@rate_limited("create-match")
def try_sample(key: str) -> Response:
    """Start this phone's own copy of a sample match and open its sheet."""
    sample = bundled_samples().get(key)
    if sample is None:
        abort(404, "There is no such sample match.")
    count_made(deals=len(sample.match.deals))
    row = writing.create_match(sample.match)
    remember_match(row.public_id)
    return redirect(url_for("matches.sheet", public_id=row.public_id))
