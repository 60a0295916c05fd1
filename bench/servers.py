"""Serving a checkout's app for the load benches (bench_club.py, bench_web.py), and the server's CPU time.

A ``Code`` is a checkout (this one, or an older one given with ``--code``) with settings of its own, such
as the sheet cache turned off. ``served`` starts it on 127.0.0.1 in a process of its own, with the
checkout first on ``PYTHONPATH``: under waitress as that checkout's ``scorekeeper serve`` runs it (its own
``scorekeeper.cli.server_options``), or under gunicorn (gthread workers). ``database`` gives each run a
new SQLite file, or a new database on a PostgreSQL server (dropped after the run). Every served app has
one bare route more, ``BARE_PATH``, the least a Flask route does under the same server.

This file is also the waitress server's own program: ``python bench/servers.py waitress PORT THREADS CONFIG``.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
BARE_PATH = "/bench/bare"


@dataclass(frozen=True)
class Code:
    """A checkout whose app is served, with app settings of its own; ``floor`` serves floor_app.py instead."""

    label: str
    folder: Path = ROOT
    config: dict[str, Any] = field(default_factory=dict)
    floor: bool = False

    @classmethod
    def checkout(cls, folder: str) -> Code:
        """The checkout at ``folder``, labelled with its commit."""
        path = Path(folder).resolve()
        commit = subprocess.run(["git", "-C", str(path), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=False).stdout.strip() or "?"
        return cls(f"{commit} {path.name}" if path != ROOT else f"{commit} (this checkout)", path)


def codes(folders: list[str] | None, cache_off: bool, floor: bool = False) -> list[Code]:
    """What a bench compares, in this order: the ``--code`` checkouts (default: this one), this checkout with
    the sheet cache off, and the floor."""
    chosen = [Code.checkout(folder) for folder in folders or [str(ROOT)]]
    if cache_off:
        here = Code.checkout(str(ROOT))
        chosen.append(Code(f"{here.label.split()[0]}, SHEET_CACHE_BYTES=0", ROOT, {"SHEET_CACHE_BYTES": 0}))
    if floor:
        chosen.append(Code("floor (bench/floor_app.py)", ROOT, floor=True))
    return chosen


def app_config(database_url: str, instance: str, code: Code) -> dict[str, Any]:
    # One address plays every table here, so the limits on one address are lifted.
    return {"DATABASE_URL": database_url, "SECRET_KEY": "bench", "INSTANCE_PATH": instance,
            "RATELIMIT_ENABLED": False} | code.config


def app(config: str) -> Any:
    """The WSGI app of the checkout on ``sys.path`` with the JSON ``config``, plus the bare route."""
    from scorekeeper import create_app

    application = create_app(json.loads(config))
    application.add_url_rule(BARE_PATH, "bench_bare", lambda: "ok")
    return application


def serve_waitress(port: int, threads: int, config: str, floor: bool) -> None:
    """The server process: as the checkout's ``scorekeeper serve --threads THREADS`` runs its app. Before
    74a2b73 that command also held live polls in threads of their own (``HOLD_SLOTS``) and settled the
    garbage collector; a checkout that has them gets them."""
    from waitress import serve

    from scorekeeper import cli

    logging.getLogger("waitress").setLevel(logging.ERROR)  # a full queue is the point of a load test
    holds = getattr(cli, "HOLD_SLOTS", None)
    if floor:
        from floor_app import app as application
    elif holds is None:
        application = app(config)
    else:
        application = app(json.dumps(json.loads(config) | cli.serving_config(threads, holds)))
        cli.settle_for_serving()
    options = cli.server_options("127.0.0.1", port, threads, *([] if holds is None else [holds]))
    serve(application, **options)


@dataclass(frozen=True)
class Served:
    port: int
    pid: int

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextmanager
def served(code: Code, database_url: str, instance: Path, gunicorn: int = 0, threads: int = 4) -> Iterator[Served]:
    """``code`` served until the block ends: waitress with ``threads`` threads, or with ``gunicorn`` set,
    that many gunicorn workers of ``threads`` threads. Its output goes to ``instance``/server.log."""
    port = free_port()
    config = json.dumps(app_config(database_url, str(instance), code))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(code.folder), str(BENCH)])}
    if gunicorn:
        target = "floor_app:app" if code.floor else f"servers:app({config!r})"
        command = [sys.executable, "-m", "gunicorn", "-w", str(gunicorn), "--threads", str(threads),
                   "-b", f"127.0.0.1:{port}", "--graceful-timeout", "3", *private_options(), target]
    else:
        command = [sys.executable, str(BENCH / "servers.py"), "waitress", str(port), str(threads), config,
                   *(["floor"] if code.floor else [])]
    with (instance / "server.log").open("ab") as log:
        # in the checkout's folder: `python -m` looks there first
        server = subprocess.Popen(command, env=env, cwd=code.folder, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"http://127.0.0.1:{port}{BARE_PATH if not code.floor else '/'}", server)
        yield Served(port, server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)


@contextmanager
def database(postgres: str | None, folder: Path) -> Iterator[str]:
    """A new SQLite file in ``folder``, or a new database on the PostgreSQL server of the URL ``postgres``
    (one the user may create databases from), dropped afterwards."""
    if not postgres:
        yield f"sqlite:///{folder / f'bench-{uuid.uuid4().hex[:8]}.sqlite'}"
        return
    from sqlalchemy import create_engine, make_url

    admin = create_engine(postgres, isolation_level="AUTOCOMMIT")
    name = f"bench_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(postgres).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@functools.cache
def private_options() -> list[str]:
    """Newer gunicorns open a control socket in the home folder, shared by every server: not here."""
    help_text = subprocess.run([sys.executable, "-m", "gunicorn", "--help"], capture_output=True, text=True).stdout
    return ["--no-control-socket"] if "--no-control-socket" in help_text else []


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(url: str, server: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                response.read()
                return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start (see server.log): {server.args}") from None
            time.sleep(0.1)


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds the process and its children (gunicorn's workers) have used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    used = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        used += cpu_seconds(int(child))
    return used


def load_average() -> str:
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


if __name__ == "__main__":
    if sys.argv[1:2] == ["waitress"]:
        serve_waitress(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:] == ["floor"])
