"""Prose written by hand in the JavaScript that the Python or the templates also write: each is a sentence
declared twice, which drifts. The JavaScript reads its sentences from declarations.js (generated from the
rules core) or from the page the server drew.

    .venv/bin/python tests/prose.py       # list them and print how many

A string literal is prose when a piece of its fixed text (between ``${…}`` in a template literal) holds two
words; it is found in the Python when that piece stands in a string of scorekeeper/ (docstrings aside), or
in the text of a template. tests/test_prose.py holds the count at 0.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import tree_sitter_javascript
from tree_sitter import Language, Node, Parser

ROOT = Path(__file__).resolve().parent.parent
GENERATED = {ROOT / "static" / "js" / "rules" / "declarations.js"}
BUNDLED = ROOT / "static" / "bundled"
"""The bundler's output, drawn from the hand-written modules (checked fresh by tests/test_bundle.py)."""
_TWO_WORDS = re.compile(r"[A-Za-z]+[’']?[a-z]*[,;:.?!]*\s+[A-Za-z]")
_MARKUP_KEYS = {"class", "className", "type", "scope", "role", "id", "aria-labelledby", "aria-describedby"}
"""Properties whose values are markup (a list of class names), not words for a reader."""


class Prose(NamedTuple):
    path: Path
    line: int
    text: str


def hand_written_js() -> list[Path]:
    """Every script under static/ but the generated declarations and the bundler's output."""
    return sorted(path for path in (ROOT / "static").rglob("*.js")
                  if path not in GENERATED and not path.is_relative_to(BUNDLED))


def _pieces(node: Node) -> list[str]:
    """The fixed text of a string or template literal, split where a ``${…}`` stands."""
    pieces = [""]
    for child in node.named_children:
        if child.type == "template_substitution":
            pieces.append("")
        elif child.type in ("string_fragment", "escape_sequence"):
            text = (child.text or b"").decode()
            pieces[-1] += ast.literal_eval(f'"{text}"') if child.type == "escape_sequence" else text
    return [piece.strip() for piece in pieces]


def _markup(node: Node) -> bool:
    """A value given to a markup property: ``{ class: "…" }`` or ``element.className = "…"``."""
    parent = node.parent
    if parent is not None and parent.type == "assignment_expression" and parent.child_by_field_name("right") == node:
        target = parent.child_by_field_name("left")
        key = target.child_by_field_name("property") if target is not None else None
    elif parent is not None and parent.type == "pair" and parent.child_by_field_name("value") == node:
        key = parent.child_by_field_name("key")
    else:
        return False
    return key is not None and (key.text or b"").decode().strip("\"'") in _MARKUP_KEYS


def _literals(node: Node) -> Iterator[Node]:
    if node.type in ("string", "template_string") and not _markup(node):
        yield node
    for child in node.children:
        yield from _literals(child)


def js_prose(path: Path) -> Iterator[tuple[int, list[str]]]:
    """Each string literal of ``path`` with prose in it: (line, its prose pieces)."""
    tree = Parser(Language(tree_sitter_javascript.language())).parse(path.read_bytes())
    for node in _literals(tree.root_node):
        pieces = [piece for piece in _pieces(node) if _TWO_WORDS.search(piece)]
        if pieces:
            yield node.start_point[0] + 1, pieces


def _python_strings(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.value


def server_text() -> str:
    """The strings of the Python and the templates' text, one after another."""
    texts = [text for path in sorted((ROOT / "scorekeeper").rglob("*.py")) for text in _python_strings(path)]
    texts += [path.read_text(encoding="utf-8") for path in sorted((ROOT / "templates").rglob("*.html"))]
    return "\n\0".join(" ".join(text.split()) for text in texts)


def twice_written() -> list[Prose]:
    """The hand-written JavaScript's prose literals that the Python or the templates also write."""
    server = server_text()
    return [
        Prose(path, line, " … ".join(pieces))
        for path in hand_written_js()
        for line, pieces in js_prose(path)
        if any(" ".join(piece.split()) in server for piece in pieces)
    ]


def main() -> int:
    found = twice_written()
    for each in found:
        print(f"{each.path.relative_to(ROOT)}:{each.line}: {each.text}")
    print(f"{len(found)} prose strings of the hand-written JavaScript also stand in the Python or the templates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
