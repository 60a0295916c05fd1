"""A club table's season: the events it holds with a round seated, each worked out as its standings page
works it out, added up by the rules core (``rules.season``); and the director's "best N", kept on the table."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime

from ..db import get_session
from ..models import TableRow
from ..rules.problems import ProblemCode
from ..rules.refusals import Invalid
from ..rules.season import MAX_BEST, SeasonStanding, event_points, season_standings
from .files import safe_cell
from .loading import events_held
from .pages import event_standings


@dataclass(frozen=True)
class SeasonEvent:
    """An event of the season: its name, its public standings link, when it was made, players ranked."""

    name: str
    standings_id: str
    created_at: datetime
    players: int


@dataclass(frozen=True)
class Season:
    """A table's season: its events (oldest first), the best N counted (None: all), the standings."""

    events: tuple[SeasonEvent, ...]
    best: int | None
    standings: tuple[SeasonStanding, ...]


def table_season(table: TableRow, now: datetime) -> Season:
    events, points = [], []
    for row in events_held(table.id):
        if not row.played_rounds:
            continue
        found = event_points(event_standings(row, now).overall)
        events.append(SeasonEvent(row.name, row.standings_id, row.created_at, len(found)))
        points.append(found)
    return Season(tuple(events), table.season_best, season_standings(points, table.season_best))


def read_best(value: object) -> int | None:
    """The best N as sent: a whole number from 1 to ``MAX_BEST``, or null (every event counts)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid("best", ProblemCode.NOT_A_NUMBER, f"best is a whole number from 1 to {MAX_BEST}, "
                           "or null for every event")
    if not 1 <= value <= MAX_BEST:
        raise Invalid("best", ProblemCode.OUT_OF_RANGE, f"best is from 1 to {MAX_BEST}, not {value}")
    return value


def set_best(table: TableRow, best: int | None) -> None:
    table.season_best = best
    get_session().commit()


def season_csv(season: Season) -> str:
    """One row a player: rank, name, events played, points counted."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["rank", "name", "events", "points"])
    for standing in season.standings:
        writer.writerow([standing.rank, safe_cell(standing.name), standing.events, standing.points])
    return out.getvalue()
