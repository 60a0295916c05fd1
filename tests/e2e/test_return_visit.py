"""Small and cached: a return visit costs the phone one request per page (the page itself), counted where
it counts, at the server; and a first start on an empty phone offers the sample matches."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from .conftest import PHONE, ThreadedServer
from .offline import wait_for_worker, wait_until_kept
from .samples import full_match_file
from .table import follow, import_match

pytestmark = pytest.mark.browser


class CountingServer:
    """The app served on its own port, counting the requests that reach it."""

    def __init__(self, folder: Path) -> None:
        from scorekeeper import create_app

        self.app = create_app({"DATABASE_URL": f"sqlite:///{folder / 'counted.sqlite'}", "SECRET_KEY": "counted",
                               "RATELIMIT_ENABLED": False})
        self.paths: list[str] = []
        inner = self.app.wsgi_app

        def counted(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
            self.paths.append(environ.get("PATH_INFO", ""))
            return inner(environ, start_response)

        self.app.wsgi_app = counted  # type: ignore[method-assign]
        self.served = ThreadedServer(self.app, threads=2, name="counted-app")
        self.base_url = self.served.base_url


@pytest.fixture
def counting_server(tmp_path: Path) -> Iterator[CountingServer]:
    server = CountingServer(tmp_path)
    yield server
    server.served.stop()


def test_a_return_visit_asks_the_server_for_the_page_only(browser: Browser, counting_server: CountingServer) -> None:
    context = browser.new_context(base_url=counting_server.base_url, **PHONE)
    try:
        page = context.new_page()
        sheet = import_match(page, full_match_file())
        public_id = sheet.rsplit("/", 1)[1]
        wait_for_worker(page)  # the sheet's next visit goes through the service worker, which keeps its kit
        pages = ["/", f"/m/{public_id}", f"/m/{public_id}/rules", "/rules", "/meld", f"/m/{public_id}/more",
                 "/matches/new", f"/m/{public_id}/deals/new"]
        for path in pages:  # the first visit: each page with its stylesheet and scripts
            page.goto(path)
        assert any(path.startswith("/static/") for path in counting_server.paths)
        wait_until_kept(page, f"/m/{public_id}/outbox")  # the service worker holds the sheet's kit (static/sw.js)
        for path in pages:
            counting_server.paths.clear()
            page.goto(path)
            page.wait_for_load_state("load")
            asked = [seen for seen in counting_server.paths if not seen.endswith("/live")]  # a live look, not the page
            assert asked == [path], f"a return visit to {path} asked for {counting_server.paths}"
        counting_server.paths.clear()
        page.get_by_role("link", name="My matches").first.click()
        expect(page.get_by_role("heading", name="Matches on this device")).to_be_visible()
        assert counting_server.paths == ["/"]
    finally:
        context.close()


def test_an_empty_phone_is_offered_the_sample_matches(browser: Browser, counting_server: CountingServer,
                                                       shoot: Callable[..., Path]) -> None:
    context = browser.new_context(base_url=counting_server.base_url, **PHONE)
    try:
        page = context.new_page()
        page.goto("/")
        offer = page.get_by_role("region", name="Try a sample match")
        expect(offer).to_be_visible()
        shoot(page, "home-samples", full_page=False)
        first = offer.get_by_role("button").first
        name = first.locator("span").first.inner_text()
        follow(page, first)
        expect(page.locator("h1.match-title")).to_have_text(name)
        expect(page.get_by_role("link", name=re.compile(r"Add deal \d+"))).to_be_visible()
        page.goto("/")
        expect(page.locator(".match-list .match-name")).to_have_text([name])
        expect(page.get_by_role("region", name="Try a sample match")).to_have_count(0)
    finally:
        context.close()
