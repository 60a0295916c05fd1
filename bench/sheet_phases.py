"""Where the uncached sheet page's time goes: the whole GET of ``/m/<link>`` beside each phase of drawing it.

The match is bench_core.py's (a two-partnership match in plain numbers), at ``--deals`` deals (30), stored
through the API in a new SQLite file, with the sheet cache keeping nothing. Each figure is then asked in turns
(``--rounds`` rounds of ``--runs`` runs each), so that other work on the shared machine weighs on all alike, and
printed as the median CPU time of one run (``time.process_time``):

- GET: the whole request through Flask's test client, as bench_core.py's "sheet page" figure;
- a bare GET: ``/favicon.ico`` (a redirect), what any request costs through the same app and client;
- GET 304: the same page asked with its ETag, which reads the head and answers before drawing anything;
- then, in one request context, the phases of ``views/sheet_pages.py`` one by one, on what the phase before
  made: the head (``sheet_head``), the deals' and sides' rows (``store/reading.py``), the match file read
  (``match_from_json``), the sheet scored (``SheetView.of``), the chart and its SVG, the deals offering a
  throw-in, the template, and the page's bytes and live part (``SheetPage.drawn``).

The phases add up to less than the GET: the request's own work (session, connection, hooks, the client) is
the rest, roughly the bare GET's and a little more.

    python bench/sheet_phases.py [--deals 30] [--rounds 60] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from bench_core import match_file  # noqa: E402


def phases(deals: int, folder: str) -> dict[str, Callable[[], Any]]:
    """Each figure's run, on an app holding the bench's match of ``deals`` deals (a request context stays
    pushed for the phases)."""
    from flask import render_template, url_for

    from scorekeeper import create_app
    from scorekeeper.db import get_session
    from scorekeeper.events.pages import sheet_head
    from scorekeeper.rules.matchfile import match_from_json
    from scorekeeper.rules.scoring import offers_throw_in
    from scorekeeper.sheet.cache import DEAD_CONTRACT_SLOT, FLASHES_SLOT, NEXT_SEATS_SLOT, SheetPage, sheet_etag
    from scorekeeper.sheet.chart import progression_chart
    from scorekeeper.sheet.chart_svg import chart_svg
    from scorekeeper.sheet.view import SheetView
    from scorekeeper.store import reading

    app = create_app({"TESTING": True, "INSTANCE_PATH": folder, "SECRET_KEY": "bench",
                      "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite", "RATELIMIT_ENABLED": False,
                      "SHEET_CACHE_BYTES": 0})
    client = app.test_client()
    data = match_file(deals, 1)
    answer = client.post("/api/v1/matches", json=dict(data, name=f"{deals} deals"))
    if answer.status_code != 201:
        raise SystemExit(f"the API refused the match: {answer.status_code} {answer.get_data()!r}")
    link = answer.get_json()["id"]
    etag = client.get(f"/m/{link}").headers["ETag"]

    app.test_request_context(f"/m/{link}").push()
    found = sheet_head(link)
    assert found is not None
    head = found.match
    connection = get_session().connection()
    deal_rows = reading._deals_json(connection, head.id)
    side_rows = reading._sides_read(connection, head.id)
    file = reading._match_file(head, side_rows, deal_rows)
    match = match_from_json(file, stored=True)
    view = SheetView.of(match)
    assert view.sheet is not None
    chart = progression_chart(view.sheet, view.names, match.rules.target)
    assert chart is not None
    svg = chart_svg(chart)
    links = {"live_url": url_for("matches.live", public_id=link),
             "edit_url": lambda number: url_for("deals.edit", public_id=link, number=number),
             "flashes_slot": FLASHES_SLOT, "dead_contract_slot": DEAD_CONTRACT_SLOT,
             "next_seats_slot": NEXT_SEATS_SLOT}

    def page() -> str:
        return render_template("matches/sheet.html", head=head, match=match, view=view, watching=False, place=None,
                               chart=svg, live_etag=sheet_etag(head.version, False), next_match=None, **links)

    html = page()
    return {
        "GET": lambda: client.get(f"/m/{link}"),
        "a bare GET": lambda: client.get("/favicon.ico"),
        "GET 304": lambda: client.get(f"/m/{link}", headers={"If-None-Match": etag}),
        "head": lambda: sheet_head(link),
        "deals' rows": lambda: reading._deals_json(connection, head.id),
        "sides' rows": lambda: reading._sides_read(connection, head.id),
        "match file read": lambda: match_from_json(file, stored=True),
        "sheet scored": lambda: SheetView.of(match),
        "chart": lambda: progression_chart(view.sheet, view.names, match.rules.target),  # type: ignore[arg-type]
        "chart's SVG": lambda: chart_svg(chart),
        "throw-in offers": lambda: frozenset(number for number in range(1, len(match.deals) + 1)
                                             if offers_throw_in(match, number)),
        "template": page,
        "page's bytes": lambda: SheetPage.drawn(head.version, html),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30, help="the match's deals (default 30)")
    parser.add_argument("--rounds", type=int, default=60, help="turns of every figure (default 60)")
    parser.add_argument("--runs", type=int, default=5, help="runs of a figure in each turn (default 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sheet_phases_") as folder:
        runs = phases(args.deals, folder)
        times: dict[str, list[float]] = {name: [] for name in runs}
        for run in runs.values():
            for _ in range(args.runs):
                run()
        for _ in range(args.rounds):
            for name, run in runs.items():
                start = time.process_time()
                for _ in range(args.runs):
                    run()
                times[name].append((time.process_time() - start) * 1000 / args.runs)
        whole = statistics.median(times["GET"])
        print(f"the sheet page of {args.deals} deals, {args.rounds} rounds of {args.runs}; median CPU ms of one run")
        width = max(len(name) for name in runs)
        for name, values in times.items():
            median = statistics.median(values)
            print(f"{name:<{width}}  {median:7.3f}  {median / whole:6.1%}")


if __name__ == "__main__":
    main()
