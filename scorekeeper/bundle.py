"""One file for a page script and the ES modules it imports, so that a page using the rules core's twin
costs one request rather than one per module.

A small bundler for our own modules only, readable on purpose: each module becomes a function scope run
once, in import order; its ``import {a, b as c} from "./x.js"`` becomes ``const {a, b: c} = <x's exports>``
and its exports are what the scope returns. The entry's exports are the bundle's exports
(``export const {…} = …``), so ``import {scoreMatch} from "<bundle>"`` works as it would from the entry.

What our modules use is all it reads: named imports and ``import * as``, ``export const|function|class``,
``export {…}``, ``export {…} from`` and ``export * from``, all with relative paths. Anything else
(``export default``, ``export let``, a bare ``import "./x.js"``, an import loop) raises BundleError rather
than giving a bundle that behaves differently from the modules.

A module exports in a bundle only the names the bundle's other modules take from it (all of them for the
entry and for ``import *``/``export *``); a module of plain data (nothing but ``export const NAME =
<literal>;``, as static/js/rules/declarations.js, which tools/make_twin_declarations.py writes) keeps only
those constants: a page carries the declarations it reads, not all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

# A module's import and export statements, each possibly over several lines.
FROM = r"""\s+from\s+["'](\.{1,2}/[^"']+)["']\s*;?"""
IMPORT_NAMED = re.compile(r"^import\s*\{([^}]*)\}" + FROM, re.M)
IMPORT_ALL = re.compile(r"^import\s*\*\s*as\s+([A-Za-z_$][\w$]*)" + FROM, re.M)
EXPORT_FROM = re.compile(r"^export\s*\{([^}]*)\}" + FROM, re.M)
EXPORT_ALL_FROM = re.compile(r"^export\s*\*" + FROM, re.M)
EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}\s*;?", re.M)
EXPORT_DECLARATION = re.compile(r"^export\s+((?:async\s+)?function\*?|class|const)\s+([A-Za-z_$][\w$]*)", re.M)
UNSUPPORTED = re.compile(r"^(?:export\s+(?:default|let|var)\b|import\s*[\"']|import\s+[A-Za-z_$])", re.M)
RELATIVE_IMPORT = re.compile(r"""^(?:import|export)\b[^;]*?from\s+["']\.{1,2}/""", re.M)
DATA_LINE = re.compile(r"export const [A-Za-z_$][\w$]* = |[\]}];?$")  # a plain data module's unindented lines


def strip_comments(source: str) -> str:
    """``source`` without its whole-line comments, blank lines and indentation: a safe minifier for our
    modules (rjsmin squeezes the spaces inside template literals, which changes messages). A line with an
    odd number of backticks would open a template literal over several lines, whose lines must be kept
    as they are: it is refused."""
    kept = []
    in_comment = False
    for number, line in enumerate(source.splitlines(), 1):
        text = line.strip()
        if in_comment:
            in_comment = "*/" not in text
            continue
        if text.startswith("/*") and ("*/" not in text or text.endswith("*/")):
            in_comment = "*/" not in text
            continue
        if not text or text.startswith("//"):
            continue
        if text.count("`") % 2:
            raise BundleError(f"line {number}: a template literal over several lines: {text[:60]!r}")
        kept.append(_without_trailing_comment(text))
    return "\n".join(kept) + "\n"


def _without_trailing_comment(line: str) -> str:
    """The line without a ``// comment`` at its end, when nothing before it could hold ``//`` as text:
    no quote, backtick or slash (a string, a template literal or a regular expression)."""
    code, marker, _ = line.partition("//")
    if not marker or any(char in code for char in "\"'`/"):
        return line
    return code.rstrip()


class BundleError(ValueError):
    """A module uses a form of import or export that the bundler does not read."""


def is_module_entry(source: str) -> bool:
    """A page script that imports other modules of ours: it is sent bundled."""
    return bool(RELATIVE_IMPORT.search(source))


def _names(listing: str) -> list[tuple[str, str]]:
    """``a, b as c`` → [("a", "a"), ("b", "c")]: (name in the module, name where it arrives)."""
    pairs = []
    for item in (part.strip() for part in listing.split(",")):
        if item:
            original, _, alias = (word.strip() for word in item.partition(" as "))
            pairs.append((original, alias or original))
    return pairs


@dataclass
class Module:
    path: PurePosixPath  # under the static folder
    body: str
    imports: list[PurePosixPath] = field(default_factory=list)
    own_exports: list[tuple[str, str]] = field(default_factory=list)  # (expression, exported name)
    star_exports: list[PurePosixPath] = field(default_factory=list)
    wanted: dict[PurePosixPath, set[str] | None] = field(default_factory=dict)  # names used from each (None: all)
    plain_data: bool = False

    @property
    def scope(self) -> str:
        return "$" + re.sub(r"\W", "_", self.path.with_suffix("").as_posix())


def _resolve(base: PurePosixPath, relative: str) -> PurePosixPath:
    parts: list[str] = list(base.parent.parts)
    for part in relative.split("/"):
        if part == "..":
            if not parts:
                raise BundleError(f"{base}: {relative} leaves the static folder")
            parts.pop()
        elif part != ".":
            parts.append(part)
    return PurePosixPath(*parts)


def read_module(static: Path, path: PurePosixPath) -> Module:
    """One module with its imports and exports rewritten for a function scope."""
    source = (static / path).read_text(encoding="utf-8")
    unsupported = UNSUPPORTED.search(source)
    if unsupported:
        raise BundleError(f"static/{path}: cannot bundle {unsupported.group(0)!r}")
    module = Module(path, source, plain_data=is_plain_data(source))

    def target(relative: str, names: list[tuple[str, str]] | None = None) -> PurePosixPath:
        found = _resolve(path, relative)
        if found not in module.imports:
            module.imports.append(found)
        known = module.wanted.get(found, set())
        module.wanted[found] = None if names is None or known is None else known | {name for name, _ in names}
        return found

    def scope_of(relative: str, names: list[tuple[str, str]] | None = None) -> str:
        return Module(target(relative, names), "").scope

    def named_import(match: re.Match[str]) -> str:
        names = _names(match.group(1))
        bound = ", ".join(name if name == alias else f"{name}: {alias}" for name, alias in names)
        return f"const {{ {bound} }} = {scope_of(match.group(2), names)};"

    def export_from(match: re.Match[str]) -> str:
        names = _names(match.group(1))
        scope = scope_of(match.group(2), names)
        module.own_exports += [(f"{scope}.{name}", alias) for name, alias in names]
        return ""

    def export_all_from(match: re.Match[str]) -> str:
        module.star_exports.append(target(match.group(1)))
        return ""

    def export_list(match: re.Match[str]) -> str:
        module.own_exports += [(name, alias) for name, alias in _names(match.group(1))]
        return ""

    def export_declaration(match: re.Match[str]) -> str:
        module.own_exports.append((match.group(2), match.group(2)))
        return f"{match.group(1)} {match.group(2)}"

    body = IMPORT_NAMED.sub(named_import, source)
    body = IMPORT_ALL.sub(lambda match: f"const {match.group(1)} = {scope_of(match.group(2))};", body)
    body = EXPORT_FROM.sub(export_from, body)
    body = EXPORT_ALL_FROM.sub(export_all_from, body)
    body = EXPORT_LIST.sub(export_list, body)
    module.body = EXPORT_DECLARATION.sub(export_declaration, body)
    return module


def _in_order(static: Path, entry: PurePosixPath) -> list[Module]:
    """The entry and every module it imports, each after the modules it imports."""
    done: dict[PurePosixPath, Module] = {}
    visiting: list[PurePosixPath] = []

    def visit(path: PurePosixPath) -> None:
        if path in done:
            return
        if path in visiting:
            loop = " → ".join(str(step) for step in [*visiting[visiting.index(path):], path])
            raise BundleError(f"import loop: {loop}")
        visiting.append(path)
        module = read_module(static, path)
        for imported in module.imports:
            visit(imported)
        visiting.pop()
        done[path] = module

    visit(entry)
    return list(done.values())


def is_plain_data(source: str) -> bool:
    """Nothing but ``export const NAME = <literal>;`` (values over several lines indented): no import, no code."""
    lines = [line for line in source.splitlines() if line.strip() and not line.lstrip().startswith("//")]
    return bool(lines) and all(line[0].isspace() or DATA_LINE.match(line) for line in lines)


def _keep_used(module: Module, used: set[str]) -> None:
    """The module exporting only the names in ``used``; a plain data module keeps only those constants."""
    module.own_exports = [(expression, name) for expression, name in module.own_exports if name in used]
    if module.plain_data:
        header, *declarations = re.split(r"^(?=const )", module.body, flags=re.M)
        module.body = header + "".join(text for text in declarations if text.split()[1] in used)


def _used_names(ordered: list[Module]) -> dict[PurePosixPath, set[str] | None]:
    """For each module, the names the others take from it (None: all of them, for ``*`` and the entry)."""
    used: dict[PurePosixPath, set[str] | None] = {ordered[-1].path: None}
    for module in ordered:
        for path in module.star_exports:
            used[path] = None
        for path, names in module.wanted.items():
            known = used.get(path, set())
            used[path] = None if names is None or known is None else known | names
    return used


def export_names(module: Module, modules: dict[PurePosixPath, Module]) -> list[str]:
    """Every name ``module`` exports, those of ``export *`` included."""
    names = [name for _, name in module.own_exports]
    for path in module.star_exports:
        names += [name for name in export_names(modules[path], modules) if name != "default"]
    return list(dict.fromkeys(names))


def bundle(static: Path, entry: str) -> str:
    """The source of one ES module made of ``entry`` (a path under ``static``) and all it imports."""
    ordered = _in_order(static, PurePosixPath(entry))
    used = _used_names(ordered)
    for module in ordered:
        wanted = used.get(module.path, set())
        if wanted is not None and not module.star_exports:
            _keep_used(module, wanted)
    by_path = {module.path: module for module in ordered}
    parts = [f"// static/{entry} and the modules it imports, one scope each (scorekeeper/bundle.py).\n"]
    for module in ordered:
        spread = [f"...{by_path[path].scope}" for path in module.star_exports]
        own = [name if expression == name else f"{name}: {expression}" for expression, name in module.own_exports]
        returned = ", ".join([*spread, *own])
        parts.append(f"// static/{module.path}\nconst {module.scope} = (() => {{\n{module.body.strip()}\n"
                     f"return Object.freeze({{ {returned} }});\n}})();\n")
    names = export_names(ordered[-1], by_path)
    if names:
        parts.append(f"export const {{ {', '.join(names)} }} = {ordered[-1].scope};\n")
    return "\n".join(parts)
