"""Pinochle score keeper: the web app factory.

The rules of the game live in ``scorekeeper.rules`` (standard library only); this package wraps them
in a small Flask app that stores the facts of each deal and derives the score sheet from them.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the rules core is imported without Flask: nothing of the web loads until create_app
    from flask import Flask, Response

# The largest request body: the largest table file the limits in rules/limits.py let in (tests/largest.py),
# as the app writes it, takes under 85% of it (tests/test_file_limits.py): the limits in items are met first.
MAX_REQUEST_BYTES = 6 * 1024 * 1024

_PACKAGE_DIR = Path(__file__).resolve().parent


def _asset_dir(name: str) -> str:
    """``templates``/``static`` inside the package (built wheel) or beside it (source checkout)."""
    inside = _PACKAGE_DIR / name
    return str(inside if inside.is_dir() else _PACKAGE_DIR.parent / name)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration, database, CSRF, blueprints and error pages.

    ``test_config`` may hold ``INSTANCE_PATH`` to keep the instance folder somewhere else.
    """
    from flask import Flask

    from .instance import make_private_folder, secret_key

    app = Flask(
        __name__,
        instance_path=(test_config or {}).get("INSTANCE_PATH") or os.environ.get("SCOREKEEPER_INSTANCE"),
        instance_relative_config=True,
        template_folder=_asset_dir("templates"),
        static_folder=_asset_dir("static"),
    )
    make_private_folder(app.instance_path)  # the key and the SQLite file live here
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL")
        or f"sqlite:///{os.path.join(app.instance_path, 'scorekeeper.sqlite')}",
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        SESSION_REFRESH_EACH_REQUEST=False,  # the device's list renews its own cookie (device.py)
        MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        MAX_FORM_MEMORY_SIZE=MAX_REQUEST_BYTES,  # a pasted match file may be as large as an uploaded one
        **_from_environment(),
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # UTF-8 answers: a name as long as in a file
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or secret_key(app.instance_path)
    if app.config["PROXIES"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = int(app.config["PROXIES"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]

    from . import assets, db, views
    from .extensions import csrf, init_limiter
    from .sheet import cache

    db.init_app(app)
    csrf.init_app(app)
    cache.init_app(app)
    views.init_app(app)
    assets.init_app(app)
    init_limiter(app)  # after the views: it wraps the ones marked as rate limited
    app.after_request(_security_headers)
    settle_collector()
    return app


def settle_collector() -> None:
    """Once a process has made its app, what it loaded (the libraries, the app: about 120,000 objects) lives
    as long as the process: it is frozen out of the garbage collector's sight. Requests leave objects that
    reach the collector's oldest generation, and each full collection that follows walked that whole heap
    again: about 100 ms of CPU, once every 50 standings asks or so (docs/architecture.md, The garbage
    collector). Done once a process, by the first app it makes (under
    gunicorn each worker's, or the master's with ``--preload``); a process that froze its own heap before
    (the tests' ``conftest.py``) keeps it as it is."""
    if gc.get_freeze_count():
        return
    gc.collect()  # what starting left behind (the migrations' objects) is freed, not frozen
    gc.freeze()


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def _from_environment() -> dict[str, Any]:
    """Settings for running behind HTTPS and limits, from ``SCOREKEEPER_…`` variables (README, Configuration)."""
    from .instance import StartupError
    from .sheet.cache import DEFAULT_BYTES

    secure = _flag("SCOREKEEPER_SECURE_COOKIES")
    hosts = [host.strip() for host in os.environ.get("SCOREKEEPER_TRUSTED_HOSTS", "").split(",") if host.strip()]
    base_url = os.environ.get("SCOREKEEPER_BASE_URL", "").strip().rstrip("/")
    if base_url and not base_url.startswith(("https://", "http://")):
        raise StartupError(f"SCOREKEEPER_BASE_URL must start with https:// or http:// (it is {base_url!r})")
    proxies = os.environ.get("SCOREKEEPER_PROXIES", "0").strip() or "0"
    if not proxies.isdigit():
        raise StartupError(f"SCOREKEEPER_PROXIES must be the number of proxies in front of the app (it is {proxies!r})")
    cache_bytes = os.environ.get("SCOREKEEPER_SHEET_CACHE_BYTES", "").strip() or str(DEFAULT_BYTES)
    if not cache_bytes.isdigit():
        raise StartupError(f"SCOREKEEPER_SHEET_CACHE_BYTES must be a number of bytes (it is {cache_bytes!r})")
    return {
        "SESSION_COOKIE_SECURE": secure,
        "PREFERRED_URL_SCHEME": "https" if secure else "http",
        "TRUSTED_HOSTS": hosts or None,
        "BASE_URL": base_url,  # absolute links start with it; when empty, see views/links.py
        "PROXIES": int(proxies),  # reverse proxies whose X-Forwarded-For and -Proto are believed
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI") or "memory://",
        "RATELIMIT_HEADERS_ENABLED": True,  # Retry-After on limited answers (extensions.py sets it)
        # Counted in what is made; each window lets in the largest table file (201 matches, 2,000 deals).
        "CREATE_MATCH_LIMIT": os.environ.get("SCOREKEEPER_CREATE_LIMIT") or "250 per hour;1000 per day",
        "NEW_DEALS_LIMIT": os.environ.get("SCOREKEEPER_NEW_DEALS_LIMIT") or "5000 per hour;20000 per day",
        "FAILED_TOKEN_LIMIT": os.environ.get("SCOREKEEPER_FAILED_TOKEN_LIMIT") or "10 per minute;100 per day",
        # Costly reads (a whole match for the API, a download, statistics), one for every 100 deals or fewer
        # read: a table asks for a few a minute.
        "READ_LIMIT": os.environ.get("SCOREKEEPER_READ_LIMIT") or "30 per minute;600 per hour",
        "SHEET_CACHE_BYTES": int(cache_bytes),  # the sheet cache's budget (sheet/cache.py)
    }


# Everything is served from this host; match links are secrets, so they never leave in a Referer.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
    ),
    "Permissions-Policy": (
        "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
        "payment=(), usb=()"
    ),
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
}


def _security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response
