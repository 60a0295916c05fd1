"""No sentence is written by hand in the JavaScript that the Python or the templates also write
(tests/prose.py): the JavaScript fills the rules core's message templates (declarations.js) or reads the
words from the page the server drew."""

from __future__ import annotations

from pathlib import Path

import prose


def test_no_prose_of_the_javascript_is_written_again_in_the_python_or_the_templates() -> None:
    twice = [f"{each.path.relative_to(prose.ROOT)}:{each.line}: {each.text}" for each in prose.twice_written()]
    assert twice == []


def test_the_tool_finds_a_message_written_again(tmp_path: Path) -> None:
    """The tool is not blind: a problem message restated by hand in a twin module is found."""
    restated = tmp_path / "restated.js"
    restated.write_text('throw new Error(`bid ${bid} is below the minimum opening bid of ${minimum}`);\n'
                        'el("p", { class: "small muted" }, "ok");\n'
                        'button.className = "button quiet";\n', encoding="utf-8")
    server = prose.server_text()
    found = [pieces for _, pieces in prose.js_prose(restated)]
    assert found == [["is below the minimum opening bid of"]]
    assert all(piece in server for piece in found[0])
