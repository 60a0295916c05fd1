"""Start gunicorn with many workers on an empty database, again and again: every start must work.

Each round makes a new instance folder (no database, no secret key) and starts
``gunicorn -w WORKERS 'scorekeeper:create_app()'`` in it: every worker builds the app at the same
moment, so they race to create the folder's secret key, the SQLite file and the tables. A round passes
when every worker finished booting (gunicorn's ``post_worker_init``), the server answers requests, no
worker logged an error, and the database is at the latest revision with one ``alembic_version`` row.

``tests/test_starts.py`` runs a few rounds; for a longer run:

    python tests/gunicorn_starts.py [--rounds 50] [--workers 8] [--postgres URL]

``--postgres URL`` (a database the user may create databases from, e.g. the test server's
``postgresql+psycopg://postgres@127.0.0.1:25432/postgres``) runs each round on a new PostgreSQL database
instead of SQLite. Exit status 0 when every round passed.
"""

from __future__ import annotations

import argparse
import functools
import http.client
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONFIG = '''
import os

# Imported in the master (the app is not built there), so that the forked workers reach create_app()
# within moments of each other instead of one by one as each finishes its imports: the hardest race.
import scorekeeper.cli, scorekeeper.db, scorekeeper.models, scorekeeper.views  # noqa


def post_worker_init(worker):
    """Called in each worker once the app is loaded: leave a mark."""
    open(os.path.join(os.environ["BENCH_START_MARKS"], str(worker.pid)), "w").close()
'''


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@functools.cache
def private_options() -> list[str]:
    """Newer gunicorns open a control socket in the home folder, shared by every server: not here."""
    help_text = subprocess.run([sys.executable, "-m", "gunicorn", "--help"], capture_output=True, text=True).stdout
    return ["--no-control-socket"] if "--no-control-socket" in help_text else []


def get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def one_start(workers: int, database_url: str | None, timeout: float = 60.0) -> tuple[bool, str]:
    """One gunicorn start on an empty database: (passed, what happened)."""
    from sqlalchemy import text

    from scorekeeper.db import head_revision, make_engine

    work = Path(tempfile.mkdtemp(prefix="scorekeeper-start-"))
    instance, marks = work / "instance", work / "marks"
    marks.mkdir()
    (work / "gunicorn_conf.py").write_text(GUNICORN_CONFIG, encoding="utf-8")
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DATABASE_URL")}
    env.update(SCOREKEEPER_INSTANCE=str(instance), BENCH_START_MARKS=str(marks))
    if database_url:
        env["DATABASE_URL"] = database_url
    log_path = work / "gunicorn.log"
    started = time.monotonic()
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", str(workers), "-b", f"127.0.0.1:{port}",
             "-c", str(work / "gunicorn_conf.py"),
             "--graceful-timeout", "1",  # idle sync workers take seconds to stop; the round is over by then
             *private_options(), "scorekeeper:create_app()"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    problems: list[str] = []
    try:
        while len(list(marks.iterdir())) < workers and server.poll() is None:
            if time.monotonic() - started > timeout:
                problems.append(f"only {len(list(marks.iterdir()))} of {workers} workers booted in {timeout:.0f} s")
                break
            time.sleep(0.05)
        booted = time.monotonic() - started
        if server.poll() is not None:
            problems.append(f"gunicorn exited with status {server.returncode}")
        else:
            statuses = [get(port, "/") for _ in range(2 * workers)]
            if set(statuses) != {200}:
                problems.append(f"answers {statuses}")
    finally:
        answered = time.monotonic() - started
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    stopped = time.monotonic() - started
    log_text = log_path.read_text(encoding="utf-8", errors="replace")
    # Only the start and the answers count: a quick stop may interrupt a worker wherever it is.
    before_stop = log_text.split("Handling signal: term")[0]
    for sign in ("Traceback", "Exception in worker", "Worker failed to boot", "Error", "[ERROR]"):
        if sign in before_stop:
            problems.append(f"the log shows {sign!r}")
    engine = make_engine(database_url or f"sqlite:///{instance / 'scorekeeper.sqlite'}")
    try:
        with engine.connect() as connection:
            versions = list(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())
    except Exception as error:  # noqa: BLE001  (reported, not raised)
        versions = [f"unreadable: {error}"]
    finally:
        engine.dispose()
    if versions != [head_revision()]:
        problems.append(f"alembic_version holds {versions}")
    key_file = instance / "secret_key"
    if not key_file.is_file() or stat.S_IMODE(key_file.stat().st_mode) != 0o600:
        problems.append("no secret key file, or not 0600")
    if problems:
        tail = "\n".join(log_text.splitlines()[-40:])
        return False, f"{'; '.join(problems)}\n--- gunicorn log ({work}) ---\n{tail}"
    shutil.rmtree(work)
    return True, f"{workers} workers up in {booted:.1f} s, answered at {answered:.1f} s, stopped at {stopped:.1f} s"


class PostgresDatabases:
    """A new database for each round, on the server ``admin_url`` points at."""

    def __init__(self, admin_url: str) -> None:
        from scorekeeper.db import make_engine

        self.admin_url = admin_url
        self.engine = make_engine(admin_url).execution_options(isolation_level="AUTOCOMMIT")

    def create(self) -> str:
        from sqlalchemy import make_url

        name = f"scorekeeper_start_{uuid.uuid4().hex[:12]}"
        with self.engine.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        return make_url(self.admin_url).set(database=name).render_as_string(hide_password=False)

    def drop(self, url: str) -> None:
        from sqlalchemy import make_url

        name = make_url(url).database
        with self.engine.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(rounds: int, workers: int, postgres: str | None = None, out: object = sys.stdout) -> int:
    """Run the rounds, print one line each and a total; the number that passed."""
    databases = PostgresDatabases(postgres) if postgres else None
    passed = 0
    kind = "a new PostgreSQL database" if databases else "an empty SQLite database"
    for number in range(1, rounds + 1):
        url = databases.create() if databases else None
        try:
            ok, what = one_start(workers, url)
        finally:
            if databases and url:
                databases.drop(url)
        passed += ok
        print(f"round {number}: {'ok' if ok else 'FAILED'}, {what}", file=out, flush=True)  # type: ignore[arg-type]
    print(f"{passed}/{rounds} starts of gunicorn -w {workers} on {kind}: every worker booted and "
          f"answered" if passed == rounds else f"{passed}/{rounds} starts passed", file=out)  # type: ignore[arg-type]
    if databases:
        databases.engine.dispose()
    return passed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--postgres", metavar="URL", help="run each round on a new database of this server")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    return 0 if run(args.rounds, args.workers, args.postgres) == args.rounds else 1


if __name__ == "__main__":
    sys.exit(main())
