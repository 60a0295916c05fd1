"""The Flask extensions the blueprints share, made here and bound to the app in ``create_app``.

Rate limits: a view marked with ``rate_limited(scope)`` counts against the limit of that scope, shared by
every view with the same mark and kept per client address. ``init_limiter`` makes each app its own
Flask-Limiter (its storage, ``RATELIMIT_STORAGE_URI``, and ``RATELIMIT_ENABLED`` are the app's) and
applies the limits to the marked views; a limit's value is read from the app's configuration.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from flask import Flask, current_app
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect
from werkzeug.wrappers import Response

compress = Compress()
csrf = CSRFProtect()

View = TypeVar("View", bound=Callable[..., Any])


class RateLimit(NamedTuple):
    config_key: str  # holds the limit, e.g. "10 per minute;60 per hour"
    message: str  # the answer's message when it is reached
    failures_only: bool = False  # count only the answers refused for a wrong or missing token


RATE_LIMITS = {
    "create-match": RateLimit(
        "CREATE_MATCH_LIMIT",
        "Too many new matches from this address in a short time; nothing was saved. Wait a few minutes "
        "and try again.",
    ),
    "edit-token": RateLimit(
        "FAILED_TOKEN_LIMIT",
        "too many requests with a missing or wrong edit token from this address; wait a while and try again",
        failures_only=True,
    ),
}
_MARK = "_scorekeeper_rate_limit"


def rate_limited(scope: str) -> Callable[[View], View]:
    """Count the view's POST, PUT and DELETE requests against the shared limit ``scope`` (``RATE_LIMITS``)."""
    if scope not in RATE_LIMITS:
        raise KeyError(scope)

    def mark(view: View) -> View:
        setattr(view, _MARK, scope)
        return view

    return mark


def _refused_token(response: Response) -> bool:
    return response.status_code in (401, 403)


def init_limiter(app: Flask) -> Limiter:
    """The app's own limiter, with the marked views (already registered) wrapped in their limits."""
    limiter = Limiter(get_remote_address, app=app)
    for scope, limit in RATE_LIMITS.items():
        shared = limiter.shared_limit(
            _configured(limit.config_key), scope=scope,
            methods=["POST", "PUT", "DELETE"], error_message=limit.message,
            deduct_when=_refused_token if limit.failures_only else None,
        )
        for endpoint, view in list(app.view_functions.items()):
            if getattr(view, _MARK, None) == scope:
                app.view_functions[endpoint] = shared(view)  # type: ignore[assignment]
    app.extensions["scorekeeper.limiter"] = limiter  # its limits hold it only weakly
    return limiter


def _configured(config_key: str) -> Callable[[], str]:
    return lambda: str(current_app.config[config_key])
