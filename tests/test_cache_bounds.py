"""The caches keyed on what a client sends stay within their bounds, whatever is sent: the rules core's
caches keyed on a table's meld prices, and the event tables' matches kept by what they weigh. (The sheet
cache's budget: tests/test_sheet_cache.py.)"""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload
from test_events_api import deal, enter, make_event, seat, standings

from scorekeeper import create_app
from scorekeeper.db import get_session
from scorekeeper.events import scores
from scorekeeper.models import MatchRow
from scorekeeper.rules import matchfile, meld
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.rules.scoring import score_match

SENT = 300  # price sets, more than any of the caches keeps
TRACED = 40  # price sets whose entries are measured


def priced_match(n: int) -> dict[str, Any]:
    """A match whose table prices pinochle its own way (``n`` tells the price sets apart), with a deal of
    counted sets and one typed as numbers under other prices."""
    return {"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}],
            "rules": {"meld_prices": {"pinochle": [5 + n]}}, "deals": [
                {"bidder": 0, "bid": 50, "sides": [
                    {"meld": {"pinochle": 2, "run": 1}, "tricks": 30, "last_trick": True},
                    {"meld": {"run": 1}, "tricks": 18}]},
                {"bidder": 0, "bid": 50, "sides": [{"meld": 30, "tricks": 30, "last_trick": True},
                                                   {"meld": 4, "tricks": 18}],
                 "entered_under": {"meld_table": "double-small", "trick_scale": "one-point", "last_trick": 2,
                                   "meld_prices": {"pinochle": [6 + n]}}},
            ]}


CACHES = (matchfile._interned_basis, meld.table_factor, meld._priced_with)


def fill(sets: range) -> None:
    for n in sets:
        score_match(match_from_json(priced_match(n)))


def test_the_rules_caches_keyed_on_meld_prices_keep_at_most_their_size() -> None:
    fill(range(SENT))
    for cache in CACHES:
        info = cache.cache_info()
        assert info.misses >= SENT and info.maxsize is not None and info.currsize <= info.maxsize


def test_an_entry_of_the_rules_caches_takes_what_the_docs_say() -> None:
    """A basis and a factor under 1 KB each, a table with its own prices under 64 KB and 640 bytes a holding:
    the bound of their bytes is their sizes times those."""
    for cache in CACHES:
        cache.cache_clear()
    gc.collect()
    tracemalloc.start()
    try:
        fill(range(SENT, SENT + TRACED))
        gc.collect()
        filled, _ = tracemalloc.get_traced_memory()
        for cache in CACHES:
            cache.cache_clear()
        gc.collect()
        emptied, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    holdings = 2  # each table prices two holdings of sets here
    assert 0 < filled - emptied <= TRACED * (2 * 1024 + 64 * 1024 + 640 * holdings)


def test_the_event_tables_matches_kept_weigh_at_most_their_budget(database_url: str, tmp_path: Path) -> None:
    """A table stepping its match's version and the standings read after each deal: the matches kept for the
    standings never weigh more than ``EVENT_SCORES_DEALS``, and the standings stay those of the last deal."""
    budget = 3 * scores.MATCH_WEIGHT
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                      "RATELIMIT_ENABLED": False, "EVENT_SCORES_DEALS": budget, "INSTANCE_PATH": str(tmp_path)})
    try:
        client = app.test_client()
        event = make_event(client, round_end={"deals": 10}, rounds=1)
        table = seat(client, event)["tables"][0]
        played = 8
        for _ in range(played):
            enter(client, table, deal(60, 10))
            found = standings(client, event)
            assert scores.kept_weight() <= budget
        assert sum(player["points"] for player in found["players"]) == played * 70 * 2  # both players of a side
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_an_event_tables_match_is_kept_at_its_latest_version_only(database_url: str, tmp_path: Path) -> None:
    """Each deal entered moves the table's match on, and the standings read it: one version of it is kept,
    the latest. A request that read the match before a deal (an older version) works that version out
    and leaves the latest kept."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                      "RATELIMIT_ENABLED": False, "INSTANCE_PATH": str(tmp_path)})
    try:
        client = app.test_client()
        event = make_event(client, round_end={"deals": 10}, rounds=1)
        table = seat(client, event)["tables"][0]
        link = table["match"]["id"]
        enter(client, table, deal(60, 10))
        standings(client, event)
        with app.app_context():  # the match as a request read it before the next deals
            before = get_session().scalars(select(MatchRow).where(MatchRow.public_id == link).options(
                selectinload(MatchRow.sides), selectinload(MatchRow.deals))).one()
            get_session().expunge(before)
        for later in range(1, 4):
            enter(client, table, deal(60, 10))
            standings(client, event)
            assert scores.kept_versions()[link] == before.version + later
        with app.app_context():
            assert len(scores.facts_of(before).match.deals) == 1  # the older version, worked out
        assert scores.kept_versions()[link] == before.version + 3
    finally:
        app.extensions["scorekeeper.engine"].dispose()
