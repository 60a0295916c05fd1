"""The JSON API under ``/api/v1``: the match file in, the recomputed sheet out.

Writes to a match need its edit token (``Authorization: Bearer …``) and a JSON body; they are exempt
from the CSRF token of the forms because a browser cannot send that header from another site.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound
from werkzeug.wrappers import Response

from .. import tables
from ..events.loading import event_of_match
from ..extensions import count_made, csrf, rate_limited
from ..models import MatchRow, TableRow
from ..rule_history import history_entries
from ..rules.cards import Hand, Suit
from ..rules.errors import HouseRuleError, RulesError
from ..rules.house_rules import RULE_SPECS_BY_KEY, HouseRules
from ..rules.limits import MAX_WRITE_KEY, MIN_WRITE_KEY
from ..rules.match import Match
from ..rules.matchfile import deal_to_json, match_from_json, match_to_json, sent_deals
from ..rules.meld import best_melds
from ..rules.problems import ProblemCode
from ..rules.rescale import Factor, rescale_offer, scales_disagree
from ..rules.scoring import Sheet, preview_rules, score_match
from ..sheet.cache import Answer, Encoded
from ..store import history, reading, write_keys, writing
from .api_base import ApiError, api_error, as_api_error, check_bearer, expected_version, json_body, json_errors
from .errors import KEY_REUSED, NOT_DECIDED, NOTHING_TO_UNDO
from .links import external_url, link_base
from .sheet_pages import kept_answer

bp = Blueprint("api", __name__, url_prefix="/api/v1")

CONTROL_KEYS = ("version", "preview")  # keys of a request body that are not facts
KEY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
json_errors(bp)


def init_app(app: Flask) -> None:
    csrf.exempt(bp)
    app.register_blueprint(bp)


@bp.errorhandler(write_keys.KeyReused)
def _key_reused(error: write_keys.KeyReused) -> tuple[Response, int]:
    return api_error(ApiError(422, KEY_HEADER, error.message, KEY_REUSED))


# Request helpers -----------------------------------------------------------------------------------

def editable_match(public_id: str) -> reading.Loaded:
    """The match, once the request shows its edit token (401 without one, 403 with another)."""
    row = reading.get_match_or_404(public_id)
    check_bearer(row.edit_token, "match")
    return reading.Loaded(row, reading.to_core(row))


def write_key(body: dict[str, Any] | None) -> write_keys.WriteKey | None:
    """The write's ``Idempotency-Key`` (None without one), tied to what the request asks: its method,
    address, ``If-Match`` and body. 400 for a key that cannot be one."""
    value = request.headers.get(KEY_HEADER)
    if value is None:
        return None
    value = value.strip()
    if not write_keys.is_write_key(value):
        code = ProblemCode.TOO_LONG if len(value) > MAX_WRITE_KEY else ProblemCode.WRONG_FORMAT
        raise ApiError(400, KEY_HEADER, f"a key is {MIN_WRITE_KEY} to {MAX_WRITE_KEY} letters, digits and "
                                        "- _ . : ~ (a random UUID will do)", code)
    canonical = "" if body is None else json.dumps(body, sort_keys=True, separators=(",", ":"))
    return write_keys.WriteKey.of(value, request.method, request.path, request.headers.get("If-Match", ""), canonical)


def facts(body: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key not in CONTROL_KEYS}


# Answers ---------------------------------------------------------------------------------------------

def links(row: MatchRow) -> dict[str, str]:
    return {
        "sheet": external_url("matches.sheet", public_id=row.public_id),
        "self": external_url("api.match", public_id=row.public_id),
        "watch": external_url("matches.watch", watch_id=row.watch_id),
    }


def match_answer(row: MatchRow, match: Match, sheet: Sheet, status: int = 200, event: dict[str, Any] | None = None,
                 **extra: Any) -> tuple[Response, int]:
    """The match file (with its ``event`` when given), its recomputed sheet and its version (also sent as
    the ETag)."""
    body = {"id": row.public_id, "version": row.version, "links": links(row), **extra}
    response = jsonify(body | {"match": match_to_json(match, event=event), "sheet": sheet.to_json()})
    response.headers["ETag"] = f'"{row.version}"'
    return response, status


def written_answer(written: writing.Written, status: int = 200, **extra: Any) -> tuple[Response, int]:
    """The answer to a write, from what the write worked out (a repeat of a keyed write says so in a
    header, so that its body stays the first answer's)."""
    response, status = match_answer(written.row, written.match, written.sheet, status, **extra)
    if written.replayed:
        response.headers[REPLAYED_HEADER] = "true"
    return response, status


# Matches ---------------------------------------------------------------------------------------------

@bp.post("/matches")
@rate_limited("create-match", "edit-token")
def create() -> tuple[Response, int]:
    body = json_body()
    table = _table_named(body.pop("table", None))
    if table is not None:
        _check_table_token(table)  # a match joins a table's list and statistics only with the table's token
    count_made(deals=sent_deals(body))  # before the file is read
    match = match_from_json(body)
    if table is not None:
        _check_table_players(table, match)
    sheet = score_match(match)  # contradictions are refused before anything is stored
    row = writing.create_match(match, table_id=None if table is None else table.id)
    response, status = match_answer(row, match, sheet, 201, edit_token=row.edit_token)
    response.headers["Location"] = links(row)["self"]
    response.headers["Cache-Control"] = "no-store"  # the edit token: kept by nobody on the way
    return response, status


@bp.get("/matches/<public_id>")
@rate_limited("costly-read")
def match(public_id: str) -> tuple[Response, int] | Response:
    version = reading.match_version(public_id)
    if version is None:
        raise NotFound("There is no match at this link.")
    if request.if_none_match.contains(str(version)):
        unchanged = Response(status=304)  # a client polling for changes skips the recomputation
        unchanged.headers["ETag"] = f'"{version}"'
        return unchanged, 304
    return kept_answer(f"api:{link_base()}{public_id}", version, lambda: _match_file_answer(public_id))


def _match_file_answer(public_id: str) -> Answer:
    """``match_answer`` of the match as it is now, as bytes for the sheet cache."""
    row, core = reading.load_match(public_id)
    response, _ = match_answer(row, core, score_match(core), event=event_of_match(row))
    return Answer(row.version, Encoded.of(response.get_data()), response.mimetype or "application/json",
                  (("ETag", f'"{row.version}"'),))


@bp.post("/matches/<public_id>/next")
@rate_limited("create-match", "edit-token")
def next_match(public_id: str) -> tuple[Response, int]:
    """The next match of a decided match: made by the first request (201), answered to every later one
    (200), from whichever client, at the same moment or not. It holds the decided match's edit token's
    right: its own token comes with it."""
    row, match = editable_match(public_id)
    body = json_body() if request.content_length else {}
    partners = body.get("partners", "same")
    if partners not in ("same", "rotate"):
        raise ApiError(422, "partners", 'either "same" or "rotate"', ProblemCode.WRONG_FORMAT)
    if score_match(match).winner is None:
        raise ApiError(409, None, "This match is still being played: its next match starts once it is decided.",
                       NOT_DECIDED)
    started = writing.start_next_match(row, tables.next_match(row.name, match, rotate=partners == "rotate"), None)
    core = reading.to_core(started.row)
    response, status = match_answer(started.row, core, score_match(core), 201 if started.made else 200,
                                    edit_token=started.row.edit_token, follows=row.public_id)
    response.headers["Location"] = links(started.row)["self"]
    response.headers["Cache-Control"] = "no-store"  # the edit token: kept by nobody on the way
    return response, status


@bp.get("/matches/<public_id>/deals/<int:number>")
@rate_limited("costly-read")
def deal(public_id: str, number: int) -> Response:
    row, core = reading.load_match(public_id)
    reading.get_deal_or_404(row, number)
    line = score_match(core).deals[number - 1]
    return jsonify({"number": number, "version": row.version,
                    "deal": deal_to_json(core.deals[number - 1], core.rules), "line": line.to_json()})


@bp.post("/matches/<public_id>/deals")
@rate_limited("edit-token")
def add_deal(public_id: str) -> tuple[Response, int]:
    loaded = editable_match(public_id)
    body = json_body()
    try:
        written = writing.add_deal(loaded, facts(body), expected_version(body), write_key(body))
    except RulesError as error:
        raise as_api_error(error, "deal") from None
    response, status = written_answer(written, 201, number=written.number)
    response.headers["Location"] = external_url("api.deal", public_id=public_id, number=written.number)
    return response, status


@bp.put("/matches/<public_id>/deals/<int:number>")
@rate_limited("edit-token")
def replace_deal(public_id: str, number: int) -> tuple[Response, int]:
    loaded = editable_match(public_id)
    body = json_body()
    try:
        written = writing.replace_deal(loaded, number, facts(body), expected_version(body), write_key(body))
    except RulesError as error:
        raise as_api_error(error, "deal") from None
    return written_answer(written, number=number)



@bp.delete("/matches/<public_id>/deals/<int:number>")
@rate_limited("edit-token")
def delete_deal(public_id: str, number: int) -> tuple[Response, int]:
    loaded = editable_match(public_id)
    body = json_body() if request.content_length else None
    return written_answer(writing.delete_deal(loaded, number, expected_version(body), write_key(body)))


@bp.put("/matches/<public_id>/rules")
@rate_limited("edit-token")
def change_rules(public_id: str) -> tuple[Response, int] | Response:
    loaded = editable_match(public_id)
    row, before = loaded
    body = json_body()
    preview = _preview_asked(body)
    new_rules = HouseRules.from_mapping(facts(body), base=before.rules)
    if preview:
        result = preview_rules(before, new_rules)
        return jsonify({
            "preview": True, "version": row.version, "rules": new_rules.to_mapping(),
            "changed_rules": before.rules.differences(new_rules), "changed_deals": list(result.changed),
            "flipped_deals": list(result.flipped), "winner_changes": result.winner_changes,
            "mixed_scales": scales_disagree(new_rules), "rescale_instead": _direction(before.rules, new_rules),
            "before": result.before.to_json(), "after": result.after.to_json(),
        })
    written = writing.change_rules(loaded, new_rules, expected_version(body), key=write_key(body))
    if written is None:
        return match_answer(row, before, score_match(before), changed_rules=[], changed_deals=[])
    return written_answer(written, changed_rules=list(written.changed_rules),
                          changed_deals=list(written.changed_deals))


def _direction(old: HouseRules, new: HouseRules) -> str | None:
    offer = rescale_offer(old, new)
    return None if offer is None else DIRECTIONS[offer]


DIRECTIONS = {Factor.UP: "up", Factor.DOWN: "down"}


@bp.post("/matches/<public_id>/rescale")
@rate_limited("edit-token")
def rescale(public_id: str) -> tuple[Response, int]:
    """``{"direction": "up"}`` (×10) or ``"down"`` (÷10): rules, bids and typed numbers, as one change."""
    loaded = editable_match(public_id)
    body = json_body()
    factor = {name: factor for factor, name in DIRECTIONS.items()}.get(str(body.get("direction")))
    if factor is None:
        raise ApiError(422, "direction", 'Use "up" (×10) or "down" (÷10).', ProblemCode.WRONG_FORMAT)
    written = writing.rescale_match(loaded, factor, expected_version(body), write_key(body))
    return written_answer(written, changed_rules=list(written.changed_rules),
                          changed_deals=list(written.changed_deals))


@bp.get("/matches/<public_id>/rules/history")
def rules_history(public_id: str) -> Response:
    """The changes of house rules, newest first, each with the id its undo takes."""
    row = editable_match(public_id).row
    return jsonify({"version": row.version, "changes": [
        {"id": entry.change_id, "title": entry.title, "after_deal": entry.after_deal,
         "changed_at": entry.changed_at.isoformat(), "by": entry.who or None,
         "rules": [{"rule": change.rule, "old": change.old_value, "new": change.new_value}
                   for change in writing.change_group(row, entry.change_id)]}
        for entry in history_entries(row)]})


@bp.post("/matches/<public_id>/rules/history/<int:change_id>/undo")
@rate_limited("edit-token")
def undo_rules(public_id: str, change_id: int) -> tuple[Response, int]:
    """Undo one change of the history; the undo is recorded as a change of its own."""
    loaded = editable_match(public_id)
    body = json_body() if request.content_length else None
    try:
        written = writing.undo_rules(loaded, change_id, expected_version(body), write_key(body))
    except writing.NothingToUndo as nothing:
        if not writing.change_group(loaded.row, change_id):
            raise ApiError(404, None, str(nothing)) from None
        raise ApiError(422, None, str(nothing), NOTHING_TO_UNDO) from None
    return written_answer(written, changed_rules=list(written.changed_rules),
                          changed_deals=list(written.changed_deals))


@bp.get("/matches/<public_id>/deals/<int:number>/history")
def deal_history(public_id: str, number: int) -> Response:
    """Deal ``number``'s changes, oldest first: what, by whom, when, the deal before and after."""
    row = reading.get_match_or_404(public_id)
    check_bearer(row.edit_token, "match")
    deal_id = history.current_deal_id(row, number)
    if deal_id is None:
        raise NotFound(f"This match has no deal {number}.")
    return jsonify({"number": number, "version": row.version,
                    "changes": [entry.to_json() for entry in history.deal_history(row, deal_id)]})


@bp.post("/matches/<public_id>/undo")
@rate_limited("edit-token")
def undo_last(public_id: str) -> tuple[Response, int]:
    """Undo the match's last change of any kind, at the version the client names (required)."""
    loaded = editable_match(public_id)
    body = json_body() if request.content_length else None
    version = expected_version(body)
    if version is None:
        raise ApiError(422, "version", "is required: the version the undo is based on", ProblemCode.NOT_A_NUMBER)
    try:
        written = writing.undo_last(loaded, version, write_key(body))
    except writing.NothingToUndo as nothing:
        raise ApiError(422, None, str(nothing), NOTHING_TO_UNDO) from None
    return written_answer(written, changed_rules=list(written.changed_rules),
                          changed_deals=list(written.changed_deals))


def _preview_asked(body: dict[str, Any]) -> bool:
    """``"preview": true`` in the body or ``?preview=true``; anything but a plain yes or no is refused,
    so that a preview can never be applied by mistake."""
    raw = body.get("preview", False)
    if not isinstance(raw, bool):
        raise ApiError(422, "preview", "must be true or false (a JSON boolean)", ProblemCode.WRONG_TYPE)
    query = request.args.getlist("preview")
    if any(value not in ("true", "false") for value in query):
        raise ApiError(422, "preview", "?preview= takes true or false", ProblemCode.WRONG_TYPE)
    return raw or "true" in query


# Tables ----------------------------------------------------------------------------------------------

def _table_named(value: object) -> TableRow | None:
    """The table a new match is played at (``"table"``: its id), or None without one."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError(422, "table", "give the table's id as text", ProblemCode.WRONG_TYPE)
    found = tables.find_table(value)
    if found is None:
        raise ApiError(422, "table", "there is no table with this id", tables.NOT_AT_TABLE)
    return found


def _check_table_players(table: TableRow, match: Match) -> None:
    tables.check_players_at_table(table, match.sides)


def editable_table(public_id: str) -> TableRow:
    """The table, once the request shows its edit token (401 without one, 403 with another)."""
    row = tables.get_table_or_404(public_id)
    _check_table_token(row)
    return row


def _check_table_token(row: TableRow) -> None:
    check_bearer(row.edit_token, "table")


def table_answer(row: TableRow, status: int = 200, known: Mapping[int, Match] | None = None,
                 **extra: Any) -> Response:
    """The table as the API gives it (``known``: its matches already read into the rules core, by row id)."""
    matches = tables.match_states(row, known)
    body = {
        "id": row.public_id,
        "name": row.name,
        "links": {"self": external_url("api.table", public_id=row.public_id),
                  "page": external_url("tables.show", table_id=row.public_id),
                  "stats": external_url("api.table_statistics", public_id=row.public_id)},
        **extra,
        "players": tables.player_list(row),
        "rule_cards": [{"name": card.name, "auction": card.auction, "rules": dict(card.rules)}
                       for card in row.rule_cards],
        "matches": [{"id": match.public_id, "name": match.name,
                     "sides": [{"name": side.name, "players": list(side.players)} for side in match.sides],
                     "winner": state.winner,
                     "link": external_url("api.match", public_id=match.public_id)} for match, state in matches],
    }
    response = jsonify(body)
    response.status_code = status
    return response


@bp.post("/tables")
@rate_limited("create-match")
def create_table() -> Response:
    body = json_body()
    unknown = sorted(set(body) - {"name", "players", "rule_cards"})
    if unknown:
        raise ApiError(422, unknown[0], "unknown key (allowed: name, players, rule_cards)", ProblemCode.UNKNOWN_KEY)
    file = tables.read_table_file({"name": body.get("name", ""), "players": body.get("players", []),
                                   "rule_cards": body.get("rule_cards", [])})
    row = tables.import_table(file).row
    response = table_answer(row, 201, token=row.edit_token)
    response.headers["Location"] = external_url("api.table", public_id=row.public_id)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tables/<public_id>")
@rate_limited("costly-read")
def table(public_id: str) -> Response:
    return table_answer(tables.get_table_or_404(public_id))


@bp.post("/tables/<public_id>/players")
@rate_limited("edit-token")
def add_table_players(public_id: str) -> Response:
    """Add players: ``{"players": [names]}``."""
    row = editable_table(public_id)
    tables.add_players(row, json_body().get("players"))
    return table_answer(row, 201)


@bp.delete("/tables/<public_id>/players/<name>")
@rate_limited("edit-token")
def remove_table_player(public_id: str, name: str) -> Response:
    row = editable_table(public_id)
    if not tables.remove_player(row, name):
        raise NotFound("this table has no player of that name")
    return table_answer(row)


@bp.post("/tables/<public_id>/rule-cards")
@rate_limited("edit-token")
def add_rule_card(public_id: str) -> Response:
    """Save a rule card: ``{"name", "auction"?, "rules": {…}}`` (rules not given take their defaults)."""
    row = editable_table(public_id)
    body = json_body()
    name = tables.rule_card_name(body.get("name"), row)
    auction = body.get("auction", True)
    if not isinstance(auction, bool):
        raise ApiError(422, "auction", "auction is true or false", ProblemCode.WRONG_TYPE)
    rules_data = body.get("rules", {})
    if not isinstance(rules_data, dict):
        raise ApiError(422, "rules", "rules is an object of house rules", ProblemCode.WRONG_TYPE)
    try:
        rules = HouseRules.from_mapping(rules_data)
    except RulesError as error:
        raise as_api_error(error, "rules") from None
    tables.add_rule_card(row, name, rules, auction)
    return table_answer(row, 201)


@bp.get("/tables/<public_id>/stats")
@rate_limited("costly-read")
def table_statistics(public_id: str) -> Response:
    """Every figure of the table, worked out now from its matches' facts."""
    row = tables.get_table_or_404(public_id)
    figures = tables.stats_and_ratings(row)
    stats = figures.stats
    return jsonify({
        "matches": stats.matches,
        "unfinished": stats.unfinished,
        "rated": figures.rated,
        "ratings": [rating.to_json() for rating in figures.ratings],
        "players": [{
            "name": p.name, "matches": p.matches, "in_progress": p.in_progress, "won": p.won,
            "win_percent": p.win_percent,
            "bids": p.bids, "made": p.made, "made_percent": p.made_percent, "set": p.set,
            "thrown_in": p.thrown_in, "average_bid": p.average_bid, "biggest_bid_made": p.biggest_bid_made,
            "melds": p.melds, "average_meld": p.average_meld, "biggest_meld": p.biggest_meld,
            "form": [{"played": f.played, "won": f.won} for f in stats.form.get(p.name, ())],
        } for p in stats.players],
        "partnerships": [{"players": list(t.players), "matches": t.matches, "won": t.won}
                         for t in stats.partnerships],
        "head_to_head": [{"players": list(t.players), "matches": t.matches, "won": t.won, "lost": t.lost}
                         for t in stats.head_to_head],
    })


@bp.get("/tables/<public_id>/export")
@rate_limited("costly-read")
def export_table(public_id: str) -> Response:
    """The table file: players, rule cards and every match in the match file format."""
    return jsonify(tables.table_file(tables.get_table_or_404(public_id)))


@bp.post("/tables/import")
@rate_limited("create-match", counts_made=True)
def import_table() -> Response:
    """A table file in, a new table (new id and token) out."""
    file = tables.read_table_file(json_body(), count=count_made)  # counted before its matches are read
    row, matches = tables.import_table(file)
    response = table_answer(row, 201, matches, token=row.edit_token)
    response.headers["Location"] = external_url("api.table", public_id=row.public_id)
    response.headers["Cache-Control"] = "no-store"
    return response


# Meld ------------------------------------------------------------------------------------------------

@bp.post("/meld")
def meld() -> Response:
    body = json_body()
    unknown = sorted(set(body) - {"cards", "deck", "table", "trump", "prices"})
    if unknown:
        message = "unknown key (allowed: cards, deck, table, trump, prices)"
        raise ApiError(422, unknown[0], message, ProblemCode.UNKNOWN_KEY)
    defaults = HouseRules()
    try:
        deck = RULE_SPECS_BY_KEY["deck"].parse(body.get("deck", defaults.deck))
        table = RULE_SPECS_BY_KEY["meld_table"].parse(body.get("table", defaults.meld_table))
        prices = RULE_SPECS_BY_KEY["meld_prices"].parse(body.get("prices", {}))
    except HouseRuleError as error:
        field = {"meld_table": "table"}.get(error.key, error.key.replace("meld_prices", "prices", 1))
        raise ApiError(422, field, str(error), error.code) from None
    cards = body.get("cards")
    if not isinstance(cards, str) and not (isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
        raise ApiError(422, "cards", 'give the cards as "AH 10H KH" or as a list of such texts', ProblemCode.WRONG_TYPE)
    trump_text = body.get("trump")
    try:
        hand = Hand.from_text(cards, deck)
    except RulesError as error:
        raise ApiError(422, "cards", str(error), error.code) from None
    trump = None
    if trump_text not in (None, "all"):
        if not isinstance(trump_text, str):
            raise ApiError(422, "trump", 'give the trump as "S", "H", "D", "C" or "all"', ProblemCode.WRONG_TYPE)
        try:
            trump = Suit.from_text(trump_text)
        except RulesError as error:
            raise ApiError(422, "trump", str(error), error.code) from None
    results = best_melds(hand, trump, table, prices)
    if trump is not None:
        return jsonify(results[0].to_json())
    return jsonify({"trumps": [result.to_json() for result in results]})


@bp.route("/<path:unknown>", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
def not_found(unknown: str) -> Response:
    """Unknown API addresses, and known ones asked with the wrong method, answer in JSON too."""
    adapter = current_app.url_map.bind_to_environ(request.environ)
    allowed = []
    for method in ("GET", "POST", "PUT", "DELETE"):
        try:
            rule, _ = adapter.match(method=method, return_rule=True)
        except HTTPException:
            continue
        if rule.endpoint != "api.not_found":
            allowed.append(method)
    if allowed:
        raise MethodNotAllowed(valid_methods=allowed, description="this address does not take that method")
    raise NotFound("there is no such API address")
