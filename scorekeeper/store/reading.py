"""Reading a match: its row by its link, and the rules core's facts made from its rows."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from sqlalchemy import Connection, Text, bindparam, cast, inspect, select
from sqlalchemy.orm import Session

from ..db import get_session
from ..extensions import note_deals_read
from ..models import Base, DealRow, MatchRow
from ..rules.house_rules import HouseRules
from ..rules.match import Deal, Match
from ..rules.matchfile import DEAL_TEXT_KEYS, FORMAT, auction_to_json, match_from_json
from ..rules.refusals import NotFound


class Loaded(NamedTuple):
    """A match as this request read it: its row and the rules core's facts."""

    row: MatchRow
    match: Match


_PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_public_id(public_id: str) -> bool:
    """Whether ``public_id`` could be a link: anything else (a NUL, which PostgreSQL cannot take, very
    long or non-ASCII text) is no match, and the database is not asked."""
    return _PUBLIC_ID.fullmatch(public_id) is not None


NOT_FOUND = "not_found"  # the code of a link or a deal number that leads to nothing


_BY_LINK = select(MatchRow).where(MatchRow.public_id == bindparam("link"))  # made once, its link bound per look


def find_match(public_id: str) -> MatchRow | None:
    """The match with this link, or None."""
    if not is_public_id(public_id):
        return None
    return get_session().scalars(_BY_LINK, {"link": public_id}).first()


def get_match_or_404(public_id: str) -> MatchRow:
    """The match with this link; ``NotFound`` when there is none."""
    row = find_match(public_id)
    if row is None:
        raise NotFound(None, NOT_FOUND, "There is no match at this link.")
    return row


def load_match(public_id: str) -> Loaded:
    """The match row and its facts for the rules core (404 when the link is unknown)."""
    row = get_match_or_404(public_id)
    return Loaded(row, to_core(row))


# Asked by every look at a sheet: plain Core statements on the session's connection, no ORM objects.
_MATCH = Base.metadata.tables["match"]
_VERSION = select(_MATCH.c.version).where(_MATCH.c.public_id == bindparam("link"))
_WATCHED = select(_MATCH.c.public_id, _MATCH.c.version).where(_MATCH.c.watch_id == bindparam("link"))


def match_version(public_id: str) -> int | None:
    """The current version of a match (None for an unknown link): one indexed SELECT of one column."""
    if not is_public_id(public_id):
        return None
    version: int | None = get_session().connection().execute(_VERSION, {"link": public_id}).scalar()
    return version


def watched_match(watch_id: str) -> tuple[str, int] | None:
    """The players' link and current version of the match with this watch link, or None."""
    if not is_public_id(watch_id):
        return None
    found = get_session().connection().execute(_WATCHED, {"link": watch_id}).first()
    return None if found is None else (found.public_id, found.version)


def matches_by_public_id(public_ids: Iterable[str]) -> list[MatchRow]:
    """The matches with these links, in the order given; unknown links are skipped."""
    wanted = [public_id for public_id in public_ids if is_public_id(public_id)]
    if not wanted:
        return []
    rows = get_session().scalars(select(MatchRow).where(MatchRow.public_id.in_(wanted))).all()
    by_id = {row.public_id: row for row in rows}
    return [by_id[public_id] for public_id in wanted if public_id in by_id]


def next_match_of(finished: MatchRow | MatchHead) -> MatchRow | None:
    """The match started as ``finished``'s next match, if there is one."""
    return get_session().scalars(select(MatchRow).where(MatchRow.follows_id == finished.id)).first()


def get_deal_or_404(row: MatchRow, number: int) -> DealRow:
    if not 1 <= number <= len(row.deals):
        raise NotFound(None, NOT_FOUND, f"This match has no deal {number}.")
    return row.deals[number - 1]


def core_deal_or_404(match: Match, number: int) -> Deal:
    """Deal ``number`` of the facts (``NotFound`` when the match has no such deal)."""
    if not 1 <= number <= len(match.deals):
        raise NotFound(None, NOT_FOUND, f"This match has no deal {number}.")
    return match.deals[number - 1]


def rules_of(row: MatchRow) -> HouseRules:
    """The match's house rules as stored (values a later release may refuse from a client still read)."""
    return HouseRules.from_mapping(row.rules, stored=True)


class MatchHead(NamedTuple):
    """A match's own row as plain values, read by a Core statement with no ORM object (``HEAD_COLUMNS``): what
    the sheet page shows of it and what reading its sides and deals needs (``facts_of_head``)."""

    id: int
    public_id: str
    watch_id: str
    name: str
    auction: bool
    rules: dict[str, Any]
    first_dealer: str | None
    version: int


HEAD_COLUMNS = tuple(_MATCH.c[name] for name in MatchHead._fields)


def head_of(row: MatchRow) -> MatchHead:
    """The head of a match row already read (after a write)."""
    return MatchHead(*(getattr(row, name) for name in MatchHead._fields))


def facts_of_head(head: MatchHead) -> Match:
    """The rules core's ``Match`` of a match whose head was read: its deals and sides read as plain rows (two
    statements on the session's connection, as the head was: a read with nothing of the ORM to flush), as
    ``to_core`` reads those of a row."""
    connection = get_session().connection()
    deals = _deals_json(connection, head.id)
    return match_from_json(_match_file(head, _sides_read(connection, head.id), deals), stored=True)


def to_core(row: MatchRow) -> Match:
    """The rules core's ``Match`` for a row, read by the match file reader. Rows were checked when
    written, so a match stored before a limit was lowered still reads (``stored``). Deals not read with the
    row yet are read as plain rows of their columns, not as ORM objects: only their facts are needed."""
    if "deals" not in inspect(row).unloaded:
        note_deals_read(len(row.deals))
        return match_from_json(match_json(row), stored=True)
    session = get_session()
    deals = _deals_json(session, row.id)
    sides = _sides_read(session, row.id) if "sides" in inspect(row).unloaded else _sides_json(row)
    return match_from_json(_match_file(row, sides, deals), stored=True)


_SIDE = Base.metadata.tables["side"]
_SIDES = select(_SIDE.c.name, _SIDE.c.players).where(_SIDE.c.match_id == bindparam("match_id")).order_by(
    _SIDE.c.position)
_DEAL = Base.metadata.tables["deal"]
_JSON_COLUMNS = ("sides", "meld_prices")  # read as their text, decoded for all the deals at once
# A stored deal's columns that the match file's deal is made of, in the order of ``_stored_deal_json``'s arguments.
_FACT_COLUMNS = ("passed", "bidder", "bid", "trump", "thrown_in", "out", "forced", "sides", "meld_table",
                 "trick_scale", "last_trick", "meld_prices", *DEAL_TEXT_KEYS)
_facts_of_row, _facts_by_name = attrgetter(*_FACT_COLUMNS), itemgetter(*_FACT_COLUMNS)
_DEALS = select(*(cast(_DEAL.c[name], Text) if name in _JSON_COLUMNS else _DEAL.c[name] for name in _FACT_COLUMNS
                  )).where(_DEAL.c.match_id == bindparam("match_id")).order_by(_DEAL.c.position)
_SIDES_AT, _PRICES_AT = (list(_DEALS.selected_columns.keys()).index(name) for name in _JSON_COLUMNS)


def _sides_read(session: Session | Connection, match_id: int) -> list[dict[str, Any]]:
    """The match's sides in the match file format, read as plain rows."""
    return [{"name": name, "players": list(players)}
            for name, players in session.execute(_SIDES, {"match_id": match_id}).all()]


def _deals_json(session: Session | Connection, match_id: int) -> list[dict[str, Any]]:
    """The match's deals in the match file format, read as plain rows; their JSON columns' texts (a deal's
    sides, its table's own meld prices) are decoded as one JSON document, in one call rather than two a deal."""
    rows = session.execute(_DEALS, {"match_id": match_id}).all()
    note_deals_read(len(rows))
    decoded = json.loads("[" + ",".join(f"{row.sides},{row.meld_prices or 'null'}" for row in rows) + "]")
    if len(decoded) != 2 * len(rows):  # a stored text holding more than one value would shift every deal after it
        raise ValueError(f"the deals of match {match_id} hold JSON texts of more than one value")
    deals = []
    for row, sides, prices in zip(rows, decoded[::2], decoded[1::2]):
        values = list(row)
        values[_SIDES_AT], values[_PRICES_AT] = sides, prices
        deals.append(_stored_deal_json(*values))
    return deals


class _Auction(NamedTuple):
    """What a stored deal records of its auction, as ``auction_to_json`` reads it."""

    passed: bool
    bidder: int | None
    bid: int | None
    thrown_in: bool
    out: bool
    forced: bool


def _stored_deal_json(passed: bool, bidder: int | None, bid: int | None, trump: str | None, thrown_in: bool,
                      out: bool, forced: bool, sides: list[dict[str, Any]], meld_table: str, trick_scale: str,
                      last_trick: int, meld_prices: dict[str, Any] | None, *texts: str | None) -> dict[str, Any]:
    """One stored deal in the match file format from its columns (in the order of ``_DEALS``: ``texts`` in that
    of ``DEAL_TEXT_KEYS``), with the pricing it was entered under."""
    data = auction_to_json(_Auction(passed, bidder, bid, thrown_in, out, forced), trump or None, texts)
    if passed:
        return data
    data["sides"] = sides
    data["entered_under"] = {"meld_table": meld_table, "trick_scale": trick_scale, "last_trick": last_trick,
                             "meld_prices": meld_prices or {}}
    return data


def match_json(row: MatchRow) -> dict[str, Any]:
    """The whole match in the match file format, built from its row with its sides and deals."""
    return _match_file(row, _sides_json(row), [deal_json(deal) for deal in row.deals])


def _sides_json(row: MatchRow) -> list[dict[str, Any]]:
    """A match row's sides as the match file writes them."""
    return [{"name": side.name, "players": list(side.players)} for side in row.sides]


def _match_file(head: MatchRow | MatchHead, sides: list[dict[str, Any]], deals: list[dict[str, Any]]) -> dict[str, Any]:
    """The match file of a match's own row (or its head), with its sides and deals in the file's format."""
    return {
        "format": FORMAT,
        "name": head.name,
        "auction": head.auction,
        "sides": sides,
        **({"first_dealer": head.first_dealer} if head.first_dealer is not None else {}),
        "rules": dict(head.rules),
        "deals": deals,
    }


def deal_json_of_columns(values: Mapping[str, Any]) -> dict[str, Any]:
    """``deal_json`` of a deal's row not made yet, from its columns' values by name (no ORM object is made for a
    value that is only written as JSON)."""
    return _stored_deal_json(*_facts_by_name(values))


def deal_json(deal: DealRow) -> dict[str, Any]:
    """One stored deal in the match file format, with the pricing it was entered under."""
    return _stored_deal_json(*_facts_of_row(deal))
