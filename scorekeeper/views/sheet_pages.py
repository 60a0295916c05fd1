"""The score sheet's page of one version of a match, drawn once and kept in the sheet cache: the sheet view
sends it, and a deal saved from the sheet's entry panel is answered with its live part (``saved_answer``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import jsonify, render_template, request, url_for
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from ..device import SavedDeal
from ..events.pages import SheetHead, event_place, sheet_head
from ..forms.common import new_write_key
from ..models import MatchRow
from ..rules.match import Match
from ..rules.refusals import NotFound
from ..rules.scoring import offers_throw_in
from ..sheet.cache import (
    DEAD_CONTRACT_SLOT,
    FLASHES_SLOT,
    NEXT_SEATS_SLOT,
    Answer,
    Encoded,
    SheetPage,
    sheet_cache,
    sheet_etag,
    unchanged_headers,
    watch_key,
)
from ..sheet.chart import progression_chart
from ..sheet.chart_svg import chart_svg
from ..sheet.view import SheetView
from ..store import reading

# Where each request's own parts go on the players' page; the watch page has none.
_SLOTS = {"flashes_slot": FLASHES_SLOT, "dead_contract_slot": DEAD_CONTRACT_SLOT, "next_seats_slot": NEXT_SEATS_SLOT}


def sheet_page(public_id: str, version: int, watching: bool = False, watch_id: str = "",
               head: SheetHead | None = None, match: Match | None = None) -> SheetPage:
    """The players' (or watch) page of this version of the match, from the sheet cache or drawn now: from
    ``head`` when this request read it already (else it is read), and from ``match``, the match as a write
    left it, when given (else its sides and deals are read)."""
    key = watch_key(watch_id) if watching else public_id
    return sheet_cache().page(key, version, lambda: _draw_read(head or sheet_head(public_id), match, watching))


def _draw_read(head: SheetHead | None, match: Match | None, watching: bool) -> SheetPage:
    if head is None:
        raise NotFound(None, reading.NOT_FOUND, "There is no match at this link.")
    return _draw(head.match, head.event_table, match if match is not None else reading.facts_of_head(head.match),
                 watching)


def written_head(row: MatchRow) -> SheetHead:
    """The sheet head of a match row as a write left it (its event table read with it)."""
    return SheetHead(reading.head_of(row), None if row.event_table is None else row.event_table.id, None)


def _draw(head: reading.MatchHead, event_table: int | None, match: Match, watching: bool) -> SheetPage:
    """Work out the match's sheet with the rules core and draw the page (with slots), the players' or the
    watch page; ``head`` is the match's own row as plain values, what the page shows of it."""
    public_id = head.public_id
    view = SheetView.of(match)
    chart = progression_chart(view.sheet, view.names, match.rules.target) if view.sheet else None
    links: dict[str, Any]
    if watching:
        # Nothing on the watch page may lead to the players' link.
        links = {"live_url": url_for("matches.watch_live", watch_id=head.watch_id)}
    else:
        links = {
            "live_url": url_for("matches.live", public_id=public_id),
            "edit_url": lambda number: url_for("deals.edit", public_id=public_id, number=number),
            **_SLOTS,
        }
    started = reading.next_match_of(head) if view.winner_name() else None
    html = render_template("matches/sheet.html", head=head, match=match, view=view, watching=watching,
                           place=event_place(event_table), chart=chart_svg(chart) if chart is not None else None,
                           live_etag=sheet_etag(head.version, watching), next_match=started, **links)
    dead = frozenset(number for number in range(1, len(match.deals) + 1) if offers_throw_in(match, number))
    return SheetPage.drawn(head.version, html, view.sheet is not None and view.sheet.ended_at is not None, dead)


def encoded(body: Encoded, etag: str) -> Response:
    """HTML kept in the sheet cache, compressed when the phone accepts it."""
    return sent(body, "text/html", unchanged_headers(etag))


def sent(body: Encoded, mimetype: str, headers: dict[str, str]) -> Response:
    """Bytes kept in the sheet cache, compressed when the client accepts it."""
    headers = headers | {"Vary": "Accept-Encoding"}
    if request.accept_encodings["gzip"]:
        return Response(body.gzipped, mimetype=mimetype, headers=headers | {"Content-Encoding": "gzip"})
    return Response(body.body, mimetype=mimetype, headers=headers)


def kept_answer(key: str, version: int, make: Callable[[], Answer]) -> Response:
    """The answer of ``key`` (its kind and the match's link) at ``version``, from the sheet cache or made now
    by ``make``: a costly answer is worked out once per version, however often it is asked for."""
    answer = sheet_cache().page(key, version, make)
    return sent(answer.body, answer.mimetype, dict(answer.headers))


def saved_answer(loaded: reading.Loaded, saved: SavedDeal | None, dead: int | None,
                 next_deal: dict[str, Any]) -> Response:
    """The answer to a save sent by the sheet's entry panel (static/js/entry/panel.js), as JSON: what the sheet
    shows after it (its live part and ETag, the "saved · Undo" notice, the offer to throw a dead contract
    in) and what the panel's form needs for the next deal (``next_deal``, with the version, whether the match
    is decided and a fresh form token). The phone asks nothing more. ``loaded`` is the match as the write left
    it."""
    row = loaded.row
    page = sheet_page(row.public_id, row.version, head=written_head(row), match=loaded.match)
    notices = render_template("matches/_saved.html", saved=saved, version=page.version,
                              write_key=new_write_key()) if saved is not None else ""
    offer = render_template("matches/_dead_contract.html", public_id=row.public_id, version=page.version,
                            number=dead, write_key=new_write_key()) if dead is not None else ""
    answer = jsonify({
        "saved": saved.number if saved is not None else None, "etag": sheet_etag(page.version),
        "live": page.live.body.decode(), "notices": notices, "dead_contract": offer,
        "next_deal": next_deal | {"version": page.version, "csrf_token": generate_csrf(),
                                  "decided": page.decided},
    })
    answer.headers["Cache-Control"] = "no-store"  # a form token and write keys: never kept
    return answer
