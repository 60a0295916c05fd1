"""The package's layout holds: imports point down the layers, never in a loop, and blueprints stand alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from imports import ARCHITECTURE, import_graph, import_loops, layer_of, table_paths, upward_imports

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"
BLUEPRINTS = {
    f"scorekeeper.views.{path.stem}"
    for path in (PACKAGE / "views").glob("*.py")
    if "Blueprint(" in path.read_text(encoding="utf-8")
}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(PACKAGE)


def test_importing_the_rules_core_loads_nothing_of_the_web() -> None:
    probe = (
        "import sys, scorekeeper.rules.scoring, scorekeeper.rules.matchfile, scorekeeper.rules.meld\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'flask', 'werkzeug', 'sqlalchemy', 'wtforms', 'flask_wtf', 'jinja2', 'markupsafe'})))"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_the_rules_core_imports_only_itself_and_the_standard_library(graph: dict[str, set[str]]) -> None:
    outside = {
        (module, target)
        for module, targets in graph.items() if module.startswith("scorekeeper.rules")
        for target in targets if not target.startswith("scorekeeper.rules")
    }
    assert not outside


def test_no_import_points_back_up_the_layers(graph: dict[str, set[str]]) -> None:
    assert upward_imports(graph) == []


def test_no_import_loops(graph: dict[str, set[str]]) -> None:
    assert import_loops(graph) == []


def test_no_two_parts_of_the_package_import_each_other(graph: dict[str, set[str]]) -> None:
    """Taken whole (``tables``, ``events``, ``store`` …), no part imports one that imports it back."""
    def part(module: str) -> str:
        return ".".join(module.split(".")[:2])

    parts: dict[str, set[str]] = {}
    for module, targets in graph.items():
        parts.setdefault(part(module), set()).update(part(target) for target in targets if part(target) != part(module))
    assert {"scorekeeper.tables", "scorekeeper.events"} <= set(parts)
    assert import_loops(parts) == []


def test_only_the_web_layer_answers_in_http() -> None:
    """Below the views (the store, tables, events, device, forms, sheet, rules core) nothing calls ``abort()`` or
    raises werkzeug's HTTP errors: they raise refusals, which ``views/errors.py`` answers."""
    below = [path for path in PACKAGE.rglob("*.py")
             if path.relative_to(PACKAGE).parts[0] not in ("views", "extensions.py", "serving.py", "__init__.py")]
    assert len(below) > 50
    speaking_http = [str(path.relative_to(ROOT)) for path in below
                     if "abort(" in (text := path.read_text(encoding="utf-8")) or "werkzeug.exceptions" in text]
    assert speaking_http == []


def test_no_blueprint_imports_another(graph: dict[str, set[str]]) -> None:
    assert BLUEPRINTS >= {"scorekeeper.views.api", "scorekeeper.views.deals", "scorekeeper.views.matches"}
    crossing = {(module, target) for module in BLUEPRINTS for target in graph[module] if target in BLUEPRINTS}
    assert not crossing


def test_every_module_has_a_layer(graph: dict[str, set[str]]) -> None:
    assert [module for module in graph if layer_of(module) is None] == []


def test_every_path_in_the_layer_table_exists_and_stands_once() -> None:
    paths = [path for row in table_paths(ARCHITECTURE.read_text(encoding="utf-8")) for path in row]
    assert len(paths) >= 20 and "rules/" in paths and "__init__.py" in paths
    assert [path for path in paths if not (PACKAGE / path).exists()] == []
    assert sorted({path for path in paths if paths.count(path) > 1}) == []


def test_a_folder_stands_for_its_modules_and_a_more_particular_path_wins() -> None:
    assert layer_of("scorekeeper.views.events.director") == layer_of("scorekeeper.views")
    store = layer_of("scorekeeper.store")
    assert layer_of("scorekeeper.store.writing") == store != layer_of("scorekeeper.store.reading")
    assert layer_of("scorekeeper.serving") == layer_of("scorekeeper")
    assert layer_of("scorekeeper.no_such_module") is None  # a file's path is that module alone


def test_the_layers_are_read_from_the_table_s_first_column() -> None:
    text = ("# Title\n\n## The layers\n\n| layer | what | knows of |\n|---|---|---|\n"
            "| `scorekeeper/rules/` | the game (`rules/x.py` here is no layer) | nothing |\n"
            "| `__init__.py` (`create_app`), `cli.py`, `tables/` | the rest | all |\n"
            "\n## Next\n| `other.py` | no | no |\n")
    assert table_paths(text) == [["rules/"], ["__init__.py", "cli.py", "tables/"]]


def test_the_checks_spot_what_they_guard(tmp_path: Path) -> None:
    """A relative import out of the core, a loop and an upward import are each found."""
    package = tmp_path / "scorekeeper"
    (package / "rules").mkdir(parents=True)
    (package / "views").mkdir()
    for name in ("__init__.py", "rules/__init__.py", "views/__init__.py", "models.py"):
        (package / name).write_text("")
    (package / "rules" / "cards.py").write_text("from ..store import load\n")
    (package / "store.py").write_text("from .views import api\nfrom .rules import cards\n")
    (package / "views" / "api.py").write_text("from .. import store\n")
    graph = import_graph(package)
    assert "scorekeeper.store" in graph["scorekeeper.rules.cards"]
    assert import_loops(graph) == [["scorekeeper.rules.cards", "scorekeeper.store", "scorekeeper.views.api"]]
    assert ("scorekeeper.rules.cards", "scorekeeper.store") in upward_imports(graph)


def test_reading_a_match_needs_nothing_of_writing(graph: dict[str, set[str]]) -> None:
    """The sheet and the reading half of the store never import the writing half."""
    readers = [module for module in graph
               if module.startswith(("scorekeeper.sheet", "scorekeeper.store.reading", "scorekeeper.store.describe"))]
    assert readers
    assert [(module, target) for module in readers for target in graph[module]
            if target == "scorekeeper.store.writing"] == []
