"""An API write takes its match's turn among this process's writes before it reads the match, and gives it
back once its write is committed (or the request ends): a write that came in meanwhile reads the match after
it, once. While a request waits for a turn, it leaves its work slot to the others."""

from __future__ import annotations

import threading

from flask import Flask, Response, request
from test_kept_pages import DEAL, start
from test_work_gate import until_waiting

from scorekeeper import create_app, store
from scorekeeper.sheet.polls import UnchangedSheets


def held_elsewhere(turn: threading.RLock) -> bool:
    """Whether another thread holds ``turn`` (tried from a thread of its own, without waiting)."""
    free: list[bool] = []

    def attempt() -> None:
        taken = turn.acquire(blocking=False)
        free.append(taken)
        if taken:
            turn.release()

    thread = threading.Thread(target=attempt)
    thread.start()
    thread.join(30)
    return free == [False]


def test_reading_a_match_to_write_takes_its_turn_until_the_request_ends(app: Flask) -> None:
    public_id, _, _ = start(app)
    turn = store._turn(public_id)
    assert not held_elsewhere(turn)
    with app.test_request_context(f"/api/v1/matches/{public_id}/deals", method="POST"):
        store.match_to_write(public_id)
        assert held_elsewhere(turn)
        store.end_turns()
        assert not held_elsewhere(turn)


def test_every_api_write_gives_its_turn_back(app: Flask) -> None:
    public_id, token, _ = start(app)
    client = app.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/v1/matches/{public_id}/deals", json=DEAL, headers=auth).status_code == 201
    assert client.put(f"/api/v1/matches/{public_id}/deals/9", json=DEAL, headers=auth).status_code == 404
    assert client.post(f"/api/v1/matches/{public_id}/deals", json=DEAL,
                       headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert client.post(f"/api/v1/matches/{public_id}/deals", data="{", headers=auth | {
        "Content-Type": "application/json"}).status_code == 400
    assert not held_elsewhere(store._turn(public_id))


def test_a_write_waiting_for_the_turn_reads_the_match_as_the_write_before_left_it(app: Flask) -> None:
    public_id, token, _ = start(app)
    auth = {"Authorization": f"Bearer {token}"}
    turn = store._turn(public_id)
    turn.acquire()  # a write of this process under way
    answers: list[int] = []
    waiting = threading.Thread(target=lambda: answers.append(app.test_client().post(
        f"/api/v1/matches/{public_id}/deals", json=DEAL, headers=auth).get_json()["version"]))
    try:
        waiting.start()
        waiting.join(0.2)
        assert waiting.is_alive()  # waits for the turn before reading
        first = app.test_client().post(f"/api/v1/matches/{public_id}/deals", json=DEAL, headers=auth)
        assert first.status_code == 201  # the turn is the same thread's: the holder's own write goes on
    finally:
        turn.release()
    waiting.join(30)
    assert answers == [first.get_json()["version"] + 1]


def test_a_write_gives_its_turn_back_once_committed_before_its_answer_is_drawn(app: Flask) -> None:
    held_after_the_write: list[bool] = []

    @app.after_request
    def look(response: Response) -> Response:
        if request.method == "PUT":
            held_after_the_write.append(held_elsewhere(store._turn(public_id)))
        return response

    public_id, token, _ = start(app)
    answer = app.test_client().put(f"/api/v1/matches/{public_id}/deals/1", json=DEAL,
                                   headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200
    assert held_after_the_write == [False]


def test_a_write_waiting_for_its_turn_leaves_its_work_slot_to_a_reader(app: Flask) -> None:
    one_slot = create_app(dict(app.config) | {"LIVE_WORK_SLOTS": 1})
    gate = one_slot.wsgi_app.gate if isinstance(one_slot.wsgi_app, UnchangedSheets) else None
    assert gate is not None
    public_id, token, _ = start(one_slot)
    turn = store._turn(public_id)
    writes: list[int] = []
    reads: list[int] = []
    writer = threading.Thread(target=lambda: writes.append(one_slot.test_client().put(
        f"/api/v1/matches/{public_id}/deals/1", json=DEAL, headers={"Authorization": f"Bearer {token}"}).status_code))
    reader = threading.Thread(target=lambda: reads.append(one_slot.test_client().get(f"/m/{public_id}").status_code))
    turn.acquire()  # another write of this process under way
    try:
        with gate.work():  # the one slot is taken: the write queues for it
            writer.start()
            until_waiting(gate, 1)
        # The write has the slot now and waits for the turn; the reader needs the slot.
        reader.start()
        reader.join(30)
        assert reads == [200]
    finally:
        turn.release()
        writer.join(30)
        reader.join(30)
        one_slot.extensions["scorekeeper.engine"].dispose()
    assert writes == [200]
