"""gunicorn with eight workers starting on an empty database, several times: every start works.

``bench/bench_start.py`` does the rounds (``--rounds 50`` for a longer run); the workers race to make
the secret key, the SQLite file and the tables, and must all boot and answer. Set
``SCOREKEEPER_TEST_START_ROUNDS`` to run more or fewer rounds here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = int(os.environ.get("SCOREKEEPER_TEST_START_ROUNDS", "3"))
POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "")


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_gunicorn_with_eight_workers_starts_on_an_empty_database_every_time(database: str) -> None:
    command = [sys.executable, str(ROOT / "bench" / "bench_start.py"), "--rounds", str(ROUNDS), "--workers", "8"]
    if database == "postgresql":
        if not POSTGRES_URL:
            pytest.skip("SCOREKEEPER_TEST_DATABASE_URL is not set")
        command += ["--postgres", POSTGRES_URL]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{ROUNDS}/{ROUNDS} starts of gunicorn -w 8" in result.stdout
