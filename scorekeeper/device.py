"""The matches this device has opened, remembered in its signed session cookie.

There is no list of everybody's matches anywhere: a phone only sees the matches it created or
was given the link to. The cookie is written only when the list changes (or, at most once a month,
to renew its one-year lifetime), not on every page view.
"""

from __future__ import annotations

from datetime import date

from flask import session

KEY = "matches"
RENEWED_KEY = "renewed"  # the day the cookie was last written, as a day number
LIMIT = 40
RENEW_AFTER_DAYS = 30


def device_match_ids() -> list[str]:
    """Links of the matches this device remembers, most recent first."""
    ids = session.get(KEY, [])
    return [value for value in ids if isinstance(value, str)] if isinstance(ids, list) else []


def remember_match(public_id: str) -> None:
    """Put a match at the top of this device's list."""
    current = device_match_ids()
    if current[:1] == [public_id] and not _renewal_due():
        return
    ids = [value for value in current if value != public_id]
    _write([public_id, *ids][:LIMIT])


def forget_match(public_id: str) -> None:
    _write([value for value in device_match_ids() if value != public_id])


def _write(ids: list[str]) -> None:
    session[KEY] = ids
    session[RENEWED_KEY] = date.today().toordinal()
    session.permanent = True


def _renewal_due() -> bool:
    renewed = session.get(RENEWED_KEY)
    return not isinstance(renewed, int) or date.today().toordinal() - renewed >= RENEW_AFTER_DAYS
