"""The package's own import graph, read from the source, and the layers its modules sit in.

Imports may point down the layers or within one, never up: the rules core knows nothing of the
rest, the tables know nothing of the web, and only the app factory and the command line see it all.
"""

from __future__ import annotations

import ast
from pathlib import Path

# From the bottom up; a module belongs to the first prefix it starts with.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("scorekeeper.rules",),
    ("scorekeeper.models", "scorekeeper.extensions", "scorekeeper.instance", "scorekeeper.assets",
     "scorekeeper.bundle", "scorekeeper.addresses", "scorekeeper.samples", "scorekeeper.versions"),
    ("scorekeeper.db",),
    ("scorekeeper.store.describe", "scorekeeper.store.reading", "scorekeeper.store.write_keys"),
    ("scorekeeper.store",),
    ("scorekeeper.tables", "scorekeeper.ratings", "scorekeeper.events", "scorekeeper.sheet", "scorekeeper.forms",
     "scorekeeper.device", "scorekeeper.rule_history", "scorekeeper.migrations"),
    ("scorekeeper.views",),
    ("scorekeeper.cli", "scorekeeper"),
)


def layer_of(module: str) -> int | None:
    for index, prefixes in enumerate(LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return index
    return None


def module_name(package: Path, path: Path) -> str:
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: Path) -> dict[str, set[str]]:
    """Each module of ``package`` and the package modules it imports, relative imports resolved."""
    paths = {module_name(package, path): path for path in package.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, is_package, node.level, node.module)
                for alias in node.names:
                    child = f"{base}.{alias.name}"
                    targets.add(child if child in paths else base)
        graph[module] = {target for target in targets if target in paths and target != module}
    return graph


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    if level == 0:
        return name or ""
    parts = module.split(".")
    anchor = parts if is_package else parts[:-1]
    anchor = anchor[: len(anchor) - (level - 1)]
    return ".".join([*anchor, name] if name else anchor)


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports from a lower layer to a higher one."""
    found = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            low, high = layer_of(module), layer_of(target)
            if low is not None and high is not None and high > low:
                found.append((module, target))
    return found


def import_loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a loop (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    loops: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph.get(module, ()):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                loops.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(loops)
