"""The JSON API of club events under ``/api/v1``: an event, its rounds seated with one ordinary match per
table, the director's changes, and the standings worked out from the tables' matches.

The director's writes need the event's director token (``Authorization: Bearer …``) and may name the
version they were based on (``If-Match`` or ``"version"``); a write another director's overtook is refused
with 409.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from flask import Blueprint, Flask, jsonify, request
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from .. import tables
from ..events import corrections, director, event_rules, importing, season, withdrawals
from ..events import pages as event_pages
from ..events.event_file import event_file as write_event_file
from ..events.event_file import read_event_file
from ..events.loading import (
    Standings,
    TableState,
    chosen_movement,
    event_format,
    get_event_or_404,
    repeats_ahead,
    round_end,
    round_ends_at,
    standings_tag,
    states_of,
)
from ..events.request import read_new_event
from ..extensions import count_made, csrf, rate_limited
from ..models import EventRoundRow, EventRow, MatchRow, TableRow, utc_iso, utc_now
from ..rules.errors import RulesError
from ..rules.events import EventFormat, Seating
from ..rules.house_rules import HouseRules
from ..rules.problems import ProblemCode
from ..rules.standings import PlayerStanding, TableOutcome, TeamStanding
from .api_base import (
    TOKEN_WRONG,
    ApiError,
    as_api_error,
    check_bearer,
    expected_version,
    json_body,
    json_errors,
)
from .links import external_url

bp = Blueprint("events_api", __name__, url_prefix="/api/v1")
REPEATS_AHEAD = "repeats_ahead"  # a warning: some will meet again
json_errors(bp)


def init_app(app: Flask) -> None:
    csrf.exempt(bp)
    app.register_blueprint(bp)


def _directed(public_id: str) -> EventRow:
    """The event, once the request shows its director token (401 without one, 403 with another)."""
    row = get_event_or_404(public_id)
    check_bearer(row.director_token, "event", "director token")
    return row


def _holding_table(value: object) -> TableRow | None:
    """The table holding a new event (``"table": {"id", "edit_token"}``), once its edit token is shown."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"id", "edit_token"}:
        raise ApiError(422, "table", 'table is {"id": …, "edit_token": …}', ProblemCode.WRONG_TYPE)
    for key in ("id", "edit_token"):
        if not isinstance(value[key], str):
            raise ApiError(422, f"table.{key}", f"the table's {key} is text", ProblemCode.WRONG_TYPE)
    found = tables.find_table(value["id"])
    if found is None:
        raise ApiError(422, "table.id", "there is no table with this id", director.UNKNOWN_TABLE)
    if not secrets.compare_digest(value["edit_token"].encode(), found.edit_token.encode()):
        raise ApiError(403, "table.edit_token", "this edit token does not belong to this table", TOKEN_WRONG)
    return found


def _body() -> dict[str, Any]:
    return json_body() if request.content_length else {}


# Answers ---------------------------------------------------------------------------------------------------

def _links(row: EventRow) -> dict[str, str]:
    return {"director": external_url("events.director", public_id=row.public_id),
            "standings": external_url("events.standings", standings_id=row.standings_id),
            "self": external_url("events_api.event", public_id=row.public_id),
            "standings_data": external_url("events_api.public_standings", standings_id=row.standings_id)}


def _match_links(row: MatchRow) -> dict[str, str]:
    return {"sheet": external_url("matches.sheet", public_id=row.public_id),
            "self": external_url("api.match", public_id=row.public_id),
            "watch": external_url("matches.watch", watch_id=row.watch_id)}


def _table_json(state: TableState, with_token: bool) -> dict[str, Any]:
    outcome, match = state.outcome, state.row.match
    return {"table": outcome.table, "sides": [list(side) for side in outcome.sides],
            "match": {"id": match.public_id, "links": _match_links(match)}
            | ({"edit_token": match.edit_token} if with_token else {}),
            "deals": outcome.deals, "totals": list(outcome.totals), "winner": outcome.winner,
            "done": outcome.done, "closed": state.closed, "time_up": state.time_up, "adjusted": state.adjusted}


def _round_json(event: EventRow, played: EventRoundRow, now: datetime, with_tokens: bool = False) -> dict[str, Any]:
    states = states_of(event, played, now)
    ends_at = round_ends_at(event, played, now)
    return {"round": played.number, "started_at": utc_iso(played.started_at),
            "ends_at": None if ends_at is None else utc_iso(ends_at),
            "paused": played.paused_at is not None, "extra_minutes": played.extra_minutes or 0,
            "closed": played.closed_at is not None, "done": all(state.outcome.done for state in states),
            "tables": [_table_json(state, with_tokens) for state in states],
            "byes": [list(bye) for bye in played.seating["byes"]]}



def _entrants_json(row: EventRow) -> dict[str, Any]:
    if event_format(row) is EventFormat.TEAM:
        return {"teams": [list(entrant.players) for entrant in row.entrants]}
    return {"players": [entrant.players[0] for entrant in row.entrants]}


def _movement_json(row: EventRow) -> dict[str, Any]:
    """A team event's movement, and a warning (every event) when meetings will repeat."""
    movement = chosen_movement(row)
    warning = repeats_ahead(row)
    return ({} if movement is None else {"movement": movement.value}) | {
        "warnings": [] if warning is None else [{"code": REPEATS_AHEAD, "message": warning}]}


def _withdrawals_json(row: EventRow) -> dict[str, Any]:
    return {"withdrawals": [{"player": out.player, "from_round": out.from_round}
                            for out in row.withdrawals if out.substitute is None],
            "substitutes": [{"round": out.from_round, "player": out.player, "substitute": out.substitute}
                            for out in row.withdrawals if out.substitute is not None]}


def event_answer(row: EventRow, status: int = 200, **extra: Any) -> Response:
    """The event as its director sees it: every round with each table's live state."""
    now = utc_now()
    response = jsonify({
        "id": row.public_id, "version": row.version, "links": _links(row), **extra,
        "name": row.name, "format": row.format, "auction": row.auction, "rules": dict(row.rules),
        "round_end": round_end(row).to_json(), "rounds": row.rounds, **_entrants_json(row),
        **_movement_json(row), **_withdrawals_json(row),
        **({"ranking": row.ranking} if row.format == EventFormat.PROGRESSIVE else {}),
        "played": [_round_json(row, played, now) for played in row.played_rounds],
        "adjustments": _adjustments(row),
    })
    response.status_code = status
    return response


def _standing_json(standing: PlayerStanding | TeamStanding) -> dict[str, Any]:
    if isinstance(standing, PlayerStanding):
        return {"name": standing.name, "points": standing.points, "rank": standing.rank,
                "rounds": standing.rounds, "won": standing.won, "best": standing.best, "byes": standing.byes}
    return {"players": list(standing.players), "won": standing.won, "points": standing.points,
            "rank": standing.rank, "played": standing.played, "byes": standing.byes}


def seating_json(seating: Seating) -> dict[str, Any]:
    """A round's seating by name: each table's sides, and who sits out."""
    return {"round": seating.round, "byes": [list(bye) for bye in seating.byes],
            "tables": [{"table": table.number, "sides": [list(side) for side in table.sides]}
                       for table in seating.tables]}


def standings_answer(row: EventRow) -> Response:
    """The standings overall and round by round, and the players' ratings, worked out now from every
    table's match."""
    found = event_pages.event_standings(row, utc_now())
    key = "teams" if event_format(row) is EventFormat.TEAM else "players"

    def listed(standings: Standings) -> list[dict[str, Any]]:
        return [_standing_json(standing) for standing in standings]

    return jsonify({
        "name": row.name, "format": row.format, "version": row.version, "rounds_seated": len(found.rounds),
        "seating": [seating_json(seating) for seating in event_pages.event_seatings(row)],
        **({"ranking": row.ranking} if row.format == EventFormat.PROGRESSIVE else {}),
        "rounds_planned": row.rounds, key: listed(found.overall),
        "ratings": [rating.to_json() for rating in found.ratings],
        "rounds": [{"round": round.number, "closed": round.closed, "done": round.done, key: listed(round.standings)}
                   for round in found.rounds],
        "adjustments": _adjustments(row),
    })


def _adjustments(row: EventRow) -> list[dict[str, Any]]:
    """The director's corrections of closed tables, oldest first."""
    return [corrections.adjustment_json(correction) for correction in row.corrections]


# Routes -----------------------------------------------------------------------------------------------------

@bp.post("/events")
@rate_limited("create-match", "edit-token")  # a wrong table token counts as any refused token
def create_event() -> Response:
    body = json_body()
    held_by = body.pop("table", None)
    new = read_new_event(body)
    row = director.create_event(new, _holding_table(held_by))
    response = event_answer(row, 201, director_token=row.director_token)
    response.headers["Location"] = external_url("events_api.event", public_id=row.public_id)
    response.headers["Cache-Control"] = "no-store"  # the director token: kept by nobody on the way
    return response


@bp.post("/events/import")
@rate_limited("create-match")
def import_event() -> Response:
    """A new event from an event file: the same rounds, seating, tables and deals, so the same standings."""
    facts = read_event_file(json_body())
    row = importing.import_event(facts, count=lambda matches, deals: count_made(matches=matches, deals=deals))
    response = event_answer(row, 201, director_token=row.director_token)
    response.headers["Location"] = external_url("events_api.event", public_id=row.public_id)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/events/<public_id>/file")
def event_file(public_id: str) -> Response:
    """The event file: everything its standings are worked out from, to keep or import again."""
    return jsonify(write_event_file(get_event_or_404(public_id)))


@bp.get("/events/<public_id>")
def event(public_id: str) -> Response:
    return event_answer(get_event_or_404(public_id))


@bp.post("/events/<public_id>/rounds")
@rate_limited("edit-token")
def seat_round(public_id: str) -> Response:
    """Seat the next round: one new match per table, each with its edit token."""
    row = _directed(public_id)
    body = _body()
    played, _ = director.seat_next_round(row, expected_version(body, "event"), utc_now(),
                                         lambda tables: count_made(matches=tables))
    response = jsonify(_round_json(row, played, utc_now(), with_tokens=True) | {"version": row.version})
    response.status_code = 201
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/events/<public_id>/rounds/<int:number>/swap")
@rate_limited("edit-token")
def swap(public_id: str, number: int) -> Response:
    """Swap two players' seats (team format: their teams') before the round's first deal."""
    row = _directed(public_id)
    body = json_body()
    names = [body.get(key) for key in ("first", "second")]
    for key, name in zip(("first", "second"), names, strict=True):
        if not isinstance(name, str) or not name:
            raise ApiError(422, key, "name a player of the round", ProblemCode.WRONG_TYPE)
    played = director.swap(row, number, str(names[0]), str(names[1]), expected_version(body, "event"))
    return jsonify(_round_json(row, played, utc_now()) | {"version": row.version})


def _text_field(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(422, key, "name a player", ProblemCode.WRONG_TYPE)
    return value


@bp.post("/events/<public_id>/withdrawals")
@rate_limited("edit-token")
def withdraw(public_id: str) -> Response:
    """Withdraw a player from a round on (``{"player": "Ann", "from_round": 3}``)."""
    row = _directed(public_id)
    body = json_body()
    player = _text_field(body, "player")
    from_round = body.get("from_round")
    if isinstance(from_round, bool) or not isinstance(from_round, int):
        raise ApiError(422, "from_round", "from_round is a round's number", ProblemCode.NOT_A_NUMBER)
    withdrawals.withdraw(row, player, from_round, expected_version(body, "event"))
    return event_answer(row, 201)


@bp.post("/events/<public_id>/rounds/<int:number>/substitutes")
@rate_limited("edit-token")
def substitute(public_id: str, number: int) -> Response:
    """Put a substitute in a player's seat for the rest of the round (``{"player", "substitute"}``)."""
    row = _directed(public_id)
    body = json_body()
    withdrawals.substitute(row, number, _text_field(body, "player"), _text_field(body, "substitute"),
                           expected_version(body, "event"))
    return event_answer(row, 201)


@bp.post("/events/<public_id>/rounds/<int:number>/close")
@rate_limited("edit-token")
def close_round(public_id: str, number: int) -> Response:
    """Close a round; ``{"late": true}`` closes the tables still playing with their scores as they stand."""
    row = _directed(public_id)
    body = _body()
    late = body.get("late", False)
    if not isinstance(late, bool):
        raise ApiError(422, "late", "late is true or false", ProblemCode.WRONG_TYPE)
    played = director.close_round(row, number, late, expected_version(body, "event"), utc_now())
    return jsonify(_round_json(row, played, utc_now()) | {"version": row.version})


@bp.post("/events/<public_id>/rounds/<int:number>/clock")
@rate_limited("edit-token")
def run_clock(public_id: str, number: int) -> Response:
    """Pause, resume or extend (``"minutes"``) a time-limited round's clock; every table's phone follows."""
    row = _directed(public_id)
    body = json_body()
    try:
        action = director.ClockAction(str(body.get("action")))
    except ValueError:
        raise ApiError(422, "action", 'action is "pause", "resume" or "extend"', ProblemCode.WRONG_FORMAT) from None
    minutes = body.get("minutes", 0 if action is not director.ClockAction.EXTEND else None)
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise ApiError(422, "minutes", "minutes is a whole number (the minutes added)", ProblemCode.NOT_A_NUMBER)
    played = director.run_clock(row, number, action, minutes, expected_version(body, "event"), utc_now())
    return jsonify(_round_json(row, played, utc_now()) | {"version": row.version})


@bp.delete("/events/<public_id>/rounds/<int:number>")
@rate_limited("edit-token")
def undo_seating(public_id: str, number: int) -> Response:
    """Take back the seating of the round being played, before its first deal: its matches are deleted."""
    row = _directed(public_id)
    body = _body()
    director.undo_seating(row, number, expected_version(body, "event"))
    return event_answer(row)


@bp.post("/events/<public_id>/tables/<match_id>/close")
@rate_limited("edit-token")
def close_table(public_id: str, match_id: str) -> Response:
    """Close a late table (named by its match's id) with its score as it stands."""
    row = _directed(public_id)
    body = _body()
    state = director.close_table(row, match_id, expected_version(body, "event"), utc_now())
    return jsonify(_table_json(state, with_token=False) | {"version": row.version})


@bp.post("/events/<public_id>/corrections")
@rate_limited("edit-token")
def correct(public_id: str) -> tuple[Response, int]:
    """Correct a closed table, with a reason: a deal changed (``"deal": n, "set": {…}``) or deleted
    (``"deal": n, "delete": true``), or an adjusted score given (``"score": [a, b]``; ``null`` withdraws it)."""
    row = _directed(public_id)
    body = json_body()
    asked = _correction(body)
    made = corrections.correct(row, asked, expected_version(body, "event"))
    answer = jsonify({"correction": corrections.adjustment_json(made), "version": row.version,
                      "adjustments": _adjustments(row)})
    return answer, 201


CORRECTION_KEYS = frozenset({"round", "table", "reason", "deal", "set", "delete", "score", "version"})


def _correction(body: dict[str, Any]) -> corrections.Correction:
    unknown = sorted(set(body) - CORRECTION_KEYS)
    if unknown:
        raise ApiError(422, unknown[0], f"unknown key (allowed: {', '.join(sorted(CORRECTION_KEYS))})",
                       ProblemCode.UNKNOWN_KEY)
    for key in ("round", "table"):
        if isinstance(body.get(key), bool) or not isinstance(body.get(key), int):
            raise ApiError(422, key, f"{key} is a whole number", ProblemCode.NOT_A_NUMBER)
    reason = corrections.clean_reason(body.get("reason"))
    place = {"round": body["round"], "table": body["table"], "reason": reason}
    asked = [key for key in ("set", "delete", "score") if key in body]
    if len(asked) != 1:
        raise ApiError(422, None, 'a correction is one of "set" (a deal\'s facts), "delete": true or "score"',
                       ProblemCode.MISSING_KEY)
    if asked == ["score"]:
        totals = None if body["score"] is None else corrections.clean_totals(body["score"])
        return corrections.Correction(**place, kind=corrections.Kind.SCORE, totals=totals)
    deal = body.get("deal")
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise ApiError(422, "deal", "deal is the number of the deal to correct", ProblemCode.NOT_A_NUMBER)
    if asked == ["delete"]:
        if body["delete"] is not True:
            raise ApiError(422, "delete", "delete is true", ProblemCode.WRONG_TYPE)
        return corrections.Correction(**place, kind=corrections.Kind.DELETED, deal=deal)
    if not isinstance(body["set"], dict):
        raise ApiError(422, "set", "set is a deal as the match file writes it", ProblemCode.WRONG_TYPE)
    return corrections.Correction(**place, kind=corrections.Kind.CHANGED, deal=deal, facts=body["set"])


@bp.put("/events/<public_id>/rules")
@rate_limited("edit-token")
def change_rules(public_id: str) -> Response:
    """The event's house rules changed for every table (``"rules": {…}``, the rules that change); with
    ``"preview": true`` only what it would do: each table whose outcome moves, the standings before and after."""
    row = _directed(public_id)
    body = json_body()
    unknown = sorted(set(body) - {"rules", "preview", "version"})
    if unknown:
        raise ApiError(422, unknown[0], "unknown key (allowed: preview, rules, version)", ProblemCode.UNKNOWN_KEY)
    preview_only = body.get("preview", False)
    if not isinstance(preview_only, bool):
        raise ApiError(422, "preview", "preview is true or false", ProblemCode.WRONG_TYPE)
    given = body.get("rules")
    if not isinstance(given, dict):
        raise ApiError(422, "rules", "rules is an object of the house rules that change", ProblemCode.WRONG_TYPE)
    try:
        new = HouseRules.from_mapping(given, base=event_rules.event_rules(row))
    except RulesError as error:
        raise as_api_error(error, "rules") from None
    now = utc_now()
    if preview_only:
        director.check_version(row, expected_version(body, "event"))
        found = event_rules.preview_event_rules(row, new, now)
    else:
        found = event_rules.change_event_rules(row, new, expected_version(body, "event"), now)
    return jsonify({"preview": preview_only, "version": row.version, "rules": new.to_mapping(),
                    "changed_rules": list(found.changed_rules),
                    "tables": [{"round": change.before.round, "table": change.before.table,
                                "sides": [list(side) for side in change.before.sides],
                                "before": _outcome_json(change.before), "after": _outcome_json(change.after)}
                               for change in found.tables],
                    "standings": {"before": [_standing_json(one) for one in found.before],
                                  "after": [_standing_json(one) for one in found.after]}})


def _outcome_json(outcome: TableOutcome) -> dict[str, Any]:
    return {"totals": list(outcome.totals), "winner": outcome.winner, "done": outcome.done, "deals": outcome.deals}


@bp.get("/events/<public_id>/standings")
def event_standings(public_id: str) -> Response:
    return standings_answer(get_event_or_404(public_id))


@bp.get("/standings/<standings_id>")
def public_standings(standings_id: str) -> Response:
    """The standings at the public link, with an ETag: a screen asking again with ``If-None-Match`` gets
    304 while no table's match and no director's write changed anything."""
    tag = standings_tag(standings_id, utc_now())
    if tag is None:
        raise NotFound("There is no event at this link.")
    if request.if_none_match.contains(tag):
        unchanged = Response(status=304)
        unchanged.headers["ETag"] = f'"{tag}"'
        return unchanged
    response = standings_answer(get_event_or_404(standings_id, public=True))
    response.headers["ETag"] = f'"{tag}"'
    return response


# A table's season -------------------------------------------------------------------------------------------

def _season_answer(table: TableRow) -> Response:
    found = season.table_season(table, utc_now())
    return jsonify({
        "table": table.public_id, "best": found.best,
        "events": [{"name": event.name, "created_at": utc_iso(event.created_at), "players": event.players,
                    "standings": external_url("events.standings", standings_id=event.standings_id)}
                   for event in found.events],
        "players": [{"name": standing.name, "events": standing.events, "points": standing.points,
                     "rank": standing.rank} for standing in found.standings],
    })


@bp.get("/tables/<public_id>/season")
def table_season(public_id: str) -> Response:
    """The season of the events a table holds: each player's events played, points counted and rank."""
    return _season_answer(tables.get_table_or_404(public_id))


@bp.put("/tables/<public_id>/season")
@rate_limited("edit-token")
def set_season_best(public_id: str) -> Response:
    """Count each player's best N events (``{"best": N}``; null: every event), with the table's edit token."""
    row = tables.get_table_or_404(public_id)
    check_bearer(row.edit_token, "table")
    body = json_body()
    unknown = sorted(set(body) - {"best"})
    if unknown:
        raise ApiError(422, unknown[0], "unknown key (allowed: best)", ProblemCode.UNKNOWN_KEY)
    season.set_best(row, season.read_best(body.get("best")))
    return _season_answer(row)
