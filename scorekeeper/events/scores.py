"""Each event table's match as the rules core reads it, and its outcome as a table, kept per process for
the match's latest version.

The standings read every table of every round on each request (a big screen asks every 2 s); a match's
facts change only with its ``version``, which every write moves on, so they are read and scored once a
version. Kept by the match's link with its version: an entry is never served for another version, and a
match keeps only its latest version read, since a version once moved on is never asked for again (a request
that read an older one, begun before a write, works it out and leaves the newer one kept). So what is kept is
at most one match a table, whatever number of deals the evening enters, and every full run of the garbage
collector walks no more than that (docs/architecture.md, The garbage collector).

Bounded by what the entries weigh, not by their number: a match read into the rules core takes about a kilobyte
a deal, so the matches kept hold at most ``EVENT_SCORES_DEALS`` deals in all (a match counts
``MATCH_WEIGHT`` deals more for its sides and rules), the least recently used leaving first, whatever length
of match a stranger plays.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from flask import current_app
from sqlalchemy import select
from sqlalchemy.orm import lazyload, selectinload

from ..db import get_session
from ..models import MatchRow, aware
from ..rules.errors import ContradictionError
from ..rules.events import RoundEnd, SeatedTable
from ..rules.match import Match
from ..rules.standings import TableOutcome, table_outcome
from ..store import reading

DEALS = 32_768  # about 32 MB: 50 tables × 20 rounds of 20 deals, and half as many again
MATCH_WEIGHT = 4  # what a match's sides, rules and outcomes weigh, in deals


@dataclass
class MatchFacts:
    """One version of a match: its facts, when each deal was entered, and its outcomes as a table."""

    match: Match
    entered: tuple[datetime, ...]
    outcomes: dict[tuple[object, ...], TableOutcome] = field(default_factory=dict)

    @property
    def weight(self) -> int:
        """What it weighs in the cache, in deals."""
        return len(self.match.deals) + MATCH_WEIGHT

    def outcome(self, round: int, seated: SeatedTable, end: RoundEnd, counted: int, time_up: bool,
                deal_in_play: bool, closed: bool) -> TableOutcome:
        """The rules core's outcome of the table over the match's first ``counted`` deals (worked out once
        for the same question). Only whether the time is up matters of the minutes elapsed."""
        key = (round, seated, end, counted, time_up, deal_in_play, closed)
        found = self.outcomes.get(key)
        if found is None:
            match = self.match if counted == len(self.match.deals) else \
                self.match.with_deals(self.match.deals[:counted])
            minutes = float(end.count or 0) if time_up else 0.0
            try:
                found = table_outcome(round, seated, match, end, minutes, deal_in_play, closed)
            except ContradictionError:  # facts the rules now refuse count as nothing played
                found = TableOutcome(round, seated.number, seated.sides, (0, 0), None, 0, closed)
            self.outcomes[key] = found
        return found


# An event table's match read with its event's tables leaves its ``event_table`` (joined by default) unread:
# the table already points at the match, and the two pointing at each other made a reference cycle of every
# table, which only the garbage collector frees (a full collection every 50 standings asks or so, freeing
# thousands of rows at once: docs/architecture.md, The garbage collector). Without it, a request's rows
# are freed as it ends.
UNTIED = lazyload(MatchRow.event_table)

_kept: OrderedDict[str, tuple[int, MatchFacts]] = OrderedDict()  # by the match's link: its version, its facts
_weight = 0  # of the matches kept, in deals
_lock = threading.Lock()


def _is_kept(row: MatchRow) -> bool:
    found = _kept.get(row.public_id)
    return found is not None and found[0] == row.version


def read_missing(rows: Sequence[MatchRow]) -> None:
    """Read the rules, sides and deals of the matches whose version is not kept, in three queries
    whatever their number (rather than three a match when ``facts_of`` asks)."""
    with _lock:
        missing = [row.id for row in rows if not _is_kept(row)]
    if missing:
        get_session().scalars(select(MatchRow).where(MatchRow.id.in_(missing)).options(
            selectinload(MatchRow.sides), selectinload(MatchRow.deals), UNTIED)).all()


def facts_of(row: MatchRow) -> MatchFacts:
    """The match's facts at the version read (its sides and deals are read only when not kept)."""
    with _lock:
        if _is_kept(row):
            _kept.move_to_end(row.public_id)
            return _kept[row.public_id][1]
    found = MatchFacts(reading.to_core(row), tuple(aware(deal.created_at) for deal in row.deals))
    budget = current_app.config.get("EVENT_SCORES_DEALS", DEALS)  # 0 keeps nothing (bench_event.py --cache-off)
    if found.weight <= budget:
        _keep(row.public_id, row.version, found, budget)
    return found


def _keep(link: str, version: int, found: MatchFacts, budget: int) -> None:
    """Keep ``found`` in place of the match's older version (a newer one kept stays)."""
    global _weight
    with _lock:
        replaced = _kept.get(link)
        if replaced is not None:
            if replaced[0] > version:
                return
            del _kept[link]
            _weight -= replaced[1].weight
        _kept[link] = (version, found)
        _weight += found.weight
        while _weight > budget:
            _, (_, dropped) = _kept.popitem(last=False)
            _weight -= dropped.weight


def kept_weight() -> int:
    """What the matches kept weigh, in deals."""
    return _weight


def kept_versions() -> dict[str, int]:
    """Each match kept, by its link: the version kept."""
    with _lock:
        return {link: version for link, (version, _) in _kept.items()}
