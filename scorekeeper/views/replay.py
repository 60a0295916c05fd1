"""A kept form replayed to its own address: the outbox's sends (static/js/offline/sync.js).

A phone that loses its signal keeps each deal form, delete, throw-in, house-rule and meld-price change,
rescale and undo it sends, and sends each later to the address it was posted to, with its fields, its key
as ``Idempotency-Key`` and ``Accept: application/json``. The form's own view, seeing the request wants JSON
(``errors.wants_json``), answers with ``replay``: the form read as the page reads it, the write done once
by its key (a form that did reach the server, and a retry whose answer was lost, are answered with the
first write's result), and the answer in JSON: the match as it is then, or why the entry was refused.

The phone's right to change the match is the device cookie, as for the forms; the CSRF token is sent as a
header (a fresh one from the outbox's ``facts``: a page kept for hours holds an expired one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import jsonify, request
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from ..forms.common import sentence
from ..forms.deals import DealForm, meld_lines
from ..forms.house_rules import HouseRulesForm
from ..forms.meld_prices import MeldPricesForm
from ..rules.errors import ContradictionError, HouseRuleError, MatchFileError, RulesError
from ..rules.matchfile import match_to_json
from ..rules.meld_prices import MeldPrices
from ..rules.numbers import whole_number_or_none
from ..rules.problems import ProblemCode
from ..rules.rescale import Factor
from ..rules.text import load_json
from ..store import reading, write_keys, writing
from ..store.history import rules_at
from .errors import KEY_REUSED, NOTHING_TO_UNDO, Refused, error_json

KEY_HEADER = "Idempotency-Key"
NOT_VALID = "not_valid"  # the entry as its form would read it is not complete or not right: the message says why

Write = Callable[[reading.Loaded, MultiDict[str, str], write_keys.WriteKey | None], "writing.Written | None"]


def replay(public_id: str, write: Write, number: int | None = None) -> tuple[Response, int]:
    """Do the kept write ``write`` on the match with the request's fields and key; ``number``: the deal an
    edit, delete or throw-in names (its version is the form's)."""
    fields = MultiDict(request.form)
    key = _key()
    loaded = reading.load_match(public_id)
    try:
        written = write(loaded, fields, key)
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


def save_deal(number: int | None) -> Write:
    """A deal form's save (``number``: the deal corrected; None: a new deal, appended whatever came between)."""
    def write(loaded: reading.Loaded, fields: MultiDict[str, str],
              key: write_keys.WriteKey | None) -> writing.Written:
        return _save_deal(loaded, fields, number, _version(fields, number), key)
    return write


def delete_deal(number: int) -> Write:
    def write(loaded: reading.Loaded, fields: MultiDict[str, str],
              key: write_keys.WriteKey | None) -> writing.Written:
        return writing.delete_deal(loaded, number, _version(fields, number), key)
    return write


def throw_in(number: int) -> Write:
    def write(loaded: reading.Loaded, fields: MultiDict[str, str],
              key: write_keys.WriteKey | None) -> writing.Written:
        return writing.throw_in(loaded, number, _version(fields, number), key)
    return write


def undo(change_id: int) -> Write:
    def write(loaded: reading.Loaded, fields: MultiDict[str, str],
              key: write_keys.WriteKey | None) -> writing.Written:
        return _undo(loaded, change_id, key)
    return write


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


def change_rules(loaded: reading.Loaded, fields: MultiDict[str, str],
                  key: write_keys.WriteKey | None) -> writing.Written | None:
    """The rules the player changed on the form, each set as typed; the others stay as they are now (another
    phone may have changed them since the form's page was drawn, at its ``version``)."""
    form = HouseRulesForm(formdata=fields, meta={"csrf": False})
    if not form.validate():
        raise _Refused(_form_messages(form.errors, form.form_errors))
    current = loaded.match.rules
    typed = form.rules.form.house_rules(current)
    drawn_at = whole_number_or_none(fields.get("version", ""))
    shown = current if drawn_at is None else rules_at(loaded.row, current, drawn_at)
    if shown is None:
        raise _Refused("The match was rescaled since these rules were typed: open the house rules and change "
                       "them again.")
    values = typed.to_mapping(complete=True)
    rules = current.replace(**{rule: values[rule] for rule in shown.differences(typed)})
    try:
        return writing.change_rules(loaded, rules, None, key=key)
    except ContradictionError as error:
        raise _Refused("The recorded deals contradict these rules: "
                       + "; ".join(f"deal {number}: {text}" for number, text in error.problems) + ".") from None


def change_meld_prices(loaded: reading.Loaded, fields: MultiDict[str, str],
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


def rescale(loaded: reading.Loaded, fields: MultiDict[str, str], key: write_keys.WriteKey | None) -> writing.Written:
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


def _refused(status: int, message: str, code: str, field: str | None = None) -> tuple[Response, int]:
    return error_json(status, message, field, code), status


def _key() -> write_keys.WriteKey | None:
    """The entry's key, tied to the form's address as the form's own key is: the form and its replay are one
    write."""
    value = request.headers.get(KEY_HEADER, "")
    if not value:
        return None
    if not write_keys.is_write_key(value):
        raise Refused(400, "This entry's key is unreadable.", KEY_HEADER, ProblemCode.WRONG_FORMAT)
    return write_keys.WriteKey.of(value, "POST", request.path)


def _version(fields: MultiDict[str, str], number: int | None) -> int | None:
    """The version an edit or delete was made on (the phone puts the match's version in when the player
    chose to apply it on the match as it is now)."""
    if number is None:
        return None
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
