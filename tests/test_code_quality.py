"""The rules core imports only the standard library (strict types and a clean lint are checked by .ci/run)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_FILES = sorted((ROOT / "scorekeeper" / "rules").glob("*.py"))


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """Every absolute import in a module as (line, top-level package); relative imports are skipped."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name.split(".")[0]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def test_rules_core_exists() -> None:
    assert RULES_FILES, "scorekeeper/rules/ holds no modules"


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda path: path.name)
def test_rules_core_imports_only_the_standard_library(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    foreign = [
        f"line {line}: {module}"
        for line, module in imported_modules(tree)
        if module not in sys.stdlib_module_names and module != "__future__"
    ]
    assert not foreign, f"{path.name} imports outside the standard library: {', '.join(foreign)}"


def test_import_check_spots_a_foreign_import() -> None:
    tree = ast.parse("import os\nfrom flask import Flask\nfrom . import cards\nimport sqlalchemy.orm\n")
    modules = [module for _, module in imported_modules(tree)]
    assert modules == ["os", "flask", "sqlalchemy"]

