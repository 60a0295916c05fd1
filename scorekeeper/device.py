"""The matches this device has opened, remembered in its signed session cookie.

There is no list of everybody's matches anywhere: a phone only sees the matches it created or
was given the link to.
"""

from __future__ import annotations

from flask import session

KEY = "matches"
LIMIT = 40


def device_match_ids() -> list[str]:
    """Links of the matches this device remembers, most recent first."""
    ids = session.get(KEY, [])
    return [value for value in ids if isinstance(value, str)] if isinstance(ids, list) else []


def remember_match(public_id: str) -> None:
    """Put a match at the top of this device's list."""
    current = device_match_ids()
    if current[:1] == [public_id]:
        return
    ids = [value for value in current if value != public_id]
    session[KEY] = [public_id, *ids][:LIMIT]
    session.permanent = True


def forget_match(public_id: str) -> None:
    session[KEY] = [value for value in device_match_ids() if value != public_id]
