"""Club events, read and recorded: an event's rows, each round's tables as ordinary matches, each table's
outcome worked out from its match's sheet, and the standings from those outcomes (never stored).

The seating, the standings and what ends a round are the rules core's (``rules.seating``,
``rules.standings``); this package loads the facts once per request, calls the core, and writes.
"""

from __future__ import annotations


class EventProblem(Exception):
    """A request an event refuses: the answer's status, the field it concerns (a path as the API names
    it, or ""), a code and a message for a person."""

    def __init__(self, status: int, field: str, code: str, message: str, **extra: object) -> None:
        super().__init__(message)
        self.status, self.field, self.code, self.message, self.extra = status, field, code, message, extra
