"""What a phone kept while it had no network, sent when it is back (static/js/offline/).

A phone that loses its signal keeps each deal form, delete, throw-in, house-rule and meld-price change,
rescale and undo it sends in an outbox and sends them here later, in order, as the form's own fields and
the address it was posted to. So the server reads them exactly as the form would have been read, with the
form's write key (or one the phone made) as the write's key: a form that did reach the server, and a retry
whose answer was lost, are answered with the first write's result and never done twice.

The phone's right to change the match is the device cookie, as for the forms; the CSRF token is sent as a
header and fetched fresh from ``facts`` (a page kept for hours holds an expired one).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, abort, jsonify, render_template, request, url_for
from flask_wtf.csrf import generate_csrf
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from ..device import players_only
from ..forms.common import sentence
from ..forms.deals import DealForm, meld_lines
from ..forms.house_rules import HouseRulesForm
from ..forms.meld_prices import MeldPricesForm
from ..rules.errors import ContradictionError, HouseRuleError, MatchFileError, RulesError
from ..rules.matchfile import match_to_json
from ..rules.meld_prices import MeldPrices
from ..rules.numbers import path_number, whole_number_or_none
from ..rules.problems import ProblemCode
from ..rules.rescale import Factor
from ..rules.text import load_json
from ..sheet.row_parts import row_parts
from ..store import reading, write_keys, writing
from .errors import KEY_REUSED, NOTHING_TO_UNDO, REPEATED_FIELD, Refused, error_json, repeated_name

bp = Blueprint("outbox", __name__, url_prefix="/m/<public_id>/outbox")
bp.before_request(players_only)

KEY_HEADER = "Idempotency-Key"
MAX_KEYS_ASKED = 50
UNREADABLE = "This entry could not be read; it was kept on the phone."
NOT_VALID = "not_valid"  # the entry as its form would read it is not complete or not right: the message says why
# The form addresses an outbox entry may name, after /m/<public_id>: what it does and to which deal.
FORM_PATH = re.compile(r"/deals/new|/deals/([0-9]+)/(edit|delete|throw-in)|/rules(?:/(meld|rescale)|/undo/([0-9]+))?")


@bp.get("")
def facts(public_id: str) -> Response:
    """The match as the server holds it (the phone's last confirmed facts), a fresh CSRF token, and which
    of the write keys asked about (``?keys=a,b``) the server has already done."""
    row, match = reading.load_match(public_id)
    asked = [key for key in request.args.get("keys", "").split(",") if write_keys.is_write_key(key)][:MAX_KEYS_ASKED]
    response = jsonify({"version": row.version, "match": match_to_json(match), "csrf_token": generate_csrf(),
                        "done": sorted(write_keys.stored_keys(row, asked))})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/rows")
def rows(public_id: str) -> Response:
    """The parts of a row of the match's sheet, drawn by the sheet's row template, that the phone fills with
    the twin's numbers for a deal not sent yet (static/js/offline/sheet.js); kept with the match's kit."""
    match = reading.load_match(public_id).match
    names = [side.shown_name for side in match.sides]
    html = render_template("matches/row_parts.html", parts=row_parts(len(names)), names=names, auction=match.auction,
                           edit_url=lambda number: url_for("deals.edit", public_id=public_id, number=number))
    return Response(html, mimetype="text/html", headers={"Cache-Control": "private, no-cache"})


@bp.post("")
def send(public_id: str) -> tuple[Response, int]:
    """Do one kept write: ``{"path": the form's address, "fields": [[name, value], …], "version": n?}``."""
    try:
        body = load_json(request.get_data(as_text=False).decode("utf-8"))
    except UnicodeDecodeError:
        return _refused(400, UNREADABLE, ProblemCode.NOT_JSON)
    except MatchFileError as error:  # not JSON, nested too deep, a key given twice …
        return _refused(400, UNREADABLE, error.code, error.path or None)
    if not isinstance(body, dict) or not isinstance(body.get("path"), str) or not isinstance(body.get("fields"), list):
        return _refused(400, UNREADABLE, ProblemCode.WRONG_TYPE)
    prefix = f"/m/{public_id}"
    path: str = body["path"]
    found = FORM_PATH.fullmatch(path[len(prefix):]) if path.startswith(prefix) else None
    if found is None:
        return _refused(400, "This entry names no form of this match.", ProblemCode.WRONG_FORMAT, "path")
    pairs = [(str(pair[0]), str(pair[1])) for pair in body["fields"] if isinstance(pair, list) and len(pair) == 2]
    repeated = repeated_name(name for name, _ in pairs)
    if repeated is not None:
        return _refused(400, f"This entry gives the field {repeated} twice; it was kept on the phone.",
                        REPEATED_FIELD, f"fields.{repeated}")
    fields = MultiDict(pairs)
    key = _key(path)
    loaded = reading.load_match(public_id)
    number, change = (_number(found.group(group)) for group in (1, 4))
    version = _version(body, fields, number)
    try:
        if path.endswith("/rules"):
            written = _change_rules(loaded, fields, key)
        elif found.group(3) == "meld":
            written = _change_meld_prices(loaded, fields, key)
        elif found.group(3) == "rescale":
            written = _rescale(loaded, fields, key)
        elif change is not None:
            written = _undo(loaded, change, key)
        elif number is None:
            written = _save_deal(loaded, fields, None, None, key)
        elif found.group(2) == "edit":
            written = _save_deal(loaded, fields, number, version, key)
        elif found.group(2) == "delete":
            written = writing.delete_deal(loaded, number, version, key)
        else:
            written = writing.throw_in(loaded, number, version, key)
    except writing.StaleEdit as stale:
        return _stale(loaded, stale, number)
    except write_keys.KeyReused:
        return _refused(422, "This entry was sent before with other contents; it was kept on the phone.", KEY_REUSED)
    except _Refused as refused:
        return _refused(422, refused.message, NOT_VALID)
    except writing.NothingToUndo as nothing:
        return _refused(422, str(nothing), NOTHING_TO_UNDO)
    except ContradictionError as error:
        return _refused(422, _contradiction(error), error.code)
    except RulesError as error:
        return _refused(422, sentence(error.problem.message), error.code, error.problem.path or None)
    if written is None:  # house rules already as asked
        return jsonify({"done": True, "number": None, "version": loaded.row.version,
                        "match": match_to_json(loaded.match)}), 200
    return jsonify({"done": True, "number": written.number, "version": written.row.version,
                    "replayed": written.replayed, "match": match_to_json(written.match)}), 201


class _Refused(Exception):
    """The player's entry is not valid as it stands: the message says what to fix."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _save_deal(loaded: reading.Loaded, fields: MultiDict[str, str], number: int | None, version: int | None,
               key: write_keys.WriteKey | None) -> writing.Written:
    row, match = loaded
    if number is not None:
        reading.get_deal_or_404(row, number)
    form = DealForm(formdata=fields, meta={"csrf": False}).setup(
        [side.shown_name for side in match.sides], meld_lines(match), [list(side.players) for side in row.sides])
    form.validate()
    data = form.to_deal_json(match.auction)
    if data is None:
        raise _Refused(_form_messages(form.errors, form.form_errors))
    try:
        if number is None:
            return writing.add_deal(loaded, data, None, key)  # an addition appends, whatever came in between
        return writing.replace_deal(loaded, number, data, version, key)
    except writing.InvalidDeal as invalid:
        raise _Refused(" ".join(sentence(problem.message) for problem in invalid.problems)) from None
    except MatchFileError as error:
        raise _Refused(sentence(error.problem.message)) from None


def _change_rules(loaded: reading.Loaded, fields: MultiDict[str, str],
                  key: write_keys.WriteKey | None) -> writing.Written | None:
    form = HouseRulesForm(formdata=fields, meta={"csrf": False})
    if not form.validate():
        raise _Refused(_form_messages(form.errors, form.form_errors))
    try:
        return writing.change_rules(loaded, form.rules.form.house_rules(loaded.match.rules), None, key=key)
    except ContradictionError as error:
        raise _Refused("The recorded deals contradict these rules: "
                       + "; ".join(f"deal {number}: {text}" for number, text in error.problems) + ".") from None


def _change_meld_prices(loaded: reading.Loaded, fields: MultiDict[str, str],
                        key: write_keys.WriteKey | None) -> writing.Written | None:
    """The meld prices form as its page reads it: the prices typed in, or those its preview showed."""
    if fields.get("preset"):
        raise _Refused("A preset only fills the prices in; it was not applied.")
    form = MeldPricesForm(formdata=fields, meta={"csrf": False})
    if not form.validate():
        raise _Refused(_form_messages(form.errors, form.form_errors))
    table = loaded.match.rules.meld_table
    if form.confirm.data == "yes":
        prices = MeldPrices.from_json(load_json(form.chosen.data or "{}"))
    else:
        prices = form.prices(table)
    return writing.change_rules(loaded, loaded.match.rules.replace(meld_prices=prices), None, key=key)


def _rescale(loaded: reading.Loaded, fields: MultiDict[str, str], key: write_keys.WriteKey | None) -> writing.Written:
    """Rescale the match as it is now (the other entries before this one included)."""
    factor = {"up": Factor.UP, "down": Factor.DOWN}.get(fields.get("factor", ""))
    if factor is None:
        raise _Refused("Tap ×10 or ÷10 to rescale the match.")
    try:
        return writing.rescale_match(loaded, factor, None, key)
    except HouseRuleError as error:
        raise _Refused(f"Rescaling {factor.label} is refused: {error}.") from None


def _undo(loaded: reading.Loaded, change_id: int, key: write_keys.WriteKey | None) -> writing.Written:
    try:
        return writing.undo_rules(loaded, change_id, None, key)
    except HouseRuleError as error:
        raise _Refused(f"That change cannot be undone: {error}.") from None


def _contradiction(error: ContradictionError) -> str:
    return ("The recorded deals contradict this change: "
            + "; ".join(f"deal {number}: {text}" for number, text in error.problems) + ".")


def _stale(loaded: reading.Loaded, stale: writing.StaleEdit, number: int | None) -> tuple[Response, int]:
    """Changed on another phone since the entry was made: the deal as it is now (None when gone)."""
    row, match = reading.load_match(loaded.row.public_id)
    deals = match_to_json(match)["deals"]
    theirs = deals[number - 1] if number is not None and number <= len(deals) else None
    return jsonify({"error": {"code": "stale", "message": stale.message, "current_version": row.version},
                    "theirs": theirs, "version": row.version, "match": match_to_json(match)}), 409


def _number(part: str | None) -> int | None:
    """The deal or rule change a form address names (404 when no match could have it, as at the address)."""
    if part is None:
        return None
    number = path_number(part)
    if number is None:
        abort(404, "This entry names a deal or a change this match does not have.")
    return number


def _refused(status: int, message: str, code: str, field: str | None = None) -> tuple[Response, int]:
    return error_json(status, message, field, code), status


def _key(path: str) -> write_keys.WriteKey | None:
    """The entry's key, tied to the form's address as the form's own key is: the form and its retry here
    are one write."""
    value = request.headers.get(KEY_HEADER, "")
    if not value:
        return None
    if not write_keys.is_write_key(value):
        raise Refused(400, "This entry's key is unreadable.", KEY_HEADER, ProblemCode.WRONG_FORMAT)
    return write_keys.WriteKey.of(value, "POST", path)


def _version(body: dict[str, Any], fields: MultiDict[str, str], number: int | None) -> int | None:
    """The version an edit or delete was made on: the body's (the player chose to apply it on the match as
    it is now) or the form's."""
    if number is None:
        return None
    given = body.get("version")
    if isinstance(given, int) and not isinstance(given, bool):
        return given
    return whole_number_or_none(fields.get("version", ""))


def _form_messages(errors: Any, form_errors: list[str]) -> str:
    """Every message of a form's errors, nested or not, in one line."""
    messages: list[str] = list(form_errors)

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value not in messages:
            messages.append(value)

    walk(errors)
    return " ".join(sentence(message) for message in messages) or "This entry is not complete."


@bp.app_template_global()
def outbox_config(public_id: str) -> dict[str, Any]:
    """What the page's outbox script needs (the ``<meta name="outbox">`` of a match's forms and sheet):
    the match, its addresses, and the hashed addresses of the outbox and of the rules core's twin."""
    return {
        "match": public_id,
        "sheet": url_for("matches.sheet", public_id=public_id),
        "api": url_for("outbox.facts", public_id=public_id),
        "module": url_for("static", filename="outbox.js"),
        "rules": url_for("static", filename="twin.js"),
    }
