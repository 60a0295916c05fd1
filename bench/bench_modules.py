"""How the page scripts that import our ES modules are sent, measured on a slow phone: page bytes, requests and
the time to a usable sheet, way beside way.

The ways compared, each served by this checkout's app (waitress, in a process of its own, a new SQLite file
with seeds/double-deck-in-progress.json, the sheet cache off so that every page is drawn as it is sent):

- ``esbuild``: esbuild's bundles, as committed in static/bundled/ (npm run bundle), the sheet naming the
  deal entry panel's bundle (what its first tap loads) with ``<link rel="modulepreload">``;
- ``modules``: no bundle: each file minified on its own by esbuild, the browser fetching each module it
  imports, and the sheet naming the entry panel's script and every module it imports with
  ``<link rel="modulepreload">``, so that the phone fetches them side by side as the page loads.

A run: a new browser context (nothing kept, the service worker blocked so that only the page's own requests
count), Debian's Chromium at 390x844 with touch, the CPU slowed 4x and the network of a slow phone (150 ms
round trip, 1.6 Mbit/s down, 750 kbit/s up) through the DevTools protocol; the sheet is opened, and once it is
loaded "+ Add deal" is tapped; then the same again in the same context (a return visit, with what the
browser kept from the first). Usable: the entry panel's deal form on screen (ms from the navigation's start,
as the page counts it). Bytes: every response's bytes on the wire (headers included), and requests: how many,
both counted once nothing has started or ended for 1.5 s after that (what the page went on to fetch counts
too; the live sheet's looks, …/live, do not). The ways take turns run by run; medians are printed.

    python bench/bench_modules.py --runs 5
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright
from servers import BARE_PATH, ROOT, app, free_port, wait_until_up

CHROMIUM = "/usr/bin/chromium"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
STATIC = ROOT / "static"
SEED = ROOT / "seeds" / "double-deck-in-progress.json"
WAYS = ["esbuild", "modules"]
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
                         "service_workers": "block"}
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8,
           "uploadThroughput": 750_000 / 8}
CPU_SLOWDOWN = 4
# A page script that imports our modules: the ones sent bundled.
IMPORTS_OURS = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']\.{1,2}/""", re.M)


def module_entries() -> list[str]:
    return sorted(path.name for path in STATIC.glob("*.js") if IMPORTS_OURS.search(path.read_text(encoding="utf-8")))


def minified_modules(folder: Path) -> dict[str, bytes]:
    """Every script under static/ minified on its own by esbuild (imports kept), by its path there."""
    sources = [str(path) for path in sorted(STATIC.rglob("*.js")) if "bundled" not in path.parts]
    subprocess.run([str(ESBUILD), *sources, "--minify", "--legal-comments=none", "--charset=utf8",
                    f"--outdir={folder}", f"--outbase={STATIC}", "--log-level=warning"], check=True)
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*.js")}


def module_graph(entry: str, folder: Path) -> list[str]:
    """The files under static/ that ``entry`` imports, directly or not (esbuild's metafile), entry excluded."""
    meta = folder / f"{entry}.meta.json"
    subprocess.run([str(ESBUILD), str(STATIC / entry), "--bundle", "--format=esm", f"--metafile={meta}",
                    f"--outfile={folder / 'graph.js'}", "--log-level=warning"], check=True, cwd=ROOT)
    inputs = json.loads(meta.read_text(encoding="utf-8"))["inputs"]
    found = [(ROOT / name).resolve().relative_to(STATIC).as_posix() for name in inputs]
    return sorted(name for name in found if name != entry)


def serve(way: str, port: int, config: str, folder: str) -> None:
    """The server process of one way: the app with the scripts it sends replaced as that way sends them."""
    from flask import request, url_for
    from waitress import serve as waitress_serve
    from werkzeug.wrappers import Response

    application = app(config)
    files = application.extensions["scorekeeper.static"]
    graph: list[str] = []
    if way == "esbuild":
        for name in module_entries():
            files.sent[name] = ((STATIC / "bundled" / name).read_bytes(), "text/javascript")
    else:
        for name, body in minified_modules(Path(folder) / "modules").items():
            if name in module_entries() or name.startswith("js/"):
                files.sent[name] = (body, "text/javascript")
        graph = module_graph("entry.js", Path(folder))
    with application.test_request_context():
        # each module at the address it is imported by: the entry's as phone.js names it, the others' bare
        preload = "".join(f'<link rel="modulepreload" href="{address}">' for address in [
            url_for("static", filename="entry.js"), *(f"/static/{name}" for name in graph)])

    def preload_panel(response: Response) -> Response:
        """The sheet (the page that names the entry panel's script) names its modules too."""
        if response.mimetype != "text/html" or response.direct_passthrough or request.method != "GET":
            return response
        body = response.get_data()
        packed = body.startswith(b"\x1f\x8b")  # the sheet's pages come compressed
        page = (gzip.decompress(body) if packed else body).decode()
        if "data-entry-panel" in page:
            page = page.replace("</head>", preload + "</head>", 1)
            response.set_data(gzip.compress(page.encode(), 6) if packed else page.encode())
        return response

    application.after_request(preload_panel)  # runs before the app's own (compression)
    waitress_serve(application, host="127.0.0.1", port=port, threads=4, _quiet=True)


@contextmanager
def served(way: str, folder: Path) -> Iterator[str]:
    port = free_port()
    config = json.dumps({"DATABASE_URL": f"sqlite:///{folder / f'{way}.sqlite'}", "SECRET_KEY": "bench",
                         "INSTANCE_PATH": str(folder), "RATELIMIT_ENABLED": False, "SHEET_CACHE_BYTES": 0})
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(Path(__file__).parent)])}
    with (folder / f"{way}.log").open("ab") as log:
        server = subprocess.Popen([sys.executable, __file__, "serve", way, str(port), config, str(folder)],
                                  env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"http://127.0.0.1:{port}{BARE_PATH}", server)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def new_match(base: str) -> str:
    request = urllib.request.Request(f"{base}/api/v1/matches", SEED.read_bytes(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - the bench's own server
        return f"{base}/m/{json.load(response)['id']}"


class Traffic:
    """The page's requests as the DevTools protocol reports them: how many and their bytes, and when the last
    one started or ended. The live sheet's looks (…/live, every 1.5 s while the sheet shows) are left out:
    they are the same whatever the scripts, and never let the network rest."""

    def __init__(self, cdp: Any) -> None:
        self.requests, self.bytes, self.last = 0, 0.0, time.monotonic()
        self.counted: set[str] = set()
        cdp.on("Network.requestWillBeSent", self.sent)
        cdp.on("Network.loadingFinished", self.finished)
        cdp.on("Network.loadingFailed", lambda _: setattr(self, "last", time.monotonic()))

    def sent(self, event: dict[str, Any]) -> None:
        if urlsplit(event["request"]["url"]).path.endswith("/live"):
            return
        self.last = time.monotonic()
        if event["requestId"] not in self.counted:  # a redirect goes on under the same id
            self.requests += 1
            self.counted.add(event["requestId"])

    def finished(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.counted:
            self.bytes += event["encodedDataLength"]
            self.last = time.monotonic()

    def settle(self, page: Any, quiet: float = 1.5) -> None:
        """Wait until nothing has started or ended for ``quiet`` seconds: what the page fetches after the tap
        counts too."""
        while time.monotonic() - self.last < quiet:
            page.wait_for_timeout(100)  # the protocol's events arrive while Playwright waits


def visit(page: Any, sheet: str, traffic: Traffic) -> dict[str, float]:
    """Open the sheet and tap "+ Add deal": ms to the page's load and to the panel's form, bytes and requests."""
    traffic.requests, traffic.bytes = 0, 0.0
    page.goto(sheet, wait_until="load")
    loaded = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
    page.locator("a.add-deal").first.tap()
    page.locator("dialog[open] form.deal-form").wait_for(state="visible", timeout=60_000)
    usable = page.evaluate("performance.now()")
    traffic.settle(page)
    return {"load_ms": loaded, "usable_ms": usable, "bytes": traffic.bytes, "requests": traffic.requests}


def one_run(browser: Any, sheet: str) -> dict[str, dict[str, float]]:
    """A first visit on a slow phone with nothing kept, then a return visit with what the first one kept."""
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        traffic = Traffic(cdp)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", NETWORK)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        return {"first": visit(page, sheet, traffic), "return": visit(page, sheet, traffic)}
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each way (5)")
    args = parser.parse_args()
    results: dict[str, list[dict[str, dict[str, float]]]] = {way: [] for way in WAYS}
    with ExitStack() as stack, sync_playwright() as playwright:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        sheets = {way: new_match(stack.enter_context(served(way, folder))) for way in WAYS}
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        for way in WAYS:  # once each before counting: every server has drawn the sheet and read its files
            one_run(browser, sheets[way])
        for _ in range(args.runs):
            for way in WAYS:
                results[way].append(one_run(browser, sheets[way]))
        browser.close()
    print(f"{args.runs} runs each; CPU {CPU_SLOWDOWN}x slower, {NETWORK['latency']} ms round trip, 1.6 Mbit/s down;"
          " medians")
    print(f"{'way':<9} {'visit':<7} {'bytes':>7} {'requests':>9} {'load ms':>8} {'usable ms':>10}")
    for way, runs in results.items():
        for kind in ("first", "return"):
            median = {key: statistics.median(run[kind][key] for run in runs) for key in runs[0][kind]}
            print(f"{way:<9} {kind:<7} {median['bytes']:>7.0f} {median['requests']:>9.0f} {median['load_ms']:>8.0f}"
                  f" {median['usable_ms']:>10.0f}")

if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
    else:
        main()
