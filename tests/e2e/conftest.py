"""Browser tests: the app on a free local port, Debian's Chromium at phone size, strict page guards.

One Chromium per test session, a fresh browser context per phone. Every page is guarded: a console
error, an uncaught script error or a request to any host but the app's fails the test.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    Response,
    sync_playwright,
)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

# No --disable-features here: Chromium keeps only the last one given, and Playwright passes its own list, which
# already turns off the back-forward cache (with --disable-back-forward-cache: no test goes back a page, so a page
# left need not be kept frozen) and PaintHolding (a page's first paint held for the next one); ours would drop
# the rest of Playwright's list (the optimization hints and network time queries at start among them).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # No host but the app's answers: any other name fails to resolve (the guard reports who asked for it).
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 3,
}
# The same phone with the page zoomed to 200%: half the CSS pixels, twice the device pixels per CSS pixel.
PHONE_AT_200_PERCENT: dict[str, Any] = {
    **PHONE,
    "viewport": {"width": 195, "height": 422},
    "device_scale_factor": 6,
}
# The smallest phone the app is made for, 320×640 at 2×, with its text at 200%.
SMALL_PHONE_AT_200_PERCENT: dict[str, Any] = {
    **PHONE,
    "viewport": {"width": 160, "height": 320},
    "device_scale_factor": 4,
}


def in_each_scheme(page: Page) -> Iterator[str]:
    """Show the page in the light colour scheme, then in the dark one (switched in place, no reload), and
    leave it light: what a test checks in the loop's body it checks in both."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        yield scheme
    page.emulate_media(color_scheme="light")


IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
# Lines a test wants shown at the end of the run (the page-budget figures).
SUMMARY: list[str] = []
INSTALL_HINT = "install Debian's Chromium with `apt-get install chromium chromium-headless-shell`"


@pytest.fixture(autouse=True)
def summary_lines_go_with_the_report(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test's SUMMARY lines travel with its report (from an xdist worker too): tests/conftest.py shows them."""
    before = len(SUMMARY)
    yield
    request.node.user_properties.extend(("summary", line) for line in SUMMARY[before:])


def missing_browser(reason: str) -> NoReturn:
    """Skip on a developer's machine, fail in CI: a CI run without its browser tests proves nothing."""
    if IN_CI:
        pytest.fail(f"browser tests cannot run: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


def chromium_path(*, headless_shell: bool = True) -> str | None:
    """Debian's Chromium (SCOREKEEPER_CHROMIUM names another). Its headless shell (the package
    chromium-headless-shell: the same engine without the desktop browser around it) when installed, as it
    costs about half the CPU a test; the full browser where a test needs what only it has, or when the
    shell is missing."""
    candidates = [os.environ.get("SCOREKEEPER_CHROMIUM", "")]
    if headless_shell:
        candidates.append(shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell")
    candidates.append(shutil.which("chromium") or "/usr/bin/chromium")
    return next((found for found in candidates if found and os.access(found, os.X_OK)), None)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


def launch(playwright: Playwright, *, headless_shell: bool) -> Browser:
    executable = chromium_path(headless_shell=headless_shell)
    if executable is None:
        missing_browser(f"no Chromium found; {INSTALL_HINT}")
    try:
        return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    except Exception as error:  # noqa: BLE001 - any launch failure means the same thing here
        missing_browser(f"Chromium at {executable} does not start ({error}); {INSTALL_HINT}")


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = launch(playwright, headless_shell=True)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def full_browser(playwright: Playwright) -> Iterator[Browser]:
    """The full Chromium, for the tests marked ``full_chromium`` (the screen wake lock: the shell has none)."""
    chromium = launch(playwright, headless_shell=False)
    yield chromium
    chromium.close()


@dataclass
class LiveApp:
    """The app under test, served by waitress on 127.0.0.1."""

    base_url: str
    app: Any = None  # the Flask app itself, for a test that stands for a new release

    @property
    def netloc(self) -> str:
        return urlsplit(self.base_url).netloc


class ThreadedServer:
    """A WSGI app served by waitress on 127.0.0.1 from a thread of this process, until ``stop``."""

    def __init__(self, app: Any, threads: int, name: str) -> None:
        from waitress import create_server

        self.server = create_server(app, host="127.0.0.1", port=0, threads=threads)
        self.thread = threading.Thread(target=self.server.run, name=name, daemon=True)
        self.thread.start()
        self.base_url = f"http://127.0.0.1:{self.server.effective_port}"

    def stop(self) -> None:
        """Close every socket from the server's own thread, between two polls (a socket closed by another
        thread while the server polls fails its poll), then wait for the thread to end."""
        server = self.server

        def close_every_socket() -> None:
            for dispatcher in list(server._map.values()):
                dispatcher.close()

        server.trigger.pull_trigger(close_every_socket)
        self.thread.join(timeout=5)
        assert not self.thread.is_alive(), "the app's server did not stop"
        server.task_dispatcher.shutdown()


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveApp]:
    from scorekeeper import create_app

    folder = tmp_path_factory.mktemp("e2e-app")
    app = create_app(
        {
            "DATABASE_URL": f"sqlite:///{folder / 'scorekeeper.sqlite'}",
            "SECRET_KEY": "browser-tests-only",
            "RATELIMIT_ENABLED": False,  # the session starts many matches from one address
        }
    )
    served = ThreadedServer(app, threads=4, name="e2e-app")
    yield LiveApp(served.base_url, app)
    served.stop()


DOCUMENT_STATUS = re.compile(r"^Failed to load resource: the server responded with a status of (\d{3})\b")
# A request that fails for want of a network: started offline (ERR_INTERNET_DISCONNECTED), or caught by the
# phone going offline while it was on its way (ERR_FAILED).
NO_NETWORK = re.compile(r"net::ERR_(?:INTERNET_DISCONNECTED|FAILED)\b")


def without_query(url: str) -> str:
    return urlsplit(url)._replace(query="", fragment="").geturl()


@dataclass
class Guard:
    """What went wrong on the guarded pages of one test.

    A page the app answers with a 4xx status (a form sent back with its errors, a stale edit refused)
    makes Chromium log a console error. A test that expects such an answer says so with
    ``expect_refusal``; any other refused page, and its console line, counts as a problem.
    """

    app_netloc: str
    console_errors: list[tuple[str, str]] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)
    refused_pages: list[str] = field(default_factory=list)
    expected_statuses: set[int] = field(default_factory=set)
    allowed_refusals: Counter[tuple[str, int]] = field(default_factory=Counter)
    seen_refusals: list[tuple[str, int]] = field(default_factory=list)
    # What a phone taken offline asked for or failed to reach, by address without its query: the same ask
    # made as the signal comes back may fail too, before the phone is really online (the outbox's next
    # try, with the keys it holds by then).
    offline_urls: set[str] = field(default_factory=set)
    phones_offline: int = 0  # how many ``offline`` windows are open
    came_back: bool = False  # a phone of the test was offline and is back

    def request(self, request: Request) -> None:
        """Notes a request to another host (Chromium's resolver fails it: CHROMIUM_ARGS). Listening, not
        routing: a routed context loses its HTTP cache and sends every request through Python."""
        parts = urlsplit(request.url)
        if parts.scheme in {"http", "https", "ws", "wss"} and parts.netloc != self.app_netloc:
            self.foreign_requests.append(request.url)
        elif self.phones_offline:  # its failure may be told after the window closes
            self.offline_urls.add(without_query(request.url))

    def request_failed(self, request: Request) -> None:
        """Notes a request cut off by a phone going offline while it was on its way (started before the window
        opened): Chromium may tell its console error only after the window has closed."""
        if not NO_NETWORK.search(request.failure or ""):
            return
        if self.phones_offline:
            self.offline_urls.add(without_query(request.url))
        elif self.came_back and urlsplit(request.url).path.endswith("/outbox"):
            # The outbox's ask as the signal comes back, before the phone's service worker is online again too:
            # the outbox asks again (a test then waits for what it keeps to be sent).
            self.offline_urls.add(without_query(request.url))

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console_errors.append((message.text, message.location.get("url", "")))

    def response(self, response: Response) -> None:
        if response.request.resource_type != "document" or response.status < 400:
            return
        if response.status in self.expected_statuses:
            self.allowed_refusals[(response.url, response.status)] += 1
            self.seen_refusals.append((response.url, response.status))
        else:
            self.refused_pages.append(f"{response.status} {response.request.method} {response.url}")

    def watch(self, page: Page) -> None:
        page.on("console", self.console)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on("response", self.response)

    @contextmanager
    def expect_refusal(self, status: int) -> Iterator[None]:
        """The app is expected to answer the next page with ``status``; fails if it does not."""
        seen_before = len(self.seen_refusals)
        self.expected_statuses.add(status)
        try:
            yield
        finally:
            self.expected_statuses.discard(status)
        answered = [seen for seen in self.seen_refusals[seen_before:] if seen[1] == status]
        assert answered, f"the app was expected to answer with status {status}"

    @contextmanager
    def offline(self, page: Page, *, back_online: bool = True) -> Iterator[None]:
        """The phone has no signal meanwhile: what it fails to reach then is expected (the requests
        it makes are still checked), and it is back online after (unless ``back_online`` is false: a phone
        put away with no signal)."""
        failed_before = len(self.console_errors)
        self.phones_offline += 1
        page.context.set_offline(True)
        try:
            yield
        finally:
            if back_online:
                page.context.set_offline(False)  # the requests made meanwhile are told before its answer
                self.came_back = True
            self.phones_offline -= 1
        self.offline_urls.update(without_query(location) for text, location in self.console_errors[failed_before:]
                                 if NO_NETWORK.search(text))

    def unexpected_console_errors(self) -> list[str]:
        allowed = Counter(self.allowed_refusals)
        found = []
        for text, location in self.console_errors:
            if NO_NETWORK.search(text) and without_query(location) in self.offline_urls:
                continue
            status = DOCUMENT_STATUS.match(text)
            if status and allowed[(location, int(status.group(1)))] > 0:
                allowed[(location, int(status.group(1)))] -= 1
            else:
                found.append(f"{text} ({location})")
        return found

    def problems(self) -> list[str]:
        return (
            [f"console error: {text}" for text in self.unexpected_console_errors()]
            + [f"script error: {text}" for text in self.page_errors]
            + [f"request to another host: {url}" for url in self.foreign_requests]
            + [f"page refused unexpectedly: {text}" for text in self.refused_pages]
        )


@dataclass
class Phones:
    """Opens phones (fresh browser contexts) on the app, each guarded."""

    browser: Browser
    app: LiveApp
    guard: Guard
    service_workers: bool = False
    contexts: list[BrowserContext] = field(default_factory=list)

    def open(self, **options: Any) -> Page:
        """A new page in a new context: a phone with nothing in its cookie jar. Its service worker is blocked
        unless the test is marked ``service_worker``: without it every page load also has the worker fetch
        and keep what it keeps offline, about a sixth more of Chromium's work."""
        workers = "allow" if self.service_workers else "block"
        context = self.browser.new_context(base_url=self.app.base_url,
                                           **{**PHONE, "service_workers": workers, **options})
        context.set_default_timeout(10_000)
        # A page load waits longer: on a busy two-core machine the server may be drawing for other phones.
        context.set_default_navigation_timeout(30_000)
        context.on("request", self.guard.request)
        context.on("requestfailed", self.guard.request_failed)
        context.on("page", self.guard.watch)
        self.contexts.append(context)
        return context.new_page()

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def guard(live_app: LiveApp) -> Guard:
    return Guard(live_app.netloc)


@pytest.fixture
def phones(request: pytest.FixtureRequest, live_app: LiveApp, guard: Guard) -> Iterator[Phones]:
    marked = request.node.get_closest_marker
    chromium = request.getfixturevalue("full_browser" if marked("full_chromium") else "browser")
    opened = Phones(chromium, live_app, guard, marked("service_worker") is not None)
    yield opened
    opened.close()
    problems = guard.problems()
    assert not problems, "the pages misbehaved:\n" + "\n".join(problems)


@pytest.fixture
def page(phones: Phones) -> Page:
    """One phone, 390×844 CSS pixels at 3× with touch."""
    return phones.open()


@pytest.fixture
def shoot(request: pytest.FixtureRequest) -> Callable[..., Path | None]:
    """Save a full-page screenshot under test-artifacts/ for a person to look at, when the run was asked
    for them (``pytest --screenshots``): a full page at 3× takes seconds, and no test reads it."""
    wanted = request.config.getoption("screenshots")

    def save(page: Page, name: str, full_page: bool = True) -> Path | None:
        if not wanted:
            return None
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page, timeout=30_000)  # a long page on a busy machine
        return path

    return save


@dataclass(frozen=True)
class MainPages:
    """The app's main pages, on a twenty-deal match imported once for the session."""

    public_id: str

    def paths(self) -> dict[str, str]:
        match = f"/m/{self.public_id}"
        return {
            "home": "/",
            "new-match": "/matches/new",
            "sheet": match,
            "deal-new": f"{match}/deals/new",
            "deal-edit": f"{match}/deals/6/edit",
            "house-rules": f"{match}/rules",
            "meld": "/meld",
            "rules": "/rules",
            "import": "/import",
        }

    def visit(self, page: Page, name: str) -> Response | None:
        """Open a main page as a player would find it; the home page lists the match once seen."""
        if name == "home":
            page.goto(self.paths()["sheet"])
        return page.goto(self.paths()[name])


MAIN_PAGE_NAMES = list(MainPages("").paths())


@pytest.fixture(scope="session")
def main_pages(browser: Browser, live_app: LiveApp) -> MainPages:
    from .samples import full_match_file
    from .table import import_match_on_the_page

    guard = Guard(live_app.netloc)
    phones = Phones(browser, live_app, guard)
    try:
        sheet_url = import_match_on_the_page(phones.open(), full_match_file())
    finally:
        phones.close()
    assert not guard.problems(), guard.problems()
    return MainPages(urlsplit(sheet_url).path.rsplit("/", 1)[-1])
