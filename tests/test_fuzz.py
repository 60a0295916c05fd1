"""Fuzzing every way in: each form route, each API route and the match file reader.

Whatever arrives (unicode digits, digit strings longer than ``int`` reads, NUL, unpaired surrogates,
JSON nested a hundred thousand deep, huge numbers, values of the wrong kind, mutated match files),
the answer is never a 500, the reader raises nothing but ``RulesError``, and a refusal (any 4xx)
leaves the match exactly as it was: same version, same deals, same rules. The app fixture runs each
test on SQLite and, when ``SCOREKEEPER_TEST_DATABASE_URL`` is set, on PostgreSQL.

The number of examples per test is kept small (see ``ROUTE``) so that the file runs in well under a
minute per database; ``FUZZ_CASES`` counts what one run tried.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from flask import Flask, request_started
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper.db import get_session
from scorekeeper.models import EventRow, MatchRow
from scorekeeper.rules.cards import ALL_CARDS
from scorekeeper.rules.combinations import Combination
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.house_rules import RULE_SPECS
from scorekeeper.rules.matchfile import loads_match, match_from_json
from scorekeeper.store import reading

pytestmark = pytest.mark.both_databases

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SEED_FILES: list[dict[str, Any]] = [json.loads(path.read_text(encoding="utf-8"))
                                    for path in sorted(SEEDS.glob("*.json"))]
WORKED: dict[str, Any] = json.loads((SEEDS / "worked-sheet.json").read_text(encoding="utf-8"))

# Fresh examples on every local run; in CI the same ones each time, so that main stays green or red for a reason.
_BASE = dict(deadline=None, database=None, derandomize=bool(os.environ.get("CI")),
             suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                    HealthCheck.data_too_large, HealthCheck.filter_too_much])
ROUTE = settings(max_examples=40, **_BASE)  # one web route, on one database
READER = settings(max_examples=150, **_BASE)  # the match file reader: no database, fast

FUZZ_CASES: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _report_cases() -> Iterator[None]:
    yield
    print(f"\nfuzz cases run: {sum(FUZZ_CASES.values())} ({dict(sorted(FUZZ_CASES.items()))})")


# Nasty values ------------------------------------------------------------------------------------------

NASTY_TEXT = [
    "", " ", "0", "1", "2", "3", "-1", "+1", " 7 ", "007", "1.5", "1e3", "0x1F", "1_000",
    "²", "¹²", "١٢", "٣", "𝟙", "Ⅻ", "１", "1" * 5000, "9" * 4301, "0" * 60 + "1", "9" * 19,
    "\x00", "a\x00b", "We\x00", "\t", "\n", "We\r\nThey", "\x1b[31m", "\u2028", "\u202e", "\u200b", "\ufeff",
    "é", "e\u0301", "Å", "NaN", "Infinity", "true", "false", "on", "yes", "null", "None", "[]", "{}",
    "<b>x</b>", "x" * 5000, "%00", "AH 10H KH QH JH", "ZZ", "H", "all", "double", "single-classic",
]
BAD_BYTES = [b"\xed\xa0\x80", b"\xff", b"\xc0\x80", b"We\xffThey"]  # not UTF-8: what a broken client sends

texts = st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=30), st.from_regex(r"[0-9]{1,12}", fullmatch=True))
form_values = st.one_of(texts, st.sampled_from(BAD_BYTES))
json_texts = st.one_of(texts, st.just("\ud800"), st.just("We\udfff"))  # JSON can carry unpaired surrogates
json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.integers(), st.integers(10**30, 10**90),
    st.floats(allow_nan=True, allow_infinity=True), json_texts,
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(json_texts, inner, max_size=4),
    max_leaves=12,
)
RAW_BODIES = [
    "", " ", "nul", "[" * 100_000, '{"a":' * 50_000, "[" * 40 + "]" * 40, "1" * 5000, "-" + "9" * 4400,
    '{"version": ' + "1" * 5000 + "}", '{"bid": ' + "9" * 5000 + "}", '{"name": "\\ud800"}', '{"\\udfff": 1}',
    '{"preview": NaN}', '{"bidder": Infinity}', "[1, 2,", '{"format": "pinochle-match/1"', "\x00",
    '{"format": "pinochle-match/1", "sides": [{"name": "We\\u0000"}, {"name": "They"}]}',
    '{"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}], "Deals": []}',
]


def _paths(data: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) in a decoded JSON value."""
    found: list[tuple[Any, Any]] = []
    stack = [data]
    while stack:
        value = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, item in items:
            found.append((value, key))
            stack.append(item)
    return found


@st.composite
def mutated(draw: st.DrawFn, originals: list[dict[str, Any]]) -> Any:
    """A valid document with one to three values replaced, removed or added."""
    data = copy.deepcopy(draw(st.sampled_from(originals)))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        if not paths:
            break
        container, key = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(("replace", "replace", "delete", "add")))
        if action == "replace":
            container[key] = draw(json_values)
        elif action == "delete":
            del container[key]
        elif isinstance(container, dict):
            container[draw(st.sampled_from(("Deals", "colour", "players", "passed", "sides", "total")))] = \
                draw(json_values)
        else:
            container.append(draw(json_values))
    return data


GOOD_DEALS: list[dict[str, Any]] = [
    {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]},
    {"bidder": 1, "bid": 55, "trump": "H", "sides": [{"meld": 14, "tricks": 21, "last_trick": True},
                                                     {"meld": {"run": 1}, "tricks": {"counters": 27}}]},
    {"passed": True},
    {"bidder": 0, "bid": 50, "thrown_in": True, "sides": [{"meld": 12}, {"meld": 8}]},
]
json_bodies = st.one_of(json_values, mutated(GOOD_DEALS), st.dictionaries(st.sampled_from(
    ["bidder", "bid", "trump", "sides", "passed", "thrown_in", "version", "preview", "entered_under", "x"]),
    json_values, max_size=5))
match_bodies = st.one_of(json_values, mutated(SEED_FILES), mutated(SEED_FILES))


def as_json_text(value: Any) -> str:
    return json.dumps(value)


raw_or_json = st.one_of(json_bodies.map(as_json_text), st.sampled_from(RAW_BODIES))
raw_or_match = st.one_of(match_bodies.map(as_json_text), st.sampled_from(RAW_BODIES))
header_texts = texts.filter(lambda text: all(" " <= char <= "\xff" and char != "\x7f" for char in text))
url_parts = st.one_of(texts, st.just("\ud800"))


def url_part(text: str) -> str:
    return quote(text, safe="", errors="surrogatepass")


# The app under test -------------------------------------------------------------------------------------

class Watched:
    """What a write could change, read from the database once after each request to the app: the state read
    after one example's request is the state before the next example's (no request in between), and any
    request, answered or failed, makes the next ``state()`` read the database again."""

    def __init__(self, app: Flask) -> None:
        self._read: tuple[Any, ...] | None = None
        request_started.connect(self._forget, app)  # weakly: gone with this object

    def _forget(self, sender: Flask, **extra: Any) -> None:
        self._read = None

    def state(self) -> tuple[Any, ...]:
        if self._read is None:
            self._read = self.read_state()
        return self._read

    def read_state(self) -> tuple[Any, ...]:
        raise NotImplementedError


class Table(Watched):
    """A match (the worked sheet, made through the API) and what it looked like before each request."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        super().__init__(app)
        self.app, self.client = app, client
        response = client.post("/api/v1/matches", json=WORKED)
        assert response.status_code == 201
        self.id: str = response.get_json()["id"]
        self.token: str = response.get_json()["edit_token"]

    def read_state(self) -> tuple[Any, ...]:
        """Everything a write can change: version, the match file as stored, the rule changes, the number
        of matches."""
        with self.app.app_context():
            session = get_session()
            row = reading.find_match(self.id)
            assert row is not None
            count = session.scalar(select(func.count()).select_from(MatchRow))
            return row.version, json.dumps(reading.match_json(row), sort_keys=True), len(row.rule_changes), count

    def version(self) -> int:
        return int(self.state()[0])

    def check(self, response: TestResponse, before: tuple[Any, ...], route: str) -> None:
        """No 500; a refusal changed nothing."""
        FUZZ_CASES[route] += 1
        assert response.status_code < 500, response.get_data(as_text=True)[:2000]
        if 400 <= response.status_code < 500:
            assert self.state() == before, f"{route} answered {response.status_code} but changed the match"

    def post_form(self, url: str, pairs: list[tuple[str, Any]]) -> TestResponse:
        return self.client.post(url, data=urlencode(pairs), content_type="application/x-www-form-urlencoded")

    def api(self, method: str, path: str, body: str | None, **headers: str) -> TestResponse:
        return self.client.open(f"/api/v1/matches/{self.id}{path}", method=method, data=body,
                                content_type="application/json",
                                headers={"Authorization": f"Bearer {self.token}", **headers})


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    return Table(app, client)


def fields(names: list[str], extra: list[str] | None = None) -> st.SearchStrategy[list[tuple[str, Any]]]:
    """Form fields: some of ``names`` (and of ``extra``), each with a nasty value."""
    keys = st.sampled_from(names + (extra or []))
    return st.lists(st.tuples(keys, form_values), max_size=12)


deal_numbers = st.one_of(st.integers(1, 8), st.sampled_from(["0", "٣", "9" * 5000, "-1", "1.0"]))


def number_part(number: int | str) -> str:
    return url_part(str(number))


SIDE_FIELDS = ["total", "hands-0-meld", "hands-1-meld", "tricks", "took", "hands-0-kept", "hands-1-kept",
               "kept_tricks",
               *(f"hands-{hand}-sets-{combination.value}" for hand in (0, 1) for combination in Combination)]
DEAL_FIELDS = ["version", "mode", "passed", "bidder", "bid", "bid_by", "dealt_by", "trump", "thrown_in", "last_trick",
               *(f"sides-{i}-{name}" for i in range(3) for name in SIDE_FIELDS)]
RULE_FIELDS = [f"rules-{spec.key}" for spec in RULE_SPECS]


# Forms --------------------------------------------------------------------------------------------------

@ROUTE
@given(pairs=fields(["preset", "rules_from", "name", *(f"sides-{i}-{f}" for i in range(4) for f in ("name", "players")),
                     *RULE_FIELDS], ["sides-9-name", "sides-100000-name", "rules-colour"]))
def test_new_match_form(table: Table, pairs: list[tuple[str, Any]]) -> None:
    base = [("preset", "double-500"), ("rules_from", "double-500"), ("sides-0-name", "We"), ("sides-1-name", "They")]
    before = table.state()
    response = table.post_form("/matches/new", base + pairs)
    table.check(response, before, "form: new match")


@ROUTE
@given(pairs=fields(DEAL_FIELDS, ["sides-7-total", "sides-99999-hands-0-meld", "sides-0-hands-9-meld"]),
       number=st.none() | deal_numbers,
       keep_version=st.booleans())
def test_deal_form(table: Table, pairs: list[tuple[str, Any]], number: int | str | None, keep_version: bool) -> None:
    url = f"/m/{table.id}/deals/new" if number is None else f"/m/{table.id}/deals/{number_part(number)}/edit"
    base = [("version", str(table.version()))] if keep_version else []
    before = table.state()
    response = table.post_form(url, base + pairs)
    table.check(response, before, "form: new or edit deal")


@ROUTE
@given(action=st.sampled_from(["delete", "throw-in"]), number=deal_numbers, version=form_values,
       keep_version=st.booleans())
def test_delete_and_throw_in_forms(table: Table, action: str, number: int | str, version: Any,
                                   keep_version: bool) -> None:
    before = table.state()
    value = str(table.version()) if keep_version else version
    response = table.post_form(f"/m/{table.id}/deals/{number_part(number)}/{action}", [("version", value)])
    table.check(response, before, "form: delete, throw in")


@ROUTE
@given(pairs=fields(["version", "confirm", *RULE_FIELDS]), keep_version=st.booleans())
def test_house_rules_form(table: Table, pairs: list[tuple[str, Any]], keep_version: bool) -> None:
    base = [("version", str(table.version()))] if keep_version else []
    before = table.state()
    response = table.post_form(f"/m/{table.id}/rules", base + pairs)
    table.check(response, before, "form: house rules")


@ROUTE
@given(pairs=fields(["deck", "table", "trump", "cards", "match", "side", "deal",
                     *(f"n_{card.code}" for card in ALL_CARDS[:6])]),
       with_match=st.booleans(), method=st.sampled_from(["GET", "POST"]))
def test_meld_calculator(table: Table, pairs: list[tuple[str, Any]], with_match: bool, method: str) -> None:
    pairs = ([("match", table.id)] if with_match else []) + pairs
    before = table.state()
    if method == "GET":
        response = table.client.get("/meld?" + urlencode(pairs))
    else:
        response = table.post_form("/meld", pairs)
    table.check(response, before, "form: meld calculator")


@ROUTE
@given(side=form_values, sets=form_values, trump=form_values, number=st.none() | deal_numbers)
def test_deal_form_prefilled_from_the_calculator(table: Table, side: Any, sets: Any, trump: Any,
                                                 number: int | str | None) -> None:
    url = f"/m/{table.id}/deals/new" if number is None else f"/m/{table.id}/deals/{number_part(number)}/edit"
    before = table.state()
    response = table.client.get(url + "?" + urlencode({"side": side, "sets": sets, "trump": trump}))
    table.check(response, before, "form: deal prefilled")


@ROUTE
@given(text=raw_or_match)
def test_import_form(table: Table, text: str) -> None:
    before = table.state()
    pairs = [("text", text.encode("utf-8", "surrogatepass"))]
    response = table.post_form("/import", pairs)
    table.check(response, before, "form: import")


@ROUTE
@given(public_id=url_parts, dead=form_values, page=st.sampled_from(["", "/rules", "/deals/new", "/export.json",
                                                                     "/export.csv", "/forget", "/deals/1/edit"]))
def test_pages_at_odd_addresses(table: Table, public_id: str, dead: Any, page: str) -> None:
    before = table.state()
    response = table.client.get(f"/m/{url_part(public_id)}{page}?" + urlencode({"dead": dead}))
    table.check(response, before, "page: odd address")
    assert response.status_code in (200, 308, 404), response.status_code  # 308: '//' made '/'
    response = table.client.get(f"/m/{table.id}?" + urlencode({"dead": dead}))
    table.check(response, before, "page: sheet with ?dead")


# API ----------------------------------------------------------------------------------------------------

@ROUTE
@given(body=raw_or_match)
def test_api_create_match(table: Table, body: str) -> None:
    before = table.state()
    response = table.client.post("/api/v1/matches", data=body.encode("utf-8", "surrogatepass"),
                                 content_type="application/json")
    table.check(response, before, "api: create match")


@ROUTE
@given(public_id=url_parts, number=deal_numbers, mine=st.booleans())
def test_api_reads(table: Table, public_id: str, number: int | str, mine: bool) -> None:
    match_part = table.id if mine else url_part(public_id)
    before = table.state()
    for path in (f"/api/v1/matches/{match_part}", f"/api/v1/matches/{match_part}/deals/{number_part(number)}"):
        response = table.client.get(path)
        table.check(response, before, "api: get match, get deal")
        assert response.status_code in (200, 308, 404), response.status_code  # 308: '//' made '/'


@ROUTE
@given(method=st.sampled_from(["POST", "PUT", "DELETE"]), number=deal_numbers, body=raw_or_json,
       if_match=st.none() | header_texts, current=st.booleans())
def test_api_deal_writes(table: Table, method: str, number: int | str, body: str, if_match: str | None,
                         current: bool) -> None:
    path = "/deals" if method == "POST" else f"/deals/{number_part(number)}"
    headers = {"If-Match": f'"{table.version()}"' if current else if_match} if current or if_match else {}
    before = table.state()
    response = table.api(method, path, body.encode("utf-8", "surrogatepass"), **headers)
    table.check(response, before, "api: add, replace, delete deal")


@ROUTE
@given(body=st.one_of(st.dictionaries(st.sampled_from([spec.key for spec in RULE_SPECS] + ["preview", "version"]),
                                      json_values, max_size=4).map(as_json_text), raw_or_json),
       preview=st.none() | header_texts)
def test_api_rules(table: Table, body: str, preview: str | None) -> None:
    query = "" if preview is None else "?" + urlencode({"preview": preview})
    before = table.state()
    response = table.api("PUT", "/rules" + query, body.encode("utf-8", "surrogatepass"))
    table.check(response, before, "api: rules")


@ROUTE
@given(body=st.one_of(st.dictionaries(st.sampled_from(["cards", "deck", "table", "trump"]), json_values,
                                      max_size=4).map(as_json_text), raw_or_json))
def test_api_meld(table: Table, body: str) -> None:
    before = table.state()
    response = table.client.post("/api/v1/meld", data=body.encode("utf-8", "surrogatepass"),
                                 content_type="application/json")
    table.check(response, before, "api: meld")


# Tables -------------------------------------------------------------------------------------------------

class Club(Watched):
    """A table with four players, made through the API and opened by the client (its forms' right)."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        super().__init__(app)
        self.app, self.client = app, client
        response = client.post("/api/v1/tables", json={"name": "Club", "players": ["Ann", "Bob", "Cy", "Di"]})
        assert response.status_code == 201
        self.id: str = response.get_json()["id"]
        self.token: str = response.get_json()["token"]
        assert client.get(f"/t/{self.id}").status_code == 200

    def read_state(self) -> tuple[Any, ...]:
        """The table file as stored and the number of tables and matches."""
        with self.app.app_context():
            from scorekeeper import tables
            from scorekeeper.models import TableRow

            session = get_session()
            row = tables.find_table(self.id)
            assert row is not None
            return (json.dumps(tables.table_file(row), sort_keys=True),
                    session.scalar(select(func.count()).select_from(TableRow)),
                    session.scalar(select(func.count()).select_from(MatchRow)))

    def check(self, response: TestResponse, before: tuple[Any, ...], route: str) -> None:
        FUZZ_CASES[route] += 1
        assert response.status_code < 500, response.get_data(as_text=True)[:2000]
        if 400 <= response.status_code < 500:
            assert self.state() == before, f"{route} answered {response.status_code} but changed the table"


@pytest.fixture
def club(app: Flask, client: FlaskClient) -> Club:
    return Club(app, client)


TABLE_MATCH_FIELDS = ["start", *(f"sides-{i}-{f}" for i in range(4) for f in ("name", "players-0", "players-1"))]


@ROUTE
@given(form=st.sampled_from(["/tables/new", "players", "players/remove", "rule-cards/new", "matches/new",
                             "rule-cards/0/remove"]),
       pairs=fields(["name", "players-0", "players-1", "start", "auction", *RULE_FIELDS, *TABLE_MATCH_FIELDS],
                    ["players-99999", "sides-9-players-0"]))
def test_table_forms(club: Club, form: str, pairs: list[tuple[str, Any]]) -> None:
    url = form if form.startswith("/") else f"/t/{club.id}/{form}"
    before = club.state()
    response = club.client.post(url, data=urlencode(pairs), content_type="application/x-www-form-urlencoded")
    club.check(response, before, "form: tables")


@ROUTE
@given(public_id=url_parts, mine=st.booleans(),
       page=st.sampled_from(["", "/stats", "/stats/player?name=Ann", "/matches/new", "/rule-cards/new?preset=x",
                             "/export.json"]),
       api=st.sampled_from(["", "/stats", "/export"]))
def test_table_pages_and_reads_at_odd_addresses(club: Club, public_id: str, mine: bool, page: str, api: str) -> None:
    table_part = club.id if mine else url_part(public_id)
    before = club.state()
    for path in (f"/t/{table_part}{page}", f"/api/v1/tables/{table_part}{api}"):
        response = club.client.get(path)
        club.check(response, before, "tables: pages and reads")
        assert response.status_code in (200, 308, 404), (path, response.status_code)


@ROUTE
@given(route=st.sampled_from(["POST /tables", "POST /tables/import", "POST /matches", "POST players",
                              "POST rule-cards", "DELETE players/Ann"]),
       body=st.one_of(st.dictionaries(st.sampled_from(["name", "players", "rule_cards", "matches", "table", "rules",
                                                       "auction", "sides", "format"]),
                                      json_values, max_size=4).map(as_json_text), raw_or_json))
def test_table_api_writes(club: Club, route: str, body: str) -> None:
    method, _, path = route.partition(" ")
    url = f"/api/v1{path}" if path.startswith("/") else f"/api/v1/tables/{club.id}/{path}"
    if path == "/matches" and body.startswith("{") and body != "{}":
        body = body[:-1] + f', "table": "{club.id}"}}'
    before = club.state()
    response = club.client.open(url, method=method, data=body.encode("utf-8", "surrogatepass"),
                                content_type="application/json", headers={"Authorization": f"Bearer {club.token}"})
    club.check(response, before, "api: tables")


# Club events --------------------------------------------------------------------------------------------

GOOD_EVENTS: list[dict[str, Any]] = [
    {"name": "Club night", "format": "progressive", "round_end": {"deals": 2}, "rounds": 3,
     "players": ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]},
    {"format": "team", "round_end": {"minutes": 50}, "rounds": 2, "rules": {"target": 1000},
     "teams": [["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"]]},
]


class Evening(Watched):
    """An event with its first round seated, and what it looked like before each request."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        super().__init__(app)
        self.app, self.client = app, client
        made = client.post("/api/v1/events", json=GOOD_EVENTS[0]).get_json()
        self.id, self.token = made["id"], made["director_token"]
        seated = client.post(f"/api/v1/events/{self.id}/rounds", headers={"Authorization": f"Bearer {self.token}"})
        self.match_id: str = seated.get_json()["tables"][0]["match"]["id"]

    def read_state(self) -> tuple[Any, ...]:
        """The event's version, seating and closings, and how many events and matches there are."""
        with self.app.app_context():
            session = get_session()
            row = session.scalars(select(EventRow).where(EventRow.public_id == self.id)).one()
            rounds = [(played.seating, played.closed_at, [(table.closed_at, table.closed_after)
                                                           for table in played.tables]) for played in row.played_rounds]
            return (row.version, json.dumps(rounds, sort_keys=True, default=str),
                    session.scalar(select(func.count()).select_from(EventRow)),
                    session.scalar(select(func.count()).select_from(MatchRow)))


@pytest.fixture
def evening(app: Flask, client: FlaskClient) -> Evening:
    return Evening(app, client)


@ROUTE
@given(route=st.sampled_from(["/events", "rounds", "rounds/1/swap", "rounds/1/close", "rounds/٣/close", "table"]),
       body=st.one_of(mutated(GOOD_EVENTS).map(as_json_text), raw_or_json, st.dictionaries(
           st.sampled_from(["first", "second", "late", "version"]), json_values, max_size=3).map(as_json_text)),
       if_match=st.one_of(st.none(), header_texts))
def test_event_api_writes(evening: Evening, route: str, body: str, if_match: str | None) -> None:
    url = {"/events": "/api/v1/events", "table": f"/api/v1/events/{evening.id}/tables/{evening.match_id}/close"}.get(
        route, f"/api/v1/events/{evening.id}/{route}")
    headers = {"Authorization": f"Bearer {evening.token}"} | ({} if if_match is None else {"If-Match": if_match})
    before = evening.state()
    response = evening.client.post(url, data=body.encode("utf-8", "surrogatepass"), content_type="application/json",
                                   headers=headers)
    FUZZ_CASES["api: events"] += 1
    assert response.status_code < 500, response.get_data(as_text=True)[:2000]
    if 400 <= response.status_code < 500:
        assert evening.state() == before, f"{route} answered {response.status_code} but changed the event"


# The match file reader ----------------------------------------------------------------------------------

@READER
@given(data=st.one_of(json_values, mutated(SEED_FILES)))
def test_reader_raises_only_rules_errors(data: Any) -> None:
    FUZZ_CASES["reader: match_from_json"] += 1
    try:
        match_from_json(data)
    except RulesError:
        pass


@READER
@given(text=st.one_of(raw_or_match, st.text(max_size=200)))
def test_text_reader_raises_only_rules_errors(text: str) -> None:
    FUZZ_CASES["reader: loads_match"] += 1
    try:
        loads_match(text)
    except RulesError:
        pass


# Numbers and ids beyond what anything reads ---------------------------------------------------------------

HUGE = "9" * 4301  # more digits than ``int`` reads
ODD_NUMBERS = [HUGE, "99999999999999999999", "9" * 10, "٣", "²", "１", "3" + "\u0663"]


def opened(table: Table) -> Table:
    """The client has opened the match's players' link: its forms and outbox take its writes."""
    assert table.client.get(f"/m/{table.id}").status_code == 200
    return table


REPLAYED = {"Accept": "application/json", "Idempotency-Key": "kept-key-0001"}  # a form the outbox kept
LIST_FIELDS = ["sides-{}-name", "sides-{}-players", "sides-{}-total", "sides-0-hands-{}-meld", "players-{}",
               "sides-{}-players-0"]


@ROUTE
@given(form=st.sampled_from(["/matches/new", "/tables/new", "deals/new", "deals/preview", "deals/1/preview",
                             "deals/1/edit", "table matches/new", "table players", "replayed deals/new",
                             "replayed deals/1/edit"]),
       index=st.sampled_from(ODD_NUMBERS), field=st.sampled_from(LIST_FIELDS), value=form_values)
def test_list_fields_with_odd_indices(table: Table, form: str, index: str, field: str, value: Any) -> None:
    """Every form with a list of fields, also replayed from the outbox, given an index ``int`` cannot read."""
    name = field.format(index)
    opened(table)
    club = None if not form.startswith("table ") else Club(table.app, table.client)
    before = table.state()
    if form.startswith("replayed "):
        response = table.client.post(f"/m/{table.id}/{form.removeprefix('replayed ')}", data={name: str(value)},
                                     headers=REPLAYED)
    else:
        url = (form if form.startswith("/") else f"/t/{club.id}/{form.removeprefix('table ')}" if club
               else f"/m/{table.id}/{form}")
        response = table.post_form(url, [(name, value), ("version", str(table.version()))])
    FUZZ_CASES["forms: odd list indices"] += 1
    assert response.status_code < 500, response.get_data(as_text=True)[:2000]
    if 400 <= response.status_code < 500:
        assert table.state()[:3] == before[:3]


@ROUTE
@given(path=st.sampled_from(["deals/{}/edit", "deals/{}/delete", "deals/{}/throw-in", "rules/undo/{}"]),
       number=st.sampled_from(ODD_NUMBERS), version=st.sampled_from([None, 0, 1]))
def test_replayed_forms_at_addresses_with_odd_numbers(table: Table, path: str, number: str,
                                                       version: int | None) -> None:
    opened(table)
    fields = {"version": str(version)} if version is not None else {}
    before = table.state()
    response = table.client.post(f"/m/{table.id}/{path.format(number)}", data=fields, headers=REPLAYED)
    table.check(response, before, "replayed: odd numbers")


PART = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?\w+>")


def addresses(app: Flask, kind: str, odd: str, others: str) -> list[tuple[str, str]]:
    """Each address with a part of ``kind`` (``int``, ``default``), with those parts ``odd`` and the others
    ``others``, and each method it writes or reads with."""
    found = []
    for rule in app.url_map.iter_rules():
        kinds = [found.group(1) or "default" for found in PART.finditer(rule.rule)]
        if kind not in kinds:
            continue
        url = PART.sub(lambda part: quote(odd, safe="") if (part.group(1) or "default") == kind else others,
                       rule.rule)
        found += [(url, method) for method in sorted((rule.methods or set()) & {"GET", "POST", "PUT", "DELETE"})]
    return found


def test_every_path_number_beyond_ascii_or_columns_is_not_found(table: Table) -> None:
    """Every numeric part of every address, given what no deal, round or change is numbered: 404, never 500,
    never what '٣' would read as."""
    found = [address for odd in ODD_NUMBERS for address in addresses(opened(table).app, "int", odd, table.id)]
    assert len(found) >= 10 * len(ODD_NUMBERS)
    for url, method in found:
        before = table.state()
        response = table.client.open(url, method=method, data={"version": "0"})
        table.check(response, before, "paths: odd numbers")
        assert response.status_code in (404, 405), (url, method, response.status_code)


def test_every_path_text_holding_nul_is_not_found(evening: Evening) -> None:
    """Every text part of every address (each link and id), holding a NUL: no database asked, 404."""
    table = opened(Table(evening.app, evening.client))
    found = addresses(table.app, "default", "\x00", "1")
    assert len(found) >= 30
    for url, method in found:
        before = table.state()
        response = table.client.open(url, method=method, data={"version": "0"})
        table.check(response, before, "paths: NUL in ids")
        assert response.status_code in (404, 405), (url, method, response.status_code)
    for url in (f"/e/{evening.id}/tables/%00/close", f"/api/v1/events/{evening.id}/tables/%00/close"):
        for method in ("GET", "POST"):
            assert evening.client.open(url, method=method).status_code in (404, 405)


@ROUTE
@given(action=st.sampled_from(["delete", "throw-in", "undo"]), number=st.sampled_from(ODD_NUMBERS[:3] + ["999999999"]))
def test_stale_writes_to_deals_no_match_has(table: Table, action: str, number: str) -> None:
    """A stale version and a deal number past any match: refused, and its message asks nothing impossible."""
    before = opened(table).state()
    response = table.post_form(f"/m/{table.id}/deals/{number}/{action}", [("version", "0")])
    table.check(response, before, "forms: stale, no such deal")
    for kind in ("delete", "throw-in"):
        replayed = table.client.post(f"/m/{table.id}/deals/{number}/{kind}", data={"version": "0"}, headers=REPLAYED)
        table.check(replayed, before, "replayed: stale, no such deal")


@ROUTE
@given(where=st.sampled_from(["api table", "meld match", "outbox keys", "replayed path", "event swap"]),
       odd=st.sampled_from(["\x00", "a\x00b", "\x00" * 64]))
def test_ids_in_bodies_and_queries_holding_nul(evening: Evening, where: str, odd: str) -> None:
    """Ids that come in a body or a query, holding a NUL: refused or not found, the database never asked."""
    table = opened(Table(evening.app, evening.client))
    before = table.state()
    client, director = table.client, {"Authorization": f"Bearer {evening.token}"}
    response = {
        "api table": lambda: client.post("/api/v1/matches", json={**WORKED, "table": odd}),
        "meld match": lambda: client.get("/meld?" + urlencode({"match": odd})),
        "outbox keys": lambda: client.get(f"/m/{table.id}/outbox?" + urlencode({"keys": odd})),
        "replayed path": lambda: client.post(f"/m/{table.id}/deals/1{odd}/edit", data={}, headers=REPLAYED),
        "event swap": lambda: client.post(f"/api/v1/events/{evening.id}/rounds/1/swap", headers=director,
                                          json={"first": odd, "second": "Ann"}),
    }[where]()
    FUZZ_CASES["ids holding NUL"] += 1
    assert response.status_code < 500, response.get_data(as_text=True)[:2000]
    if response.status_code >= 400:
        assert table.state()[:3] == before[:3]
