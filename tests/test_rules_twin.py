"""The browser twin of the rules core (static/js/rules/) and the shared vectors that keep it equal to the core.

The vectors in tests/vectors/ must be what tests/vectors/make.py makes from the core today (``make.py
--check``, which .ci/run runs after the tests), and the twin must give every one of their answers under
``node --test`` (in Chromium: tests/e2e/test_rules_twin.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "tests" / "vectors"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


@pytest.fixture(scope="module")
def made() -> dict[str, str]:
    """The vector files as make.py made them and they were checked in, by file name."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(VECTORS.glob("*.json"))}


def test_the_vectors_cover_every_kind_and_enough_cases(made: dict[str, str]) -> None:
    meld = json.loads(made["meld.json"])
    matches = [case for name in ("matches.json", "rule_changes.json", "match_files.json")
               for case in json.loads(made[name])]
    assert len(meld["prices"]) + len(meld["hands"]) + len(meld["sets"]) + len(matches) >= 2000
    outcomes = {key for case in matches for key in case if key in ("result", "contradictions", "error")}
    assert outcomes == {"result", "contradictions", "error"}
    rules = [case["file"]["rules"] for case in matches if isinstance(case["file"].get("rules"), dict)]
    for key, values in {"deck": {"single", "double"}, "trick_scale": {"one-point", "ten-point", "classic"},
                        "meld_table": {"single-classic", "double-small", "double-large"},
                        "must_take_trick": {"off", "trick", "points"}, "must_win_own_bid": {True, False}}.items():
        assert values <= {r.get(key) for r in rules if isinstance(r.get(key), str | bool)}, key
    assert {len(case["file"]["sides"]) for case in matches if isinstance(case["file"].get("sides"), list)} >= {2, 3, 4}
    assert any("entered_under" in deal for case in matches for deal in case["file"].get("deals") or []
               if isinstance(deal, dict))


def test_the_twin_gives_every_vector_the_core_answer_under_node() -> None:
    node = shutil.which("node")
    if node is None:
        message = "node is missing: install Debian's nodejs (.ci/run does)"
        if IN_CI:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    files = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert files, "tests/js holds no *.test.mjs"
    run = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout
