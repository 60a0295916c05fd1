"""Fixtures: an app on a database at the head revision (SQLite, and PostgreSQL when configured), and its client.

The migrations run once per test session: each test's SQLite file is a copy of one migrated file, and the
PostgreSQL database is emptied of rows between tests (migrated again only when a test left it at another
revision). One app serves the tests of a process, on each test's database in turn (the ``app`` fixture).
tests/test_migrations.py starts from empty databases.
Under pytest-xdist each worker has a PostgreSQL database of its own.
"""

from __future__ import annotations

import gc
import os
import re
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from flask import Flask
from flask.templating import Environment
from flask.testing import FlaskClient
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from postgres_databases import MigratedPostgres, drop_database, make_database
from scorekeeper import assets, create_app
from scorekeeper.db import make_engine, upgrade
from scorekeeper.sheet import cache
from scorekeeper.store import reading

T = TypeVar("T")

POSTGRES_VARIABLE = "SCOREKEEPER_TEST_DATABASE_URL"
POSTGRES_SERVER = os.environ.get(POSTGRES_VARIABLE, "")  # as given: the worker databases are made from it
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # gw0, gw1… under pytest-xdist


def pytest_configure(config: pytest.Config) -> None:
    """An xdist worker makes its own empty PostgreSQL database and points SCOREKEEPER_TEST_DATABASE_URL at
    it before the test modules read it, so that workers never share tables (nor the processes they start)."""
    if WORKER and POSTGRES_SERVER:
        os.environ[POSTGRES_VARIABLE] = make_database(POSTGRES_SERVER, f"scorekeeper_test_{WORKER}")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker a core, and one more. A browser test spends part of its time waiting (for a poll, a
    retry, a server starting), and with one worker a core the cores then stood idle for a tenth of the run;
    the extra worker takes that time (whole suite on 2 cores, the two ways in turn, three times: 2 workers 306,
    292 and 350 s, the cores idle for 61, 64 and 65 s; 3 workers 286, 278 and 344 s, idle 11, 16 and 10 s).
    Idle workers take pending tests from busy ones (``--dist worksteal`` in pyproject.toml), so no worker ends
    the run alone with a queue of tests."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """What importing and collecting made (modules, pytest's and Hypothesis's objects, the tests) lives until
    the session ends: it is frozen out of the garbage collector's sight, and the collector waits for 10,000
    new objects rather than 700. A test process holds a large heap, and each full collection walked all of
    it: the collector took 54–56 of the suite's 486–537 CPU-seconds (whole suite on 2 cores, the two ways in
    turn, twice: 277 and 255 s; this way 252 and 210 s, the collector 26–29 CPU-seconds)."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--screenshots", action="store_true",
                     help="browser tests save their screenshots under test-artifacts/ for a person to look at")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Drop the worker's database when its session ends (not later: once a worker reports that it has
    finished, xdist may end it)."""
    if WORKER and POSTGRES_SERVER:
        drop_database(POSTGRES_SERVER, f"scorekeeper_test_{WORKER}")


SUMMARY_LINES: list[str] = []  # the lines tests asked to show at the end (tests/e2e/conftest.py's SUMMARY)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "teardown":
        SUMMARY_LINES.extend(str(value) for name, value in report.user_properties if name == "summary")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SUMMARY_LINES:
        terminalreporter.section("browser tests")
        for line in SUMMARY_LINES:
            terminalreporter.write_line(line)


def postgres_url() -> str:
    """The PostgreSQL database the tests run on ("" when none is configured)."""
    return os.environ.get(POSTGRES_VARIABLE, "")


@pytest.fixture(autouse=True, scope="session")
def clients_close_every_answer() -> Iterator[None]:
    """A WSGI server closes every answer once it is sent, which runs the work the app left for after it
    (``Response.call_on_close``); Flask's test client does so only when asked to read the whole answer
    (``buffered``), which every test client here is."""
    opened = FlaskClient.open

    def open_read_whole(self: FlaskClient, *args: Any, **kwargs: Any) -> TestResponse:
        kwargs.setdefault("buffered", True)
        return opened(self, *args, **kwargs)

    FlaskClient.open = open_read_whole  # type: ignore[method-assign]
    yield
    FlaskClient.open = opened  # type: ignore[method-assign]


class CompiledTemplates(BytecodeCache):
    """Templates compiled once per test process: every test makes an app of its own, and Jinja would
    otherwise compile each template again for each of them. A changed template has a new checksum."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


@pytest.fixture(autouse=True, scope="session")
def templates_compiled_once() -> Iterator[None]:
    shared = CompiledTemplates()
    made = Flask.create_jinja_environment

    def with_shared_cache(self: Flask) -> Environment:
        environment = made(self)
        environment.bytecode_cache = shared
        return environment

    Flask.create_jinja_environment = with_shared_cache  # type: ignore[method-assign]
    yield
    Flask.create_jinja_environment = made  # type: ignore[method-assign]


@pytest.fixture(autouse=True, scope="session")
def apps_made_quickly() -> Iterator[None]:
    """Every test makes an app of its own; three parts of making one are the same each time and are done once
    per test process: the static files as sent and their digests (the folder does not change during a run),
    the release's build id (a digest of the code and templates, which do not change either), and the URL
    builders werkzeug compiles for each route (Python code made from the rule, the same for the same rule)."""
    made: dict[tuple[Any, ...], Any] = {}
    minified, digests, bundle_digests, build_id = assets.minified, assets.digests, assets.bundle_digests, cache.build_id

    def once(key: tuple[Any, ...], make: Callable[[], T]) -> T:
        if key not in made:
            made[key] = make()
        found: T = made[key]
        return found

    def minified_once(folder: Path) -> dict[str, tuple[bytes, str]]:
        return once(("minified", folder), lambda: minified(folder))

    def digests_once(folder: Path) -> dict[str, str]:
        return once(("digests", folder), lambda: digests(folder))

    def bundle_digests_once(folder: Path, sent: dict[str, tuple[bytes, str]]) -> dict[str, str]:
        return once(("bundles", folder), lambda: bundle_digests(folder, sent))

    def build_id_once(app: Flask) -> str:
        return once(("build", app.root_path, app.template_folder), lambda: build_id(app))

    compile_builder = Rule._compile_builder

    def builder_once(self: Rule, append_unknown: bool = True) -> Any:
        key = ("builder", self.rule, self.subdomain, self.host, tuple(self._trace),
               repr(sorted((self.defaults or {}).items())), append_unknown)
        return once(key, lambda: compile_builder(self, append_unknown))

    assets.minified, assets.digests, assets.bundle_digests = minified_once, digests_once, bundle_digests_once
    cache.build_id = build_id_once
    Rule._compile_builder = builder_once  # type: ignore[method-assign]
    yield
    assets.minified, assets.digests, assets.bundle_digests = minified, digests, bundle_digests
    cache.build_id = build_id
    Rule._compile_builder = compile_builder  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to the head revision, made once per session for the tests to copy."""
    path = tmp_path_factory.mktemp("migrated") / "scorekeeper.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()  # the last connection: SQLite checkpoints the write-ahead log into the file
    assert not path.with_name(f"{path.name}-wal").exists()
    return path


@pytest.fixture(scope="session")
def migrated_postgres() -> Iterator[MigratedPostgres]:
    database = MigratedPostgres(postgres_url())
    yield database
    database.engine.dispose()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests run on SQLite; those marked ``both_databases`` (what a database could make differ: the store,
    concurrent writes, imports, odd input, the API) on PostgreSQL as well."""
    if "database_url" in metafunc.fixturenames:
        both = metafunc.definition.get_closest_marker("both_databases") is not None
        metafunc.parametrize("database_url", ["sqlite", "postgresql"] if both else ["sqlite"], indirect=True)


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database at the head revision with no match in it: a copy of the session's migrated SQLite file,
    or the PostgreSQL database emptied. The app's start finds it migrated."""
    if request.param == "sqlite":
        path = tmp_path / "scorekeeper.sqlite"
        shutil.copy(request.getfixturevalue("migrated_sqlite"), path)  # with its mode, 0600
        return f"sqlite:///{path}"
    if not postgres_url():
        pytest.skip("SCOREKEEPER_TEST_DATABASE_URL is not set")
    request.getfixturevalue("migrated_postgres").reset()
    return postgres_url()


@pytest.fixture(scope="session")
def kept_app() -> dict[str, Flask]:
    """Where the ``app`` fixture keeps the app it made for this test process."""
    return {}


@pytest.fixture
def app(database_url: str, kept_app: dict[str, Flask]) -> Iterator[Flask]:
    """The app on this test's database. One app serves the tests of a process, as making one costs more than
    most tests (its routes compiled, its extensions set up), and nothing of a test stays in it: each test has
    it on a database of its own, with an empty sheet cache, and its configuration back as made. A test that
    adds to the app itself (a route) makes one of its own."""
    made = kept_app.get("made")
    if made is None:
        made = kept_app["made"] = create_app({
            "TESTING": True,
            "DATABASE_URL": database_url,
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,  # tests/test_rate_limits.py turns the limits on
        })
    else:
        made.config["DATABASE_URL"] = database_url
        made.extensions["scorekeeper.engine"] = make_engine(database_url)
        cache.init_app(made)
    config = dict(made.config)
    yield made
    made.extensions["scorekeeper.engine"].dispose()
    made.config.clear()
    made.config.update(config)


@pytest.fixture
def app_at_an_address(database_url: str, tmp_path: Any) -> Iterator[Flask]:
    """An app whose absolute links start with a configured base URL."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False,
                      "RATELIMIT_ENABLED": False, "INSTANCE_PATH": str(tmp_path),
                      "BASE_URL": "https://score.example.org"})
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def watch_id_of(app: Flask, public_id: str) -> str:
    with app.app_context():
        return reading.get_match_or_404(public_id).watch_id


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class Actions:
    """What a player does through the pages: start a match, enter deals, change rules."""

    def __init__(self, client: FlaskClient) -> None:
        self._client = client

    def create_match(
        self, name: str = "Friday", sides: Sequence[str] = ("We", "They"), preset: str = "double-500",
        **rules: object,
    ) -> str:
        """Start a match through the form; returns its public id."""
        form = self._client.get(f"/matches/new?preset={preset}")
        data = form_values(form)
        data.update({"name": name, "preset": preset, "rules_from": preset})
        for index, side in enumerate(sides):
            data[f"sides-{index}-name"] = side
        for key, value in rules.items():
            data[f"rules-{key}"] = str(value)
        response = self._client.post("/matches/new", data=data)
        assert response.status_code == 302, response.get_data(as_text=True)
        return response.headers["Location"].split("/")[2]  # /m/<id>/invite

    def deal_form(self, public_id: str, number: int | None = None) -> dict[str, str]:
        """The values a deal form starts with (new deal, or deal ``number`` to edit)."""
        url = f"/m/{public_id}/deals/new" if number is None else f"/m/{public_id}/deals/{number}/edit"
        return self.deal_form_url(url)

    def deal_form_url(self, url: str) -> dict[str, str]:
        return form_values(self._client.get(url))

    def add_deal(
        self, public_id: str, bidder: int | None, bid: int | None, totals: Sequence[int],
        fields: dict[str, str] | None = None,
    ) -> TestResponse:
        """Enter one deal the quick way: bidder, bid and one number per side."""
        data = self.deal_form(public_id)
        data["mode"] = "quick"
        if bidder is not None:
            data["bidder"] = str(bidder)
        if bid is not None:
            data["bid"] = str(bid)
        for index, total in enumerate(totals):
            data[f"sides-{index}-total"] = str(total)
        data.update(fields or {})
        return self._client.post(f"/m/{public_id}/deals/new", data=data)

    def add_detailed_deal(self, public_id: str) -> TestResponse:
        """Enter one deal with meld and tricks: We bid 50 and show 20 + 30 + the last trick; They 4 + 18."""
        data = self.deal_form(public_id) | {
            "mode": "detail", "bidder": "0", "bid": "50",
            "sides-0-hands-0-meld": "20", "sides-0-tricks": "30", "sides-1-hands-0-meld": "4", "sides-1-tricks": "18",
            "last_trick": "0",
        }
        return self._client.post(f"/m/{public_id}/deals/new", data=data)


@pytest.fixture
def actions(client: FlaskClient) -> Actions:
    return Actions(client)


_INPUT = re.compile(r"<input\b[^>]*>", re.S)
_OPTION = re.compile(r"<option\b[^>]*>", re.S)
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def form_values(response: TestResponse) -> dict[str, str]:
    """The values a browser would send for the page's first form as it stands (text, hidden,
    checked boxes and radios, selected options)."""
    html = response.get_data(as_text=True)
    values: dict[str, str] = {}
    for tag in _INPUT.findall(html):
        attrs = dict(_ATTR.findall(tag))
        name = attrs.get("name")
        if not name or attrs.get("type") == "submit":
            continue
        if attrs.get("type") in ("checkbox", "radio"):
            if _has_flag(tag, "checked"):
                values[name] = _unescape(attrs.get("value", "on"))
            continue
        values[name] = _unescape(attrs.get("value", ""))
    for name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', html, re.S):
        options = [(tag, dict(_ATTR.findall(tag))) for tag in _OPTION.findall(body)]
        chosen = [attrs for tag, attrs in options if _has_flag(tag, "selected")] or [a for _, a in options]
        if chosen and "value" in chosen[0]:
            values[name] = _unescape(chosen[0]["value"])
    return values


def _has_flag(tag: str, flag: str) -> bool:
    """Whether a tag has a boolean attribute such as ``selected``, wherever it stands among the others."""
    return re.search(rf"\s{flag}(?=[\s/>=])", re.sub(r'"[^"]*"', '""', tag)) is not None


def _unescape(text: str) -> str:
    return (text.replace("&lt;", "<").replace("&gt;", ">").replace("&#34;", '"').replace("&#39;", "'")
            .replace("&quot;", '"').replace("&amp;", "&"))
