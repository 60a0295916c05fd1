"""An event's downloads: its standings as CSV (overall, then each player's seat and points in each round),
and every table's match file in one zip (``round-1-table-2.json``…, each naming the event, its round and
table as the match file does). The event file, which imports again, is ``event_file``'s."""

from __future__ import annotations

import csv
import io
import re
import zipfile

from ..models import EventRow
from ..rules.events import EventFormat, Seating
from ..rules.matchfile import dumps_match
from ..rules.standings import PlayerStanding
from ..store import reading
from .loading import Standings, seating_of
from .pages import EventStandings

SEAT_COLUMNS = ["round", "table", "name", "partner", "opponents", "points", "rank"]
PLAYER_COLUMNS = ["rounds", "won", "best", "byes"]
TEAM_COLUMNS = ["won", "played", "byes"]
BYE = "bye"
FORMULA_START = ("=", "+", "-", "@")


def standings_csv(event: EventRow, found: EventStandings) -> str:
    """One row a player for the whole event (``round`` and ``table`` empty), then one a player for each
    round: the table they sat at (or ``bye``), their partner and opponents there, their points and rank in
    that round. A team event's rows are its players', each with their team's figures."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    teams = event.format == EventFormat.TEAM
    writer.writerow([*SEAT_COLUMNS, *(TEAM_COLUMNS if teams else PLAYER_COLUMNS)])
    for cells in _rows(found.overall, None):
        writer.writerow(["", *cells])
    seatings = {played.number: seating_of(played) for played in event.played_rounds}
    for round in found.rounds:
        for cells in _rows(round.standings, seatings[round.number]):
            writer.writerow([round.number, *cells])
    return out.getvalue()


def _seat(name: str, team: tuple[str, ...], seating: Seating | None) -> tuple[object, str, str]:
    """Where ``name`` (of ``team``) sat in a round: table, partner, opponents; overall only a team's partner;
    the table is ``bye`` for a player sitting out."""
    if seating is None:
        return "", _others(name, team), ""
    table = seating.table_of(name)
    if table is None:
        return BYE, _others(name, team), ""
    ours, theirs = table.sides if name in table.sides[0] else table.sides[::-1]
    return table.number, _others(name, ours), " & ".join(theirs)


def _others(name: str, side: tuple[str, ...]) -> str:
    return " & ".join(other for other in side if other != name)


def _rows(rows: Standings, seating: Seating | None) -> list[list[object]]:
    """Each player's cells after the round: seat, points, rank and the rest of their standing."""
    found = []
    for standing in rows:
        if isinstance(standing, PlayerStanding):
            best = "" if standing.best is None else standing.best
            names: tuple[str, ...] = (standing.name,)
            rest: list[object] = [standing.rounds, standing.won, best, standing.byes]
        else:
            names, rest = standing.players, [standing.won, standing.played, standing.byes]
        for name in names:
            table, partner, opponents = _seat(name, names, seating)
            found.append([table, safe_cell(name), safe_cell(partner), safe_cell(opponents), standing.points,
                          standing.rank, *rest])
    return found


def safe_cell(text: str) -> str:
    """Keep a spreadsheet from reading a name as a formula."""
    return f"'{text}" if text.startswith(FORMULA_START) else text


def matches_zip(event: EventRow) -> bytes:
    """Every table's match file, one file a table, in a zip made in memory."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for played in event.played_rounds:
            for table in played.tables:
                place = {"name": event.name, "round": played.number, "table": table.number}
                archive.writestr(f"round-{played.number}-table-{table.number}.json",
                                 dumps_match(reading.to_core(table.match), place))
    return out.getvalue()


def download_stem(event: EventRow) -> str:
    """A file name from the event's name: letters, digits and dashes only."""
    return re.sub(r"[^A-Za-z0-9]+", "-", event.name).strip("-").lower()[:60] or "event"
