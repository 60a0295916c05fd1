"""gunicorn with eight workers starting on an empty database, several times: every start works.

``gunicorn_starts.py`` does the rounds (``--rounds 50`` for a longer run); the workers race to make
the secret key, the SQLite file and the tables, and must all boot and answer. Set
``SCOREKEEPER_TEST_START_ROUNDS`` to run more or fewer rounds here.
"""

from __future__ import annotations

import io
import os

import pytest
from gunicorn_starts import run

ROUNDS = int(os.environ.get("SCOREKEEPER_TEST_START_ROUNDS", "2"))
POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "")


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_gunicorn_with_eight_workers_starts_on_an_empty_database_every_time(database: str) -> None:
    if database == "postgresql" and not POSTGRES_URL:
        pytest.skip("SCOREKEEPER_TEST_DATABASE_URL is not set")
    out = io.StringIO()
    passed = run(ROUNDS, workers=8, postgres=POSTGRES_URL if database == "postgresql" else None, out=out)
    assert passed == ROUNDS, out.getvalue()
