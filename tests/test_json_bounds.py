"""``load_json`` refuses the same texts, at the same places, whether or not a first look at the text finds
nothing to doubt: brackets, quotes, digits and escapes inside strings do not fool it."""

from __future__ import annotations

import json

import pytest

from scorekeeper.rules.errors import MatchFileError
from scorekeeper.rules.limits import MAX_JSON_DEPTH, MAX_JSON_DIGITS
from scorekeeper.rules.text import load_json


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


def test_an_escaped_surrogate_is_refused_where_it_stands() -> None:
    assert refusal('{"deals":[{"name":"x\\ud800"}]}') == ("bad_character", "deals[0].name")
    assert refusal('["\\uDFFF"]') == ("bad_character", "[0]")


def test_a_long_number_is_refused_but_long_digits_in_text_are_kept() -> None:
    assert refusal("[" + "7" * (MAX_JSON_DIGITS + 1) + "]")[0] == "out_of_range"
    assert load_json('["' + "7" * (MAX_JSON_DIGITS + 1) + '"]') == ["7" * (MAX_JSON_DIGITS + 1)]


def test_a_key_given_twice_is_refused_at_its_place() -> None:
    assert refusal('{"deals":[{"bid":1},{"bid":2,"bid":3}]}') == ("duplicate_key", "deals[1].bid")
