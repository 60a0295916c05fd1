"""Club events, read and recorded: an event's rows, each round's tables as ordinary matches, each table's
outcome worked out from its match's sheet, and the standings from those outcomes (never stored).

The seating, the standings and what ends a round are the rules core's (``rules.seating``,
``rules.standings``); this package loads the facts once per request, calls the core, and writes. What it
refuses it raises as the refusals of ``rules.refusals`` (``NotFound``, ``Conflict``, ``Invalid``).
"""

from __future__ import annotations
