"""A new event: its form, read into the API's request body so that the API's checks decide. Opened from a
table's page (``?table=``), it offers that table's players and rule cards, and the event it makes is held
by the table (its matches count in the table's statistics and ratings) when this phone has the table's link."""

from __future__ import annotations

from flask import abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ... import tables
from ...device import NOT_AT_THE_TABLE, may_change_table, remember_event
from ...events.director import create_event
from ...events.request import read_new_event
from ...extensions import rate_limited
from ...forms.common import add_error, sentence
from ...forms.events import NewEventForm
from ...forms.house_rules import rule_values
from ...rules.house_rules import PRESETS
from ...rules.refusals import Refusal
from .blueprint import bp


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
    if request.args.get("table") and table is None:
        abort(404, "There is no table at this link.")
    if table is not None and not may_change_table(table.public_id):
        abort(403, NOT_AT_THE_TABLE)
    form = NewEventForm()
    if form.validate():
        try:
            row = create_event(read_new_event(form.api_body()), table)
        except Refusal as problem:
            _show_new_event_problem(form, problem)
        else:
            remember_event(row.public_id)
            return redirect(url_for("events.director", public_id=row.public_id))
    return render_template("events/new.html", form=form, table=table, options=options)


def _show_new_event_problem(form: NewEventForm, problem: Refusal) -> None:
    """The API's refusal shown at the field it names (a player's line says which line)."""
    field, message = problem.field or "", sentence(problem.message)
    if field.startswith(("players", "teams")):
        line = field.partition("[")[2].partition("]")[0]
        add_error(form.entrants, f"Line {int(line) + 1}: {message}" if line.isdigit() else message)
    elif field.startswith("round_end"):
        add_error(form.round_count, message)
    elif field in ("name", "format", "rounds", "movement"):
        add_error(form[field], message)
    else:
        form.form_errors.append(message)
