"""The page scripts are sent as esbuild made them (static/bundled/, made by tools/bundle.mjs: ``npm run bundle``):
those that import our ES modules bundled with them, the others minified alone. The committed copies are
esbuild's output of the scripts as they are, every page script has one, and the twin as the app sends it gives
every shared vector its answer."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.assets import BUNDLED, static_files

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
# `import … from "./…"` or `export … from "../…"`: a page script that imports our modules
IMPORTS_OURS = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']\.{1,2}/""", re.M)


def node_or_skip() -> str:
    node = shutil.which("node")
    if node is None:
        message = "node is missing: install Debian's nodejs (.ci/run does)"
        if IN_CI:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return node


def test_the_committed_copies_are_esbuilds_output_of_the_scripts_as_they_are(tmp_path: Path) -> None:
    if not (ROOT / "node_modules" / "esbuild").is_dir():
        pytest.skip("no node_modules: run npm ci")
    run = subprocess.run([node_or_skip(), "tools/bundle.mjs", str(tmp_path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    made = {path.name: path.read_bytes() for path in tmp_path.glob("*.js")}
    committed = {path.name: path.read_bytes() for path in (STATIC / BUNDLED).glob("*.js")}
    assert made, "esbuild made no bundle"
    stale = sorted(name for name in made.keys() | committed.keys() if made.get(name) != committed.get(name))
    assert stale == [], "static/bundled/ is stale: run npm run bundle"


def test_every_page_script_has_its_copy_and_no_other() -> None:
    entries = {path.name for path in STATIC.glob("*.js") if IMPORTS_OURS.search(path.read_text(encoding="utf-8"))}
    assert {"twin.js", "entry.js", "outbox.js"} <= entries
    assert {"app.js", "phone.js", "sw.js"}.isdisjoint(entries)
    assert {path.name for path in (STATIC / BUNDLED).glob("*.js")} == {path.name for path in STATIC.glob("*.js")}


def test_a_classic_script_keeps_its_top_level_names() -> None:
    """The page's classic scripts share one global scope: minified alone, each keeps its own names, so that two
    of them never declare the same short one."""
    for name, kept in (("app.js", "function enhanceDealForm("), ("phone.js", "function followSheet(")):
        assert kept in (STATIC / BUNDLED / name).read_text(encoding="utf-8"), name


def test_the_app_sends_esbuilds_copy_in_place_of_the_script(app: Flask) -> None:
    client = app.test_client()
    for name in ("twin.js", "entry.js", "app.js", "phone.js"):
        answer = client.get(f"/static/{name}", headers={"Accept-Encoding": "identity"})
        assert answer.status_code == 200 and answer.mimetype == "text/javascript"
        assert answer.get_data() == (STATIC / BUNDLED / name).read_bytes(), name


def test_the_twin_as_sent_gives_every_vector_the_core_answer_under_node(app: Flask, tmp_path: Path) -> None:
    node = node_or_skip()
    body, mimetype = static_files(app).sent["twin.js"]
    assert mimetype == "text/javascript"
    sent = tmp_path / "twin.mjs"
    sent.write_bytes(body)
    run = subprocess.run([node, "--test", "tests/js/vectors.test.mjs"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600, env={**os.environ, "TWIN_MODULE": str(sent)})
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout


def test_a_bundle_address_changes_with_any_module_in_it(app: Flask) -> None:
    files = static_files(app)
    assert files.versions["twin.js"] == hashlib.sha256(files.sent["twin.js"][0]).hexdigest()[:12]
    assert files.versions["twin.js"] != hashlib.sha256((STATIC / "twin.js").read_bytes()).hexdigest()[:12]
