"""Problem messages are declared once (scorekeeper/rules/messages.py) in the only forms the twin fills in."""

from __future__ import annotations

import string

import pytest

from scorekeeper.rules.messages import MELD_WORDS, MESSAGES, PAGE_WORDS, WORDS, problem, say
from scorekeeper.rules.problems import ProblemCode

JOINING = {"side", "hand_counts", "character", "name", "allowed", "prices", "meld"}
"""Keys that are no problem code: messages that join or stand beside the codes' own."""


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_each_key_is_a_problem_code_or_its_variant(key: str) -> None:
    code = key.partition(".")[0]
    assert code in {c.value for c in ProblemCode} or code in JOINING


@pytest.mark.parametrize("key", sorted({**MESSAGES, **WORDS, **MELD_WORDS}))
def test_each_template_uses_only_the_fields_the_twin_fills(key: str) -> None:
    for _, name, spec, conversion in string.Formatter().parse({**MESSAGES, **WORDS, **MELD_WORDS}[key]):
        if name is not None:
            assert name.isidentifier() and spec in ("", ",") and conversion is None, (key, name, spec)


def test_a_message_groups_thousands_where_its_template_says() -> None:
    assert say(ProblemCode.TOO_MANY_DEALS, deals=1000).startswith("this match already has 1,000 deals")


def test_a_variant_is_told_under_its_code() -> None:
    found = problem(ProblemCode.IMPOSSIBLE_SETS, "sides[0].meld", "hand", side="Us", sets=3,
                    combination="pinochle", deck="single deck", limit=2)
    assert found.code is ProblemCode.IMPOSSIBLE_SETS
    assert found.message == "Us: 3 × pinochle in one hand, but a single deck allows at most 2"


def test_no_key_is_both_a_message_and_words() -> None:
    assert not set(MESSAGES) & set(WORDS)
    assert not (set(MESSAGES) | set(WORDS)) & set(MELD_WORDS)
    assert not (set(MESSAGES) | set(WORDS) | set(MELD_WORDS)) & set(PAGE_WORDS)


# The fields static/phone.js fills in the page words that have any; a brace is always a field.
FILLED_BY_THE_SCRIPT = {"live.up_to_date": {"time"}, "live.no_connection": {"time"}, "countdown.left": {"time"},
                        "event.seat": {"place", "partners", "opponents"}, "event.seat.alone": {"place", "opponents"},
                        "event.and": {"first", "second"}}


@pytest.mark.parametrize("key", sorted(PAGE_WORDS))
def test_page_words_have_only_the_fields_their_script_fills_in(key: str) -> None:
    fields = [(name, spec) for _, name, spec, _ in string.Formatter().parse(PAGE_WORDS[key]) if name is not None]
    assert {name for name, _ in fields} == FILLED_BY_THE_SCRIPT.get(key, set()), key
    assert not any(spec for _, spec in fields), key  # filled as they are: no thousands grouped
    assert "{{" not in PAGE_WORDS[key] and "}}" not in PAGE_WORDS[key], key
