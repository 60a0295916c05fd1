"""The write key a page's form was drawn with, read back when the form is sent."""

from __future__ import annotations

from flask import abort, request

from ..store import write_keys


def sent_write_key(nothing_done: str = "nothing was saved") -> write_keys.WriteKey | None:
    """The key the form was drawn with (forms drawn by an older page have none): the same form sent again is
    the same write, whatever it holds by then. An unreadable key is refused, saying ``nothing_done``."""
    value = request.form.get("write_key", "")
    if not value:
        return None
    if not write_keys.is_write_key(value):
        abort(400, f"This form's key is unreadable, so {nothing_done}; reload the page and try again.")
    return write_keys.WriteKey.of(value, request.method, request.path)
