"""Two phones racing to start the next match of one decided match, over real HTTP, on SQLite and PostgreSQL.

The app is served as bench_club.py serves it (servers.py: waitress on a new SQLite file as ``scorekeeper
serve`` runs it, or ``--gunicorn N`` workers; with ``--postgres URL`` the same again on a new database of
that server). Each of ``--races`` races (50) makes a decided match through the API; two phones, each with
its own cookies, open its sheet and its "Start the next match" form, then send the form at the same moment
(two threads released together; ``--through api`` sends ``POST /api/v1/matches/<id>/next`` instead). A race
counts the distinct matches the phones land in and the next matches the database holds for the decided
match (code older than the next match's ``follows_id`` records none: only where the phones landed counts).
Goal: 50 races out of 50 with one single next match, on each database, and no error.

    python bench/bench_next_match.py
    python bench/bench_next_match.py --gunicorn 2 --postgres postgresql+psycopg://postgres@127.0.0.1:25430/postgres
    python bench/bench_next_match.py --code OTHER_CHECKOUT   # older code, for comparison
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from servers import ROOT, Code, database, load_average, served

DECIDED = {"format": "pinochle-match/1", "name": "Bench", "rules": {"target": 300},
           "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
           "deals": [{"bidder": 0, "bid": 50, "dealt_by": "Ann", "sides": [{"total": 300}, {"total": 10}]}]}
_FIELD = re.compile(r'name="(csrf_token|write_key)" value="([^"]*)"')


class _Stay(urllib.request.HTTPRedirectHandler):
    """A redirect is the answer to look at (where the phone lands), not to follow."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Phone:
    """A phone: its own cookies (the session holding its matches and form token)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                                  _Stay())

    def send(self, path: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, str, str]:
        """Status, ``Location`` and body of one request."""
        request = urllib.request.Request(self.base + path, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, answer.headers.get("Location", ""), answer.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, answer.headers.get("Location", ""), answer.read().decode()


def decided_match(phone: Phone) -> dict[str, Any]:
    status, _, body = phone.send("/api/v1/matches", json.dumps(DECIDED).encode(), {"Content-Type": "application/json"})
    assert status == 201, body
    made: dict[str, Any] = json.loads(body)
    return made


def ready_form(phone: Phone, public_id: str) -> bytes:
    """Open the decided sheet and the next match's form, as a phone does before tapping its button."""
    assert phone.send(f"/m/{public_id}")[0] == 200
    status, _, page = phone.send(f"/m/{public_id}/rematch")
    assert status == 200, status
    return urllib.parse.urlencode(dict(_FIELD.findall(page)) | {"partners": "same"}).encode()


def race(base: str, through: str) -> tuple[set[str], list[int], str]:
    """One race: where each phone landed, their statuses and the decided match's id."""
    phones = [Phone(base), Phone(base)]
    made = decided_match(phones[0])
    public_id = made["id"]
    if through == "form":
        bodies = [ready_form(phone, public_id) for phone in phones]
        path, headers = f"/m/{public_id}/rematch", {"Content-Type": "application/x-www-form-urlencoded"}
    else:
        bodies = [b"{}", b"{}"]
        path = f"/api/v1/matches/{public_id}/next"
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {made['edit_token']}"}
    start = threading.Barrier(2)
    answers: list[tuple[int, str, str]] = [(0, "", "")] * 2

    def tap(index: int) -> None:
        start.wait()
        answers[index] = phones[index].send(path, bodies[index], headers)

    threads = [threading.Thread(target=tap, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    landed = {location.rsplit("/", 1)[-1] if through == "form" else json.loads(body).get("id", "")
              for _, location, body in answers}
    return landed, [status for status, _, _ in answers], public_id


def stored_next_matches(database_url: str, public_ids: list[str]) -> Counter[int] | None:
    """How many matches the database holds as each decided match's next match, counted by that number (None:
    the code served records no such thing)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import DBAPIError

    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            counts = Counter[int]()
            for public_id in public_ids:
                counts[connection.execute(text(
                    "SELECT count(*) FROM match WHERE follows_id = (SELECT id FROM match WHERE public_id = :p)"),
                    {"p": public_id}).scalar_one()] += 1
            return counts
    except DBAPIError:
        return None
    finally:
        engine.dispose()


def run(code: Code, label: str, postgres: str | None, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder, database(postgres, Path(folder)) as url:
        with served(code, url, Path(folder), args.gunicorn, args.threads) as running:
            results = [race(running.base, args.through) for _ in range(args.races)]
        landed = Counter(len(where) for where, _, _ in results)
        statuses = Counter(status for _, answered, _ in results for status in answered)
        stored = stored_next_matches(url, [public_id for _, _, public_id in results])
    single = landed[1] if stored is None else min(landed[1], stored[1])
    print(f"{code.label}, {label}: {args.races} races through the {args.through}: {single} with one single next "
          f"match ({'goal met' if single == args.races else 'GOAL MISSED'})")
    print(f"  distinct matches the two phones landed in, per race: {dict(sorted(landed.items()))}")
    counted = "not recorded" if stored is None else dict(sorted(stored.items()))
    print(f"  next matches stored per decided match: {counted}")
    print(f"  answers: {dict(sorted(statuses.items()))}; load average {load_average()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=50, help="races on each database (50)")
    parser.add_argument("--through", choices=("form", "api"), default="form", help="the phones' form, or the API")
    parser.add_argument("--gunicorn", type=int, metavar="WORKERS", default=0,
                        help="serve with this many gunicorn workers rather than waitress")
    parser.add_argument("--threads", type=int, default=4, help="threads of waitress or of each worker (4)")
    parser.add_argument("--postgres", metavar="URL", help="also run on a new database of this PostgreSQL server")
    parser.add_argument("--code", metavar="CHECKOUT", help="serve this checkout rather than this one")
    args = parser.parse_args()
    code = Code.checkout(args.code or str(ROOT))
    server = f"gunicorn, {args.gunicorn} workers" if args.gunicorn else "waitress"
    run(code, f"SQLite ({server})", None, args)
    if args.postgres:
        run(code, f"PostgreSQL ({server})", args.postgres, args)


if __name__ == "__main__":
    main()
