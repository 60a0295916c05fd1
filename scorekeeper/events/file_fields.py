"""Reading the fields of an event file: objects with exactly their keys, lists, whole numbers and moments in
UTC, each refused (``Invalid``) with its path from the top of the file."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..models import aware
from ..rules.problems import ProblemCode
from ..rules.refusals import Invalid


def iso(moment: datetime | None) -> str | None:
    """A stored moment in UTC to the microsecond: a deal entered a hair before a round's time ran out stays
    before it in the imported event."""
    return None if moment is None else aware(moment).astimezone(UTC).isoformat().replace("+00:00", "Z")


def refused(field: str, code: str, message: str) -> Invalid:
    return Invalid(field, code, message)


def an_object(value: object, path: str, keys: frozenset[str]) -> dict[str, Any]:
    """``value`` as an object with only ``keys`` (all of them present)."""
    if not isinstance(value, dict):
        raise refused(path, ProblemCode.WRONG_TYPE, "expected an object")
    unknown = sorted(set(value) - keys)
    if unknown:
        raise refused(f"{path}.{unknown[0]}".lstrip("."), ProblemCode.UNKNOWN_KEY,
                      f"unknown key {unknown[0]!r} (allowed: {', '.join(sorted(keys))})")
    missing = sorted(keys - set(value))
    if missing:
        raise refused(f"{path}.{missing[0]}".lstrip("."), ProblemCode.MISSING_KEY, f"{missing[0]} is missing")
    return value


def a_list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise refused(path, ProblemCode.WRONG_TYPE, "expected a list")
    return value


def a_moment(value: object, path: str, optional: bool = False) -> datetime | None:
    if value is None and optional:
        return None
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise refused(path, ProblemCode.WRONG_TYPE, 'a moment in UTC, as "2027-03-04T19:02:11Z"')
    return moment.astimezone(UTC)


def required_moment(value: object, path: str) -> datetime:
    moment = a_moment(value, path)
    assert moment is not None
    return moment


def whole(value: object, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise refused(path, ProblemCode.NOT_A_NUMBER, "expected a whole number")
    if not low <= value <= high:
        raise refused(path, ProblemCode.OUT_OF_RANGE, f"expected {low} to {high}, not {value}")
    return value
