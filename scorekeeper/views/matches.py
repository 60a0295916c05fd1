"""Home (this device's matches), starting a match, and the score sheet."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import (
    Blueprint,
    abort,
    current_app,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from .. import tables
from ..device import (
    NOT_A_PLAYER,
    device_event_ids,
    device_match_ids,
    device_table_ids,
    forget_match,
    may_change,
    phone_name,
    remember_match,
    take_saved,
)
from ..events.pages import events_by_public_id, sheet_head
from ..extensions import rate_limited
from ..forms.common import new_write_key
from ..forms.house_rules import rule_values
from ..forms.matches import NewMatchForm
from ..rules.house_rules import PRESETS, PRESETS_BY_KEY
from ..rules.match import Match, SideInfo
from ..rules.numbers import whole_number_or_none
from ..rules.rotation import seat_order
from ..samples import bundled_samples
from ..sheet.cache import SheetPage, sheet_etag, unchanged_headers
from ..sheet.qr import qr_svg
from ..sheet.view import SheetView
from ..store import reading, write_keys, writing
from .links import fixed_url, shared_url
from .sheet_pages import encoded, sheet_page
from .write_keys import sent_write_key

bp = Blueprint("matches", __name__)


@bp.get("/")
def home() -> str:
    summaries = []
    for row in reading.matches_by_public_id(device_match_ids()):
        match = reading.to_core(row)
        summaries.append((row, SheetView.of(match), match))
    samples = [] if summaries else list(bundled_samples().values())
    return render_template("matches/home.html", summaries=summaries, samples=samples,
                           tables=tables.tables_by_public_id(device_table_ids()),
                           events=events_by_public_id(device_event_ids()))


@bp.route("/matches/new", methods=["GET", "POST"])
@rate_limited("create-match")
def new() -> str | Response:
    if request.method == "GET":
        preset = PRESETS_BY_KEY.get(request.args.get("preset", ""), PRESETS[0])
        form = NewMatchForm.for_preset(preset)
    else:
        form = NewMatchForm()
        form.settle_preset()
        if form.validate():
            row = writing.create_match(_match_from_form(form))
            remember_match(row.public_id)
            return redirect(url_for("matches.invite", public_id=row.public_id))  # a new match opens on inviting
    preset_data = {
        preset.key: {"rules": rule_values(preset.rules), "sides": list(preset.side_names)} for preset in PRESETS
    }
    return render_template("matches/new.html", form=form, presets_by_key=PRESETS_BY_KEY,
                           preset_data=preset_data)


def _match_from_form(form: NewMatchForm) -> Match:
    preset = form.chosen_preset()
    sides = tuple(
        SideInfo(name=(entry.name.data or "").strip() or default, players=entry.player_names())
        for entry, default in zip(form.side_entries(), preset.side_names, strict=True)
    )
    day = form.naming_date(datetime.now(UTC).date())
    name = (form.name.data or "").strip() or tables.default_match_name(sides, day)
    return Match(sides=sides, rules=form.rules.form.house_rules(), name=name, auction=preset.auction)


@bp.get("/m/<public_id>")
def sheet(public_id: str) -> Response:
    """The score sheet: 304 to a phone showing the current version, else the page of that version (at a
    club event's table whose next round is seated, with where its players sit then: never a 304)."""
    head = sheet_head(public_id)
    if head is None:
        abort(404, "There is no match at this link.")
    version, next_seats = head.match.version, head.next_seats
    remember_match(public_id)
    if current_app.config.get("WTF_CSRF_ENABLED", True) and current_app.config.get(
            "WTF_CSRF_FIELD_NAME", "csrf_token") not in session:
        # The form token's secret is in the session before the phone's worker fetches the match's kit side by
        # side: pages answered together would each make a secret of their own, and the last cookie would win.
        # The page itself carries no token, so a session holding its secret already needs nothing signed.
        generate_csrf()
    flashes = get_flashed_messages(with_categories=True)
    saved = take_saved(public_id)
    offer = bool(request.query_string) and "dead" in request.args
    etag = sheet_etag(version)
    if not flashes and not saved and not offer and next_seats is None and request.if_none_match.contains_weak(etag):
        return Response(status=304, headers=unchanged_headers(etag))
    page = sheet_page(public_id, version, head=head)
    dead = _dead_contract_offer(page) if offer else None
    if not flashes and not saved and dead is None and next_seats is None:  # the same page for every phone
        return encoded(page.page, sheet_etag(page.version))
    notices = render_template("matches/_saved.html", saved=saved, version=page.version,
                              write_key=new_write_key()) if saved else ""
    html = page.filled(
        flashes=notices + (render_template("_flashes.html") if flashes else ""),
        dead_contract="" if dead is None else render_template(
            "matches/_dead_contract.html", public_id=public_id, version=page.version, number=dead,
            write_key=new_write_key()),
        changed_row=saved.number if saved is not None and saved.version == page.version else None,
        next_seats="" if next_seats is None else render_template("events/_next_seats.html", next=next_seats),
    )
    # A one-time message or a form with this session's token: never kept, never shown again.
    return Response(html, mimetype="text/html", headers={"Cache-Control": "no-store"})


@bp.get("/m/<public_id>/live")
def live(public_id: str) -> Response:
    """The live part of the sheet, asked every few seconds by every phone showing it, with the ETag of
    the version it shows: 304 while that is the current one."""
    version = reading.match_version(public_id)
    if version is None:
        abort(404, "There is no match at this link.")
    etag = sheet_etag(version)
    if request.if_none_match.contains_weak(etag):
        return Response(status=304, headers=unchanged_headers(etag))
    page = sheet_page(public_id, version)
    return encoded(page.live, sheet_etag(page.version))


@bp.get("/m/<public_id>/rematch")
def next_match(public_id: str) -> Response:
    """The form that starts the next match (``rematch``), with this phone's token and key: never kept. Once
    another phone has started it, the next match itself."""
    if not may_change(public_id):
        abort(403, NOT_A_PLAYER)
    row = reading.get_match_or_404(public_id)
    started = reading.next_match_of(row)
    if started is not None:
        return _opened(started.public_id)
    match = reading.to_core(row)
    html = render_template("matches/rematch.html", row=row, table=tables.table_of(row), write_key=new_write_key(),
                           can_rotate=len(seat_order(match.sides)) > 2)
    return Response(html, mimetype="text/html", headers={"Cache-Control": "no-store"})


@bp.post("/m/<public_id>/rematch")
@rate_limited("create-match")
def rematch(public_id: str) -> Response:
    """Start the next match with the same sides, players and house rules in force (at the same table,
    if any), kept on this phone as any match it starts; ``partners=rotate`` seats the players in new
    partnerships. Offered on a decided match's sheet (``next_match``). A match has one next match: sent
    from another phone at the same moment or later, the form opens the one the first send started, as it
    does sent again (the form's key)."""
    if not may_change(public_id):
        abort(403, NOT_A_PLAYER)
    key = sent_write_key("no match was started")
    row, match = reading.load_match(public_id)
    try:
        started = writing.start_next_match(
            row, tables.next_match(row.name, match, rotate=request.form.get("partners") == "rotate"), key,
            started_by=phone_name())
    except write_keys.KeyReused:
        message = "This form was sent before with another request, so no match was started. Reload the page."
        return Response(render_template("errors/error.html", status=422, title="Form sent twice", message=message),
                        status=422, mimetype="text/html")
    return _opened(started.row.public_id)


def _opened(public_id: str) -> Response:
    """Keep the match on this phone and go to its sheet."""
    remember_match(public_id)
    return redirect(url_for("matches.sheet", public_id=public_id))


@bp.get("/w/<watch_id>")
def watch(watch_id: str) -> Response:
    """The watch link: the score sheet to look at, with nothing on it that leads to the players' link or
    the edit token. It gives this phone no right to change the match and is not added to its list."""
    return _watched(watch_id, live=False)


@bp.get("/w/<watch_id>/live")
def watch_live(watch_id: str) -> Response:
    """The live part of the watch page (see ``live``)."""
    return _watched(watch_id, live=True)


def _watched(watch_id: str, live: bool) -> Response:
    found = reading.watched_match(watch_id)
    if found is None:
        abort(404, "There is no match at this link.")
    public_id, version = found
    etag = sheet_etag(version, watching=True)
    if request.if_none_match.contains_weak(etag):
        return Response(status=304, headers=unchanged_headers(etag))
    page = sheet_page(public_id, version, watching=True, watch_id=watch_id)
    return encoded(page.live if live else page.page, sheet_etag(page.version, watching=True))


QR_LINKS = {
    "players": ("matches.sheet", "Players' link: opens this match and lets the phone enter deals"),
    "watch": ("matches.watch", "Watch link: shows the score sheet only"),
}


@bp.get("/m/<public_id>/qr/<which>.svg")
def qr(public_id: str, which: str) -> Response:
    """The QR code of the match's players' or watch link (``QR_LINKS``), drawn as SVG. Kept by the phone
    for a day: the link never changes, only the address the app is reached at might."""
    if which not in QR_LINKS:
        abort(404, "There is no such link.")
    header = reading.get_match_or_404(public_id)
    endpoint, title = QR_LINKS[which]
    link = shared_url(endpoint, public_id=public_id) if which == "players" else \
        shared_url(endpoint, watch_id=header.watch_id)
    return Response(qr_svg(link, title), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=86400", "Vary": "Host"})


@bp.get("/m/<public_id>/invite")
def invite(public_id: str) -> str:
    """Inviting the table: the players' link to share, its QR code shown, and the way on to the sheet."""
    row = reading.get_match_or_404(public_id)
    remember_match(public_id)
    return render_template("matches/invite.html", row=row, sheet_url=url_for("matches.sheet", public_id=public_id),
                           players_link=fixed_url("matches.sheet", public_id=public_id),
                           watch_link=fixed_url("matches.watch", watch_id=row.watch_id))


@bp.get("/m/<public_id>/api")
def api_access(public_id: str) -> Response:
    """The match's edit token for programs: never cached anywhere, nor drawn into the cached sheet."""
    row = reading.get_match_or_404(public_id)
    remember_match(public_id)
    html = render_template("matches/api_access.html", row=row)
    return Response(html, mimetype="text/html", headers={"Cache-Control": "no-store"})


def _dead_contract_offer(page: SheetPage) -> int | None:
    """The deal just saved (``?dead=N``) when its contract was dead and it was not thrown in."""
    number = whole_number_or_none(request.args.get("dead", ""))
    return number if number in page.dead_contracts else None


@bp.get("/m/<public_id>/more")
@rate_limited("costly-read")
def more(public_id: str) -> str:
    """Export, import, the API and this device's list: what a match needs now and then, off the sheet."""
    row, match = reading.load_match(public_id)
    remember_match(public_id)
    return render_template("matches/more.html", row=row, has_sheet=SheetView.of(match).sheet is not None,
                           table=tables.table_of(row))


@bp.route("/m/<public_id>/forget", methods=["GET", "POST"])
def forget(public_id: str) -> str | Response:
    """Remove a match from this device's list (the match itself stays at its link)."""
    if request.method == "POST":
        forget_match(public_id)
        return redirect(url_for("matches.home"))
    return render_template("matches/forget.html", row=reading.get_match_or_404(public_id))
