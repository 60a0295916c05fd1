"""``load_json`` refuses the same texts, at the same places, whether or not a first look at the text finds
nothing to doubt: brackets, quotes, digits and escapes inside strings do not fool it."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.errors import MatchFileError
from scorekeeper.rules.limits import MAX_JSON_DEPTH, MAX_JSON_DIGITS
from scorekeeper.rules.text import _load_json_checked, _nests_within_bounds, load_json


def refusal(text: str) -> tuple[str, str]:
    with pytest.raises(MatchFileError) as caught:
        load_json(text)
    return caught.value.problem.code.value, caught.value.problem.path


def nested(depth: int, inner: str = "1") -> str:
    return '{"a":' * depth + inner + "}" * depth


@pytest.mark.parametrize("text", [
    nested(MAX_JSON_DEPTH),
    "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH,
    json.dumps({"name": "]]]}}}" * 40, "b": [[["[[[\\\"\\\\"]]]}),
    json.dumps({"digits": "9" * (MAX_JSON_DIGITS + 5), "n": int("9" * MAX_JSON_DIGITS)}),
    json.dumps({"name": "\\ud800 is written, not meant", "emoji": "😀\U0001F3F3\uFE0F"}),
    json.dumps({"emoji": "😀"}, ensure_ascii=True),
])
def test_texts_within_bounds_are_read_as_json_reads_them(text: str) -> None:
    assert load_json(text) == json.loads(text)


def test_too_deep_is_refused_at_its_place() -> None:
    assert refusal(nested(MAX_JSON_DEPTH + 1)) == ("too_deep", "a" + ".a" * (MAX_JSON_DEPTH - 1))


def test_strings_full_of_closing_brackets_do_not_hide_a_deep_nesting() -> None:
    deep = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
    text = '{"a":"' + "]}" * 40 + '\\"]]","b":' + deep + ',"c":"[\\\\"}'
    assert refusal(text)[0] == "too_deep"


def test_strings_of_brackets_around_a_deep_value_do_not_hide_it() -> None:
    deep = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert refusal('["]]]}}", ' + deep + ', "[[{{"]')[0] == "too_deep"
    assert load_json('["]]]}}", ' + deep[1:-1] + ', "[[{{"]') == json.loads('["]]]}}", ' + deep[1:-1] + ', "[[{{"]')


def test_the_nesting_is_told_from_the_brackets_outside_strings() -> None:
    """Brackets and escaped quotes in names do not send a usual text to the full check."""
    deep = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    named = {"name": 'Ann [host] "the \\ best" ]]', "deals": [[{"a": "{{\\"}]]}
    assert _nests_within_bounds(json.dumps(named))
    assert _nests_within_bounds(json.dumps(named | {"b": json.loads(deep)[0]}))
    assert not _nests_within_bounds(json.dumps(named | {"b": json.loads(deep)}))


def test_strings_of_brackets_between_escaped_quotes_do_not_hide_a_deep_nesting() -> None:
    text = "1"
    for _ in range(MAX_JSON_DEPTH + 1):  # each level between a string '"]"' and a string '"["'
        text = '["\\"]\\"", ' + text + ', "\\"[\\""]'
    assert refusal(text)[0] == "too_deep"


def test_an_escaped_surrogate_is_refused_where_it_stands() -> None:
    assert refusal('{"deals":[{"name":"x\\ud800"}]}') == ("bad_character", "deals[0].name")
    assert refusal('["\\uDFFF"]') == ("bad_character", "[0]")


def test_a_long_number_is_refused_but_long_digits_in_text_are_kept() -> None:
    assert refusal("[" + "7" * (MAX_JSON_DIGITS + 1) + "]")[0] == "out_of_range"
    assert load_json('["' + "7" * (MAX_JSON_DIGITS + 1) + '"]') == ["7" * (MAX_JSON_DIGITS + 1)]


def test_a_key_given_twice_is_refused_at_its_place() -> None:
    assert refusal('{"deals":[{"bid":1},{"bid":2,"bid":3}]}') == ("duplicate_key", "deals[1].bid")


# A text is read without a look at each value only when the decoded values have as many keys as the text has
# colons between keys and values; these hide a key given twice behind colons in strings, or a deep value behind
# a key given twice, and each is refused as the full check refuses it.
@pytest.mark.parametrize(("text", "refused"), [
    ('{"name":"a:b","bid":1,"bid":2}', ("duplicate_key", "bid")),
    ('{"a\\u003a":1,"b":1,"b":2}', ("duplicate_key", "b")),
    ('{"n\\":\\"":":","b":[{"x":1,"x":1}]}', ("duplicate_key", "b[0].x")),
    ('{"a":' + nested(MAX_JSON_DEPTH + 3) + ',"a":1}', ("duplicate_key", "a")),
    ('{"c":{"a":1,"a":2},"b":' + nested(MAX_JSON_DEPTH + 3) + "}", ("too_deep", "b" + ".a" * (MAX_JSON_DEPTH - 1))),
    (nested(MAX_JSON_DEPTH, "[]"), ("too_deep", "a" + ".a" * (MAX_JSON_DEPTH - 1))),
    ('[{"a":1}] x', ("not_json", "")),
])
def test_what_the_full_check_refuses_is_refused_at_its_place(text: str, refused: tuple[str, str]) -> None:
    assert refusal(text) == refused


def test_colons_in_strings_do_not_make_a_text_refused() -> None:
    text = json.dumps({"name": "Club night: round 1", "deals": [{"bid": 50, "note": "a\\u003a"}]})
    assert load_json(text) == json.loads(text)


def outcome(read: Any, text: str) -> tuple[str, Any]:
    try:
        return "read", read(text)
    except MatchFileError as error:
        return "refused", (error.problem.code, error.problem.path, error.problem.message)


# Keys and strings drawn from the characters that fool a look at the text: colons, quotes, backslashes, brackets.
_TRICKY = st.text(alphabet=':"\\{}[]ab\u00e9', max_size=4)
_SCALARS = st.one_of(st.integers(-5, 5), _TRICKY, st.booleans(), st.none())


def _objects(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    pairs = st.lists(st.tuples(st.sampled_from(["a", "b", ":", "a:"]) | _TRICKY, inner), max_size=4)
    return st.one_of(st.lists(inner, max_size=4), pairs.map(_Pairs))


class _Pairs(list[tuple[str, Any]]):
    """An object written as its pairs, so that a key may be given twice."""


def _written(value: Any, escape_colons: bool) -> str:
    if isinstance(value, _Pairs):
        return "{" + ",".join(f"{_written(key, escape_colons)}:{_written(item, escape_colons)}"
                              for key, item in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_written(item, escape_colons) for item in value) + "]"
    text = json.dumps(value)
    return text.replace(":", "\\u003a") if escape_colons and isinstance(value, str) else text


@settings(max_examples=400, deadline=None, derandomize=bool(os.environ.get("CI")))
@given(value=st.recursive(_SCALARS, _objects, max_leaves=40), depth=st.integers(0, MAX_JSON_DEPTH + 1),
       escape_colons=st.booleans())
def test_load_json_reads_and_refuses_as_the_full_check(value: Any, depth: int, escape_colons: bool) -> None:
    text = nested(depth, _written(value, escape_colons))
    assert outcome(load_json, text) == outcome(_load_json_checked, text)
