"""The work gate lets requests in in the order they came: a slot freed goes to the one that waited longest,
never to a request arriving at that moment. A request that steps out to wait for something else comes back
first in line."""

from __future__ import annotations

import threading

from scorekeeper.sheet.holds import WorkGate

PROMPT = 5.0  # seconds a thread may take to reach the gate, however slow the machine


def until_waiting(gate: WorkGate, count: int) -> None:
    """Wait until ``count`` requests queue at the gate."""
    pause = threading.Event()
    for _ in range(int(PROMPT * 1000)):
        if gate.waiting >= count:
            return
        pause.wait(0.001)
    raise AssertionError(f"{gate.waiting} requests wait, not {count}")


def test_waiting_requests_get_their_slot_first_come_first_served() -> None:
    gate = WorkGate(1)
    order: list[int] = []
    changed = threading.Condition()

    def request(number: int) -> None:
        with gate.work():
            with changed:
                order.append(number)
                changed.notify_all()

    with gate.work():  # the one slot is taken: everyone after this queues
        threads = []
        for number in range(5):
            thread = threading.Thread(target=request, args=(number,))
            thread.start()
            threads.append(thread)
            until_waiting(gate, number + 1)
    for thread in threads:
        thread.join(PROMPT)
    assert order == [0, 1, 2, 3, 4]
    assert gate.waiting == 0


def test_a_request_arriving_as_a_slot_frees_queues_behind_those_waiting() -> None:
    gate = WorkGate(1)
    order: list[str] = []

    def waiting() -> None:
        with gate.work():
            order.append("waiting")

    thread = threading.Thread(target=waiting)
    with gate.work():
        thread.start()
        until_waiting(gate, 1)
    with gate.work():  # at once, in the thread that just freed the slot
        order.append("newcomer")
    thread.join(PROMPT)
    assert order == ["waiting", "newcomer"]


def test_a_slot_freed_with_nobody_waiting_is_taken_at_once() -> None:
    gate = WorkGate(2)
    with gate.work(), gate.work():
        assert gate.waiting == 0
    entered = threading.Event()

    def request() -> None:
        with gate.work():
            entered.set()

    threading.Thread(target=request).start()
    assert entered.wait(PROMPT)


def test_without_slots_nothing_is_bounded() -> None:
    gate = WorkGate(0)
    with gate.work(), gate.work(), gate.work():
        assert gate.waiting == 0


def test_a_request_stepping_out_frees_its_slot_and_comes_back_first_in_line() -> None:
    gate = WorkGate(1)
    order: list[str] = []
    outside, back = threading.Event(), threading.Event()

    def stepping_out() -> None:
        with gate.work():
            with gate.stepped_out():
                outside.set()
                back.wait(PROMPT)
            order.append("came back")

    def late() -> None:
        with gate.work():
            order.append("queued")

    first = threading.Thread(target=stepping_out)
    first.start()
    assert outside.wait(PROMPT)
    with gate.work():  # the slot it left
        second = threading.Thread(target=late)
        second.start()
        until_waiting(gate, 1)
        back.set()
        until_waiting(gate, 2)
    first.join(PROMPT)
    second.join(PROMPT)
    assert order == ["came back", "queued"]


def test_work_asked_first_goes_ahead_of_the_requests_waiting() -> None:
    gate = WorkGate(1)
    order: list[str] = []

    def request(name: str, first: bool) -> None:
        with gate.work(first=first):
            order.append(name)

    queued = threading.Thread(target=request, args=("queued", False))
    urgent = threading.Thread(target=request, args=("first", True))
    with gate.work():
        queued.start()
        until_waiting(gate, 1)
        urgent.start()
        until_waiting(gate, 2)
    queued.join(PROMPT)
    urgent.join(PROMPT)
    assert order == ["first", "queued"]
