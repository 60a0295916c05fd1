"""What a table's list and statistics page show: each match's totals and winner, the table's figures and its
players' ratings, worked out on request from the matches' facts, never stored."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..events.loading import results_at_table
from ..models import MatchRow, TableRow, utc_now
from ..ratings import Rating, rate, results_of
from ..rules.errors import ContradictionError
from ..rules.match import Match
from ..rules.scoring import play, settle_match
from ..rules.stats import TableStats, table_stats
from ..store import reading
from .reading import player_list, table_matches


def stats_of(table: TableRow, matches: Sequence[Match] | None = None) -> TableStats:
    """Every figure of the table, worked out from its matches' facts (``matches``: its matches read into the
    rules core, when they are)."""
    if matches is None:
        matches = [reading.to_core(row) for row in table_matches(table)]
    return table_stats(matches, tuple(player_list(table)))


@dataclass(frozen=True)
class StatsAndRatings:
    """The table's statistics and its players' ratings; ``rated``: how many finished matches were rated."""

    stats: TableStats
    ratings: tuple[Rating, ...]
    rated: int


def stats_and_ratings(table: TableRow) -> StatsAndRatings:
    """The statistics and the ratings, from one reading of the table's matches (the tables of the events
    it holds rated as their events place them)."""
    rows = table_matches(table)
    matches = [reading.to_core(row) for row in rows]
    results = results_of(rows, matches, results_at_table(table.id, utc_now()))
    return StatsAndRatings(stats_of(table, matches), rate(results), len(results))


@dataclass(frozen=True)
class MatchState:
    """What a table's list shows of one of its matches: each side's total and the winner."""

    names: tuple[str, ...]
    points: tuple[int, ...]
    winner: int | None
    target: int

    def totals(self) -> list[tuple[str, int]]:
        return list(zip(self.names, self.points, strict=True))

    def winner_name(self) -> str | None:
        return None if self.winner is None else self.names[self.winner]


def match_states(table: TableRow, known: Mapping[int, Match] | None = None) -> list[tuple[MatchRow, MatchState]]:
    """The table's matches in the order they were started, each with its state (``known``: matches already
    read into the rules core, by their row's id, as an import has them)."""
    known = known or {}
    states = []
    for row in table_matches(table):
        match = known[row.id] if row.id in known else reading.to_core(row)
        try:
            points, winner, _ = play(match, settle_match(match))  # the totals and winner, no sheet drawn
        except ContradictionError:
            points, winner = tuple(0 for _ in match.sides), None
        names = tuple(side.shown_name for side in match.sides)
        states.append((row, MatchState(names, points, winner, match.rules.target)))
    return states
