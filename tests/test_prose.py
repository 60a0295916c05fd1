"""No sentence is written by hand in the JavaScript (tests/prose.py), let alone one that the Python or the templates
also write: the JavaScript fills the rules core's message templates (declarations.js) or reads the words from the
page the server drew."""

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


def test_no_script_writes_a_sentence_by_hand() -> None:
    written = [f"{each.path.relative_to(prose.ROOT)}:{each.line}: {each.text}"
               for each in prose.hand_written_sentences()]
    assert written == []


def test_the_tool_finds_a_sentence_written_by_hand_and_leaves_code_alone(tmp_path: Path) -> None:
    """Words for a reader are found, in a string, a template literal, between tags or after a stylesheet rule;
    a directive, a selector, an Error's message, class names, tags and stylesheet rules are code."""
    script = tmp_path / "script.js"
    script.write_text('''"use strict";
status.textContent = "Saved on this phone";
note.textContent = `Deal ${n} is kept here`;
box.innerHTML = '<p class="notice quiet">Nothing was sent</p>';
const LOOK = ".panel { margin: 0 auto; }" + " padding: 0 1rem; border: 0;" + " color: red; } Look here";
form.querySelector(".meld-field input").closest("label.choice, label.segment");
throw new Error("copy refused");
el("p", { class: "small muted" }, "ok");
''', encoding="utf-8")
    found = [(line, pieces) for line, pieces in prose.js_sentences(script)]
    assert found == [(2, ["Saved on this phone"]), (3, ["is kept here"]),
                     (4, ['<p class="notice quiet">Nothing was sent</p>']), (5, ["color: red; } Look here"])]
