"""Write static/js/rules/declarations.js: the rules core's declarations as the browser twin reads them.

The house rules (``RULE_SPECS``), the meld tables and combinations, cards and trick points, the price presets,
the limits, the problem codes and what counts as a space are declared once, in scorekeeper/rules/; the twin
imports them from the one module this command writes, so that neither a new house rule nor a new problem
code is restated by hand in JavaScript.

    .venv/bin/python tools/make_twin_declarations.py          # write the module
    .venv/bin/python tools/make_twin_declarations.py --check  # exit 1 when the module is stale

The output depends on the declarations only (their declared order, sets sorted), never on the run.
tests/test_twin_declarations.py fails when the module is not what this command writes.
"""

from __future__ import annotations

import dataclasses
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
from scorekeeper.rules.match import PricingBasis
from scorekeeper.rules.matchfile import DEAL_KEYS, FORMAT, MATCH_KEYS, SIDE_KEYS
from scorekeeper.rules.meld import MELD_TABLES
from scorekeeper.rules.meld_prices import GROUPS, MAX_PRICE
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


def limit_values() -> dict[str, int]:
    """limits.py's constants, in the order it declares them."""
    return {name: value for name, value in vars(limits).items() if name.isupper() and isinstance(value, int)}


# Each declaration: (where it is declared, exported name, value).
DECLARATIONS: tuple[tuple[str, str, Callable[[], Json]], ...] = (
    ("problems.py: one code per kind of problem, by the name of its ProblemCode member", "ProblemCode",
     lambda: {code.name: code.value for code in ProblemCode}),
    ("limits.py: every limit on what a match may hold", "LIMITS", limit_values),
    ("numbers.py: characters of typed text a message repeats", "SHOWN", lambda: SHOWN),
    ("the characters the Python core takes for spaces (str.strip, str.split, \\s)", "SPACES", spaces),
    ("cards.py: suits and ranks in card index order", "SUITS", lambda: [suit.value for suit in Suit]),
    ("", "RANKS", lambda: [rank.value for rank in Rank]),
    ("", "SUIT_SYMBOLS", lambda: {suit.value: suit.symbol for suit in Suit}),
    ("", "SUIT_LABELS", lambda: {suit.value: suit.label for suit in Suit}),
    ("cards.py: each deck's copies of a card and its ranks", "DECKS",
     lambda: {deck.value: {"copies": deck.copies, "ranks": [rank.value for rank in deck.ranks]} for deck in Deck}),
    ("cards.py: how messages speak of small counts", "NUMBER_WORDS",
     lambda: [number_word(n) for n in range(9)]),
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
    ("matchfile.py: the format and the keys each part of a match file may hold", "FORMAT", lambda: FORMAT),
    ("", "MATCH_FILE_KEYS", lambda: {"match": sorted(MATCH_KEYS), "side": sorted(SIDE_KEYS), "deal": sorted(DEAL_KEYS),
                                     "entered_under": [field.name for field in dataclasses.fields(PricingBasis)]}),
)

_UNSEEN = re.compile(r"[^\x20-\x7e]")


def _escape_unseen(char: str) -> str:
    """Characters a reader of the file could not see (spaces, format characters) as escapes."""
    if char.isprintable() and not char.isspace():
        return char
    return "".join(f"\\u{unit:04x}" for unit in _utf16(char))


def _utf16(char: str) -> list[int]:
    data = char.encode("utf-16-be")
    return [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]


def literal(value: Json) -> str:
    """A JavaScript literal of ``value``: JSON, one line, with unseen characters escaped."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return _UNSEEN.sub(lambda found: _escape_unseen(found.group(0)), text)


def block(value: Json) -> str:
    """A list or object with one entry per line; anything else on one line."""
    if isinstance(value, list) and value and isinstance(value[0], dict | list):
        return "[\n" + "".join(f"  {literal(item)},\n" for item in value) + "]"
    if isinstance(value, dict) and (len(value) > 8 or any(isinstance(item, dict | list) for item in value.values())):
        return "{\n" + "".join(f"  {literal(key)}: {literal(item)},\n" for key, item in value.items()) + "}"
    return literal(value)


HEADER = f"""\
// Generated by `.venv/bin/python {COMMAND}` from the rules core's declarations (scorekeeper/rules/):
// do not edit by hand; change the Python declaration and run the command again
// (tests/test_twin_declarations.py fails when this file is stale). Plain data, frozen.

const frozen = (value) => {{
  if (value !== null && typeof value === "object") Object.values(value).forEach(frozen);
  return Object.freeze(value);
}};
"""


def render() -> str:
    """The module's text."""
    parts = [HEADER]
    for where, name, make in DECLARATIONS:
        comment = f"\n// {where}\n" if where else ""
        value = make()
        text = f"frozen({block(value)})" if isinstance(value, dict | list) else literal(value)
        parts.append(f"{comment}export const {name} = {text};\n")
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
