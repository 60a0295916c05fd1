"""An API write takes its match's turn among this process's writes before it reads the match, and gives it
back when the request ends: a write that came in meanwhile reads the match after it, once."""

from __future__ import annotations

import threading

from flask import Flask
from test_kept_pages import DEAL, start

from scorekeeper import store


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
