"""The API's answer that carries a whole match and its sheet, encoded from parts kept between answers.

After a write the answer holds every deal and every line of the sheet, all but one or a few of which were
in the answer before. Each deal (by deal and house rules) and each line of the sheet (a named tuple of
numbers) is encoded once and kept; the answer is the rest of the body encoded as usual, with the two lists
put together from their kept parts. The bytes are those ``jsonify`` gives (keys sorted, compact): JSON
text of an object does not depend on where the object sits. With Flask's readable output (debug mode, or
``compact`` off) the answer is encoded whole instead.
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
from collections.abc import Callable, Hashable
from typing import Any

from flask import current_app
from werkzeug.wrappers import Response

from ..rules.house_rules import HouseRules
from ..rules.match import Deal, Match
from ..rules.matchfile import DealWriter, match_to_json
from ..rules.scoring import DealLine, Sheet
from ..sheet.rows import shape_of

FRAGMENTS_KEPT = 20_000  # encoded deals, and as many lines; past that each starts afresh
# Stand-ins for the two lists while the rest is encoded: random, so no text a client sent can be one.
_DEALS = f"\x00deals-{secrets.token_hex(8)}\x00"
_LINES = f"\x00lines-{secrets.token_hex(8)}\x00"
_TOTALS = f"\x00totals-{secrets.token_hex(8)}\x00"
_TOTALS_CUT = "\x00"  # a frame's stand-in for its totals once encoded: JSON text holds no raw NUL
_COMPACT = {"separators": (",", ":")}


class Fragments:
    """JSON texts by what they encode (bounded)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: dict[Hashable, str] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, encode: Callable[[], str]) -> str:
        text = self._kept.get(key)
        if text is None:
            text = encode()
            self.put(key, text)
        return text

    def put(self, key: Hashable, text: str) -> None:
        with self._lock:
            if len(self._kept) >= self.limit:
                self._kept.clear()
            self._kept[key] = text


class DealTexts:
    """Encoded deals, found by the very deal and rules objects they were encoded for, else by value.

    The facts of a match's next version hold the same deal objects as the version before but the one
    written (and the store hands out one object for each value), so a deal is found by its ``id``
    without hashing or comparing it field by field. An entry holds its deal and rules, so the ``id``
    cannot name another object while the entry is kept. Bounded: past ``limit`` deals it starts afresh.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._by_object: dict[int, tuple[Deal, HouseRules, str]] = {}
        self._by_value = Fragments(limit)
        self._lock = threading.Lock()

    def get(self, deal: Deal, rules: HouseRules, encode: Callable[[], str]) -> str:
        kept = self._by_object.get(id(deal))
        if kept is not None and kept[0] is deal and kept[1] is rules:
            return kept[2]
        text = self._by_value.get((deal, rules), encode)
        with self._lock:
            if len(self._by_object) >= self.limit:
                self._by_object.clear()
            self._by_object[id(deal)] = (deal, rules, text)
        return text


DEALS = DealTexts(FRAGMENTS_KEPT)
LINES = Fragments(FRAGMENTS_KEPT)  # lines without running totals (played after the end)
LINE_FRAMES = Fragments(FRAGMENTS_KEPT)  # lines' texts cut where the running totals go, by the rest (``shape_of``)


def _line_text(line: DealLine, dumps: Callable[..., str]) -> str:
    """A line of the sheet as JSON. A correction changes the running totals of every line after it and
    nothing else of them: a line is its kept frame with its totals put in."""
    if line.totals is None:
        return LINES.get(line, lambda: dumps(line.to_json(), **_COMPACT))
    frame = LINE_FRAMES.get(shape_of(line), lambda: _line_frame(line, dumps))
    head, _, tail = frame.partition(_TOTALS_CUT)
    return f"{head}[{','.join(map(str, line.totals))}]{tail}"  # running sums of whole numbers: as JSON writes them


def _line_frame(line: DealLine, dumps: Callable[..., str]) -> str:
    """The line's JSON with ``_TOTALS_CUT`` where its running totals go."""
    return dumps(line.to_json() | {"totals": _TOTALS}, **_COMPACT).replace(dumps(_TOTALS), _TOTALS_CUT, 1)


def _no_deal(_deal: Deal, _rules: HouseRules) -> dict[str, Any]:
    return {}  # the frame's deals are replaced by their kept texts


def match_response(body: dict[str, Any], match: Match, sheet: Sheet, deal_json: DealWriter) -> Response:
    """``jsonify(body)`` with ``"match"`` (the match file) and ``"sheet"`` (its sheet) added."""
    provider = current_app.json
    dumps: Callable[..., str] = provider.dumps
    compact = getattr(provider, "compact", None)
    if (compact is None and current_app.debug) or compact is False:  # Flask's readable output
        whole = body | {"match": match_to_json(match, deal_json), "sheet": sheet.to_json()}
        readable: Response = provider.response(whole)  # type: ignore[assignment]
        return readable
    rules = match.rules
    deals = [DEALS.get(deal, rules, lambda deal=deal: dumps(deal_json(deal, rules), **_COMPACT))  # type: ignore[misc]
             for deal in match.deals]
    lines = [_line_text(line, dumps) for line in sheet.deals]
    frame = body | {"match": match_to_json(match, _no_deal) | {"deals": _DEALS},
                    "sheet": dataclasses.replace(sheet, deals=()).to_json() | {"deals": _LINES}}
    text = dumps(frame, **_COMPACT)
    text = text.replace(dumps(_DEALS), f"[{','.join(deals)}]", 1).replace(dumps(_LINES), f"[{','.join(lines)}]", 1)
    return current_app.response_class(f"{text}\n", mimetype=provider.mimetype)  # type: ignore[attr-defined]
