"""The Flask extensions the blueprints share, made here and bound to the app in ``create_app``.

Rate limits: a view marked with ``rate_limited(scope)`` counts against the limit of that scope, shared by
every view with the same mark and kept per client address. ``init_limiter`` makes each app its own
Flask-Limiter (its storage, ``RATELIMIT_STORAGE_URI``, and ``RATELIMIT_ENABLED`` are the app's) and
wraps the marked views in their limits; a limit's value is read from the app's configuration.

Testing a limit and counting against it is one step: each count is the storage's own increment, which
answers the new total, so requests arriving together (on any worker sharing the storage) can never
all pass. A count that goes beyond the limit is given back at once and the request refused; one that a
request turns out not to need (a right token, where only refused tokens count) is given back after
its answer. With ``memory://`` each process keeps its own counts (``serving.per_worker_limits_warning``).

A costly read (a view marked ``costly-read``: a whole match worked out for the API, a download, a table's
statistics) is refused once its address has used up the limit, and counts what it costs: one for every
``DEALS_A_READ`` deals it reads from the database into the rules core (``note_deals_read``), counted before
they are read. So a long match's reader runs out first, while the reads of a match as long as most (its
phones' offline kit, an export) count nothing, however many phones share one address. Every other read skips
the limiter (a phone's live poll, the sheet page).

The limits on what is made count things, not requests: a marked view counts the match or table it makes,
and a view that brings in more (an imported file's deals, a table file's matches) counts those with
``count_made`` once it has read them, before it stores anything. A view marked ``counts_made`` has its
own one counted there too, in one step with the rest.
"""

from __future__ import annotations

import functools
import math
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any, NamedTuple, NoReturn, TypeVar

from flask import Flask, current_app, g, has_request_context, request
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
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
_ON_TRIAL = "_scorekeeper_counted_on_trial"  # in ``g``: the counts to give back unless the token was refused
_OWED = "_scorekeeper_counts_owed"  # in ``g``: the request's own one, counted with what ``count_made`` counts


def rate_limited(*scopes: str, counts_made: bool = False) -> Callable[[View], View]:
    """Count the view's requests against the shared limits ``scopes`` (``RATE_LIMITS``), those of each scope's
    methods (POST, PUT and DELETE; GET for ``costly-read``, counted as it reads: ``note_deals_read``).

    ``counts_made``: the view calls ``count_made`` before it stores anything, and the request's own one is
    counted in the same step as what it brings in (so table files sent together pass exactly as many as
    fit); it is only tested for room before the view, and counted after a request that never got that far.
    """
    for scope in scopes:
        if scope not in RATE_LIMITS:
            raise KeyError(scope)

    def mark(view: View) -> View:
        setattr(view, _MARK, (scopes, counts_made))
        return view

    return mark


def _refused_token(response: Response) -> bool:
    return response.status_code in (401, 403)


def init_limiter(app: Flask) -> Limiter:
    """The app's own limiter, with the marked views (already registered) wrapped in their limits."""
    app.config["RATELIMIT_STRATEGY"] = "fixed-window"  # a window counter is a plain number: ``_give_back``
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["scorekeeper.costly_reads"] = frozenset(
        endpoint for endpoint, view in app.view_functions.items()
        if "costly-read" in getattr(view, _MARK, ((), False))[0])

    @limiter.request_filter
    def reads_are_never_limited() -> bool:
        """Every limit counts writes only: a read skips the limiter's work (a phone polls every 1.5 s)."""
        return request.method in READS

    for endpoint, view in list(app.view_functions.items()):
        scopes, counts_made = getattr(view, _MARK, ((), False))
        if scopes:
            app.view_functions[endpoint] = _counted(view, scopes, counts_made)
    app.after_request(_settle)
    warning = per_worker_limits_warning(str(app.config["RATELIMIT_STORAGE_URI"]), gunicorn_workers())
    if warning and limiter.enabled:
        app.logger.warning(warning)
    app.extensions["scorekeeper.limiter"] = limiter  # its limits hold it only weakly
    app.extensions["scorekeeper.limits-lock"] = threading.Lock()
    return limiter


def per_worker_limits_warning(storage: str, workers: int) -> str | None:
    """What to say at start when several processes each count the limits in their own memory."""
    if workers <= 1 or not storage.startswith("memory://"):
        return None
    return (f"RATELIMIT_STORAGE_URI is {storage} and gunicorn runs {workers} workers: each worker counts the "
            f"rate limits on its own, so a limit of 10 lets up to {10 * workers} through. Point "
            "RATELIMIT_STORAGE_URI at a Redis server that every worker shares (README, Configuration).")


def gunicorn_workers() -> int:
    """How many workers the gunicorn building this app runs (0 outside gunicorn): its configuration, read
    from the worker or arbiter whose call builds the app."""
    frame = sys._getframe(1)
    while frame is not None:
        caller = frame.f_locals.get("self")
        workers = getattr(getattr(caller, "cfg", None), "workers", None)
        if type(caller).__module__.startswith("gunicorn.") and isinstance(workers, int):
            return workers
        frame = frame.f_back  # type: ignore[assignment]
    return 0


def _counted(view: View, scopes: tuple[str, ...], counts_made: bool) -> View:
    """``view`` counting one against each of ``scopes`` before it runs (429 when one has no room), or
    with ``counts_made`` only looking for room for it."""

    @functools.wraps(view)
    def counted(*args: Any, **kwargs: Any) -> Any:
        limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
        counted_scopes = [scope for scope in scopes if request.method in RATE_LIMITS[scope].methods]
        if counted_scopes and limiter.enabled:
            counts = [Count(scope, item, 1) for scope in counted_scopes for item in _items(scope)]
            if request.method in READS:  # a costly read: counted by what it reads (``note_deals_read``)
                _look_for_room(counts)
            elif counts_made:
                _look_for_room(counts)
                g.setdefault(_OWED, []).extend(counts)
            else:
                _take(counts)
                g.setdefault(_ON_TRIAL, []).extend(count for count in counts
                                                    if RATE_LIMITS[count.scope].failures_only)
        return view(*args, **kwargs)

    return counted  # type: ignore[return-value]


def _settle(response: Response) -> Response:
    """After the answer: give back the counts of a limit on refused tokens when it did not refuse one, and
    count the request's own one where ``count_made`` did not (the request stopped before it, or was
    refused by it)."""
    on_trial: list[Count] = g.pop(_ON_TRIAL, [])
    owed: list[Count] = g.pop(_OWED, [])
    if not on_trial and not owed:
        return response
    limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
    with _one_at_a_time():
        if on_trial and not _refused_token(response):
            _give_back(on_trial)
        for count in owed:
            limiter.limiter.hit(count.item, get_remote_address(), count.scope, cost=count.amount)
    return response


class Count(NamedTuple):
    """``amount`` counted against one window ``item`` of the limit of ``scope``."""

    scope: str
    item: RateLimitItem
    amount: int


def _items(scope: str) -> list[RateLimitItem]:
    return list(parse_many(str(current_app.config[RATE_LIMITS[scope].config_key])))


def _take(counts: list[Count]) -> None:
    """Count each of ``counts``, all or none: when one goes past its limit, every one is given back and
    the request is refused (``TooMuchMade``)."""
    limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
    key = get_remote_address()
    with _one_at_a_time():
        for taken, count in enumerate(counts, start=1):
            if not limiter.limiter.hit(count.item, key, count.scope, cost=count.amount):
                _give_back(counts[:taken])
                break
        else:
            return
    _refuse(count)


def _look_for_room(counts: list[Count]) -> None:
    """``TooMuchMade`` when one of ``counts`` would go past its limit now (nothing is counted)."""
    limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
    key = get_remote_address()
    for count in counts:
        if not limiter.limiter.test(count.item, key, count.scope, cost=count.amount):
            _refuse(count)


def _refuse(count: Count) -> NoReturn:
    limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
    reset = limiter.limiter.get_window_stats(count.item, get_remote_address(), count.scope).reset_time
    raise TooMuchMade(_refusal(count), retry_after=max(1, math.ceil(reset - time.time())))


def _give_back(counts: list[Count]) -> None:
    """Take ``counts`` off their windows again (the counter of a fixed window is a plain number)."""
    limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
    key = get_remote_address()
    for count in counts:
        limiter.storage.incr(count.item.key_for(key, count.scope), count.item.get_expiry(), amount=-count.amount)


@contextmanager
def _one_at_a_time() -> Iterator[None]:
    """Counts in ``memory://`` are taken one request at a time: its increment answers the total after
    every thread's increment, not after its own. A shared storage (Redis) answers each its own."""
    limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
    lock: threading.Lock = current_app.extensions["scorekeeper.limits-lock"]
    with lock if isinstance(limiter.storage, MemoryStorage) else nullcontext():
        yield


def _refusal(count: Count) -> str:
    """The message of a refusal: the scope's, or that the amount is more than a whole window lets in."""
    item = count.item
    if count.amount <= item.amount:
        return RATE_LIMITS[count.scope].message
    per = item.GRANULARITY.name if item.multiples == 1 else f"{item.multiples} {item.GRANULARITY.name}s"
    return (f"This brings in {count.amount:,} at once; this server lets one address make at most "
            f"{item.amount:,} per {per}. Nothing was saved.")


class TooMuchMade(TooManyRequests):
    """More made than a limit on what is made lets one address make now (429, with ``Retry-After``)."""


def count_made(matches: int = 0, deals: int = 0) -> None:
    """Count ``matches`` more against the limit on new matches and ``deals`` against the one on deals
    brought in, both or neither: ``TooMuchMade`` when either has no room for them (a window whose whole
    allowance is less says so, as no wait would help). In a view marked ``counts_made`` the request's own
    one is counted in the same step."""
    limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
    if not limiter.enabled:
        return
    owed: list[Count] = g.get(_OWED, [])
    folded = [count for count in owed if count.scope in ("create-match", "new-deals")]
    counts = [Count(scope, item, amount + sum(count.amount for count in folded
                                              if (count.scope, str(count.item)) == (scope, str(item))))
              for scope, amount in (("create-match", matches), ("new-deals", deals)) for item in _items(scope)]
    _take([count for count in counts if count.amount])
    g.setdefault(_OWED, [])[:] = [count for count in owed if count not in folded]  # counted now


DEALS_A_READ = 100  # a costly read counts one for every so many deals it reads
MOST_A_READ = 10  # and at most this many: a long-played table's statistics stay within a minute's limit


def _read_cost(deals: int) -> int:
    """What reading ``deals`` deals costs: one for every whole ``DEALS_A_READ``, at most ``MOST_A_READ``."""
    return min(MOST_A_READ, deals // DEALS_A_READ)


def note_deals_read(deals: int) -> None:
    """Count ``deals`` more deals that this request is about to read into the rules core against the limit on
    costly reads, when its view is a costly read: ``TooMuchMade`` when the address has no room for them."""
    if not has_request_context() or request.method not in READS \
            or request.endpoint not in current_app.extensions.get("scorekeeper.costly_reads", ()):
        return
    limiter: Limiter = current_app.extensions["scorekeeper.limiter"]
    if not limiter.enabled:
        return
    read = g.get("scorekeeper_deals_read", 0)
    g.scorekeeper_deals_read = read + deals
    cost = _read_cost(read + deals) - _read_cost(read)
    if cost:
        _take([Count("costly-read", item, cost) for item in _items("costly-read")])
