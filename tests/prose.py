"""Prose written by hand in the JavaScript: a sentence the scripts write themselves, rather than reading it from
declarations.js (generated from the rules core) or from the page the server drew. Worst of all, one the Python
or the templates also write: a sentence declared twice, which drifts.

    .venv/bin/python tests/prose.py       # list them and print how many

A string literal is prose when a piece of its fixed text (between ``${…}`` in a template literal) holds two
words; it is found in the Python when that piece stands in a string of scorekeeper/ (docstrings aside), or
in the text of a template. A sentence is such a piece that is words for a reader, not code: not a directive
(``"use strict"``), a selector (``querySelector(…)``, ``closest(…)`` …), an Error's message (for the code that
catches it), a markup property's value (class names), nor the tags or stylesheet rules in it (``<p class="…">``,
``.panel { margin: 0; }``), whatever text stands between them. tests/test_prose.py holds both counts at 0.
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
_SELECTOR_CALLS = {"querySelector", "querySelectorAll", "closest", "matches"}
_TAG = re.compile(r"<[^<>]*(?:>|$)")
_STYLE_DECLARATION = re.compile(r"[\w-]+\s*:\s*[^;{}]*[;}]")
_STYLE_SELECTOR = re.compile(r"[^{}]*\{")


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


def _code(node: Node) -> bool:
    """A literal the script reads as code: a directive, a selector, or an Error's message."""
    parent = node.parent
    if parent is not None and parent.type == "expression_statement":
        return True
    if parent is None or parent.type != "arguments" or parent.parent is None:
        return False
    call = parent.parent
    if call.type == "new_expression":
        made = call.child_by_field_name("constructor")
        return made is not None and (made.text or b"").decode().endswith("Error")
    callee = call.child_by_field_name("function") if call.type == "call_expression" else None
    method = callee.child_by_field_name("property") if callee is not None and callee.type == "member_expression" \
        else None
    return (method is not None and (method.text or b"").decode() in _SELECTOR_CALLS
            and parent.named_children[:1] == [node])


def _words(piece: str) -> str:
    """A piece's words for a reader: its text without the tags and stylesheet rules in it."""
    return _STYLE_SELECTOR.sub(" ", _STYLE_DECLARATION.sub(" ", _TAG.sub(" ", piece)))


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


def js_sentences(path: Path) -> Iterator[tuple[int, list[str]]]:
    """Each string literal of ``path`` with words for a reader in it: (line, its sentences)."""
    tree = Parser(Language(tree_sitter_javascript.language())).parse(path.read_bytes())
    for node in _literals(tree.root_node):
        if _code(node):
            continue
        pieces = [piece for piece in _pieces(node) if _TWO_WORDS.search(_words(piece))]
        if pieces:
            yield node.start_point[0] + 1, pieces


def hand_written_sentences() -> list[Prose]:
    """Every sentence the hand-written JavaScript writes itself."""
    return [Prose(path, line, " … ".join(pieces)) for path in hand_written_js() for line, pieces in js_sentences(path)]


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
    written = hand_written_sentences()
    for each in written:
        print(f"{each.path.relative_to(ROOT)}:{each.line}: {each.text}")
    print(f"{len(written)} sentences written by hand in the JavaScript")
    return 0


if __name__ == "__main__":
    sys.exit(main())
