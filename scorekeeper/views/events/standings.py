"""The public standings (the event's standings link): a phone's page, the big screen (``?screen=big``), their
live parts and the CSV. Nothing here changes the event."""

from __future__ import annotations

from flask import render_template, request
from markupsafe import Markup
from werkzeug.wrappers import Response

from ...events.corrections import adjustment_json
from ...events.files import download_stem, standings_csv
from ...events.loading import get_event_or_404
from ...events.pages import event_seatings, event_standings, round_now
from ...models import EventRow, utc_now
from ...rules.season import prize_list
from .answers import download, live_answer
from .blueprint import bp


@bp.get("/standings/<standings_id>")
def standings(standings_id: str) -> str:
    row = get_event_or_404(standings_id, public=True)
    big = request.args.get("screen") == "big"
    return render_template("events/big.html" if big else "events/standings.html", event=row,
                           live=_standings_live(row, big))


def _standings_live(row: EventRow, big: bool) -> Markup:
    now = utc_now()
    return Markup(render_template("events/_standings_live.html", event=row, big=big,
                                  standings=event_standings(row, now), current=round_now(row, now),
                                  seatings=event_seatings(row),
                                  adjustments=[adjustment_json(made) for made in row.corrections]))


@bp.get("/standings/<standings_id>/live")
def standings_live(standings_id: str) -> Response:
    big = request.args.get("screen") == "big"
    return live_answer(standings_id, lambda: _standings_live(get_event_or_404(standings_id, public=True), big))


@bp.get("/standings/<standings_id>/standings.csv")
def export_standings(standings_id: str) -> Response:
    row = get_event_or_404(standings_id, public=True)
    return download(standings_csv(row, event_standings(row, utc_now())).encode(), "text/csv",
                     f"{download_stem(row)}-standings.csv")


@bp.get("/standings/<standings_id>/prizes")
def prizes(standings_id: str) -> str:
    """The prize list, to print: the top places and each round's best."""
    row = get_event_or_404(standings_id, public=True)
    found = event_standings(row, utc_now())
    by_round = [(round.number, round.standings) for round in found.rounds]
    return render_template("events/prizes.html", event=row, prizes=prize_list(found.overall, by_round))
