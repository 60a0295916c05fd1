"""What an address may carry in its parts: numbers in ASCII digits that the database can hold, and no NUL.

``<int:…>`` in every route is ``PathNumber``: '٣' or '²' is no deal number (``int`` reads them, the
digit class of a route's pattern matches them), nor is one with more digits than a typed number may
have (``MAX_DIGITS``), so each number asked of the database fits its columns. The outbox reads the
numbers of the form addresses it is sent with ``rules.numbers.path_number``.

A text part (a link, a table's match) holding a NUL is no address at all: PostgreSQL refuses NUL in text,
so it is answered 404 before any view asks the database (``no_nul_in_path``).
"""

from __future__ import annotations

from flask import Flask, abort
from werkzeug.routing import IntegerConverter, ValidationError

from ..rules.numbers import path_number


class PathNumber(IntegerConverter):
    """``<int:…>``: a number in ASCII digits, at most ``MAX_DIGITS`` of them (anything else: 404)."""

    regex = r"[0-9]+"

    def to_python(self, value: str) -> int:
        number = path_number(value)
        if number is None:
            raise ValidationError()
        return number


def no_nul_in_path(endpoint: str | None, values: dict[str, object] | None) -> None:
    """404 for an address whose text parts hold a NUL."""
    if values and any(isinstance(value, str) and "\x00" in value for value in values.values()):
        abort(404, "There is nothing at this address.")


def init_app(app: Flask) -> None:
    """Before any route is added: numbers in ``PathNumber``; every view behind ``no_nul_in_path``."""
    app.url_map.converters["int"] = PathNumber
    app.url_value_preprocessor(no_nul_in_path)
