"""The one reader of whole numbers typed as text: form fields, query strings, headers, house rules.

Only ASCII digits count, and only so many of them: ``str.isdigit`` also accepts '²' or '١', which
``int`` then refuses or reads, and ``int`` refuses digit strings over 4,300 characters.
"""

from __future__ import annotations

import re

from .errors import RulesError
from .limits import MAX_DIGITS
from .messages import problem
from .problems import ProblemCode

_DIGITS = re.compile(r"[0-9]+", re.ASCII)
SHOWN = 20  # characters of the typed text a message repeats


def parse_whole_number(text: str, path: str = "", max_digits: int = MAX_DIGITS) -> int:
    """The whole number in ``text`` (surrounding spaces aside): ASCII digits only, at most ``max_digits``.

    Raises ``RulesError`` with a ``not_a_number`` problem (``out_of_range`` when there are too many
    digits) at ``path``.
    """
    stripped = text.strip()
    if not _DIGITS.fullmatch(stripped):
        if stripped:
            raise RulesError(problem(ProblemCode.NOT_A_NUMBER, path, "typed", text=shown_text(stripped)))
        raise RulesError(problem(ProblemCode.NOT_A_NUMBER, path, "empty"))
    if len(stripped.lstrip("0")) > max_digits:
        shown = shown_text(stripped)
        raise RulesError(problem(ProblemCode.OUT_OF_RANGE, path, "digits", text=shown, digits=max_digits))
    return int(stripped)


def whole_number_or_none(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """``parse_whole_number`` for a value that is simply ignored, or answered as one, when unreadable."""
    try:
        return parse_whole_number(text, max_digits=max_digits)
    except RulesError:
        return None


def path_number(text: str) -> int | None:
    """The number an address part or a form field's index spells, or None: ASCII digits only, nothing around
    them, at most ``MAX_DIGITS`` of them (so it fits the database's integer columns)."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS:
        return None
    return int(text)


def shown_text(text: str) -> str:
    """Text a person typed, as a message repeats it: long text cut short."""
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"
