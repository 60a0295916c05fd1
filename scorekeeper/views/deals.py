"""Entering, correcting and deleting deals."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..device import SavedDeal, entry_mode, note_entry_mode, note_saved, players_only, remember_match
from ..extensions import rate_limited
from ..forms.common import new_write_key, sentence
from ..forms.deals import DETAIL, QUICK, DealForm, deal_form_data, meld_lines
from ..forms.meld import own_price_groups
from ..models import MatchRow
from ..rules.combinations import Combination
from ..rules.errors import ContradictionError, MatchFileError, RulesError
from ..rules.house_rules import HouseRules, TrickScale
from ..rules.match import Match, SideTotal
from ..rules.numbers import whole_number_or_none
from ..rules.rotation import next_dealer
from ..rules.scoring import offers_throw_in, score_match
from ..rules.text import load_json
from ..rules.tricks import deck_card_points, trick_total
from ..sheet.deal_preview import WAITING, DealPreview, meld_totals, preview, preview_sides
from ..store import describe, history, reading, write_keys, writing
from . import replay
from .errors import request_wants_json
from .sheet_pages import saved_answer
from .write_keys import key_reused_page, sent_write_key

bp = Blueprint("deals", __name__, url_prefix="/m/<public_id>/deals")
ENTRY_PANEL = "X-Entry-Panel"  # sent with the saves of the sheet's entry panel: answered with the sheet's part
LIKELY_BIDS = 4  # recent distinct bids offered beside the minimum
bp.before_request(players_only)  # opening a deal form at the players' link gives the right, as the sheet does


@bp.route("/new", methods=["GET", "POST"])
@rate_limited("costly-read")
def new(public_id: str) -> str | Response | tuple[str | Response, int]:
    loaded = reading.load_match(public_id)
    row, match = loaded
    if request.method == "GET":
        remember_match(public_id)
        form = _setup(DealForm(data=_new_deal_data(match) | {"version": row.version}), row, match)
        _prefill_from_meld_calculator(form)
        return _render(loaded, form, None)
    if request_wants_json():  # a form the phone kept offline (views/replay.py)
        return replay.replay(public_id, replay.save_deal(None))
    return _save(loaded, _setup(DealForm(), row, match), None)


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@rate_limited("costly-read")
def edit(public_id: str, number: int) -> str | Response | tuple[str | Response, int]:
    loaded = reading.load_match(public_id)
    row, match = loaded
    if request.method == "POST" and not 1 <= number <= len(match.deals) and not request_wants_json():
        moved = _moved(row, number, request.form.get("deal"))  # the last deal, moved up by a delete before it
        if moved is not None:
            return _moved_page(moved)
    reading.core_deal_or_404(match, number)  # the facts say whether it is there: the rows need not be read
    if request.method == "GET":
        remember_match(public_id)
        deal = reading.get_deal_or_404(row, number)
        data = deal_form_data(reading.deal_json(deal)) | {"version": row.version, "deal": deal.id}
        form = _setup(DealForm(data=data), row, match)
        _prefill_from_meld_calculator(form)
        return _render(loaded, form, number)
    if request_wants_json():
        return replay.replay(public_id, replay.save_deal(number), number)
    return _save(loaded, _setup(DealForm(), row, match), number)


@bp.post("/preview", defaults={"number": None})
@bp.post("/<int:number>/preview")
def preview_deal(public_id: str, number: int | None) -> Response:
    """What the deal in the form would score, read-only: each side's line and meld total (JSON for the
    form's script). A deal not yet complete answers ``ready: false`` with a hint, not an error."""
    loaded = reading.load_match(public_id)
    if number is not None:
        reading.get_deal_or_404(loaded.row, number)
    return jsonify(_preview(loaded, _setup(DealForm(), *loaded), number).to_json())


@bp.route("/<int:number>/delete", methods=["GET", "POST"])
@rate_limited("costly-read")
def delete(public_id: str, number: int) -> str | Response | tuple[str | Response, int]:
    loaded = reading.load_match(public_id)
    row = loaded.row
    error = None
    if request.method == "GET":
        reading.get_deal_or_404(row, number)
        remember_match(public_id)
    elif request_wants_json():
        reading.get_deal_or_404(row, number)
        return replay.replay(public_id, replay.delete_deal(number), number)
    else:  # a deal already gone is found by the write: a repeat of this form's delete is no error
        try:
            writing.delete_deal(loaded, number, _version(), sent_write_key())
        except writing.StaleEdit as stale:
            error = stale.message  # the match as it is now: the deal may have moved or be gone
            if number > len(row.deals):
                return render_template("errors/error.html", status=409, title="Deal already gone",
                                       message=error), 409
        else:
            flash(f"Deal {number} was deleted. Changes · undo, below the sheet, puts it back and keeps its history.",
                  "info")
            return redirect(url_for("matches.sheet", public_id=public_id))
    return render_template("deals/delete.html", row=row, number=number, error=error, write_key=new_write_key(),
                           facts=describe.describe_deal(row, row.deals[number - 1])), 409 if error else 200


@bp.post("/<int:number>/throw-in")
def throw_in(public_id: str, number: int) -> Response | tuple[Response, int]:
    """Record a dead contract as thrown in (the one-tap offer on the score sheet)."""
    loaded = reading.load_match(public_id)
    reading.get_deal_or_404(loaded.row, number)
    if request_wants_json():
        return replay.replay(public_id, replay.throw_in(number), number)
    try:
        writing.throw_in(loaded, number, _version(), sent_write_key())
    except writing.StaleEdit as stale:
        flash(stale.message + f" Deal {number} was left as it is.", "error")
    except RulesError as error:
        flash(f"Deal {number} cannot be thrown in: {error}", "error")
    else:
        flash(f"Deal {number} is recorded as thrown in.", "info")
    return redirect(url_for("matches.sheet", public_id=public_id, _anchor=f"deal-{number}"))


@bp.post("/<int:number>/undo")
def undo(public_id: str, number: int) -> Response:
    """Take back the deal this phone just added, as the match's last change is undone: only while the match
    is still as the save left it (its version), so a deal added or changed on another phone since is never
    lost by it."""
    loaded = reading.load_match(public_id)
    version = _version()
    if version == loaded.row.version and not _entered_last(loaded.row, number):
        abort(400, "Only the last deal can be taken back; tap the deal's number on the sheet to delete it.")
    try:
        writing.undo_last(loaded, version or 0, sent_write_key())
    except writing.NothingToUndo as nothing:
        flash(f"Deal {number} was not removed: {nothing}", "error")
    except writing.StaleEdit:
        flash(f"Deal {number} was not removed: since it was saved, {loaded.row.last_change} on another "
              f"phone. To remove it all the same, tap its number on the sheet and delete it.", "error")
    else:
        flash(f"Deal {number} was removed.", "info")
    return redirect(url_for("matches.sheet", public_id=public_id))


def _entered_last(row: MatchRow, number: int) -> bool:
    """Whether the match's last change is the entry of deal ``number``."""
    last = history.last_change(row)
    return last is not None and last.deal is not None and last.deal.before is None and last.deal.number == number


@bp.errorhandler(write_keys.KeyReused)
def _key_reused(error: write_keys.KeyReused) -> tuple[str, int]:
    return key_reused_page()


def _save(loaded: reading.Loaded, form: DealForm, number: int | None) -> str | Response | tuple[str, int]:
    row, match = loaded
    form.validate()
    data = form.to_deal_json(match.auction)
    status = 422
    if data is not None:
        try:
            if number is None:
                written = writing.add_deal(loaded, data, _version(), sent_write_key())
            else:
                written = writing.replace_deal(loaded, number, data, _version(), sent_write_key())
        except writing.StaleEdit as stale:
            moved = _moved(row, number, form.deal.data) if number is not None else None
            if moved is not None:  # the deal at this number is another now: not to be saved over
                return _moved_page(moved)
            form.form_errors.append(stale.message + " Check the deal and save again to keep yours.")
            form.version.data = str(stale.current_version)
            if number is None:  # the deal comes after the one added meanwhile: dealt by the next player
                form.dealt_by.data = next_dealer(match) or ""
            status = 409
            if number is not None and number > len(row.deals):  # the deal being edited is gone
                return render_template("errors/error.html", status=409, title="Deal already gone",
                                       message=stale.message), status
        except MatchFileError as error:
            form.place_problem(error.problem)
        except writing.InvalidDeal as error:
            for problem in error.problems:
                form.place_problem(problem)
        else:
            if not form.passed.data:  # the way of entry this phone chose: its next new deal starts so
                note_entry_mode(form.mode.data if form.mode.data in (QUICK, DETAIL) else QUICK)
            if request.headers.get(ENTRY_PANEL):
                return _panel_answer(written, added=number is None)
            return redirect(_after_save(written, added=number is None))
    return _render(loaded, form, number, invalid=True), status


def _moved(row: MatchRow, number: int, drawn: str | None) -> str | None:
    """Why a correction of deal ``number`` is not saved there, when the deal its form was drawn for (``drawn``: its
    row id) is no longer at that number, deleted or moved up by a delete before it; None when it is."""
    deal_id = whole_number_or_none(drawn or "")
    if deal_id is None:  # a form drawn before forms said which deal they correct
        return None
    now = next((at for at, deal in enumerate(row.deals, start=1) if deal.id == deal_id), None)
    if now == number:
        return None
    if now is None:
        return f"While you were typing, deal {number} was deleted on another phone. Nothing was saved."
    return (f"While you were typing, a deal before it was deleted on another phone: deal {number} is now deal "
            f"{now}. Nothing was saved; open deal {now} on the sheet to correct it.")


def _moved_page(message: str) -> tuple[str, int]:
    return render_template("errors/error.html", status=409, title="Deal moved", message=message), 409


def _after_save(written: writing.Written, added: bool) -> str:
    """The sheet, at its top: the totals and the saved deal (highlighted, with "saved · Undo") in view.
    A repeat of the save lands where the first one did."""
    public_id = written.row.public_id
    saved = _saved(written, added)
    if saved is None:
        return url_for("matches.sheet", public_id=public_id)
    note_saved(saved)
    if offers_throw_in(written.match, saved.number):
        return url_for("matches.sheet", public_id=public_id, dead=saved.number, _anchor="dead-contract")
    return url_for("matches.sheet", public_id=public_id)


def _panel_answer(written: writing.Written, added: bool) -> Response:
    """The sheet after a save from its entry panel, and the next deal's starting values for the panel's form."""
    match = written.match
    saved = _saved(written, added)
    dead = saved.number if saved is not None and offers_throw_in(match, saved.number) else None
    next_deal = _new_deal_data(match) | {"number": len(match.deals) + 1,
                                         "likely_bids": _likely_bids(match)}
    return saved_answer(reading.Loaded(written.row, match), saved, dead, next_deal)


def _saved(written: writing.Written, added: bool) -> SavedDeal | None:
    """The deal a save left, or None for a repeat of a save whose deal has gone since."""
    number = written.number or 0
    if not 1 <= number <= len(written.match.deals):
        return None
    return SavedDeal(written.row.public_id, number, written.version or written.row.version, added)


def _version() -> int | None:
    version = whole_number_or_none(request.form.get("version", ""))
    if version is None:
        abort(400, "This form is missing the match version; reload the page and try again.")
    return version


def _setup(form: DealForm, row: MatchRow, match: Match) -> DealForm:
    """The form for this match's sides, from its facts (its side rows need not be read)."""
    return form.setup([side.shown_name for side in match.sides], meld_lines(match),
                      [list(side.players) for side in match.sides], min_bid=match.rules.min_bid)


def _new_deal_data(match: Match) -> dict[str, Any]:
    """A new deal starts with an empty bid, in the way this phone entered its last deal (else the way the
    match's last deal was entered)."""
    played = [deal for deal in match.deals if not deal.passed]
    quick = not played or all(isinstance(side, SideTotal) for side in played[-1].sides)
    return {"mode": entry_mode() or (QUICK if quick else DETAIL), "dealt_by": next_dealer(match) or ""}


def _likely_bids(match: Match) -> list[int]:
    """One-tap bids: the minimum opening bid and this match's last few distinct bids, low to high (none
    without an auction)."""
    if not match.auction:
        return []
    recent: list[int] = []
    for deal in reversed(match.deals):
        if deal.bid is not None and deal.bid not in recent and deal.bid != match.rules.min_bid:
            recent.append(deal.bid)
        if len(recent) == LIKELY_BIDS:
            break
    return sorted([match.rules.min_bid, *recent])


def _prefill_from_meld_calculator(form: DealForm) -> None:
    """The meld calculator sends one hand back with its sets: ``?side=1&player=0&sets=run:1,pinochle:1``.
    Only that hand's line takes them; a partner's line keeps its meld."""
    side, sets = whole_number_or_none(request.args.get("side", "")), request.args.get("sets", "")
    hand = whole_number_or_none(request.args.get("player", "0"))
    if side is None or side >= len(form.sides) or not sets or hand is None:
        return
    entry = form.entries()[side]
    if hand >= len(entry.hands):
        return
    counts = dict(part.split(":", 1) for part in sets.split(",") if ":" in part)
    line = entry.hand_forms()[hand]
    for combination in Combination:
        count = whole_number_or_none(counts.get(combination.value, "0"))
        line.sets.form[combination.value].data = str(count or 0)
    line.meld.data = ""
    line.kept.data = ""
    form.mode.data = DETAIL
    trump = request.args.get("trump", "")
    if trump in ("S", "H", "D", "C"):
        form.trump.data = trump


def _render(loaded: reading.Loaded, form: DealForm, number: int | None, invalid: bool = False) -> str:
    row, match = loaded
    rules = match.rules
    deal = row.deals[number - 1] if number is not None else None
    scale = TrickScale(deal.trick_scale) if deal is not None else rules.trick_scale
    # A stored deal is previewed at once; a new or refused one when scripts ask (its fields are incomplete).
    shown = (_preview(loaded, form, number) if number is not None and request.method == "GET"
             else DealPreview(False, (WAITING,), _meld_totals(loaded, form, number)))
    return render_template(
        "deals/form.html", row=row, match=match, form=form, number=number,
        card_points=deck_card_points(rules.deck, scale), trick_total=trick_total(rules),
        combinations=[c for c in Combination if c.possible_in(rules.deck)],
        next_number=len(row.deals) + 1, describe=_describe_kept,
        cards_breakdown=lambda raw: _cards_breakdown(raw, form.trump.data or "", rules),
        decided_at=_decided_at(match), invalid=invalid,
        meld_link=lambda side, hand: url_for("meld.calculator", match=row.public_id, side=side, player=hand,
                                             deal=number),
        likely_bids=_likely_bids(match), preview=shown,
        preview_url=url_for("deals.preview_deal", public_id=row.public_id, number=number),
        own_price_groups=own_price_groups(rules) if rules.meld_prices else None,
    )


def _preview(loaded: reading.Loaded, form: DealForm, number: int | None) -> DealPreview:
    """The deal in the form worked out by the rules core on the match, or why it cannot be yet."""
    melds = _meld_totals(loaded, form, number)
    data = form.to_deal_json(loaded.match.auction)
    if data is None:
        return DealPreview(False, (WAITING,), melds)
    try:
        after, at = writing.with_deal(loaded, data, number)
    except writing.InvalidDeal as invalid:
        return DealPreview(False, (sentence(invalid.problems[0].message),), melds)
    except RulesError as error:
        return DealPreview(False, (sentence(error.problem.message),), melds)
    return preview(after, at, preview_sides(loaded.match), melds)


def _meld_totals(loaded: reading.Loaded, form: DealForm, number: int | None) -> tuple[int | None, ...]:
    entered_under = reading.deal_json(loaded.row.deals[number - 1]).get("entered_under") if number else None
    return meld_totals(loaded.match, form.side_melds(), form.trump.data or "", entered_under)


def _decided_at(match: Match) -> int | None:
    """The deal that decided the match, if it is decided."""
    try:
        return score_match(match).ended_at
    except ContradictionError:
        return None


def _cards_breakdown(raw: str, trump: str, rules: HouseRules) -> str | None:
    """A hand kept as its cards: each meld found and its value on the match's meld table (None: not cards)."""
    try:
        return describe.describe_cards(load_json(raw), trump, rules)
    except RulesError:
        return None


def _describe_kept(raw: str) -> str:
    try:
        return describe.describe_fact(load_json(raw))
    except RulesError:
        return "unreadable"
