"""TypeScript's checker over the browser scripts (npm run check): their JSDoc types hold, in every
hand-written file under static/. Runs where ``npm ci`` installed the pinned checker (.ci/run does)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TSC = ROOT / "node_modules" / ".bin" / "tsc"
CONFIGS = ["tsconfig.json", "tsconfig.sw.json"]  # the pages' scripts and modules; the service worker

pytestmark = pytest.mark.skipif(not TSC.exists(), reason="no node_modules: run npm ci")


def tsc(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(TSC), *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("config", CONFIGS)
def test_the_browser_scripts_have_no_type_errors(config: str) -> None:
    run = tsc("--noEmit", "-p", config)
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_hand_written_script_is_checked() -> None:
    checked = set()
    for config in CONFIGS:
        run = tsc("-p", config, "--listFilesOnly")
        assert run.returncode == 0, run.stdout + run.stderr
        checked |= {Path(line).resolve() for line in run.stdout.splitlines() if line.strip()}
    static = ROOT / "static"
    hand_written = {path.resolve() for path in static.rglob("*.js") if "bundled" not in path.relative_to(static).parts}
    assert hand_written, "no scripts found under static/"
    assert sorted(map(str, hand_written - checked)) == []
