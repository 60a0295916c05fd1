"""The write key a page's form was drawn with, read back when the form is sent, and the page for a key that
named another write."""

from __future__ import annotations

from flask import abort, render_template, request

from ..store import write_keys

SENT_BEFORE = "This form was sent before: its change was made then, and nothing more was changed."
"""The message for a form sent again with its key (``Written.replayed``): whatever it holds now, it is the
write it named the first time."""


def sent_write_key(nothing_done: str = "nothing was saved") -> write_keys.WriteKey | None:
    """The key the form was drawn with (forms drawn by an older page have none): the same form sent again is
    the same write, whatever it holds by then. An unreadable key is refused, saying ``nothing_done``."""
    value = request.form.get("write_key", "")
    if not value:
        return None
    if not write_keys.is_write_key(value):
        abort(400, f"This form's key is unreadable, so {nothing_done}; reload the page and try again.")
    return write_keys.WriteKey.of(value, request.method, request.path)


def key_reused_page(nothing_done: str = "nothing was saved") -> tuple[str, int]:
    """The answer to a form whose key was sent before with another request (``write_keys.KeyReused``)."""
    message = f"This form was sent before with another request, so {nothing_done}. Reload the page and try again."
    return render_template("errors/error.html", status=422, title="Form sent twice", message=message), 422
