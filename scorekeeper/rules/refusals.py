"""What a request is refused for, as values: a kind (the class), the field it concerns (a path as the API
names it, or None when it is about no one value), a code a program acts on and a message for a person.

The store, the tables, the events and the rules core raise these; one handler in the web layer
(``views/errors.py``) turns each kind into its answer (a page, or JSON naming the field and the code). No
refusal knows of HTTP.
"""

from __future__ import annotations


class Refusal(Exception):
    """A request refused: ``field`` (or None), ``code``, ``message``; ``extra``: facts an answer carries
    beside them (the version the match is at, the deals that contradict the rules …)."""

    title = ""  # the error page's heading, when not the one of its status

    def __init__(self, field: str | None, code: str, message: str, **extra: object) -> None:
        super().__init__(message)
        self.field, self.code, self.message, self.extra = field, code, message, extra


class NotFound(Refusal):
    """Nothing at the link given: no match, table or event, or no such deal."""


class NotAllowed(Refusal):
    """Something there, but not for whoever asks (a phone that is not one of the match's players)."""


class Conflict(Refusal):
    """A request that was fine when it was made, but something changed since (another phone's write)."""


class Invalid(Refusal):
    """A value that cannot be taken: the wrong type, out of range, a name given twice, a rule broken."""
