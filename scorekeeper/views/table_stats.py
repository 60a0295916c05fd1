"""A table's statistics and each player's, worked out on request from the table's matches (never stored)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from .. import tables
from ..device import remember_table
from ..extensions import rate_limited
from ..sheet.form_chart import LINES, form_chart

bp = Blueprint("table_stats", __name__)


@bp.get("/t/<table_id>/stats")
@rate_limited("costly-read")
def table(table_id: str) -> str:
    row = tables.get_table_or_404(table_id)
    remember_table(table_id)
    figures = tables.stats_and_ratings(row)
    stats = figures.stats
    busiest = sorted(stats.form, key=lambda name: (-len(stats.form[name]), name.casefold()))[:LINES]
    return render_template("tables/stats.html", table=row, stats=stats, chart=form_chart(stats.form, busiest),
                           charted_all=len(busiest) == len(stats.form), ratings=figures.ratings,
                           rated=figures.rated)


@bp.get("/t/<table_id>/stats/player")
@rate_limited("costly-read")
def player(table_id: str) -> str:
    row = tables.get_table_or_404(table_id)
    remember_table(table_id)
    stats = tables.stats_of(row)
    wanted = tables.name_key(request.args.get("name", ""))
    found = next((p for p in stats.players if tables.name_key(p.name) == wanted), None)
    if found is None:
        abort(404, "This table has no player of that name.")
    partnerships = [t for t in stats.partnerships if found.name in t.players]
    faced = [t for t in stats.head_to_head if found.name in t.players]
    return render_template("tables/player_stats.html", table=row, player=found, partnerships=partnerships,
                           faced=faced, chart=form_chart(stats.form, [found.name]))
