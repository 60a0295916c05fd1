"""A cached score sheet view with the checked-cookie session beside the same view with Flask's own.

``scorekeeper/cookie_session.py`` stays only while it saves at least 10% of such a view. The phone
sends the cookie it was given on its first visit, as a browser does; the 100-deal match is the one
``bench_web.py`` loads. Best of several rounds, in-process through Flask's test client, one core.

    python bench/bench_session.py [--views 2000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from flask.sessions import SecureCookieSessionInterface

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import deal  # noqa: E402

from scorekeeper import create_app, store  # noqa: E402
from scorekeeper.rules.matchfile import match_from_json  # noqa: E402

GOAL = 0.10


def microseconds_a_view(checked: bool, views: int, rounds: int) -> float:
    app = create_app({"INSTANCE_PATH": tempfile.mkdtemp(prefix="bench-session-"), "SECRET_KEY": "k" * 64})
    if not checked:
        app.session_interface = SecureCookieSessionInterface()
    with app.app_context():
        match = match_from_json({
            "format": "pinochle-match/1", "name": "Bench", "sides": [{"name": "We"}, {"name": "They"}],
            "rules": {}, "deals": [deal(number) for number in range(1, 101)],
        })
        public_id = store.create_match(match).public_id
    client = app.test_client()
    client.get(f"/m/{public_id}")  # the first visit gives the phone its cookie
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(views):
            client.get(f"/m/{public_id}")
        best = min(best, (time.perf_counter() - start) / views * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    timings: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(2):  # in turns, so that other work on the machine weighs on both alike
        for checked_cookie in (True, False):
            timings[checked_cookie].append(microseconds_a_view(checked_cookie, args.views, args.rounds))
    checked, flask_own = min(timings[True]), min(timings[False])
    saving = (flask_own - checked) / flask_own
    print(f"sheet view, checked-cookie session: {checked:.0f} µs")
    print(f"sheet view, Flask's session:         {flask_own:.0f} µs")
    print(f"saving: {saving:.0%} (keep it at {GOAL:.0%} or more: {'yes' if saving >= GOAL else 'no'})")


if __name__ == "__main__":
    main()
