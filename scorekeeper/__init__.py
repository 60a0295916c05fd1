"""Pinochle score keeper: the web app factory.

The rules of the game live in ``scorekeeper.rules`` (standard library only); this package wraps them
in a small Flask app that stores the facts of each deal and derives the score sheet from them.
"""

from __future__ import annotations

import os
import secrets
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
    """A random key kept in the instance folder, so sessions survive a restart."""
    key_file = Path(instance_path) / "secret_key"
    if key_file.exists():
        return key_file.read_text(encoding="utf-8").strip()
    key = secrets.token_hex(32)
    key_file.write_text(key, encoding="utf-8")
    key_file.chmod(0o600)
    return key


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
    os.makedirs(app.instance_path, exist_ok=True)
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
