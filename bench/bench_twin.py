"""The browser twin's budgets: its size on the wire and how long Chromium takes to recompute a match.

Size: the twin as pages load it, one file (static/twin.js bundled with every module of
static/js/rules/ by scorekeeper/bundle.py, as the app sends it), gzipped as the app sends it (level 6,
Flask-Compress's default); goal at most 30 KB. The modules one by one are listed beside it, and the
meld calculator's script (static/meld.js with the part of the twin it imports).
Time: the same bundle, imported by Chromium from the bytes the app sends; a 100-deal match
(two partnerships, double deck, every input form, as bench_recompute.py builds
it) read and scored from the facts in Debian's Chromium at phone size: the median of many timed batches
after a warm-up; goal at most 5 ms. Each read makes new deals, so every deal is worked out each time;
the sheet recomputed again from the same deals (each deal's outcome remembered) is shown beside it.
The sheet the twin works out is checked against the Python core's first.

    .venv/bin/python bench/bench_twin.py [--deals 100] [--batches 200]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import statistics
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench_recompute import build_match_file
from playwright.sync_api import sync_playwright

from scorekeeper.assets import minified
from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.rules.scoring import score_match

STATIC = Path(__file__).resolve().parent.parent / "static"
ENTRY = "js/rules/index.js"
SIZE_GOAL = 30 * 1024
TIME_GOAL_MS = 5.0
IMPORT = re.compile(r"""(?:import|export)\s[^"']*?from\s+["'](\./[^"']+)["']""")

TIMED = """async ([data, batches, perBatch]) => {
    const rules = await import("/twin.js");
    const run = () => rules.scoreMatch(rules.matchFromJson(data));
    const sheet = run();
    for (let i = 0; i < 50; i += 1) run();  // warm-up: let the engine compile the hot paths
    const times = [];
    for (let b = 0; b < batches; b += 1) {
        const start = performance.now();
        for (let i = 0; i < perBatch; i += 1) run();
        times.push((performance.now() - start) / perBatch);
    }
    const scoreOnly = [];
    const match = rules.matchFromJson(data);
    for (let b = 0; b < batches; b += 1) {
        const start = performance.now();
        for (let i = 0; i < perBatch; i += 1) rules.scoreMatch(match);
        scoreOnly.push((performance.now() - start) / perBatch);
    }
    return {sheet, times, scoreOnly};
}"""


def module_graph(entry: str) -> list[str]:
    """``entry`` and every module it imports, directly or not, by path under static/."""
    seen: list[str] = []
    todo = [entry]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        folder = path.rsplit("/", 1)[0]
        todo += [f"{folder}/{name[2:]}" for name in IMPORT.findall((STATIC / path).read_text(encoding="utf-8"))]
    return sorted(seen)


def gzipped(path: str) -> int:
    return len(gzip.compress((STATIC / path).read_bytes(), compresslevel=6, mtime=0))


SENT = minified(STATIC)  # the pages' scripts as the app sends them, bundles made


class QuietFiles(SimpleHTTPRequestHandler):
    """The static folder, with the top-level scripts as the app sends them (bundled)."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the name the base class uses
        pass

    def do_GET(self) -> None:  # noqa: N802 - the name the base class uses
        name = self.path.lstrip("/")
        if name not in SENT:
            super().do_GET()
            return
        body, mimetype = SENT[name]
        self.send_response(200)
        self.send_header("Content-Type", mimetype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve_static() -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietFiles, directory=str(STATIC)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def time_in_chromium(data: dict[str, Any], batches: int, per_batch: int) -> dict[str, Any]:
    server, base = serve_static()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(f"{base}/js/rules/")
            result: dict[str, Any] = page.evaluate(TIMED, [data, batches, per_batch])
            result["version"] = browser.version
            browser.close()
            return result
    finally:
        server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals in the match (default 100)")
    parser.add_argument("--batches", type=int, default=200, help="timed batches, median kept (default 200)")
    parser.add_argument("--per-batch", type=int, default=10, help="recomputes in one timed batch (default 10)")
    args = parser.parse_args()

    modules = module_graph(ENTRY)
    sizes = {path: gzipped(path) for path in modules}
    raw = sum((STATIC / path).stat().st_size for path in modules)
    total = sum(sizes.values())
    print(f"The twin's modules one by one ({len(modules)}), gzipped at level 6:")
    for path, size in sizes.items():
        print(f"  static/{path:<24} {size:>6,} bytes")
    print(f"  total {total:,} bytes gzipped ({raw:,} bytes plain)")
    print("As pages load it, one file as the app sends it, gzipped at level 6:")
    for name in ("twin.js", "meld.js"):
        body = SENT[name][0]
        packed = len(gzip.compress(body, compresslevel=6, mtime=0))
        print(f"  static/{name:<10} {packed:>6,} bytes gzipped ({len(body):,} bytes plain); goal at most "
              f"{SIZE_GOAL:,}: {'within' if packed <= SIZE_GOAL else 'OVER'}")

    data = build_match_file(args.deals, random.Random(1))
    result = time_in_chromium(data, args.batches, args.per_batch)
    python_sheet = score_match(match_from_json(data)).to_json()
    if json.dumps(result["sheet"], sort_keys=True) != json.dumps(python_sheet, sort_keys=True):
        raise SystemExit("the twin's sheet differs from the Python core's")
    read_and_score = statistics.median(result["times"])
    score_only = statistics.median(result["scoreOnly"])
    fastest = min(result["times"])
    print(f"A {args.deals}-deal match in Chromium {result['version']}, median of {args.batches} batches of "
          f"{args.per_batch} after 50 warm-up runs:")
    print(f"  read the match file and recompute the sheet: {read_and_score:.3f} ms "
          f"(goal at most {TIME_GOAL_MS} ms: {'within' if read_and_score <= TIME_GOAL_MS else 'OVER'})")
    print(f"  recompute it again, same deals (remembered):  {score_only:.3f} ms")
    print(f"  fastest batch, read and recompute:            {fastest:.3f} ms   "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores: the median rises with it)")


if __name__ == "__main__":
    main()
