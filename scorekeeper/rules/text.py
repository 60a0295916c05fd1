"""Text from outside: names as a person types them, and JSON read within bounds.

A name is normalised (NFC, surrounding spaces stripped) and refused, naming its place, when it holds a
control character (NUL, a tab, a line break), a line separator or half of a surrogate pair: such
characters cannot be shown on a score sheet and some databases cannot store them. So is an invisible
format character (a zero-width space, a soft hyphen, a byte-order mark, a direction override): a name
holding one looks like another name, or like none. The joiners that emoji and some scripts are written
with (U+200C, U+200D and the tag characters of flags) are kept.

JSON is read with bounded nesting and bounded whole numbers, so that no text, however odd, makes the
reader run out of stack or ``int`` refuse to read its digits; a key given twice in one object is
refused rather than one of its values silently kept. Every refusal is a ``Problem``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from datetime import date
from typing import Any

from .errors import MatchFileError
from .limits import MAX_JSON_DEPTH, MAX_JSON_DIGITS, MAX_MATCH_NAME
from .messages import problem, say
from .problems import ProblemCode, join_path

_BAD_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp", "Cf"})
_JOINERS = re.compile("[\u200c\u200d\U000e0020-\U000e007f]")  # format characters that a name may hold
_SURROGATE = re.compile("[\ud800-\udfff]")
RENUMBERED = len(" (999)")  # room a made name keeps for the number of a rematch with the same name


def clean_name(text: str, path: str, maximum: int, what: str = say("name")) -> str:
    """``text`` as a name: NFC, surrounding spaces stripped, at most ``maximum`` characters.

    Raises ``MatchFileError`` at ``path``: ``bad_character`` or ``too_long``. An empty name is the
    caller's to refuse or allow.
    """
    if len(text) > 4 * maximum + 64:  # far too long whatever normalising would do: not worth reading
        raise MatchFileError(problem(ProblemCode.TOO_LONG, path, "name", what=what, maximum=maximum))
    for char in text:
        if unicodedata.category(char) in _BAD_CATEGORIES and not _JOINERS.match(char):
            raise MatchFileError(problem(ProblemCode.BAD_CHARACTER, path, "name", what=what,
                                         kind=_character_kind(char), code=f"{ord(char):04X}"))
    name = unicodedata.normalize("NFC", text).strip()
    if len(name) > maximum:
        raise MatchFileError(problem(ProblemCode.TOO_LONG, path, "name", what=what, maximum=maximum))
    return name


def fit_name(text: str, maximum: int) -> str:
    """A name the app makes, cut to at most ``maximum`` characters when longer: at the end of a word when
    one ends in its second half, then "…" ("Ann & Bob v Cy & Di v…"), so that it is read back as made."""
    if len(text) <= maximum:
        return text
    cut = text[: maximum - 1]
    word_end = cut.rstrip().rfind(" ")
    if word_end >= maximum // 2:
        cut = cut[:word_end]
    cut = cut.rstrip(" ,;:·&")
    return (cut.removesuffix(" v").rstrip() or text[: maximum - 1]) + "…"


def dated_name(side_names: Sequence[str], day: date) -> str:
    """"We v They, 01 Dec 2026": a new match's name when none is typed, the sides' part cut to fit."""
    when = f", {day:%d %b %Y}"
    return fit_name(" v ".join(side_names), MAX_MATCH_NAME - len(when) - RENUMBERED) + when


def _character_kind(char: str) -> str:
    category = unicodedata.category(char)
    if category == "Cs":
        return say("character.surrogate")
    if category == "Cf":
        return say("character.invisible")
    return say("character.line_separator" if category in ("Zl", "Zp") else "character.control")


def load_json(text: str) -> Any:
    """Decode JSON text, refusing what no match file or request holds: nesting deeper than
    ``MAX_JSON_DEPTH``, whole numbers of more than ``MAX_JSON_DIGITS`` digits, unpaired surrogates
    (``\\ud800``) in keys or text, a key given twice in one object. Raises ``MatchFileError``
    (``not_json``, ``too_deep``, ``out_of_range``, ``bad_character``, ``duplicate_key``).

    Most texts hold none of these, and are told so without a call for each value decoded: the text is
    looked at for long numbers and surrogates (``_may_refuse``), then decoded as plain JSON with the keys of
    each object counted, and its nesting and keys are then told from its brackets and colons
    (``_nests_within_bounds``, ``_each_key_once``). Anything else, a text that is not JSON included, is read
    again by ``_load_json_checked``, which finds what is refused and where."""
    if not _may_refuse(text):
        keys = 0

        def counted(obj: dict[str, Any]) -> dict[str, Any]:
            nonlocal keys
            keys += len(obj)
            return obj

        try:
            data = json.loads(text, object_hook=counted)
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
            pass
        else:
            if _nests_within_bounds(text) and _each_key_once(keys, text):
                return data
    return _load_json_checked(text)


def _load_json_checked(text: str) -> Any:
    """``load_json`` with every value looked at as it is decoded: each object's keys, each whole number's
    digits (when the text might hold a long one), then the nesting and the texts of what was decoded."""
    doubtful = _may_refuse(text)
    repeated: list[str] = []

    def decoded_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        made = dict(pairs)
        if len(made) == len(pairs):
            return made
        repeated.append(pairs[0][0])
        return _decoded_object(pairs)

    try:
        data = json.loads(text, parse_int=_bounded_int if doubtful else None, object_pairs_hook=decoded_object)
    except json.JSONDecodeError as error:
        raise MatchFileError(problem(ProblemCode.NOT_JSON, "", reason=error.msg, line=error.lineno,
                                     column=error.colno)) from None
    except RecursionError:
        raise _too_deep("") from None
    _check_decoded(data)
    return data


# Bytes of JSON text to drop when counting the colons between keys and values (all but colons and quotes), and
# when telling its nesting (all but brackets and quotes: an object's braces count as a list's brackets).
_NOT_COLON_OR_QUOTE = bytes(byte for byte in range(256) if byte not in b':"')
_NOT_BRACKET_OR_QUOTE = bytes(byte for byte in range(256) if byte not in b'"[]{}')
_OBJECTS_AS_LISTS = bytes.maketrans(b"{}", b"[]")
_DIGITS_ONLY = bytes.maketrans(b"0123456789", b"\0" * 10)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _may_refuse(text: str) -> bool:
    """Whether ``text`` might hold a whole number too long or half of a surrogate pair (raw or escaped); a
    number's digits or an escape in a string count too, so False is certain and True only possible."""
    if not text.isascii() and _SURROGATE.search(text):
        return True
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        return True
    digits = text.encode("ascii", "ignore").translate(_DIGITS_ONLY)
    return b"\0" * (MAX_JSON_DIGITS + 1) in digits


def _nests_within_bounds(text: str) -> bool:
    """Whether valid JSON ``text`` nests lists and objects at most ``MAX_JSON_DEPTH`` deep, told from its brackets:
    its strings are dropped, then an innermost pair of brackets is taken away at a time, a level each round."""
    brackets = _unescaped(text).translate(_OBJECTS_AS_LISTS, _NOT_BRACKET_OR_QUOTE).replace(b'""', b"")  # most strings
    if b'"' in brackets:  # strings holding brackets
        brackets = b"".join(brackets.split(b'"')[::2])
    for _ in range(MAX_JSON_DEPTH):
        if not brackets:
            return True
        brackets = brackets.replace(b"[]", b"")
    return not brackets


def _each_key_once(keys: int, text: str) -> bool:
    """Whether valid JSON ``text``, decoded into objects holding ``keys`` keys in all, gave each key once: as many
    keys were decoded as the text has colons between keys and values (a key given twice is decoded once, and its
    first value is dropped unseen, so a text that gives one has more such colons than the objects have keys)."""
    return keys == text.count(":") or keys == _colons_outside_strings(text)


def _colons_outside_strings(text: str) -> int:
    """How many colons of valid JSON ``text`` stand between a key and its value (a colon within a string is none)."""
    return b"".join(_unescaped(text).translate(None, _NOT_COLON_OR_QUOTE).split(b'"')[::2]).count(b":")


def _unescaped(text: str) -> bytes:
    """The bytes of JSON ``text`` with its escaped backslashes and quotes taken out, so that each quote left opens or
    closes a string."""
    raw = text.encode("utf-8", "surrogatepass")
    return raw.replace(b"\\\\", b"").replace(b'\\"', b"") if b"\\" in raw else raw


def _decoded_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object as ``json.loads`` would give it; one with a key given twice is marked, to be refused once
    its place in the text is known (``_check_decoded``)."""
    made = dict(pairs)
    if len(made) == len(pairs):
        return made
    given = Counter(key for key, _ in pairs)
    return _RepeatedKey(made, next(key for key, _ in pairs if given[key] > 1))


class _RepeatedKey(dict[str, Any]):
    """A decoded object that was given ``key`` twice."""

    def __init__(self, items: dict[str, Any], key: str) -> None:
        super().__init__(items)
        self.key = key


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_JSON_DIGITS:
        raise MatchFileError(problem(ProblemCode.OUT_OF_RANGE, "", "json_digits", digits=MAX_JSON_DIGITS,
                                     start=digits[:12]))
    return int(digits)


def _too_deep(path: str) -> MatchFileError:
    return MatchFileError(problem(ProblemCode.TOO_DEEP, path, depth=MAX_JSON_DEPTH))


# Where a decoded value sits: the place of what holds it and its key or index (None: the whole text). The
# path is written out only for a value refused.
_Place = tuple["_Place", str | int] | None


def _path(place: _Place) -> str:
    steps: list[str | int] = []
    while place is not None:
        place, step = place
        steps.append(step)
    path = ""
    for step in reversed(steps):
        path = f"{path}[{step}]" if isinstance(step, int) else join_path(path, step)
    return path


def _check_decoded(data: Any) -> None:
    """Depth, keys given twice and unpaired surrogates, walked without recursion."""
    if isinstance(data, str):
        _check_text(data, None)
    stack: list[tuple[Any, int, _Place]] = [(data, 0, None)] if isinstance(data, dict | list) else []
    while stack:
        value, depth, place = stack.pop()
        if depth >= MAX_JSON_DEPTH:
            raise _too_deep(_path(place))
        if isinstance(value, _RepeatedKey):
            written = json.dumps(value.key, ensure_ascii=False)
            raise MatchFileError(problem(ProblemCode.DUPLICATE_KEY, _path((place, value.key)), key=written))
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            if isinstance(key, str) and not key.isascii():
                _check_text(key, place)  # an unreadable key is named by the object that holds it
            if isinstance(item, str):
                if not item.isascii():
                    _check_text(item, (place, key))
            elif isinstance(item, dict | list):
                stack.append((item, depth + 1, (place, key)))


def _check_text(text: str, place: _Place) -> None:
    if _SURROGATE.search(text):
        raise MatchFileError(problem(ProblemCode.BAD_CHARACTER, _path(place), "surrogate"))


def dumps_lines(value: Any, listed: frozenset[str], indent: str = "") -> str:
    """JSON text of ``value`` with each key of an object on a line of its own, and each item of a list
    held under a key in ``listed`` too (a deal a line); everything else is written compactly on its line.
    An item that holds such lists itself (a match in a table file) is laid out the same way, so a file's
    size follows the facts in it, not the depth they sit at."""
    if not _holds_lists(value, listed) and indent:
        return _one_line(value)
    inner = indent + "  "
    if isinstance(value, dict) and value:
        lines = [f"{inner}{_one_line(key)}: {_items(item, listed, inner) if key in listed else _one_line(item)}"
                 for key, item in value.items()]
        return "{\n" + ",\n".join(lines) + f"\n{indent}}}"
    return _one_line(value)


def _items(value: Any, listed: frozenset[str], indent: str) -> str:
    if not isinstance(value, list) or not value:
        return _one_line(value)
    inner = indent + "  "
    return "[\n" + ",\n".join(inner + dumps_lines(item, listed, inner) for item in value) + f"\n{indent}]"


def _holds_lists(value: Any, listed: frozenset[str]) -> bool:
    return isinstance(value, dict) and any(key in listed for key in value)


def _one_line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
