"""Tables: a new table, its page (players, rule cards, matches), a match started from it, its file."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .. import tables
from ..device import (
    NOT_AT_THE_TABLE,
    device_table_ids,
    forget_table,
    may_change_table,
    remember_match,
    remember_table,
)
from ..events.season import season_csv, set_best, table_season
from ..extensions import rate_limited
from ..forms.house_rules import rule_values
from ..forms.season import SeasonBestForm
from ..forms.tables import (
    AddPlayerForm,
    ImportTableForm,
    NewTableForm,
    RuleCardForm,
    TableMatchForm,
    rules_of_form,
    show_problem,
    starting_choices,
)
from ..models import TableRow
from ..rules.house_rules import PRESETS, PRESETS_BY_KEY
from ..rules.limits import MAX_SIDES, MIN_SIDES
from ..rules.match import Match, SideInfo
from ..rules.refusals import Invalid
from ..rules.text import dated_name
from ..sheet.qr import qr_svg
from ..store import writing
from .links import fixed_url, shared_url

bp = Blueprint("tables", __name__)


@bp.before_request
def _table_writers_only() -> None:
    """A write (POST) to a table from a phone that has not opened its link is refused (403)."""
    public_id = (request.view_args or {}).get("table_id")
    if request.method == "POST" and isinstance(public_id, str) and not may_change_table(public_id):
        abort(403, NOT_AT_THE_TABLE)


@bp.route("/tables/new", methods=["GET", "POST"])
@rate_limited("create-match")
def new() -> str | BaseResponse:
    form = NewTableForm()
    if form.validate_on_submit():
        try:
            name = tables.table_name(form.name.data or "")
        except Invalid as problem:
            show_problem(form.name, problem.message)
            return render_template("tables/new.html", form=form)
        typed = form.typed_players()
        try:
            players = tables.player_names([text for _, text in typed])
        except Invalid as problem:
            index = int(problem.field.split("[")[1].rstrip("]")) if problem.field and "[" in problem.field else 0
            show_problem(typed[index][0] if typed else form.players[0], problem.message)
            return render_template("tables/new.html", form=form)
        row = tables.create_table(name or "Our table", players)
        remember_table(row.public_id)
        return redirect(url_for("tables.show", table_id=row.public_id))
    return render_template("tables/new.html", form=form)


def _load(table_id: str) -> TableRow:
    row = tables.get_table_or_404(table_id)
    remember_table(table_id)
    return row


@bp.get("/t/<table_id>")
@rate_limited("costly-read")
def show(table_id: str) -> str:
    row = _load(table_id)
    return _table_page(row, AddPlayerForm())


def _table_page(row: TableRow, add_form: AddPlayerForm, season_form: SeasonBestForm | None = None) -> str:
    summaries = list(reversed(tables.match_states(row)))
    season_form = season_form or SeasonBestForm(best=row.season_best)
    return render_template("tables/show.html", table=row, add_form=add_form, summaries=summaries,
                           link=fixed_url("tables.show", table_id=row.public_id), presets=PRESETS,
                           season=table_season(row, datetime.now(UTC)), season_form=season_form)


@bp.post("/t/<table_id>/season")
def set_season_best(table_id: str) -> tuple[str, int] | BaseResponse:
    """Count each player's best N events in the season (empty: every event)."""
    row = _load(table_id)
    form = SeasonBestForm()
    if not form.validate_on_submit():
        return _table_page(row, AddPlayerForm(formdata=None), form), 422
    set_best(row, form.best.data)
    return redirect(url_for("tables.show", table_id=row.public_id, _anchor="season"))


@bp.get("/t/<table_id>/season.csv")
def season_export(table_id: str) -> Response:
    row = tables.get_table_or_404(table_id)
    return Response(season_csv(table_season(row, datetime.now(UTC))), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="season.csv"'})


@bp.get("/t/<table_id>/qr.svg")
def qr(table_id: str) -> Response:
    """The QR code of the table's link, as SVG, kept by the phone for a day (as a match's: see matches.qr)."""
    row = tables.get_table_or_404(table_id)
    link = shared_url("tables.show", table_id=row.public_id)
    return Response(qr_svg(link, "The table's link: opens this table on another phone"), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=86400", "Vary": "Host"})


@bp.post("/t/<table_id>/players")
def add_player(table_id: str) -> str | BaseResponse:
    row = _load(table_id)
    form = AddPlayerForm()
    if form.validate_on_submit():
        try:
            tables.add_players(row, [form.name.data or ""])
        except Invalid as problem:
            show_problem(form.name, problem.message)
            return _table_page(row, form)
        return redirect(url_for("tables.show", table_id=table_id) + "#players")
    return _table_page(row, form)


@bp.post("/t/<table_id>/players/remove")
def remove_player(table_id: str) -> BaseResponse:
    """Take a player off the table's list; the matches they played keep their name."""
    row = _load(table_id)
    tables.remove_player(row, request.form.get("name", ""))
    return redirect(url_for("tables.show", table_id=table_id) + "#players")


@bp.route("/t/<table_id>/rule-cards/new", methods=["GET", "POST"])
def new_rule_card(table_id: str) -> str | BaseResponse:
    row = _load(table_id)
    if request.method == "GET":
        preset = PRESETS_BY_KEY.get(request.args.get("preset", ""), PRESETS[0])
        form = RuleCardForm(data={"rules": rule_values(preset.rules), "auction": "yes" if preset.auction else "no"})
    else:
        form = RuleCardForm()
        if form.validate_on_submit():
            try:
                name = tables.rule_card_name(form.name.data or "", row)
            except Invalid as problem:
                show_problem(form.name, problem.message)
            else:
                tables.add_rule_card(row, name, rules_of_form(form), auction=form.auction.data != "no")
                return redirect(url_for("tables.show", table_id=table_id) + "#rule-cards")
    return render_template("tables/rule_card.html", table=row, form=form, presets=PRESETS)


@bp.post("/t/<table_id>/rule-cards/<int:position>/remove")
def remove_rule_card(table_id: str, position: int) -> BaseResponse:
    row = _load(table_id)
    tables.remove_rule_card(row, position)
    return redirect(url_for("tables.show", table_id=table_id) + "#rule-cards")


@bp.route("/t/<table_id>/matches/new", methods=["GET", "POST"])
@rate_limited("create-match")
def new_match(table_id: str) -> str | BaseResponse:
    """A match at the table: players from the table's list (a new name joins the table), 2 to 4 sides."""
    row = _load(table_id)
    options = tables.starting_rules(row)
    form = TableMatchForm()
    starting_choices(form, [(option.key, option.label) for option in options])
    if request.method == "POST" and form.validate_on_submit():
        match = _match_from_form(row, form, {option.key: option for option in options})
        if match is not None:
            new_players = [name for side in match.sides for name in side.players
                           if tables.name_key(name) not in {tables.name_key(p) for p in tables.player_list(row)}]
            try:
                tables.add_players(row, new_players)
            except Invalid as problem:
                show_problem(form.sides, problem.message)
                return render_template("tables/new_match.html", table=row, form=form)
            match_row = writing.create_match(match, table_id=row.id)
            remember_match(match_row.public_id)
            return redirect(url_for("matches.invite", public_id=match_row.public_id))  # opens on inviting the table
    return render_template("tables/new_match.html", table=row, form=form)


def _match_from_form(row: TableRow, form: TableMatchForm, options: dict[str, tables.StartingRules]) -> Match | None:
    """The match the form describes, or None with each problem shown at its field."""
    start = options.get(form.start.data or "")
    if start is None:
        show_problem(form.start, "Choose a rule card or a game")
        return None
    seen: dict[str, str] = {}
    sides: list[SideInfo] = []
    ok = True
    for side_form in form.used_sides():
        players: list[str] = []
        for field, text in side_form.typed():
            try:
                name = tables.player_name(text, field.name)
            except Invalid as problem:
                show_problem(field, problem.message)
                ok = False
                continue
            known = next((p for p in tables.player_list(row) if tables.name_key(p) == tables.name_key(name)), name)
            if tables.name_key(known) in seen:
                show_problem(field, f"{known} already plays on another side of this match")
                ok = False
                continue
            seen[tables.name_key(known)] = known
            players.append(known)
        try:
            side_name = tables.side_name_of(side_form.name.data or "", players, side_form.name.name)
        except Invalid as problem:
            show_problem(side_form.name, problem.message)
            ok = False
            continue
        sides.append(SideInfo(name=side_name, players=tuple(players)))
    if not ok:
        return None
    if not MIN_SIDES <= len(sides) <= MAX_SIDES:
        show_problem(form.sides, f"Fill in the players of {MIN_SIDES} to {MAX_SIDES} sides")
        return None
    if len({side.name.casefold() for side in sides}) != len(sides):
        show_problem(form.sides, "Give each side a different name")
        return None
    name = dated_name([side.name for side in sides], datetime.now(UTC).date())
    return Match(sides=tuple(sides), rules=start.rules, name=name, auction=start.auction)


@bp.get("/t/<table_id>/export.json")
@rate_limited("costly-read")
def export(table_id: str) -> Response:
    """The table's file: players, rule cards and every match, to import again elsewhere."""
    response = Response(tables.dumps_table(tables.get_table_or_404(table_id)), mimetype="application/json")
    response.headers["Content-Disposition"] = 'attachment; filename="table.json"'
    return response


@bp.route("/tables/import", methods=["GET", "POST"])
@rate_limited("create-match", counts_made=True)
def import_table() -> str | BaseResponse:
    """A table file, uploaded: a new table (new link) with its players, rule cards and matches."""
    form = ImportTableForm()
    if form.validate_on_submit() and form.table is not None:
        row = tables.import_table(form.table).row
        remember_table(row.public_id)
        return redirect(url_for("tables.show", table_id=row.public_id))
    return render_template("tables/import.html", form=form)


@bp.post("/t/<table_id>/forget")
def forget(table_id: str) -> BaseResponse:
    forget_table(table_id)
    return redirect(url_for("matches.home"))


def device_tables() -> list[TableRow]:
    return tables.tables_by_public_id(device_table_ids())
