"""Page budget: every main page loads in at most 4 requests and under 60 KB, measured in Chromium.

Bytes are the uncompressed bodies of every response the page needed (HTML, CSS, scripts, images,
icons), loaded with an empty cache. The figures go to test-artifacts/page-budget.txt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from .conftest import ARTIFACTS, MAIN_PAGE_NAMES, SUMMARY, MainPages, Phones

pytestmark = pytest.mark.browser

MAX_BYTES = 60_000
MAX_REQUESTS = 4


@dataclass
class PageWeight:
    name: str
    path: str
    by_type: dict[str, int] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.by_type.values())

    def row(self) -> str:
        kinds = ", ".join(f"{kind} {size:,}" for kind, size in sorted(self.by_type.items()))
        return f"{self.name:<12} {len(self.requests):>2} requests {self.total:>7,} bytes   ({kinds})"


def weigh(page: Any, main_pages: MainPages, name: str) -> PageWeight:
    """Load one main page and add up what it fetched."""
    if name == "home":
        page.goto(main_pages.paths()["sheet"])  # the home page lists the matches this phone has seen
        page.wait_for_load_state("networkidle")
    finished: list[Any] = []
    failed: list[str] = []
    page.on("requestfinished", lambda request: finished.append(request))
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto(main_pages.paths()[name], wait_until="load")
    page.wait_for_load_state("networkidle")  # late requests such as the tab icon
    weight = PageWeight(name, main_pages.paths()[name])
    for request in finished:
        response = request.response()
        assert response is not None, request.url
        kind = request.resource_type
        weight.by_type[kind] = weight.by_type.get(kind, 0) + len(response.body())
        weight.requests.append(f"{response.status} {request.url}")
    assert not failed, f"{name}: requests failed: {failed}"
    return weight


def test_main_pages_stay_within_the_budget(phones: Phones, main_pages: MainPages) -> None:
    weights = []
    for name in MAIN_PAGE_NAMES:
        page = phones.open()  # a fresh phone: nothing cached
        weights.append(weigh(page, main_pages, name))
        page.context.close()

    report = [
        f"Page budget: at most {MAX_REQUESTS} requests and {MAX_BYTES:,} bytes a page (uncompressed bodies,",
        "empty cache, Chromium at 390x844). Sample match: 20 deals, two sides.",
        "",
        *(weight.row() for weight in weights),
        "",
        *(f"{weight.name}: {', '.join(weight.requests)}" for weight in weights),
    ]
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "page-budget.txt").write_text("\n".join(report) + "\n", encoding="utf-8")
    SUMMARY.extend(report[: 3 + len(weights)])

    over = [w.row() for w in weights if w.total >= MAX_BYTES or len(w.requests) > MAX_REQUESTS]
    assert not over, "over budget:\n" + "\n".join(over)
    assert all(w.by_type.get("document") for w in weights), "a page came without its HTML"
