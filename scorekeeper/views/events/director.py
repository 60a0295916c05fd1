"""The director's page (the event's link): the round, its tables live, and the director's changes (seat the
next round, swap two players, add a player at the door); every table's match file in one zip."""

from __future__ import annotations

import json

from flask import abort, redirect, render_template, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from ...device import remember_event
from ...events import corrections
from ...events import director as directing
from ...events.event_file import event_file
from ...events.files import download_stem, matches_zip
from ...events.loading import entrants, event_format, get_event_or_404, repeats_ahead, withdrawn
from ...events.pages import RoundNow, round_now
from ...events.withdrawals import first_round_to_miss
from ...events.withdrawals import substitute as put_substitute
from ...events.withdrawals import withdraw as withdraw_player
from ...extensions import count_made, rate_limited
from ...forms.common import add_error, sentence
from ...forms.events import (
    AddEntrantForm,
    ClockForm,
    CorrectTableForm,
    SeatRoundForm,
    SubstituteForm,
    SwapForm,
    VersionForm,
    WithdrawForm,
    player_line,
)
from ...models import EventRow, utc_now
from ...rules.events import EventFormat
from ...rules.numbers import whole_number_or_none
from ...rules.refusals import Refusal
from ..errors import refusal_status
from ..links import external_url
from .answers import download, live_answer
from .blueprint import bp

STALE_PAGE = "Someone else changed the event since this page was drawn: here it is now. Look, then redo your change."


@bp.get("/e/<public_id>")
def director(public_id: str) -> Response:
    row = get_event_or_404(public_id)
    remember_event(public_id)
    return director_page(row)


def director_page(row: EventRow, status: int = 200, notice: str = "", **forms: VersionForm) -> Response:
    """The director's page of the event as it is now, with any form sent back with its errors."""
    now = utc_now()
    current = round_now(row, now)
    swap = forms.get("swap") or SwapForm(formdata=None)
    names = sorted(current.players) if current is not None else []
    swap.first.choices = swap.second.choices = [("", "Choose a player"), *((name, name) for name in names)]
    substitute = forms.get("substitute") or SubstituteForm(formdata=None)
    seated = [name for table in current.tables for side in table.outcome.sides for name in side] if current else []
    substitute.player.choices = [("", "Choose a player"), *((name, name) for name in sorted(seated))]
    withdraw = forms.get("withdraw") or WithdrawForm(formdata=None, from_round=str(first_round_to_miss(row)))
    out = withdrawn(row)
    withdraw.player.choices = [("", "Choose a player"), *((name, name) for entrant in entrants(row)
                                                          for name in entrant if name not in out)]
    correct = forms.get("correct") or CorrectTableForm(formdata=None)
    correct.table.choices = [("", "Choose a closed table"), *_closed_tables(row)]
    html = render_template(
        "events/director.html", event=row, current=current, notice=notice, warning=repeats_ahead(row),
        live=_director_live(row, current),
        seat=forms.get("seat") or SeatRoundForm(formdata=None), swap=swap,
        add=forms.get("add") or AddEntrantForm(formdata=None), withdraw=withdraw, withdrawn=out,
        substitute=substitute, substitutes=[entry for entry in row.withdrawals if entry.substitute is not None],
        correct=correct,
        clock=forms.get("clock") or ClockForm(formdata=None), unseat=forms.get("unseat") or VersionForm(formdata=None),
        adjustments=[corrections.adjustment_json(made) for made in row.corrections],
        links={"director": external_url("events.director", public_id=row.public_id),
               "standings": external_url("events.standings", standings_id=row.standings_id)},
    )
    return Response(html, status=status, mimetype="text/html", headers={"Cache-Control": "no-store"})


def _closed_tables(row: EventRow) -> list[tuple[str, str]]:
    """The tables the director may correct, newest round first: ("<round>-<table>", "Round r, table t")."""
    return [(f"{played.number}-{table.number}", f"Round {played.number}, table {table.number}")
            for played in reversed(row.played_rounds) for table in played.tables
            if played.closed_at is not None or table.closed_at is not None]


def _director_live(row: EventRow, current: RoundNow | None) -> Markup:
    return Markup(render_template("events/_director_live.html", event=row, current=current))


@bp.get("/e/<public_id>/live")
def director_live(public_id: str) -> Response:
    """The director's live part: 304 while nothing it is drawn from changed (``standings_tag``)."""
    header = get_event_or_404(public_id, whole=False)

    def draw() -> str:
        row = get_event_or_404(public_id)
        return _director_live(row, round_now(row, utc_now()))

    return live_answer(header.standings_id, draw)




def _refused(row: EventRow, problem: Refusal, form_name: str, form: VersionForm, field: str) -> Response:
    """The director's page again: stale (drawn anew with a notice) or with the message at the field."""
    if problem.code == directing.STALE:
        return director_page(row, 409, notice=STALE_PAGE)
    if field:
        add_error(form[field], sentence(problem.message))
    else:
        form.form_errors.append(sentence(problem.message))
    return director_page(row, refusal_status(problem), **{form_name: form})


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
    except Refusal as problem:
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
        return director_page(row, 422, swap=form)
    try:
        directing.swap(row, whole_number_or_none(form.round.data or "") or 0, first, second, form.expected())
    except Refusal as problem:
        return _refused(row, problem, "swap", form, problem.field if problem.field in ("first", "second") else "")
    return redirect(url_for("events.director", public_id=public_id, _anchor="tables"), 303)


@bp.post("/e/<public_id>/entrants")
@rate_limited("edit-token")
def add_player(public_id: str) -> Response:
    row = get_event_or_404(public_id)
    form = AddEntrantForm()
    entrant = player_line(form.name.data or "", event_format(row) is EventFormat.TEAM)
    try:
        directing.add_entrant(row, entrant, form.expected())
    except Refusal as problem:
        return _refused(row, problem, "add", form, "name")
    return redirect(url_for("events.director", public_id=public_id, _anchor="players"), 303)


@bp.get("/e/<public_id>/event.json")
@rate_limited("costly-read")
def export_event(public_id: str) -> Response:
    """The event file: it imports again (``POST /api/v1/events/import``) as a new event, same standings."""
    row = get_event_or_404(public_id)
    return download(json.dumps(event_file(row), ensure_ascii=False, indent=1).encode(), "application/json",
                    f"{download_stem(row)}-event.json")


@bp.post("/e/<public_id>/withdrawals")
@rate_limited("edit-token")
def withdraw(public_id: str) -> Response:
    """Withdraw a player from a round on (a no-show: the current round, seated again without them)."""
    row = get_event_or_404(public_id)
    form = WithdrawForm()
    player = form.player.data or ""
    number = whole_number_or_none((form.from_round.data or "").strip())
    if not player:
        add_error(form.player, "Choose a player.")
    if number is None:
        add_error(form.from_round, "Give the first round they miss, a whole number.")
    if form.player.errors or form.from_round.errors or number is None:
        return director_page(row, 422, withdraw=form)
    try:
        withdraw_player(row, player, number, form.expected())
    except Refusal as problem:
        return _refused(row, problem, "withdraw", form,
                        problem.field if problem.field in ("player", "from_round") else "")
    return redirect(url_for("events.director", public_id=public_id, _anchor="players"), 303)


@bp.post("/e/<public_id>/substitutes")
@rate_limited("edit-token")
def substitute(public_id: str) -> Response:
    """A substitute in a player's seat for the rest of the current round."""
    row = get_event_or_404(public_id)
    form = SubstituteForm()
    player, name = form.player.data or "", (form.substitute.data or "").strip()
    if not player:
        add_error(form.player, "Choose a player.")
    if not name:
        add_error(form.substitute, "Give the substitute's name.")
    if form.player.errors or form.substitute.errors:
        return director_page(row, 422, substitute=form)
    try:
        put_substitute(row, whole_number_or_none(form.round.data or "") or 0, player, name, form.expected())
    except Refusal as problem:
        return _refused(row, problem, "substitute", form, problem.field if problem.field in ("player", "substitute")
                        else "")
    return redirect(url_for("events.director", public_id=public_id, _anchor="tables"), 303)


@bp.post("/e/<public_id>/corrections")
@rate_limited("edit-token")
def correct_table(public_id: str) -> Response:
    """The director's correction of a closed table, with its reason: kept, and shown with the standings."""
    row = get_event_or_404(public_id)
    form = CorrectTableForm()
    try:
        asked = _asked_correction(row, form)
        if asked is None:
            return director_page(row, 422, correct=form)
        corrections.correct(row, asked, form.expected())
    except Refusal as problem:
        field = {"deal": "deal", "reason": "reason", "score": "first"}.get((problem.field or "").partition(".")[0], "")
        return _refused(row, problem, "correct", form, field)
    return redirect(url_for("events.director", public_id=public_id, _anchor="corrections"), 303)


def _asked_correction(row: EventRow, form: CorrectTableForm) -> corrections.Correction | None:
    """The correction the form asks for (None, with the errors at their fields, when it cannot be read)."""
    round_text, _, table_text = (form.table.data or "").partition("-")
    round_number, table_number = whole_number_or_none(round_text), whole_number_or_none(table_text)
    if round_number is None or table_number is None:
        add_error(form.table, "Choose a closed table.")
    reason = " ".join((form.reason.data or "").split())
    if not reason:
        add_error(form.reason, "Say why the table is corrected: the reason is kept with the correction.")
    action = form.action.data
    deal = whole_number_or_none(form.deal.data or "")
    if action in ("points", "delete") and deal is None:
        add_error(form.deal, "Type the number of the deal to correct.")
    first, second = (_signed(field.data or "") for field in (form.first, form.second))
    if action in ("points", "score"):
        for field, value in ((form.first, first), (form.second, second)):
            if value is None:
                add_error(field, "Type a whole number of points (a minus sign for a set).")
    if form.errors or round_number is None or table_number is None:
        return None
    totals = (first or 0, second or 0)
    if action == "delete":
        return corrections.Correction(round_number, table_number, reason, corrections.Kind.DELETED, deal=deal)
    if action == "points":
        facts = corrections.with_points(row, round_number, table_number, deal or 0, totals)
        return corrections.Correction(round_number, table_number, reason, corrections.Kind.CHANGED, deal=deal,
                                      facts=facts)
    return corrections.Correction(round_number, table_number, reason, corrections.Kind.SCORE, totals=totals)


def _signed(text: str) -> int | None:
    """A whole number of points as typed, a minus sign allowed."""
    text = text.strip().replace("\u2212", "-")
    value = whole_number_or_none(text.removeprefix("-"))
    return None if value is None else (-value if text.startswith("-") else value)


@bp.post("/e/<public_id>/rounds/<int:number>/clock")
@rate_limited("edit-token")
def run_clock(public_id: str, number: int) -> Response:
    """Pause, resume or extend the round's clock: every table's phone follows."""
    row = get_event_or_404(public_id)
    form = ClockForm()
    try:
        action = directing.ClockAction(form.action.data or "")
    except ValueError:
        abort(400, "Tap pause, resume or extend.")
    minutes = whole_number_or_none(form.minutes.data or "") if action is directing.ClockAction.EXTEND else 0
    if minutes is None:
        add_error(form.minutes, "Type the minutes to add, a whole number.")
        return director_page(row, 422, clock=form)
    try:
        directing.run_clock(row, number, action, minutes, form.expected(), utc_now())
    except Refusal as problem:
        return _refused(row, problem, "clock", form, "minutes" if problem.field == "minutes" else "")
    return redirect(url_for("events.director", public_id=public_id, _anchor="round"), 303)


@bp.post("/e/<public_id>/rounds/<int:number>/unseat")
@rate_limited("edit-token")
def undo_seating(public_id: str, number: int) -> Response:
    """Take back the round's seating before its first deal: seat it again with the button."""
    row = get_event_or_404(public_id)
    form = VersionForm()
    try:
        directing.undo_seating(row, number, form.expected())
    except Refusal as problem:
        return _refused(row, problem, "unseat", form, "")
    return redirect(url_for("events.director", public_id=public_id, _anchor="round"), 303)


@bp.get("/e/<public_id>/matches.zip")
@rate_limited("costly-read")
def export_matches(public_id: str) -> Response:
    """Every table's match file, in one zip."""
    row = get_event_or_404(public_id)
    return download(matches_zip(row), "application/zip", f"{download_stem(row)}-matches.zip")
