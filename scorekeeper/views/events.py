"""An event's pages: a new event, the director's page (at the event's link) with its changes, and the
public standings (a phone's page, the big screen, CSV).

The director's writes call the same functions as the API (``events.director``); every form's token is
checked before the view (``CSRFProtect``); each form carries the event's version it was drawn from, so a
page another director's change overtook is refused and drawn again as the event is now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from .. import tables
from ..device import NOT_THE_DIRECTOR, may_direct, remember_event
from ..events import EventProblem
from ..events import director as directing
from ..events.files import download_stem, matches_zip, standings_csv
from ..events.loading import event_format, get_event_or_404, standings_tag
from ..events.pages import RoundNow, add_entrant, event_standings, round_now
from ..events.request import read_new_event
from ..extensions import count_made, rate_limited
from ..forms.common import add_error, sentence
from ..forms.events import (
    AddEntrantForm,
    CloseRoundForm,
    NewEventForm,
    SeatRoundForm,
    SwapForm,
    VersionForm,
    player_line,
)
from ..forms.house_rules import rule_values
from ..models import EventRow, utc_now
from ..rules.events import EventFormat
from ..rules.house_rules import PRESETS
from ..sheet.cache import unchanged_headers
from .links import external_url

bp = Blueprint("events", __name__)

STALE_PAGE = "Someone else changed the event since this page was drawn: here it is now. Look, then redo your change."


@bp.before_request
def _directors_only() -> None:
    """A write (POST) to an event from a phone that has not opened its director's link is refused (403)."""
    public_id = (request.view_args or {}).get("public_id")
    if request.method == "POST" and isinstance(public_id, str) and not may_direct(public_id):
        abort(403, NOT_THE_DIRECTOR)


# A new event ------------------------------------------------------------------------------------------------

@bp.route("/events/new", methods=["GET", "POST"])
@rate_limited("create-match")
def new() -> str | Response:
    table = tables.find_table(request.args.get("table", ""))
    options = tables.starting_rules(table) if table is not None else []
    if request.method == "GET":
        start = next((option for option in options if option.key == request.args.get("start")), None)
        rules = start.rules if start is not None else PRESETS[0].rules
        players = "\n".join(tables.player_list(table)) if table is not None else ""
        form = NewEventForm(data={"rules": rule_values(rules), "entrants": players,
                                  "auction": "no" if start is not None and not start.auction else "yes"})
        return render_template("events/new.html", form=form, table=table, options=options)
    form = NewEventForm()
    if form.validate():
        try:
            row = directing.create_event(read_new_event(form.api_body()))
        except EventProblem as problem:
            _show_new_event_problem(form, problem)
        else:
            remember_event(row.public_id)
            return redirect(url_for("events.director", public_id=row.public_id))
    return render_template("events/new.html", form=form, table=table, options=options)


def _show_new_event_problem(form: NewEventForm, problem: EventProblem) -> None:
    """The API's refusal shown at the field it names (a player's line says which line)."""
    field, message = problem.field, sentence(problem.message)
    if field.startswith(("players", "teams")):
        line = field.partition("[")[2].partition("]")[0]
        add_error(form.entrants, f"Line {int(line) + 1}: {message}" if line.isdigit() else message)
    elif field.startswith("round_end"):
        add_error(form.round_count, message)
    elif field in ("name", "format", "rounds"):
        add_error(form[field], message)
    else:
        form.form_errors.append(message)


# The director's page --------------------------------------------------------------------------------------

@bp.get("/e/<public_id>")
def director(public_id: str) -> Response:
    row = get_event_or_404(public_id)
    remember_event(public_id)
    return _director_page(row)


def _director_page(row: EventRow, status: int = 200, notice: str = "", **forms: VersionForm) -> Response:
    """The director's page of the event as it is now, with any form sent back with its errors."""
    now = utc_now()
    current = round_now(row, now)
    swap = forms.get("swap") or SwapForm(formdata=None)
    names = sorted(current.players) if current is not None else []
    swap.first.choices = swap.second.choices = [("", "Choose a player"), *((name, name) for name in names)]
    html = render_template(
        "events/director.html", event=row, current=current, notice=notice, live=_director_live(row, current),
        live_etag=_live_tag(row.standings_id),
        seat=forms.get("seat") or SeatRoundForm(formdata=None), swap=swap,
        add=forms.get("add") or AddEntrantForm(formdata=None),
        links={"director": external_url("events.director", public_id=row.public_id),
               "standings": external_url("events.standings", standings_id=row.standings_id)},
    )
    return Response(html, status=status, mimetype="text/html", headers={"Cache-Control": "no-store"})


def _director_live(row: EventRow, current: RoundNow | None) -> Markup:
    return Markup(render_template("events/_director_live.html", event=row, current=current))


@bp.get("/e/<public_id>/live")
def director_live(public_id: str) -> Response:
    """The director's live part: 304 while nothing it is drawn from changed (``standings_tag``)."""
    header = get_event_or_404(public_id, whole=False)

    def draw() -> str:
        row = get_event_or_404(public_id)
        return _director_live(row, round_now(row, utc_now()))

    return _live_answer(header.standings_id, draw)


def _live_tag(standings_id: str) -> str:
    """What a live part is drawn from: the event's and its matches' versions, whether time is up."""
    tag = standings_tag(standings_id, utc_now())
    if tag is None:
        abort(404, "There is no event at this link.")
    return tag


def _live_answer(standings_id: str, draw: Callable[[], str]) -> Response:
    """A live part, or 304 when the phone shows the one drawn from the same facts."""
    etag = _live_tag(standings_id)
    if request.if_none_match.contains_weak(etag):
        return Response(status=304, headers=unchanged_headers(etag))
    return Response(draw(), mimetype="text/html", headers=unchanged_headers(etag))


def _refused(row: EventRow, problem: EventProblem, form_name: str, form: VersionForm, field: str) -> Response:
    """The director's page again: stale (drawn anew with a notice) or with the message at the field."""
    if problem.code == directing.STALE:
        return _director_page(row, 409, notice=STALE_PAGE)
    if field:
        add_error(form[field], sentence(problem.message))
    else:
        form.form_errors.append(sentence(problem.message))
    return _director_page(row, problem.status, **{form_name: form})


@bp.post("/e/<public_id>/rounds")
@rate_limited("edit-token")
def seat_round(public_id: str) -> Response:
    """Seat the next round; a second tap of the same button finds its round seated and shows the page."""
    row = get_event_or_404(public_id)
    form = SeatRoundForm()
    if form.round.data == str(len(row.played_rounds)) and form.expected() != row.version:
        return redirect(url_for("events.director", public_id=public_id), 303)
    try:
        directing.seat_next_round(row, form.expected(), utc_now(), lambda tables: count_made(matches=tables))
    except EventProblem as problem:
        return _refused(row, problem, "seat", form, "")
    return redirect(url_for("events.director", public_id=public_id, _anchor="tables"), 303)


@bp.post("/e/<public_id>/swap")
@rate_limited("edit-token")
def swap(public_id: str) -> Response:
    row = get_event_or_404(public_id)
    form = SwapForm()
    first, second = form.first.data or "", form.second.data or ""
    for field, name in ((form.first, first), (form.second, second)):
        if not name:
            add_error(field, "Choose a player.")
    if form.first.errors or form.second.errors:
        return _director_page(row, 422, swap=form)
    try:
        directing.swap(row, first, second, form.expected())
    except EventProblem as problem:
        return _refused(row, problem, "swap", form, problem.field if problem.field in ("first", "second") else "")
    return redirect(url_for("events.director", public_id=public_id, _anchor="tables"), 303)


@bp.post("/e/<public_id>/entrants")
@rate_limited("edit-token")
def add_player(public_id: str) -> Response:
    row = get_event_or_404(public_id)
    form = AddEntrantForm()
    entrant = player_line(form.name.data or "", event_format(row) is EventFormat.TEAM)
    try:
        add_entrant(row, entrant, form.expected())
    except EventProblem as problem:
        return _refused(row, problem, "add", form, "name")
    return redirect(url_for("events.director", public_id=public_id, _anchor="players"), 303)


@bp.route("/e/<public_id>/tables/<match_id>/close", methods=["GET", "POST"])
@rate_limited("edit-token")
def close_table(public_id: str, match_id: str) -> Response:
    """A late table closed with its score as it stands, once the director confirms on this page."""
    row = get_event_or_404(public_id)
    try:
        played, table = directing.find_table(row, match_id)
    except EventProblem as problem:
        abort(problem.status, sentence(problem.message))
    current = round_now(row, utc_now())
    state = next((state for state in current.tables if state.row is table), None) if current else None
    form = VersionForm()
    return _confirmed(row, form, lambda: directing.close_table(row, match_id, form.expected(), utc_now()),
                      "events/close_table.html", played=played, table=table, state=state)


@bp.route("/e/<public_id>/rounds/<int:number>/close", methods=["GET", "POST"])
@rate_limited("edit-token")
def close_round(public_id: str, number: int) -> Response:
    """Close the round; the tables still playing close with their scores as they stand, once confirmed."""
    row = get_event_or_404(public_id)
    current = round_now(row, utc_now())
    if current is None or current.row.number != number:
        abort(404, f"Round {number} is not the round being played.")
    form = CloseRoundForm()
    return _confirmed(row, form, lambda: directing.close_round(row, number, form.late.data == "yes",
                                                               form.expected(), utc_now()),
                      "events/close_round.html", current=current)


def _confirmed(row: EventRow, form: VersionForm, write: Callable[[], object], template: str,
               **values: Any) -> Response:
    """A change asked on its own page (GET) and made once confirmed (POST); a refusal shows on that page."""
    status = 200
    if request.method == "POST":
        try:
            write()
        except EventProblem as problem:
            if problem.code == directing.STALE:
                return _director_page(row, 409, notice=STALE_PAGE)
            form.form_errors.append(sentence(problem.message))
            status = problem.status
        else:
            return redirect(url_for("events.director", public_id=row.public_id, _anchor="tables"), 303)
    html = render_template(template, event=row, form=form, **values)
    return Response(html, status=status, mimetype="text/html", headers={"Cache-Control": "no-store"})


@bp.get("/e/<public_id>/matches.zip")
def export_matches(public_id: str) -> Response:
    """Every table's match file, in one zip."""
    row = get_event_or_404(public_id)
    return _download(matches_zip(row), "application/zip", f"{download_stem(row)}-matches.zip")


# Standings ------------------------------------------------------------------------------------------------

@bp.get("/standings/<standings_id>")
def standings(standings_id: str) -> str:
    row = get_event_or_404(standings_id, public=True)
    big = request.args.get("screen") == "big"
    return render_template("events/big.html" if big else "events/standings.html", event=row,
                           live=_standings_live(row, big), live_etag=_live_tag(standings_id))


def _standings_live(row: EventRow, big: bool) -> Markup:
    now = utc_now()
    return Markup(render_template("events/_standings_live.html", event=row, big=big,
                                  standings=event_standings(row, now), current=round_now(row, now)))


@bp.get("/standings/<standings_id>/live")
def standings_live(standings_id: str) -> Response:
    big = request.args.get("screen") == "big"
    return _live_answer(standings_id, lambda: _standings_live(get_event_or_404(standings_id, public=True), big))


@bp.get("/standings/<standings_id>/standings.csv")
def export_standings(standings_id: str) -> Response:
    row = get_event_or_404(standings_id, public=True)
    return _download(standings_csv(event_standings(row, utc_now())).encode(), "text/csv",
                     f"{download_stem(row)}-standings.csv")


def _download(body: bytes, mimetype: str, name: str) -> Response:
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'})
