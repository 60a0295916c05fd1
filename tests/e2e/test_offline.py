"""Offline: after one visit online, a match's pages, the meld calculator and the rules open with no network,
from the service worker's cache; a page never opened shows the offline page; a new release replaces the
old cache and keeps the pages; a phone closed and opened again offline still has them."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.assets import StaticFiles, static_files

from .conftest import Guard, LiveApp, MainPages, Phones
from .offline import cache_names, persistent_phone, wait_for_new_cache, wait_for_worker, wait_until_kept

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

VISITED = ("sheet", "deal-new", "house-rules", "meld", "rules")


def heading(page: Page) -> str:
    return page.locator("main h1").first.inner_text()


def test_pages_opened_once_open_with_no_network(phones: Phones, guard: Guard, main_pages: MainPages) -> None:
    page = phones.open()
    headings = {}
    for name in VISITED:
        main_pages.visit(page, name)
        headings[name] = heading(page)
        wait_until_kept(page, main_pages.paths()[name])

    with guard.offline(page):
        for name in VISITED:
            answer = page.goto(main_pages.paths()[name])
            assert answer is not None and answer.from_service_worker, name
            expect(page.locator("main h1").first).to_have_text(headings[name])
        # The sheet shows its deals; the deal form its Save button; the calculator its cards.
        page.goto(main_pages.paths()["sheet"])
        expect(page.get_by_role("link", name="Edit deal 6")).to_be_attached()
        page.goto(main_pages.paths()["deal-new"])
        expect(page.get_by_role("button", name="Save deal")).to_be_visible()
        page.goto(main_pages.paths()["meld"])
        expect(page.locator("[data-code] .face-add").first).to_be_visible()  # its script and stylesheet kept

        page.goto(main_pages.paths()["import"])  # never opened on this phone
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
        expect(page.get_by_role("link", name="My matches").first).to_be_visible()


def test_a_new_release_replaces_the_old_cache_and_keeps_the_pages(phones: Phones, guard: Guard, live_app: LiveApp,
                                                                     main_pages: MainPages) -> None:
    page = phones.open()
    sheet = main_pages.paths()["sheet"]
    page.goto(sheet)
    wait_until_kept(page, sheet)
    [old] = cache_names(page)

    # A deploy with a changed static file: a new release, so /sw.js changes and the browser installs it.
    files = static_files(live_app.app)
    live_app.app.extensions["scorekeeper.static"] = StaticFiles({**files.versions, "new-file.js": "1" * 12},
                                                                files.sent)
    try:
        assert files.release() not in page.request.get("/sw.js").text()
        page.evaluate("() => navigator.serviceWorker.getRegistration().then((registration) => registration.update())")
        wait_for_new_cache(page, old)
    finally:
        live_app.app.extensions["scorekeeper.static"] = files
    wait_until_kept(page, sheet)  # carried over into the new cache
    with guard.offline(page):
        answer = page.goto(sheet)
        assert answer is not None and answer.from_service_worker
        expect(page.get_by_role("link", name="Edit deal 6")).to_be_attached()


def test_a_phone_closed_and_opened_again_offline_still_opens_the_sheet(
        browser: Browser, live_app: LiveApp, guard: Guard, main_pages: MainPages, tmp_path: Path) -> None:
    profile = tmp_path / "phone"
    sheet = main_pages.paths()["sheet"]
    with persistent_phone(browser, live_app, guard, profile) as page:
        page.goto(sheet)
        title = heading(page)
        wait_until_kept(page, sheet)
    with persistent_phone(browser, live_app, guard, profile, offline=True) as page:
        # With no network these fail, as they should: the worker's update check and the sheet's live part.
        guard.offline_urls.update({live_app.base_url + "/sw.js", live_app.base_url + sheet + "/live"})
        page.goto(sheet)
        wait_for_worker(page)
        expect(page.locator("main h1").first).to_have_text(title)
        expect(page.get_by_role("link", name="Edit deal 6")).to_be_attached()
    assert not guard.problems(), guard.problems()
