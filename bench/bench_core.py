"""The rules core and the sheet page beside an older release's, side by side in one run.

Each code compared (this checkout and ``--base REV``, by default 63f2803, unpacked with ``git archive`` into a
temporary folder) runs in a process of its own, set up once: the match file of a 1,000-deal match in plain
numbers (meld and trick points per side, passes, throw-ins and sets among them, kept under the target so that
every deal counts), and a new SQLite file holding that match at 30, 200 and 1,000 deals, created through the API.
The processes are then asked for one figure after the other, in turns (``--rounds`` rounds, the order of the
codes swapped every round), so that other work on the shared machine weighs on both alike; each figure is the
median CPU time (``time.process_time``) of its runs:

- score: ``scoring.score_match`` of the 1,000-deal match, read once before (checks run, as for a new file);
- read and score: ``matchfile.loads_match`` of the file's JSON text, then ``score_match``;
- sheet page at N deals: the whole GET of the match's sheet (``/m/<link>``) through Flask's test client, the
  sheet cache keeping nothing (``SHEET_CACHE_BYTES``/``SHEET_CACHE_SIZE`` 0), so each is drawn anew; the
  client sends no ``Accept-Encoding``.

``--pages DIR`` writes the three pages this code draws into DIR (the release's digest in their ETags blanked),
to compare a change's pages with those drawn before it.

    python bench/bench_core.py [--base 63f2803] [--rounds 15] [--pages DIR]

Goals (this code's time over the base's): score at most 1/3; read and score at most 1/4; each sheet page at
most 1/2.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SIZES = (30, 200, 1000)
GOALS = {"score": 1 / 3, "read and score": 1 / 4, **{f"sheet page, {n} deals": 1 / 2 for n in SIZES}}
TARGET = 5000
CEILING = 3500  # a side this high bids and is set until it falls back


def numbers_deal(rng: random.Random, totals: list[int]) -> dict[str, Any]:
    """One deal of a two-partnership double-deck match in plain numbers; a side whose total nears the target
    bids high and is set."""
    if rng.random() < 0.05:
        return {"passed": True}
    high = max(range(2), key=lambda side: totals[side])
    falling = totals[high] > CEILING
    bidder = high if falling else rng.randrange(2)
    bid = rng.randrange(150, 250) if falling else rng.randrange(50, 80)
    melds = [rng.choice((0, 4, 8, 10, 14, 20, 24, 30, 40)) for _ in range(2)]
    deal: dict[str, Any] = {"bidder": bidder, "bid": bid, "trump": rng.choice("CDHS")}
    if rng.random() < 0.03 and not falling:
        deal["thrown_in"] = True
        deal["sides"] = [{"meld": meld} for meld in melds]
        return deal
    taken = rng.randrange(0, 49)
    shares = [taken, 48 - taken]
    last = rng.randrange(2)
    sides = []
    for side in range(2):
        entry: dict[str, Any] = {"meld": melds[side], "tricks": shares[side]}
        if side == last:
            entry["last_trick"] = True
        sides.append(entry)
    deal["sides"] = sides
    return deal


def match_file(count: int, seed: int) -> dict[str, Any]:
    """A match file of ``count`` deals in plain numbers in which no side reaches the target."""
    sys.path.insert(0, str(ROOT))
    from scorekeeper.rules.house_rules import HouseRules
    from scorekeeper.rules.matchfile import FORMAT, deal_from_json
    from scorekeeper.rules.scoring import score_deal

    rules = HouseRules(target=TARGET)
    rng = random.Random(seed)
    totals = [0, 0]
    deals = []
    while len(deals) < count:
        data = numbers_deal(rng, totals)
        scores = score_deal(rules, deal_from_json(data, 2, rules=rules), 2).scores
        if any(total + score >= TARGET - 100 for total, score in zip(totals, scores)):
            continue
        totals = [total + score for total, score in zip(totals, scores)]
        deals.append(data)
    return {
        "format": FORMAT, "name": "A long evening in numbers",
        "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}],
        "rules": {"target": TARGET}, "deals": deals,
    }


# One code's process ---------------------------------------------------------------------------------------

def serve(root: str, file: str) -> None:
    """Answer the parent's requests (one a line on stdin: a figure's name and how many runs) with the CPU
    times of the runs, in milliseconds, as a JSON line."""
    import time

    sys.path.insert(0, root)
    import scorekeeper
    from scorekeeper import create_app
    from scorekeeper.rules.matchfile import loads_match
    from scorekeeper.rules.scoring import score_match

    if not Path(scorekeeper.__file__).resolve().is_relative_to(Path(root).resolve()):
        raise SystemExit(f"imported {scorekeeper.__file__}, not the code at {root}")
    text = Path(file).read_text()
    data = json.loads(text)
    match = loads_match(text)
    instance = tempfile.mkdtemp(prefix="bench_core_")
    app = create_app({"TESTING": True, "INSTANCE_PATH": instance, "SECRET_KEY": "bench",
                      "DATABASE_URL": f"sqlite:///{instance}/bench.sqlite", "RATELIMIT_ENABLED": False,
                      "SHEET_CACHE_BYTES": 0, "SHEET_CACHE_SIZE": 0})
    client = app.test_client()
    links = {}
    for size in SIZES:
        sent = dict(data, deals=data["deals"][:size], name=f"{size} deals")
        answer = client.post("/api/v1/matches", json=sent)
        if answer.status_code != 201:
            raise SystemExit(f"the API refused the match of {size} deals: {answer.status_code} {answer.get_data()!r}")
        links[size] = answer.get_json()["id"]

    def page(size: int) -> bytes:
        answer = client.get(f"/m/{links[size]}")
        if answer.status_code != 200:
            raise SystemExit(f"the sheet of {size} deals answered {answer.status_code}")
        return answer.get_data()

    runs = {
        "score": lambda: score_match(match),
        "read and score": lambda: score_match(loads_match(text)),
        **{f"sheet page, {size} deals": (lambda size=size: page(size)) for size in SIZES},
    }
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        name, count = line.rstrip("\n").rsplit(" ", 1)
        if name == "pages":
            pages = {size: re.sub(r"\d+-[0-9a-f]{12}", "ETAG", page(size).decode()) for size in SIZES}
            print(json.dumps(pages), flush=True)
            continue
        run = runs[name]
        times = []
        for _ in range(int(count)):
            start = time.process_time()
            run()
            times.append((time.process_time() - start) * 1000)
        print(json.dumps(times), flush=True)


# The parent ------------------------------------------------------------------------------------------------

class Code:
    """One code's process."""

    def __init__(self, label: str, root: Path, file: Path) -> None:
        self.label = label
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(root), str(file)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root)
        self.ask_line()

    def ask_line(self, request: str | None = None) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        if request is not None:
            self.process.stdin.write(request + "\n")
            self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the process of {self.label} stopped")
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def unpacked(rev: str, into: Path) -> Path:
    """The code of ``rev`` (its package, templates and static files) in a folder of its own."""
    into.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="63f2803", help="the release to compare with (default 63f2803)")
    parser.add_argument("--rounds", type=int, default=15, help="turns of each figure for each code (default 15)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the match's deals (default 1)")
    parser.add_argument("--pages", type=Path, help="a folder to write this code's pages into")
    args = parser.parse_args()
    runs = {"score": 10, "read and score": 5, "sheet page, 30 deals": 20, "sheet page, 200 deals": 5,
            "sheet page, 1000 deals": 2}
    with tempfile.TemporaryDirectory(prefix="bench_core_") as folder:
        file = Path(folder) / "match.json"
        file.write_text(json.dumps(match_file(max(SIZES), args.seed)))
        base_root = unpacked(args.base, Path(folder) / "base")
        codes = [Code(args.base, base_root, file), Code("this code", ROOT, file)]
        try:
            if args.pages is not None:
                args.pages.mkdir(parents=True, exist_ok=True)
                for size, html in codes[1].ask_line("pages 0").items():
                    (args.pages / f"sheet-{size}.html").write_text(html)
            times: dict[str, list[list[float]]] = {name: [[], []] for name in runs}
            for round_ in range(args.rounds):
                order = [0, 1] if round_ % 2 == 0 else [1, 0]
                for name, count in runs.items():
                    for index in order:
                        times[name][index] += codes[index].ask_line(f"{name} {count}")
        finally:
            for code in codes:
                code.close()
    print(f"{args.base} beside this code, {args.rounds} rounds; median CPU ms")
    width = max(len(name) for name in runs)
    print(f"{'':<{width}}  {args.base:>9}  {'this code':>9}  ratio  goal")
    for name in runs:
        base, this = (statistics.median(values) for values in times[name])
        ratio = this / base
        verdict = "met" if ratio <= GOALS[name] else "NOT met"
        print(f"{name:<{width}}  {base:9.2f}  {this:9.2f}  {ratio:5.2f}  ≤ {GOALS[name]:.2f} {verdict}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        serve(sys.argv[2], sys.argv[3])
    else:
        main()
