"""The rules core's twin in Chromium: loaded from the app's own hashed static address, it gives every
shared vector the Python core's answer, and its relative imports resolve to files the app serves.

The vector runner (tests/js/run_vectors.mjs) and the vectors are handed to the page under /__twin__/ by
the test itself; the twin comes from the live app, as a page will load it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Response, Route

from scorekeeper.assets import IMMUTABLE, digests

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
TEST_FILES = {
    "/__twin__/run_vectors.mjs": (ROOT / "tests" / "js" / "run_vectors.mjs", "text/javascript"),
    **{f"/__twin__/{path.name}": (path, "application/json") for path in (ROOT / "tests" / "vectors").glob("*.json")},
}
MODULES = sorted(path.name for path in (ROOT / "static" / "js" / "rules").glob("*.js"))

RUN_EVERY_VECTOR = """async (entry) => {
    const rules = await import(entry);
    const runner = await import("/__twin__/run_vectors.mjs");
    const reports = {};
    for (const kind of runner.KINDS) {
        const vectors = await (await fetch(`/__twin__/${kind}.json`)).json();
        const report = runner.runKind(kind, vectors, rules);
        reports[kind] = {count: report.count, failures: report.failures.slice(0, 3), failed: report.failures.length};
    }
    return reports;
}"""


def hashed_entry() -> str:
    """The address a page's template gives the twin: ``url_for("static", filename="js/rules/index.js")``."""
    return f"/static/js/rules/index.js?v={digests(ROOT / 'static')['js/rules/index.js']}"


def serve_test_files(page: Page) -> None:
    def fulfil(route: Route) -> None:
        path, content_type = TEST_FILES[urlsplit(route.request.url).path]
        route.fulfill(path=path, content_type=content_type)

    page.route("**/__twin__/**", fulfil)


def test_the_twin_gives_every_vector_the_core_answer_in_chromium(page: Page) -> None:
    page.goto("/")
    serve_test_files(page)
    reports: dict[str, Any] = page.evaluate(RUN_EVERY_VECTOR, hashed_entry())
    assert set(reports) == {"meld", "matches", "rule_changes", "match_files", "readings", "dealers", "messages",
                            "previews"}
    assert sum(report["count"] for report in reports.values()) >= 2000
    failed = {kind: report for kind, report in reports.items() if report["failed"]}
    assert not failed, failed


def test_the_twin_bundled_in_one_file_gives_every_vector_the_core_answer_in_chromium(page: Page) -> None:
    """static/twin.js as the app sends it: every module of the twin in one file (scorekeeper/bundle.py)."""
    loaded: list[str] = []
    page.on("request", lambda request: loaded.append(urlsplit(request.url).path))
    page.goto("/")
    serve_test_files(page)
    reports: dict[str, Any] = page.evaluate(RUN_EVERY_VECTOR, "/static/twin.js")
    assert sum(report["count"] for report in reports.values()) >= 2000
    failed = {kind: report for kind, report in reports.items() if report["failed"]}
    assert not failed, failed
    assert "/static/twin.js" in loaded and not any(path.startswith("/static/js/rules/") for path in loaded)


def test_relative_imports_of_the_hashed_entry_load_every_module_fresh(page: Page) -> None:
    answers: dict[str, Response] = {}
    page.on("response", lambda response: answers.setdefault(response.url.split("/static/js/rules/", 1)[-1], response)
            if "/static/js/rules/" in response.url else None)
    page.goto("/")
    exported = page.evaluate("async (entry) => Object.keys(await import(entry)).sort()", hashed_entry())
    assert {"scoreMatch", "previewRules", "matchFromJson", "bestMelds"} <= set(exported)
    entry = next(url for url in answers if url.startswith("index.js?v="))
    assert answers[entry].status == 200
    assert answers[entry].header_value("cache-control") == IMMUTABLE
    imported = sorted(url for url in answers if url != entry)
    assert imported == [name for name in MODULES if name != "index.js"]  # every module, by its plain address
    for name in imported:
        assert answers[name].status == 200, name
        assert answers[name].header_value("content-type").startswith(("text/javascript", "application/javascript"))
        # Asked for without the digest, a module is never kept as immutable: a changed file is fetched anew.
        assert "immutable" not in (answers[name].header_value("cache-control") or ""), name
