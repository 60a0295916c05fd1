"""The Flask extensions the blueprints share, made here and bound to the app in ``create_app``.

Rate limits: a view marked with ``rate_limited(scope)`` counts against the limit of that scope, shared by
every view with the same mark and kept per client address. ``init_limiter`` makes each app its own
Flask-Limiter (its storage, ``RATELIMIT_STORAGE_URI``, and ``RATELIMIT_ENABLED`` are the app's) and
applies the limits to the marked views; a limit's value is read from the app's configuration.

A costly read (a view marked ``costly-read``: a whole match worked out for the API, a download, a table's
statistics) is refused once its address has used up the limit, and counts what it costs: one for every
``DEALS_A_READ`` deals (or fewer) it reads from the database into the rules core (``note_deals_read``),
counted before they are read. So a long match's reader runs out first, and a read that reads no match (a 304,
an answer from the sheet cache) counts nothing. Every other read skips the limiter (a phone's live poll, the
sheet page).

The limits on what is made count things, not requests: a marked view counts the match or table it makes,
and a view that brings in more (an imported file's deals, a table file's matches) counts those with
``count_made`` once it has read them, before it stores anything.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from flask import Flask, current_app, g, has_request_context, request
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect
from limits import parse_many
from werkzeug.exceptions import TooManyRequests
from werkzeug.wrappers import Response

compress = Compress()
csrf = CSRFProtect()

View = TypeVar("View", bound=Callable[..., Any])


class RateLimit(NamedTuple):
    config_key: str  # holds the limit, e.g. "10 per minute;60 per hour"
    message: str  # the answer's message when it is reached
    failures_only: bool = False  # count only the answers refused for a wrong or missing token
    methods: tuple[str, ...] = ("POST", "PUT", "DELETE")  # the requests counted


RATE_LIMITS = {
    "create-match": RateLimit(
        "CREATE_MATCH_LIMIT",
        "Too many new matches from this address in a short time; nothing was saved. Wait a few minutes "
        "and try again.",
    ),
    "new-deals": RateLimit(
        "NEW_DEALS_LIMIT",
        "Too many deals brought in from this address in a short time; nothing was saved. Wait a while and "
        "try again.",
    ),
    "edit-token": RateLimit(
        "FAILED_TOKEN_LIMIT",
        "too many requests with a missing or wrong edit token from this address; wait a while and try again",
        failures_only=True,
    ),
    "costly-read": RateLimit(
        "READ_LIMIT",
        "Too many costly pages asked for from this address in a short time. Wait a minute and try again.",
        methods=("GET",),
    ),
}
READS = ("GET", "HEAD", "OPTIONS")
_MARK = "_scorekeeper_rate_limit"


def rate_limited(*scopes: str) -> Callable[[View], View]:
    """Count the view's requests against the shared limits ``scopes`` (``RATE_LIMITS``), those of each scope's
    methods (POST, PUT and DELETE but for ``costly-read``, GET)."""
    for scope in scopes:
        if scope not in RATE_LIMITS:
            raise KeyError(scope)

    def mark(view: View) -> View:
        setattr(view, _MARK, scopes)
        return view

    return mark


def _refused_token(response: Response) -> bool:
    return response.status_code in (401, 403)


def _counted_by_what_it_reads(response: Response) -> bool:
    """A costly read is counted by ``note_deals_read`` as it reads, never after."""
    return False


DEALS_A_READ = 100  # a costly read counts one for every so many deals it reads (or fewer)
MOST_A_READ = 10  # and at most this many: a long-played table's statistics stay within a minute's limit


def _hundreds(deals: int) -> int:
    """The ``DEALS_A_READ`` deals begun by so many deals (one for none: a match read all the same), at most
    ``MOST_A_READ``."""
    return min(MOST_A_READ, max(1, -(-deals // DEALS_A_READ)))


class TooMuchRead(TooManyRequests):
    """More read than the limit on costly reads lets one address read now (429, with ``Retry-After``)."""


def note_deals_read(deals: int) -> None:
    """Count ``deals`` more deals that this request is about to read into the rules core against the limit on
    costly reads, when its view is a costly read: ``TooMuchRead`` when the address has no room for them."""
    if not has_request_context() or request.method not in READS \
            or request.endpoint not in current_app.extensions.get("scorekeeper.costly_reads", ()):
        return
    limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
    if not limiter.enabled:
        return
    read = g.get("scorekeeper_deals_read")  # None before the request's first match
    total = (read or 0) + deals
    g.scorekeeper_deals_read = total
    cost = _hundreds(total) - (0 if read is None else _hundreds(read))
    if not cost:
        return
    key = get_remote_address()
    for item in parse_many(current_app.config[RATE_LIMITS["costly-read"].config_key]):
        if not limiter.limiter.hit(item, key, "costly-read", cost=cost):
            reset = limiter.limiter.get_window_stats(item, key, "costly-read").reset_time
            raise TooMuchRead(RATE_LIMITS["costly-read"].message, retry_after=max(1, math.ceil(reset - time.time())))


def init_limiter(app: Flask) -> Limiter:
    """The app's own limiter, with the marked views (already registered) wrapped in their limits."""
    limiter = Limiter(get_remote_address, app=app)
    costly_reads = {endpoint for endpoint, view in app.view_functions.items()
                    if any(READS[0] in RATE_LIMITS[scope].methods for scope in getattr(view, _MARK, ()))}
    app.extensions["scorekeeper.costly_reads"] = frozenset(costly_reads)

    @limiter.request_filter
    def cheap_reads_are_never_limited() -> bool:
        """A read skips the limiter's work (a phone polls every 1.5 s) unless its view is a costly one."""
        return request.method in READS and request.endpoint not in costly_reads

    for scope, limit in RATE_LIMITS.items():
        shared = limiter.shared_limit(
            _configured(limit.config_key), scope=scope,
            methods=list(limit.methods), error_message=limit.message,
            deduct_when=_refused_token if limit.failures_only else
            _counted_by_what_it_reads if READS[0] in limit.methods else None,
        )
        for endpoint, view in list(app.view_functions.items()):
            if scope in getattr(view, _MARK, ()):
                app.view_functions[endpoint] = shared(view)  # type: ignore[assignment]
    app.extensions["scorekeeper.limiter"] = limiter  # its limits hold it only weakly
    return limiter


def _configured(config_key: str) -> Callable[[], str]:
    return lambda: str(current_app.config[config_key])


class TooMuchMade(TooManyRequests):
    """More made than a limit on what is made lets one address make now (429, with ``Retry-After``)."""


def count_made(matches: int = 0, deals: int = 0) -> None:
    """Count ``matches`` more against the limit on new matches and ``deals`` against the one on deals
    brought in, both or neither: ``TooMuchMade`` when either has no room for them (a window whose whole
    allowance is less says so, as no wait would help)."""
    limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
    if not limiter.enabled:
        return
    wanted = [(scope, amount, item) for scope, amount in (("create-match", matches), ("new-deals", deals)) if amount
              for item in parse_many(current_app.config[RATE_LIMITS[scope].config_key])]
    key = get_remote_address()
    for scope, amount, item in wanted:
        if not limiter.limiter.test(item, key, scope, cost=amount):
            reset = limiter.limiter.get_window_stats(item, key, scope).reset_time
            message = RATE_LIMITS[scope].message
            if amount > item.amount:
                per = item.GRANULARITY.name if item.multiples == 1 else f"{item.multiples} {item.GRANULARITY.name}s"
                message = (f"This brings in {amount:,} at once; this server lets one address make at most "
                           f"{item.amount:,} per {per}. Nothing was saved.")
            raise TooMuchMade(message, retry_after=max(1, math.ceil(reset - time.time())))
    for scope, amount, item in wanted:
        limiter.limiter.hit(item, key, scope, cost=amount)
