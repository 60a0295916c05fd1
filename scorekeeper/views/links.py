"""Absolute links (the API's ``links`` and ``Location``, the share section), never built from a ``Host`` header
the server has not been told to trust.

- ``BASE_URL`` (``SCOREKEEPER_BASE_URL``) set: the links start with it.
- Otherwise, ``TRUSTED_HOSTS`` set: the request's host, which Flask has checked against that list.
- Otherwise the server does not know its own address: the links are paths on this server (``/m/…``), which
  a browser or an API client resolves against the address it used.

A QR code cannot hold a path: ``shared_url`` is absolute even then, with the address the phone asking for the
code used itself (an answer for that phone only, kept by no shared cache).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, has_request_context, request, url_for


def external_url(endpoint: str, **values: Any) -> str:
    base = current_app.config.get("BASE_URL") or ""
    if base:
        return base + url_for(endpoint, **values)
    return url_for(endpoint, _external=bool(current_app.config.get("TRUSTED_HOSTS")), **values)


def link_base() -> str:
    """What ``external_url`` starts the links of this request with (empty for paths): an answer holding such
    links is kept under it."""
    base = current_app.config.get("BASE_URL") or ""
    if base:
        return base
    return request.host_url if current_app.config.get("TRUSTED_HOSTS") else ""


def fixed_url(endpoint: str, **values: Any) -> str:
    """The same as ``external_url`` for pages that must not depend on the request (the cached sheet):
    absolute with ``BASE_URL``, a path otherwise."""
    base = current_app.config.get("BASE_URL") or ""
    return base + url_for(endpoint, **values)


def shared_url(endpoint: str, **values: Any) -> str:
    """The absolute link a QR code holds: as ``external_url``, or with neither setting the address this
    request came to (the phone showing the code reached the app there, so the phones beside it can too)."""
    base = current_app.config.get("BASE_URL") or ""
    if base:
        return base + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


URLS_KEPT = 20_000  # addresses remembered by ``remember_urls``; past that they are built afresh


def remember_urls(app: Flask) -> None:
    """Build each address once: ``url_for`` (in code and in templates) answers an address it has built
    before from a map rather than going through the URL map again. A page such as the score sheet asks for
    some twenty addresses (the stylesheet, the scripts, its links), the same for every version of a match.

    Only what depends on nothing but its arguments is kept: paths (no ``_external``, ``_scheme``,
    ``_anchor`` or ``_method``) built while answering a request, under the request's script root (and its
    blueprint for a relative endpoint such as ``.sheet``). The URL map and the static files' digests
    (``assets.py``) are fixed once the app has started, so a kept address is the one Flask would build.
    """
    build = app.url_for
    kept: dict[tuple[Any, ...], str] = {}

    def url_for(endpoint: str, /, *, _anchor: str | None = None, _method: str | None = None,
                _scheme: str | None = None, _external: bool | None = None, **values: Any) -> str:
        if _anchor is not None or _method is not None or _scheme is not None or _external \
                or not has_request_context():
            return build(endpoint, _anchor=_anchor, _method=_method, _scheme=_scheme, _external=_external, **values)
        key = (request.script_root, request.blueprint if endpoint.startswith(".") else None, endpoint,
               *((name, type(value), value) for name, value in sorted(values.items())))  # 1 and True differ
        try:
            found = kept.get(key)
        except TypeError:  # a value that cannot be a key (a list of query values): built every time
            return build(endpoint, **values)
        if found is None:
            found = build(endpoint, **values)
            if len(kept) >= URLS_KEPT:
                kept.clear()
            kept[key] = found
        return found

    app.url_for = url_for  # type: ignore[method-assign, assignment]  # what flask.url_for calls
    app.jinja_env.globals["url_for"] = url_for
