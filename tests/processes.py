"""Processes started together: forked children released at one moment by a barrier."""

from __future__ import annotations

import multiprocessing
from typing import Any


def start_together(processes: int, target: Any, *args: Any) -> list[Any]:
    """Run ``target(*args, barrier, results)`` in forked processes released at once; their results."""
    context = multiprocessing.get_context("fork")  # children share the imports: a start costs little
    barrier = context.Barrier(processes)
    results = context.Queue()
    children = [context.Process(target=target, args=(*args, barrier, results)) for _ in range(processes)]
    for child in children:
        child.start()
    answers = [results.get(timeout=60) for _ in children]
    for child in children:
        child.join(timeout=60)
        assert child.exitcode == 0, answers
    return answers
