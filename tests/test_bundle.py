"""The bundler (scorekeeper/bundle.py): a page script and the modules it imports as one file, which
behaves as the modules do; the twin bundled as the app sends it gives every shared vector its answer."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.assets import static_files
from scorekeeper.bundle import BundleError, bundle, is_module_entry

ROOT = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def node_or_skip() -> str:
    node = shutil.which("node")
    if node is None:
        message = "node is missing: install Debian's nodejs (.ci/run does)"
        if IN_CI:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return node


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def run_node(folder: Path, module: str, script: str) -> str:
    """Import ``module`` (a file in ``folder``) as ``m`` under node and print ``script``'s value as JSON."""
    probe = folder / "probe.mjs"
    probe.write_text(f'import * as m from "./{module}";\nconsole.log(JSON.stringify({script}));\n', encoding="utf-8")
    run = subprocess.run([node_or_skip(), str(probe)], capture_output=True, text=True, timeout=60, check=True)
    return run.stdout.strip()


MODULES = {
    "lib/a.js": 'import { twice as double } from "./b.js";\nexport const A = double(2);\n'
                "export function shout(text) { return text.toUpperCase(); }\n",
    "lib/b.js": "export function twice(n) { return 2 * n; }\nconst hidden = 7;\nexport { hidden as seven };\n",
    "lib/c.js": 'import * as b from "./b.js";\nexport class Counter { constructor() { this.n = b.seven; } }\n',
    "lib/index.js": 'export { A, shout } from "./a.js";\nexport * from "./c.js";\nexport { twice } from "./b.js";\n',
    "page.js": 'import { A, Counter, shout } from "./lib/index.js";\n'
               'export const seen = [A, new Counter().n, shout("hi")];\n',
}


def test_a_bundle_exports_what_its_modules_export_with_the_same_values(tmp_path: Path) -> None:
    folder = write(tmp_path, MODULES)
    (folder / "page.bundle.mjs").write_text(bundle(folder, "page.js"), encoding="utf-8")
    (folder / "index.bundle.mjs").write_text(bundle(folder, "lib/index.js"), encoding="utf-8")
    assert run_node(folder, "page.bundle.mjs", "m.seen") == run_node(folder, "page.js", "m.seen") == '[4,7,"HI"]'
    names = "Object.keys(m).sort()"
    assert run_node(folder, "index.bundle.mjs", names) == run_node(folder, "lib/index.js", names)


def test_each_module_keeps_its_own_scope(tmp_path: Path) -> None:
    folder = write(tmp_path, {"x.js": "const n = 1;\nexport const x = n;\n",
                              "y.js": 'import { x } from "./x.js";\nconst n = 2;\nexport const y = x + n;\n'})
    (folder / "y.bundle.mjs").write_text(bundle(folder, "y.js"), encoding="utf-8")
    assert run_node(folder, "y.bundle.mjs", "m.y") == "3"


DATA = {
    "data.js": '// plain data\nexport const A = {\n  x: 1,\n};\nexport const B = [\n  2,\n];\nexport const C = "c";\n',
    "use.js": 'import { B } from "./data.js";\nexport const unused = () => B;\nexport const size = () => B.length;\n',
    "page.js": 'import { A, C } from "./data.js";\nimport { size } from "./use.js";\n'
               "export const seen = [A.x, C, size()];\n",
}


def test_a_bundle_carries_only_the_constants_of_a_data_module_that_its_modules_import(tmp_path: Path) -> None:
    """static/js/rules/declarations.js is such a module: a page carries the declarations it reads."""
    folder = write(tmp_path, DATA)
    sent = bundle(folder, "page.js")
    (folder / "page.bundle.mjs").write_text(sent, encoding="utf-8")
    assert run_node(folder, "page.bundle.mjs", "m.seen") == run_node(folder, "page.js", "m.seen") == '[1,"c",1]'
    assert "const A" in sent and "const B" in sent and "const C" in sent
    assert "unused" in sent and "unused }" not in sent and "unused," not in sent  # kept as code, not exported
    alone = write(tmp_path / "alone", {**DATA, "page.js": 'import { C } from "./data.js";\nexport const c = C;\n'})
    page_alone = bundle(alone, "page.js")
    assert "const C" in page_alone and "const A" not in page_alone and "const B" not in page_alone


def test_only_modules_of_nothing_but_constants_are_plain_data() -> None:
    from scorekeeper.bundle import is_plain_data

    assert is_plain_data((ROOT / "static" / "js" / "rules" / "declarations.js").read_text(encoding="utf-8"))
    assert not is_plain_data((ROOT / "static" / "js" / "rules" / "cards.js").read_text(encoding="utf-8"))
    assert not is_plain_data('export const A = 1;\nfunction f() {}\n')


@pytest.mark.parametrize(("files", "message"), [
    ({"e.js": "export default 1;\n"}, "export default"),
    ({"e.js": "export let n = 1;\n"}, "export let"),
    ({"e.js": 'import "./f.js";\n', "f.js": ""}, "import \""),
    ({"e.js": 'import { f } from "./f.js";\nexport const e = 1;\n',
      "f.js": 'import { e } from "./e.js";\nexport const f = 1;\n'}, "import loop: e.js → f.js → e.js"),
])
def test_what_the_bundler_does_not_read_is_refused(tmp_path: Path, files: dict[str, str], message: str) -> None:
    write(tmp_path, files)
    with pytest.raises(BundleError, match=message):
        bundle(tmp_path, "e.js")


def test_only_scripts_that_import_our_modules_are_bundled() -> None:
    assert is_module_entry((ROOT / "static" / "twin.js").read_text(encoding="utf-8"))
    assert not is_module_entry((ROOT / "static" / "app.js").read_text(encoding="utf-8"))


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
    import hashlib

    assert files.versions["twin.js"] == hashlib.sha256(files.sent["twin.js"][0]).hexdigest()[:12]
    assert files.versions["twin.js"] != hashlib.sha256((ROOT / "static" / "twin.js").read_bytes()).hexdigest()[:12]


def test_comments_and_indentation_go_and_template_literals_stay_as_they_are() -> None:
    from scorekeeper.bundle import strip_comments

    source = ("// a comment\n/**\n * JSDoc\n */\nfunction f(a) {\n    /* note */\n    return `{${a}: ${a}}`;\n}\n"
              "/* kept */ f(1);\n")
    assert strip_comments(source) == "function f(a) {\nreturn `{${a}: ${a}}`;\n}\n/* kept */ f(1);\n"
    with pytest.raises(BundleError, match="template literal over several lines"):
        strip_comments("const t = `one\ntwo`;\n")
