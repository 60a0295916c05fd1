"""What a standings request leaves to the garbage collector: its rows are freed as it ends, none of them in
a reference cycle that only a collection would free (docs/architecture.md, The garbage collector)."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from test_events_api import deal, enter, make_event, seat, standings

from scorekeeper import create_app
from scorekeeper.models import Base


@contextmanager
def left_in_cycles() -> Iterator[Counter[str]]:
    """The rows (by class) that what runs in the block leaves in reference cycles."""
    found: Counter[str] = Counter()
    gc.collect()
    gc.disable()
    try:
        yield found
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found.update(type(thing).__name__ for thing in gc.garbage if isinstance(thing, Base))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
        gc.collect()


def test_the_standings_leave_no_row_in_a_cycle(database_url: str, tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                      "RATELIMIT_ENABLED": False, "INSTANCE_PATH": str(tmp_path)})
    try:
        client = app.test_client()
        event = make_event(client, round_end={"deals": 2}, rounds=2)
        for _ in range(2):
            for table in seat(client, event)["tables"]:
                enter(client, table, deal(60, 10), deal(10, 60))
        standings(client, event)  # every table's match read once and kept
        with left_in_cycles() as rows:
            found = standings(client, event)
        assert len(found["rounds"]) == 2
        assert rows == Counter()
    finally:
        app.extensions["scorekeeper.engine"].dispose()
