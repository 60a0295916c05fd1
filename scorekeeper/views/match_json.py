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

from ..rules.match import Match
from ..rules.matchfile import DealWriter, match_to_json
from ..rules.scoring import Sheet

FRAGMENTS_KEPT = 20_000  # encoded deals, and as many lines; past that each starts afresh
# Stand-ins for the two lists while the rest is encoded: random, so no text a client sent can be one.
_DEALS = f"\x00deals-{secrets.token_hex(8)}\x00"
_LINES = f"\x00lines-{secrets.token_hex(8)}\x00"
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
            with self._lock:
                if len(self._kept) >= self.limit:
                    self._kept.clear()
                self._kept[key] = text
        return text


DEALS = Fragments(FRAGMENTS_KEPT)
LINES = Fragments(FRAGMENTS_KEPT)


def match_response(body: dict[str, Any], match: Match, sheet: Sheet, deal_json: DealWriter) -> Response:
    """``jsonify(body)`` with ``"match"`` (the match file) and ``"sheet"`` (its sheet) added."""
    provider = current_app.json
    dumps: Callable[..., str] = provider.dumps
    data = match_to_json(match, deal_json)
    compact = getattr(provider, "compact", None)
    if (compact is None and current_app.debug) or compact is False:  # Flask's readable output
        whole = body | {"match": data, "sheet": sheet.to_json()}
        readable: Response = provider.response(whole)  # type: ignore[assignment]
        return readable
    deals = [DEALS.get((deal, match.rules), lambda written=written: dumps(written, **_COMPACT))  # type: ignore[misc]
             for deal, written in zip(match.deals, data["deals"], strict=True)]
    lines = [LINES.get(line, lambda line=line: dumps(line.to_json(), **_COMPACT))  # type: ignore[misc]
             for line in sheet.deals]
    frame = body | {"match": data | {"deals": _DEALS},
                    "sheet": dataclasses.replace(sheet, deals=()).to_json() | {"deals": _LINES}}
    text = dumps(frame, **_COMPACT)
    text = text.replace(dumps(_DEALS), f"[{','.join(deals)}]", 1).replace(dumps(_LINES), f"[{','.join(lines)}]", 1)
    return current_app.response_class(f"{text}\n", mimetype=provider.mimetype)  # type: ignore[attr-defined]
