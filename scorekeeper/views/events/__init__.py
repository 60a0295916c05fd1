"""An event's pages: a new event (``new_event``), the director's page at the event's link and its changes
(``director``, ``closing``), and the public standings: a phone's page, the big screen, CSV (``standings``).

The director's writes call the same functions as the API (``events.director``); every form's token is
checked before the view (``CSRFProtect``); each form carries the event's version it was drawn from, so a
page another director's change overtook is refused and drawn again as the event is now.
"""

from __future__ import annotations

from . import closing, director, house_rules, new_event, prints, standings  # noqa: F401  (their routes join the blueprint)
from .blueprint import bp

__all__ = ["bp"]
