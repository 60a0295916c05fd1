"""The director's printables: a card for each table of a round (its number, who sits there, the QR code of its
players' link), the movement sheet (each player's table round by round) and a score slip for each table."""

from __future__ import annotations

from flask import abort, render_template, request

from ...events.loading import entrants, get_event_or_404, round_end, seating_of
from ...models import EventRoundRow, EventRow
from ...rules.events import RoundEndKind
from ...rules.movement import movement_sheet
from ...rules.numbers import whole_number_or_none
from ...sheet.qr import qr_data_uri
from ..links import shared_url
from .blueprint import bp

SLIP_LINES = 12  # deal lines on a slip when the round is not a number of deals


def _round(event: EventRow) -> EventRoundRow:
    """The round asked for (``?round=N``), or the last one seated: 404 before the first."""
    number = whole_number_or_none(request.args.get("round", ""))
    played = [row for row in event.played_rounds if number is None or row.number == number]
    if not played:
        abort(404, "This round has not been seated.")
    return played[-1]


@bp.get("/e/<public_id>/print/cards")
def table_cards(public_id: str) -> str:
    event = get_event_or_404(public_id)
    played = _round(event)
    cards = [(seated, table.match, qr_data_uri(link, f"Table {seated.number}'s players' link"), link)
             for seated, table in zip(seating_of(played).tables, played.tables, strict=True)
             for link in [shared_url("matches.sheet", public_id=table.match.public_id)]]
    return render_template("events/print_cards.html", event=event, played=played, cards=cards)


@bp.get("/e/<public_id>/print/movement")
def movement(public_id: str) -> str:
    event = get_event_or_404(public_id)
    seatings = [seating_of(played) for played in event.played_rounds]
    return render_template("events/print_movement.html", event=event, lines=movement_sheet(entrants(event), seatings),
                           rounds=[seating.round for seating in seatings])


@bp.get("/e/<public_id>/print/slips")
def score_slips(public_id: str) -> str:
    event = get_event_or_404(public_id)
    played = _round(event)
    end = round_end(event)
    lines = end.count if end.kind is RoundEndKind.DEALS and end.count else SLIP_LINES
    return render_template("events/print_slips.html", event=event, played=played, tables=seating_of(played).tables,
                           lines=lines, auction=event.auction)
