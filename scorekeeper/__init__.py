"""Pinochle score keeper: the web app factory.

The rules of the game live in ``scorekeeper.rules`` (standard library only); this package wraps them
in a small Flask app that stores the facts of each deal and derives the score sheet from them.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask, Response
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()

MAX_REQUEST_BYTES = 2 * 1024 * 1024  # the largest request body: a big match file fits many times over

_PACKAGE_DIR = Path(__file__).resolve().parent


def _asset_dir(name: str) -> str:
    """``templates``/``static`` inside the package (built wheel) or beside it (source checkout)."""
    inside = _PACKAGE_DIR / name
    return str(inside if inside.is_dir() else _PACKAGE_DIR.parent / name)


class StartupError(RuntimeError):
    """The app cannot start as configured (a bad key file, a database it does not recognise); the message
    names the file or database and what to do."""


def _secret_key(instance_path: str) -> str:
    """A random key kept in the instance folder (0600), so sessions survive a restart.

    The first start writes the key to a temporary file, fsyncs it and links it into place, which fails if
    another process got there first: then that process's key is read. So processes starting together all
    use one key, and none ever reads a half-written file. An empty or unreadable key file is an error.
    """
    key_file = Path(instance_path) / "secret_key"
    if not key_file.exists():
        key = secrets.token_hex(32)
        fd, temporary = tempfile.mkstemp(prefix=".secret_key.", dir=instance_path)  # O_EXCL, mode 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(key)
                out.flush()
                os.fsync(out.fileno())
            try:
                os.link(temporary, key_file)
            except FileExistsError:
                pass  # another process's key is in place: use it
            except OSError:  # a file system without hard links: create the file in place instead
                if _write_new_file(key_file, key):
                    return key
            else:
                _fsync_dir(instance_path)
                return key
        finally:
            os.unlink(temporary)
    return _read_secret_key(key_file)


def _write_new_file(path: Path, text: str) -> bool:
    """Create ``path`` (0600) holding ``text``; False if it exists already."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    return True


def _read_secret_key(key_file: Path) -> str:
    remedy = ("delete it to have a new key made at the next start (signed-in sessions and open forms are "
              "then refused once), or set SECRET_KEY")
    try:
        key = key_file.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not text"
        raise StartupError(f"cannot read the secret key file {key_file}: {reason}; fix its permissions, "
                           f"or {remedy}") from None
    if not key:
        raise StartupError(f"the secret key file {key_file} is empty; {remedy}")
    return key


def _fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration, database, CSRF, blueprints and error pages.

    ``test_config`` may hold ``INSTANCE_PATH`` to keep the instance folder somewhere else.
    """
    app = Flask(
        __name__,
        instance_path=(test_config or {}).get("INSTANCE_PATH") or os.environ.get("SCOREKEEPER_INSTANCE"),
        instance_relative_config=True,
        template_folder=_asset_dir("templates"),
        static_folder=_asset_dir("static"),
    )
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)  # the key and the SQLite file live here
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL")
        or f"sqlite:///{os.path.join(app.instance_path, 'scorekeeper.sqlite')}",
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        SESSION_REFRESH_EACH_REQUEST=False,  # the device's list renews its own cookie (device.py)
        MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        MAX_FORM_MEMORY_SIZE=MAX_REQUEST_BYTES,  # a pasted match file may be as large as an uploaded one
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or _secret_key(app.instance_path)

    from . import db, sheet_cache, views
    from .cookie_session import CheckedCookieSessionInterface

    app.session_interface = CheckedCookieSessionInterface()
    db.init_app(app)
    csrf.init_app(app)
    sheet_cache.init_app(app)
    views.init_app(app)
    app.after_request(_security_headers)
    return app


# Everything is served from this host; match links are secrets, so they never leave in a Referer.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
    ),
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
}


def _security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response
