"""gunicorn with eight workers starting on an empty database: every worker boots and answers.

The workers race to make the secret key, the SQLite file and the tables. One start a database here
(the suite has a time budget); ``SCOREKEEPER_TEST_START_ROUNDS=20`` runs more here, and
``gunicorn_starts.py --rounds 50`` a longer run.
"""

from __future__ import annotations

import io
import os

import pytest
from gunicorn_starts import run

ROUNDS = int(os.environ.get("SCOREKEEPER_TEST_START_ROUNDS", "1"))
POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "")


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_gunicorn_with_eight_workers_starts_on_an_empty_database(database: str) -> None:
    if database == "postgresql" and not POSTGRES_URL:
        pytest.skip("SCOREKEEPER_TEST_DATABASE_URL is not set")
    out = io.StringIO()
    passed = run(ROUNDS, workers=8, postgres=POSTGRES_URL if database == "postgresql" else None, out=out)
    assert passed == ROUNDS, out.getvalue()
