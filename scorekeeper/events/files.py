"""An event's downloads: its standings as CSV (overall, then each round), and every table's match file in
one zip (``round-1-table-2.json``…, each naming the event, its round and table as the match file does)."""

from __future__ import annotations

import csv
import io
import re
import zipfile

from ..models import EventRow
from ..rules.matchfile import dumps_match
from ..rules.standings import PlayerStanding
from ..store import reading
from .loading import Standings
from .pages import EventStandings

PLAYER_COLUMNS = ["rank", "name", "points", "rounds", "won", "best", "byes"]
TEAM_COLUMNS = ["rank", "players", "won", "points", "played", "byes"]
FORMULA_START = ("=", "+", "-", "@")


def standings_csv(found: EventStandings) -> str:
    """One row a player (or team) for the whole event (``round`` empty), then one a player for each round."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    teams = bool(found.overall) and not isinstance(found.overall[0], PlayerStanding)
    writer.writerow(["round", *(TEAM_COLUMNS if teams else PLAYER_COLUMNS)])
    for number, rows in [("", found.overall), *((str(round.number), round.standings) for round in found.rounds)]:
        for cells in _rows(rows):
            writer.writerow([number, *cells])
    return out.getvalue()


def _rows(rows: Standings) -> list[list[object]]:
    found = []
    for standing in rows:
        if isinstance(standing, PlayerStanding):
            best = "" if standing.best is None else standing.best
            cells: list[object] = [standing.rank, safe_cell(standing.name), standing.points, standing.rounds,
                                   standing.won, best, standing.byes]
        else:
            cells = [standing.rank, safe_cell(" & ".join(standing.players)), standing.won, standing.points,
                     standing.played, standing.byes]
        found.append(cells)
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
