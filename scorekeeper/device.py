"""The matches this device has opened, remembered in its signed session cookie.

There is no list of everybody's matches anywhere: a phone only sees the matches it created or
was given the link to. The cookie is written only when the list changes (or, at most once a month,
to renew its one-year lifetime), not on every page view.

The list is also this phone's right to change those matches: a form that writes to a match (a deal, a
throw-in, the house rules) is refused with 403 unless the match is in the list. A phone gets the right
by starting or importing the match or by opening a page of it at its players' link (``/m/<public_id>``);
the watch link (``/w/<watch_id>``) never gives it. The API does not use the cookie: it asks for the
match's edit token.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from datetime import date
from typing import Any, NamedTuple

from flask import request, session

from .rules.limits import MAX_PLAYER_NAME
from .rules.refusals import NotAllowed
from .store.history import PHONE, Author, who
from .store.locks import refused_at

KEY = "matches"
RENEWED_KEY = "renewed"  # the day the cookie was last written, as a day number
LIMIT = 40
RENEW_AFTER_DAYS = 30
FLASHES_KEY = "_flashes"  # where ``flask.flash`` keeps messages until a page shows them


def device_match_ids(data: Mapping[str, Any] | None = None) -> list[str]:
    """Links of the matches this device remembers, most recent first (in this request's session, or in
    the session ``data``)."""
    ids = (session if data is None else data).get(KEY, [])
    return [value for value in ids if isinstance(value, str)] if isinstance(ids, list) else []


def remember_match(public_id: str) -> None:
    """Put a match at the top of this device's list."""
    current = device_match_ids()
    if current[:1] == [public_id] and not _renewal_due():
        return
    ids = [value for value in current if value != public_id]
    _write([public_id, *ids][:LIMIT])


def sheet_keeps_session(data: Mapping[str, Any], public_id: str) -> bool:
    """Whether opening the match's players' page leaves the session ``data`` as it is, so that the answer
    sets no cookie and holds nothing of the session: the match is at the top of the list already
    (``remember_match`` changes nothing), the cookie needs no renewal, and no message (``flask.flash``) or
    saved deal (``take_saved``) waits to be shown once."""
    return (device_match_ids(data)[:1] == [public_id] and not _renewal_due(data)
            and FLASHES_KEY not in data and SAVED_KEY not in data)


def may_change(public_id: str) -> bool:
    """Whether this phone has opened the match's players' link (and not forgotten the match since)."""
    return public_id in device_match_ids()


NOT_A_PLAYER = (
    "This phone has not opened this match's players' link, so it cannot change the match; nothing was "
    "saved. Open the players' link on this phone (any player can share it from the score sheet), then "
    "try again. A watch link only shows the score."
)


def players_only() -> None:
    """Before a request to a match's forms: a write (POST) from a phone without the right is refused."""
    public_id = (request.view_args or {}).get("public_id")
    if request.method == "POST" and not (isinstance(public_id, str) and may_change(public_id)):
        raise NotAllowed(None, "not_allowed", NOT_A_PLAYER)


def event_rules_are_the_directors() -> None:
    """Before a request to a match's rules forms: at a table of an event, a change of rules is refused even
    before its preview (409: the event's rules are the director's)."""
    public_id = (request.view_args or {}).get("public_id")
    if request.method == "POST" and isinstance(public_id, str):
        refused = refused_at(public_id, rules=True)
        if refused is not None:
            raise refused


def forget_match(public_id: str) -> None:
    _write([value for value in device_match_ids() if value != public_id])


def _write(ids: list[str]) -> None:
    session[KEY] = ids
    session[RENEWED_KEY] = date.today().toordinal()
    session.permanent = True


def _renewal_due(data: Mapping[str, Any] | None = None) -> bool:
    renewed = (session if data is None else data).get(RENEWED_KEY)
    return not isinstance(renewed, int) or date.today().toordinal() - renewed >= RENEW_AFTER_DAYS


SAVED_KEY = "saved"  # the deal this phone saved last, shown once on the sheet it lands on


class SavedDeal(NamedTuple):
    """A deal this phone just saved: its number, the match's version right after, and whether it was
    added (only an added deal can be undone, by deleting it while the match is still at that version)."""

    public_id: str
    number: int
    version: int
    added: bool


def note_saved(saved: SavedDeal) -> None:
    session[SAVED_KEY] = list(saved)


def take_saved(public_id: str) -> SavedDeal | None:
    """The deal saved on this phone for this match, once (None when there is none)."""
    if SAVED_KEY not in session:
        return None
    kept = session.pop(SAVED_KEY)
    if not (isinstance(kept, list) and len(kept) == 4 and kept[0] == public_id):
        return None
    _, number, version, added = kept
    if not (isinstance(number, int) and isinstance(version, int) and isinstance(added, bool)):
        return None
    return SavedDeal(public_id, number, version, added)


ENTRY_MODE_KEY = "entry_mode"  # the way this phone entered its last deal: its next new deal starts so


def note_entry_mode(mode: str) -> None:
    if session.get(ENTRY_MODE_KEY) != mode:
        session[ENTRY_MODE_KEY] = mode


def entry_mode() -> str | None:
    """The way of entry (the deal form's ``mode``) this phone last saved a deal in, if it saved one."""
    mode = session.get(ENTRY_MODE_KEY)
    return mode if isinstance(mode, str) else None


TABLES_KEY = "tables"  # the tables this device opened, kept as its matches are


def device_table_ids() -> list[str]:
    """Links of the tables this device remembers, most recent first."""
    ids = session.get(TABLES_KEY, [])
    return [value for value in ids if isinstance(value, str)] if isinstance(ids, list) else []


def remember_table(public_id: str) -> None:
    """Put a table at the top of this device's list: opening a table's link gives the right to change it."""
    current = device_table_ids()
    if current[:1] == [public_id]:
        return
    session[TABLES_KEY] = [public_id, *(value for value in current if value != public_id)][:LIMIT]
    session.permanent = True


def may_change_table(public_id: str) -> bool:
    return public_id in device_table_ids()


def forget_table(public_id: str) -> None:
    session[TABLES_KEY] = [value for value in device_table_ids() if value != public_id]


NOT_AT_THE_TABLE = (
    "This phone has not opened this table's link, so it cannot change the table; nothing was saved. Open "
    "the table's link on this phone (anyone at the table can share it), then try again."
)


EVENTS_KEY = "events"  # the events this device opened at their director's link


def device_event_ids() -> list[str]:
    """Director's links of the events this device remembers, most recent first."""
    ids = session.get(EVENTS_KEY, [])
    return [value for value in ids if isinstance(value, str)] if isinstance(ids, list) else []


def remember_event(public_id: str) -> None:
    """Put an event at the top of this device's list: opening its director's link gives the right to direct it."""
    current = device_event_ids()
    if current[:1] == [public_id]:
        return
    session[EVENTS_KEY] = [public_id, *(value for value in current if value != public_id)][:LIMIT]
    session.permanent = True


def may_direct(public_id: str) -> bool:
    return public_id in device_event_ids()


NOT_THE_DIRECTOR = (
    "This phone has not opened this event's director's link, so it cannot change the event; nothing was "
    "saved. Open the director's link on this phone, then try again. The standings link only shows the standings."
)


PHONE_KEY = "phone"  # this phone's short id, made on its first write: the history tells phones apart by it
ME_KEY = "me"  # the name this phone said it is ("I am …")
_PHONE_ID = re.compile(r"[a-z0-9]{8}")


def phone_name() -> str | None:
    """The name this phone said it is, if it said one."""
    name = session.get(ME_KEY)
    return name if isinstance(name, str) and name else None


def say_who(name: str) -> None:
    """Keep the name this phone is (an empty one forgets it), cut to a player's name's length."""
    name = " ".join(name.split())[:MAX_PLAYER_NAME]
    if name:
        session[ME_KEY] = name
    else:
        session.pop(ME_KEY, None)
    session.permanent = True


def _phone_id(make: bool) -> str | None:
    found = session.get(PHONE_KEY)
    if isinstance(found, str) and _PHONE_ID.fullmatch(found):
        return found
    if not make:
        return None
    made = secrets.token_hex(4)
    session[PHONE_KEY] = made
    session.permanent = True
    return made


def this_phone() -> Author:
    """This phone as its writes are recorded (its id is made on its first write)."""
    return Author(PHONE + str(_phone_id(make=True)), phone_name())


def this_phone_label() -> str:
    """How the history names this phone ("Ann's phone", "a phone (k3f9)"), without making it an id."""
    phone, name = _phone_id(make=False), phone_name()
    if phone is None:
        return f"{name}'s phone" if name else "a phone"
    return who(PHONE + phone, name)
