"""Phones with the service worker: wait until it keeps a page, and a phone whose browser profile lives on
disk, so that it can be closed and opened again (offline or not) with what it kept.

    with persistent_phone(browser, live_app, guard, tmp_path / "profile") as page:   # online
        page.goto(sheet); wait_until_kept(page, sheet)
    with persistent_phone(browser, live_app, guard, tmp_path / "profile", offline=True) as page:
        page.goto(sheet)                                                               # from the worker's cache
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from .conftest import CHROMIUM_ARGS, PHONE, Guard, LiveApp, chromium_path

# wait_for_function takes a promise for a truthy answer: each predicate below starts an asynchronous look
# (when none is running) and answers with what the last one found.
KEPT = """(address) => {
    const state = (window.__kept ??= {})[address] ??= {busy: false, found: false};
    if (!state.busy && !state.found) {
        state.busy = true;
        caches.match(new URL(address, location.href).href, {ignoreVary: true})
            .then((found) => { state.found = Boolean(found); state.busy = false; });
    }
    return state.found;
}"""
WORKER_READY = """() => {
    const state = window.__worker ??= {busy: false, active: false};
    if (!state.busy && !state.active) {
        state.busy = true;
        navigator.serviceWorker.getRegistration().then((registration) => {
            state.active = Boolean(registration && registration.active);
            state.busy = false;
        });
    }
    return state.active;
}"""
ONE_NEW_CACHE = """(old) => {
    const state = window.__caches ??= {busy: false, names: []};
    if (!state.busy) {
        state.busy = true;
        caches.keys().then((names) => { state.names = names; state.busy = false; });
    }
    return state.names.length === 1 && state.names[0] !== old;
}"""
KEPT_WITH = """([address, text]) => {
    const state = (window.__keptWith ??= {})[address + text] ??= {busy: false, found: false};
    if (!state.busy && !state.found) {
        state.busy = true;
        caches.match(new URL(address, location.href).href, {ignoreVary: true})
            .then((found) => (found ? found.text() : ""))
            .then((html) => { state.found = html.includes(text); state.busy = false; });
    }
    return state.found;
}"""
CACHE_NAMES = """async () => await caches.keys()"""


def wait_for_worker(page: Page) -> None:
    """Until the service worker is active for this page's site."""
    page.wait_for_function(WORKER_READY)


def wait_until_kept(page: Page, address: str) -> None:
    """Until the service worker holds a copy of ``address`` (a path or a full URL): then it opens offline."""
    wait_for_worker(page)
    page.wait_for_function(KEPT, arg=address)


def wait_until_kept_with(page: Page, address: str, text: str) -> None:
    """Until the service worker's copy of ``address`` holds ``text`` (the copy follows the server's page)."""
    wait_for_worker(page)
    page.wait_for_function(KEPT_WITH, arg=[address, text])


def wait_for_new_cache(page: Page, old: str) -> None:
    """Until the only cache left is another than ``old``: a new release took over."""
    page.wait_for_function(ONE_NEW_CACHE, arg=old)


def cache_names(page: Page) -> list[str]:
    names: list[str] = page.evaluate(CACHE_NAMES)
    return names


@contextmanager
def persistent_phone(browser: Browser, app: LiveApp, guard: Guard, profile: Path, *, offline: bool = False,
                     **options: Any) -> Iterator[Page]:
    """A phone whose storage (cookies, the service worker, its caches, IndexedDB) is kept in ``profile``:
    opened again with the same folder, it finds what it kept; ``offline=True`` opens it with no network.
    Its pages are guarded like every other phone's; the context is closed on leaving."""
    executable = chromium_path()
    assert executable is not None
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=executable, args=CHROMIUM_ARGS, base_url=app.base_url, offline=offline,
        **{**PHONE, **options})
    try:
        context.set_default_timeout(10_000)
        context.on("request", guard.request)
        for opened in context.pages:  # the window a persistent context opens with
            guard.watch(opened)
        context.on("page", guard.watch)
        yield context.pages[0] if context.pages else context.new_page()
    finally:
        context.close()
