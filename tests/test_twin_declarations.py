"""static/js/rules/declarations.js: the rules core's declarations as the browser twin reads them, written by
tools/make_twin_declarations.py, never by hand, and read by the twin instead of restating them."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from scorekeeper.rules.house_rules import RULE_SPECS
from scorekeeper.rules.problems import ProblemCode

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "make_twin_declarations.py"
TWIN = ROOT / "static" / "js" / "rules"


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_twin_declarations", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_module_is_what_the_command_writes_from_the_core_today() -> None:
    written = (TWIN / "declarations.js").read_text(encoding="utf-8")
    assert written == tool().render(), "static/js/rules/declarations.js is stale: run " \
        ".venv/bin/python tools/make_twin_declarations.py and commit it"


def test_the_command_writes_the_same_text_whatever_the_hash_seed() -> None:
    """Sets are written sorted: two runs under different hash seeds agree with the file."""
    for seed in ("1", "2"):
        run = subprocess.run([sys.executable, str(TOOL), "--check"], cwd=ROOT, capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}, timeout=60)
        assert run.returncode == 0, run.stderr


def test_check_names_a_stale_module(tmp_path: Path) -> None:
    module = tool()
    stale = tmp_path / "declarations.js"
    stale.write_text(module.render().replace('"Play to"', '"Play until"'), encoding="utf-8")
    assert module.main(["--check"], stale) == 1
    assert module.main([], stale) == 0 and stale.read_text(encoding="utf-8") == module.render()
    assert module.main(["--check"], stale) == 0


def test_no_hand_written_twin_module_restates_a_code_or_a_rule() -> None:
    """Problem codes and house rules come from declarations.js: a quoted code or rule label elsewhere in the
    twin would be a second declaration to keep in step."""
    declared = {code.value for code in ProblemCode} | {spec.label for spec in RULE_SPECS}
    for path in sorted(TWIN.glob("*.js")):
        if path.name == "declarations.js":
            continue
        quoted = set(re.findall(r'"([^"\n]+)"', path.read_text(encoding="utf-8")))
        assert not quoted & declared, f"{path.name} restates {sorted(quoted & declared)}"
