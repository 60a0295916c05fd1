"""Write static/js/rules/declarations.js: the rules core's declarations as the browser twin reads them.

The house rules (``RULE_SPECS``), the meld tables and combinations, cards and trick points, the price presets,
the limits, the problem codes and their messages, and what counts as a space are declared once, in
scorekeeper/rules/; the twin imports them from the one module this command writes, so that neither a new house
rule nor a new problem code or message is restated by hand in JavaScript.

    .venv/bin/python tools/make_twin_declarations.py          # write the module
    .venv/bin/python tools/make_twin_declarations.py --check  # exit 1 when the module is stale

The output depends on the declarations only (their declared order, sets sorted), never on the run.
tests/test_twin_declarations.py fails when the module is not what this command writes.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import re
import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any

from scorekeeper.rules import limits
from scorekeeper.rules.cards import Deck, Rank, Suit, number_word
from scorekeeper.rules.combinations import Combination
from scorekeeper.rules.house_rules import RULE_SPECS, SWITCH_WORDS, MeldTableName, RuleSpec
from scorekeeper.rules.match import PLACEHOLDER_SIDE_NAMES, PricingBasis
from scorekeeper.rules.matchfile import DEAL_KEYS, FORMAT, MATCH_KEYS, SIDE_KEYS
from scorekeeper.rules.meld import MELD_TABLES
from scorekeeper.rules.meld_prices import GROUPS, MAX_PRICE
from scorekeeper.rules.messages import BASIC_MESSAGES, MELD_WORDS, MESSAGES, WORDS
from scorekeeper.rules.numbers import SHOWN
from scorekeeper.rules.price_presets import NPA_DOUBLE_DECK, PRICE_PRESETS
from scorekeeper.rules.problems import ProblemCode
from scorekeeper.rules.tricks import CARD_POINTS, COUNTER_RANKS

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "static" / "js" / "rules" / "declarations.js"
COMMAND = "tools/make_twin_declarations.py"
Json = Any


def _plain(value: Any) -> Json:
    """A declared value as the match file writes it: enum members by their value."""
    return value.value if isinstance(value, Enum) else value


def rule_spec(spec: RuleSpec) -> Json:
    default = spec.default.to_json() if spec.kind == "prices" else _plain(spec.default)
    return {"key": spec.key, "label": spec.label, "group": spec.group, "help": spec.help, "kind": spec.kind.value,
            "default": default, "choices": [[_plain(value), label] for value, label in spec.choices],
            "minimum": spec.minimum, "maximum": spec.maximum, "step": spec.step}


def spaces() -> str:
    """Every character Python's ``str.strip``, ``str.split`` and the ``\\s`` of ``re`` take for a space."""
    return "".join(chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace())


def number_words() -> list[str]:
    """The counts messages spell out: 'no', 'one' … up to the first written in digits."""
    return list(itertools.takewhile(lambda word: not word.isdigit(), map(number_word, itertools.count())))


def problem_codes() -> list[str]:
    """Each code; the twin names it as the core does, its value in capitals (``NOT_JSON`` for ``not_json``)."""
    odd = [code.name for code in ProblemCode if code.name != code.value.upper()]
    if odd:
        raise ValueError(f"ProblemCode members not named by their value in capitals: {odd}")
    return [code.value for code in ProblemCode]


def limit_values() -> dict[str, int]:
    """limits.py's constants, in the order it declares them."""
    return {name: value for name, value in vars(limits).items() if name.isupper() and isinstance(value, int)}


# Each declaration: (where it is declared, exported name, value).
DECLARATIONS: tuple[tuple[str, str, Callable[[], Json]], ...] = (
    ("problems.py: one code per kind of problem (its ProblemCode member is named by it in capitals)",
     "PROBLEM_CODES", problem_codes),
    ("messages.py: what each problem says, by its code (and variant); {field} and {field:,} are filled in",
     "MESSAGES", lambda: {key: text for key, text in MESSAGES.items() if key not in BASIC_MESSAGES}),
    ("messages.py: the messages of cards, meld sets and contradictions, and a hand's meld in words, which a page "
     "reading cards takes alone",
     "BASIC_MESSAGES", lambda: dict(BASIC_MESSAGES)),
    ("messages.py: words that are no problem's (a deal told in a few words, the outbox's titles)", "WORDS",
     lambda: dict(WORDS)),
    ("messages.py: the words of the meld calculator and the card faces that their scripts also draw", "MELD_WORDS",
     lambda: dict(MELD_WORDS)),
    ("limits.py: every limit on what a match may hold", "LIMITS", limit_values),
    ("numbers.py: characters of typed text a message repeats", "SHOWN", lambda: SHOWN),
    ("the characters the Python core takes for spaces (str.strip, str.split, \\s)", "SPACES", spaces),
    ("cards.py: suits and ranks in card index order", "SUITS", lambda: [suit.value for suit in Suit]),
    ("", "RANKS", lambda: [rank.value for rank in Rank]),
    ("", "SUIT_SYMBOLS", lambda: {suit.value: suit.symbol for suit in Suit}),
    ("", "SUIT_LABELS", lambda: {suit.value: suit.label for suit in Suit}),
    ("cards.py: each deck's copies of a card and its ranks", "DECKS",
     lambda: {deck.value: {"copies": deck.copies, "ranks": [rank.value for rank in deck.ranks]} for deck in Deck}),
    ("cards.py: how messages speak of small counts", "NUMBER_WORDS", number_words),
    ("combinations.py: the combinations in the core's order, their class, those priced one at a time",
     "COMBINATIONS", lambda: [combination.value for combination in Combination]),
    ("", "MELD_CLASS", lambda: {combination.value: int(combination.meld_class) for combination in Combination}),
    ("", "PRICED_ONE_AT_A_TIME", lambda: [c.value for c in Combination if c.priced_one_at_a_time]),
    ("meld.py: for each table, each combination's price of a group of sets", "MELD_TABLES",
     lambda: {table.value: {c.value: {str(size): price for size, price in groups.items()}
                            for c, groups in MELD_TABLES[table].items()} for table in MeldTableName}),
    ("house_rules.py: the price list each deck is usually played with", "NATURAL_TABLES",
     lambda: {deck.value: MeldTableName.natural_for(deck).value for deck in Deck}),
    ("meld_prices.py: groups of sets a table's own price may cover, and the largest price", "GROUPS", lambda: GROUPS),
    ("", "MAX_PRICE", lambda: MAX_PRICE),
    ("price_presets.py: the presets of the meld prices page, and the NPA's prices", "PRICE_PRESETS",
     lambda: [list(preset) for preset in PRICE_PRESETS]),
    ("", "NPA_DOUBLE_DECK", lambda: NPA_DOUBLE_DECK),
    ("tricks.py: points of one card of each rank, by scale; the counters", "CARD_POINTS",
     lambda: {scale.value: {rank.value: points for rank, points in by_rank.items()}
              for scale, by_rank in CARD_POINTS.items()}),
    ("", "COUNTER_RANKS", lambda: [rank.value for rank in COUNTER_RANKS]),
    ("house_rules.py: every house rule, in the order the match file writes them", "RULE_SPECS",
     lambda: [rule_spec(spec) for spec in RULE_SPECS]),
    ("", "SWITCH_WORDS", lambda: SWITCH_WORDS),
    ("match.py: the side names a preset starts with, shown as the side's players once they are named",
     "PLACEHOLDER_SIDE_NAMES", lambda: sorted(PLACEHOLDER_SIDE_NAMES)),
    ("matchfile.py: the format and the keys each part of a match file may hold", "FORMAT", lambda: FORMAT),
    ("", "MATCH_FILE_KEYS", lambda: {"match": sorted(MATCH_KEYS), "side": sorted(SIDE_KEYS), "deal": sorted(DEAL_KEYS),
                                     "entered_under": [field.name for field in dataclasses.fields(PricingBasis)]}),
)

WIDTH = 110  # characters of a line of plain values
_UNSEEN = re.compile(r"[^\x20-\x7e]")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*|0|[1-9][0-9]*")


def _escape_unseen(char: str) -> str:
    """Characters a reader of the file could not see (spaces, format characters) as escapes."""
    if char.isprintable() and not char.isspace():
        return char
    data = char.encode("utf-16-be")
    return "".join(f"\\u{int.from_bytes(data[i:i + 2], 'big'):04x}" for i in range(0, len(data), 2))


def literal(value: Json) -> str:
    """A JavaScript literal of ``value``, on one line: JSON without spaces, keys unquoted where they may be,
    characters a reader could not see escaped. (Pages carry it uncompressed within their byte budget.)"""
    if isinstance(value, dict):
        return "{" + ",".join(f"{_key(key)}:{literal(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(literal(item) for item in value) + "]"
    text = json.dumps(value, ensure_ascii=False)
    return _UNSEEN.sub(lambda found: _escape_unseen(found.group(0)), text)


def _key(key: str) -> str:
    return key if _IDENTIFIER.fullmatch(key) else literal(key)


def block(value: Json) -> str:
    """A list or object of lists or objects (or of many entries) with one entry per line, a long list of plain
    values over lines of at most ``WIDTH``; else one line."""
    if isinstance(value, list) and value and isinstance(value[0], dict | list):
        return "[\n" + "".join(f"  {literal(item)},\n" for item in value) + "]"
    if isinstance(value, list) and len(literal(value)) > WIDTH:
        lines = [""]
        for item in map(literal, value):
            if lines[-1] and len(lines[-1]) + len(item) > WIDTH:
                lines.append("")
            lines[-1] += f"{item},"
        return "[\n" + "".join(f"  {line}\n" for line in lines) + "]"
    if isinstance(value, dict) and (len(value) > 8 or any(isinstance(item, dict | list) for item in value.values())):
        return "{\n" + "".join(f"  {_key(key)}: {literal(item)},\n" for key, item in value.items()) + "}"
    return literal(value)


HEADER = f"""\
// Generated by `.venv/bin/python {COMMAND}` from the rules core's declarations (scorekeeper/rules/):
// do not edit by hand; change the Python declaration and run the command again
// (tests/test_twin_declarations.py fails when this file is stale). Plain data: read it, never change it.
"""


def render() -> str:
    """The module's text."""
    parts = [HEADER]
    for where, name, make in DECLARATIONS:
        comment = f"\n// {where}\n" if where else ""
        parts.append(f"{comment}export const {name} = {block(make())};\n")
    return "".join(parts)


def main(argv: list[str], target: Path = TARGET) -> int:
    text = render()
    shown = os.path.relpath(target, ROOT)
    if "--check" in argv:
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            print(f"{shown} is stale: run .venv/bin/python {COMMAND}", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"{shown}: {len(DECLARATIONS)} declarations ({len(text.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
