"""The package's own import graph, read from the source, and the layers its modules sit in.

Imports may point down the layers or within one, never up: the rules core knows nothing of the
rest, the tables know nothing of the web, and only the app factory and the command line see it all.
The layers are the table under "## The layers" in docs/architecture.md, read from it: its first column
names each layer's modules, bottom up, as paths under scorekeeper/ in backticks (``views/`` a package and
every module in it, ``store/reading.py`` one module, ``__init__.py`` the package itself).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
_PATH = re.compile(r"`(?:scorekeeper/)?([\w/]+(?:\.py|/))`")


def table_paths(text: str) -> list[list[str]]:
    """The module paths of each row of the layer table in ``text``, bottom up, as the table writes them."""
    section = text.split("\n## The layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [_PATH.findall(row.split("|")[1]) for row in rows]


def module_of(path: str) -> str:
    """``store/reading.py`` → ``scorekeeper.store.reading``; ``views/`` → ``scorekeeper.views``."""
    parts = path.removesuffix("/").removesuffix(".py").split("/")
    return ".".join(["scorekeeper", *([] if parts == ["__init__"] else parts)])


# Each layer's modules (a package path stands for the package and every module in it), bottom up.
LAYERS: tuple[tuple[str, ...], ...] = tuple(
    tuple(module_of(path) for path in row) for row in table_paths(ARCHITECTURE.read_text(encoding="utf-8")))
_PACKAGES = {module_of(path) for row in table_paths(ARCHITECTURE.read_text(encoding="utf-8"))
             for path in row if path.endswith("/")}


def layer_of(module: str) -> int | None:
    """The layer of the table's most particular name for ``module``: itself, else the closest package holding
    it (``store/reading.py`` before ``store/``)."""
    best: tuple[int, int] | None = None  # (length of the name, layer)
    for index, names in enumerate(LAYERS):
        for name in names:
            if module == name or (name in _PACKAGES and module.startswith(name + ".")):
                if best is None or len(name) > best[0]:
                    best = (len(name), index)
    return None if best is None else best[1]


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
