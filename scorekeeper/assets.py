"""Static files under content-hashed addresses, kept by browsers for a year, and text answers compressed.

``url_for("static", filename=…)`` adds ``?v=<digest of the file>``, so a changed file has a new address
and a phone never keeps a stale copy; an address with the current digest is marked immutable, so a
return visit asks for nothing but the page.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from flask import Flask, request
from werkzeug.wrappers import Response

from .extensions import compress

IMMUTABLE = "public, max-age=31536000, immutable"
COMPRESSED_TYPES = ["text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                    "image/svg+xml", "text/csv", "application/manifest+json"]


def digests(folder: Path) -> dict[str, str]:
    """A short content digest of every file under ``folder``, by its path there."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        for path in sorted(folder.rglob("*")) if path.is_file()
    }


def init_app(app: Flask) -> None:
    versions = digests(Path(app.static_folder or ""))

    def add_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values:
            version = versions.get(values.get("filename", ""))
            if version:
                values["v"] = version

    def cache_forever(response: Response) -> Response:
        filename = (request.view_args or {}).get("filename", "")
        if request.endpoint == "static" and response.status_code in (200, 304) \
                and request.args.get("v") == versions.get(filename):
            response.headers["Cache-Control"] = IMMUTABLE
        return response

    app.url_defaults(add_version)
    app.after_request(cache_forever)
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", "gzip")
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    compress.init_app(app)
