"""What one request does to a 30-deal match: SQL statements, reads of the match into the rules core,
and sheets worked out, for a deal entered on the form and through the API, a house-rule change
previewed and applied, and a deal deleted.

Counted with SQLAlchemy's ``before_cursor_execute`` event and a profiler on ``match_from_json`` and
``score_match`` (the real functions run). ``tests/test_one_load.py`` asserts the same counts.

    python bench/bench_work_per_request.py
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.rules import matchfile, scoring
from scorekeeper.store import reading, writing

DEALS = 30


def deal(number: int) -> dict[str, Any]:
    sides: list[dict[str, Any]] = [{"meld": 20, "tricks": 24}, {"meld": 10, "tricks": 24}]
    sides[number % 2]["last_trick"] = True
    return {"bidder": number % 2, "bid": 50, "sides": sides}


def main() -> None:
    app = create_app({"INSTANCE_PATH": tempfile.mkdtemp(prefix="bench-work-"), "SECRET_KEY": "bench",
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})
    engine = app.extensions["scorekeeper.engine"]
    with app.app_context():
        row = writing.create_match(matchfile.match_from_json({
            "format": "pinochle-match/1", "name": "Work", "sides": [{"name": "We"}, {"name": "They"}],
            "rules": {"target": 2000}, "deals": [deal(number) for number in range(DEALS)]}))
        public_id, token = row.public_id, row.edit_token
    client = app.test_client()
    client.get(f"/m/{public_id}")  # the phone opens the match first
    auth = {"Authorization": f"Bearer {token}"}

    def version() -> int:
        with app.app_context():
            return reading.match_version(public_id) or 0

    def watch(label: str, request: Callable[[], Any]) -> None:
        statements: Counter[str] = Counter()
        calls = {"reads": 0, "sheets": 0}

        def on_execute(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            statements[statement.split(None, 1)[0].upper()] += 1

        def on_call(frame: FrameType, what: str, _arg: Any) -> None:
            if what == "call" and frame.f_code is scoring.score_match.__code__:
                calls["sheets"] += 1
            elif what == "call" and frame.f_code is matchfile.match_from_json.__code__:
                calls["reads"] += 1

        event.listen(engine, "before_cursor_execute", on_execute)
        sys.setprofile(on_call)
        try:
            status = request().status_code
        finally:
            sys.setprofile(None)
            event.remove(engine, "before_cursor_execute", on_execute)
        sql = ", ".join(f"{verb} {count}" for verb, count in sorted(statements.items()))
        print(f"{label:<28} {status}  reads {calls['reads']}  sheets {calls['sheets']}  "
              f"SQL {sum(statements.values())} ({sql})")

    quick = {"mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": "60", "sides-1-total": "30"}
    watch("deal (form)", lambda: client.post(f"/m/{public_id}/deals/new", data={"version": version(), **quick}))
    watch("deal (API)", lambda: client.post(f"/api/v1/matches/{public_id}/deals", json=deal(1), headers=auth))
    rules = {f"rules-{key}": value for key, value in {
        "deck": "double", "meld_table": "double-small", "trick_scale": "one-point", "last_trick": "2",
        "target": "1950", "min_bid": "50", "must_take_trick": "trick", "must_win_own_bid": "on"}.items()}
    seen = version()
    watch("rule change, preview (form)", lambda: client.post(f"/m/{public_id}/rules", data={"version": seen, **rules}))
    watch("rule change, apply (form)",
          lambda: client.post(f"/m/{public_id}/rules", data={"version": seen, "confirm": "yes", **rules}))
    watch("rule change (API)", lambda: client.put(f"/api/v1/matches/{public_id}/rules", json={"target": 1900},
                                                  headers=auth))
    watch("delete deal 1 (API)", lambda: client.delete(f"/api/v1/matches/{public_id}/deals/1", headers=auth))


if __name__ == "__main__":
    main()
