"""Held looks at the live sheet: a phone that asks to wait (``Prefer: wait=N``) is answered when the match
changes, or with 304 when its hold ends; with every hold slot taken it is answered at once; parked looks
never keep work from running, and no more requests work at once than the server has working threads."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from conftest import Actions
from flask import Flask
from sqlalchemy import update
from test_live_sheet import live_part
from werkzeug.test import Client, TestResponse

from scorekeeper import create_app
from scorekeeper.models import MatchRow
from scorekeeper.sheet.holds import Holds
from scorekeeper.sheet.polls import UnchangedSheets

LONG_HOLD = 20.0  # so long that an answer well before it was not the hold's end
PROMPT = 5.0  # seconds a woken look may take, however slow the machine


def make_app(database_url: str, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                       "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False, **config})


@pytest.fixture
def holding(database_url: str) -> Iterator[Flask]:
    """An app that holds up to two looks for LONG_HOLD seconds, with two working slots."""
    app = make_app(database_url, LIVE_HOLD_SLOTS=2, LIVE_WORK_SLOTS=2, LIVE_HOLD_SECONDS=LONG_HOLD)
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def holds_of(app: Flask) -> Holds:
    middleware = app.wsgi_app
    assert isinstance(middleware, UnchangedSheets) and middleware.holds is not None
    return middleware.holds


class InThread:
    """One request run in its own thread (a phone whose look is parked), its answer kept."""

    def __init__(self, call: Callable[[], TestResponse]) -> None:
        self.answer: TestResponse | None = None
        self._thread = threading.Thread(target=self._run, args=(call,), daemon=True)
        self._thread.start()

    def _run(self, call: Callable[[], TestResponse]) -> None:
        self.answer = call()

    def result(self, within: float) -> TestResponse:
        self._thread.join(within)
        assert self.answer is not None, f"no answer within {within} s"
        return self.answer


def held_look(app: Flask, url: str, etag: str, wait: str = "wait=25") -> InThread:
    phone = app.test_client()
    return InThread(lambda: phone.get(url, headers={"If-None-Match": etag, "Prefer": wait}))


def started_match(app: Flask) -> tuple[Actions, str, str, str]:
    actions = Actions(app.test_client())
    public_id = actions.create_match()
    url, etag = live_part(app.test_client().get(f"/m/{public_id}").get_data(as_text=True))
    return actions, public_id, url, etag


def test_a_held_look_gets_the_new_deal_as_soon_as_it_is_saved(holding: Flask) -> None:
    actions, public_id, url, etag = started_match(holding)
    look = held_look(holding, url, etag)
    assert holds_of(holding).wait_for_parked(1, PROMPT)
    assert actions.add_deal(public_id, 0, 60, (67, 20)).status_code == 302
    answer = look.result(PROMPT)
    assert answer.status_code == 200
    assert answer.headers["Preference-Applied"] == f"wait={LONG_HOLD:g}"
    assert 'id="deal-1"' in answer.get_data(as_text=True)
    assert answer.headers["ETag"] != etag
    assert holds_of(holding).parked == 0


def test_a_watch_link_look_is_woken_too(holding: Flask) -> None:
    actions, public_id, _, _ = started_match(holding)
    with holding.app_context():
        from scorekeeper import store
        watch_id = store.get_match_or_404(public_id).watch_id
    url, etag = live_part(holding.test_client().get(f"/w/{watch_id}").get_data(as_text=True))
    look = held_look(holding, url, etag)
    assert holds_of(holding).wait_for_parked(1, PROMPT)
    actions.add_deal(public_id, 0, 60, (67, 20))
    answer = look.result(PROMPT)
    assert answer.status_code == 200 and 'id="deal-1"' in answer.get_data(as_text=True)
    assert public_id not in answer.get_data(as_text=True)


def test_a_hold_ends_with_304_when_nothing_changed(database_url: str) -> None:
    app = make_app(database_url, LIVE_HOLD_SLOTS=1, LIVE_HOLD_SECONDS=0.2)
    _, _, url, etag = started_match(app)
    answer = app.test_client().get(url, headers={"If-None-Match": etag, "Prefer": "wait=25"})
    assert answer.status_code == 304 and answer.get_data() == b""
    assert answer.headers["Preference-Applied"] == "wait=0.2"
    assert answer.headers["ETag"] == etag and answer.headers["Cache-Control"] == "private, no-cache"
    app.extensions["scorekeeper.engine"].dispose()


def test_with_every_slot_taken_a_look_is_answered_at_once(holding: Flask) -> None:
    actions, public_id, url, etag = started_match(holding)
    looks = [held_look(holding, url, etag) for _ in range(2)]
    assert holds_of(holding).wait_for_parked(2, PROMPT)
    third = holding.test_client().get(url, headers={"If-None-Match": etag, "Prefer": "wait=25"})
    assert third.status_code == 304 and "Preference-Applied" not in third.headers
    actions.add_deal(public_id, 0, 60, (67, 20))
    assert [look.result(PROMPT).status_code for look in looks] == [200, 200]


def test_a_look_at_a_changed_match_is_answered_at_once(holding: Flask) -> None:
    actions, public_id, url, etag = started_match(holding)
    actions.add_deal(public_id, 0, 60, (67, 20))
    answer = holding.test_client().get(url, headers={"If-None-Match": etag, "Prefer": "wait=25"})
    assert answer.status_code == 200 and "Preference-Applied" not in answer.headers


@pytest.mark.parametrize("prefer", ["wait=abc", "wait=-1", "wait=0", "wait=" + "9" * 50, "wait", "respond-async",
                                    "wait=1.5", "\x00", "wait=\u0663", ""])
def test_a_wait_that_cannot_be_read_is_ignored(holding: Flask, prefer: str) -> None:
    _, _, url, etag = started_match(holding)
    answer = holding.test_client().get(url, headers={"If-None-Match": etag, "Prefer": prefer})
    assert answer.status_code == 304 and "Preference-Applied" not in answer.headers


def test_a_wait_among_other_preferences_is_read(database_url: str) -> None:
    app = make_app(database_url, LIVE_HOLD_SLOTS=1, LIVE_HOLD_SECONDS=5)
    _, _, url, etag = started_match(app)
    answer = app.test_client().get(url, headers={"If-None-Match": etag, "Prefer": "respond-async, WAIT=0001;x"})
    assert answer.status_code == 304 and answer.headers["Preference-Applied"] == "wait=1"
    app.extensions["scorekeeper.engine"].dispose()


def test_without_hold_slots_nothing_is_held(app: Flask, actions: Actions) -> None:
    public_id = actions.create_match()
    url, etag = live_part(app.test_client().get(f"/m/{public_id}").get_data(as_text=True))
    answer = app.test_client().get(url, headers={"If-None-Match": etag, "Prefer": "wait=25"})
    assert answer.status_code == 304 and "Preference-Applied" not in answer.headers


def test_a_change_made_by_another_process_wakes_a_held_look(holding: Flask) -> None:
    """A write this process did not make (here a bare statement, as another worker's commit looks from
    here) is found by the look at the parked matches' versions."""
    _, public_id, url, etag = started_match(holding)
    look = held_look(holding, url, etag)
    assert holds_of(holding).wait_for_parked(1, PROMPT)
    engine = holding.extensions["scorekeeper.engine"]
    with engine.begin() as connection:
        connection.execute(update(MatchRow).where(MatchRow.public_id == public_id)
                           .values(version=MatchRow.version + 1))
    answer = look.result(PROMPT)
    assert answer.status_code == 200 and answer.headers["ETag"] != etag


def test_a_parked_look_never_keeps_work_waiting(database_url: str) -> None:
    app = make_app(database_url, LIVE_HOLD_SLOTS=1, LIVE_WORK_SLOTS=1, LIVE_HOLD_SECONDS=LONG_HOLD)
    actions, public_id, url, etag = started_match(app)
    look = held_look(app, url, etag)
    assert holds_of(app).wait_for_parked(1, PROMPT)
    page = InThread(lambda: app.test_client().get(f"/m/{public_id}"))
    assert page.result(PROMPT).status_code == 200  # the one working slot was free
    actions.add_deal(public_id, 0, 60, (67, 20))
    assert look.result(PROMPT).status_code == 200
    app.extensions["scorekeeper.engine"].dispose()


def test_no_more_requests_work_at_once_than_the_working_slots(database_url: str) -> None:
    """Three requests arrive with two working slots: the app meets at most two of them at once (three
    meeting would fill the barrier; two wait for the third until the barrier gives up)."""
    app = make_app(database_url, LIVE_WORK_SLOTS=2)
    meeting = threading.Barrier(3, timeout=1.0)
    inside, most = [0], [0]
    lock = threading.Lock()

    def counting(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        try:
            meeting.wait()
        except threading.BrokenBarrierError:
            pass
        with lock:
            inside[0] -= 1
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"done"]

    gated = UnchangedSheets(app, counting)  # type: ignore[arg-type]
    requests = [InThread(lambda: Client(gated).get("/anything")) for _ in range(3)]  # type: ignore[arg-type, return-value]
    assert [request.result(PROMPT).status_code for request in requests] == [200, 200, 200]
    assert most[0] == 2
    assert meeting.broken  # nobody got a third one in
    app.extensions["scorekeeper.engine"].dispose()
