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

from flask import current_app, request, url_for


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

