"""What every form shares: the trump choices, a write key and a sentence for a message."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

from markupsafe import Markup
from wtforms import Field, FieldList
from wtforms import SelectChoice as SelectChoice  # type: ignore[attr-defined]  # WTForms 3.2+, newer than its stubs

from ..rules.cards import Suit
from ..rules.messages import sentence as sentence  # forms and views say a refusal's message as a sentence
from ..rules.numbers import path_number

RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)


def suit_label(suit: Suit) -> Markup:
    """A trump button's label, "♥ Hearts", its sign red for the red suits as on the cards."""
    sign_class = ' class="suit-red"' if suit in RED_SUITS else ""
    # One inline run, so the button lays the sign and the name out as text with its space.
    return Markup('<span><span{}>{}</span> {}</span>').format(Markup(sign_class), suit.symbol, suit.name.title())


SUITS = [SelectChoice("", "None"), *(SelectChoice(suit.value, suit_label(suit)) for suit in Suit)]



class NumberedList(FieldList):  # type: ignore[type-arg]
    """A ``FieldList`` that reads only the entries a page could send: ``sides-3-name``, never ``sides-²-name``
    or an index of thousands of digits (``int`` refuses both, and the request would end in an error)."""

    def _extract_indices(self, prefix: str, formdata: Any) -> Iterator[int]:
        offset = len(prefix) + 1
        for name in formdata:
            if name.startswith(prefix):
                index = path_number(name[offset:].split(self._field_separator, 1)[0])  # type: ignore[attr-defined]
                if index is not None:
                    yield index


def new_write_key() -> str:
    """The key a form carries from the moment it is drawn: its repeats (a double tap, a reload that
    sends it again) are the same write. 128 random bits."""
    return secrets.token_urlsafe(16)


def add_error(field: Field, message: str) -> None:
    """Show ``message`` at ``field`` (after or without validation)."""
    field.errors = [*field.errors, message]
