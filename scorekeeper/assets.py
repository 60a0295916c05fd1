"""Static files under content-hashed addresses, kept by browsers for a year, and text answers compressed
(every HTML answer, error pages included, by Flask-Compress after each request; the sheet's pages come
compressed from the sheet cache).

``url_for("static", filename=…)`` adds ``?v=<digest of the file>``, so a changed file has a new address
and a phone never keeps a stale copy; an address with the current digest is marked immutable, so a
return visit asks for nothing but the page.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rcssmin  # type: ignore[import-untyped]
from flask import Flask, request
from werkzeug.wrappers import Response

from .extensions import compress

IMMUTABLE = "public, max-age=31536000, immutable"
# The page scripts as esbuild made them (tools/bundle.mjs, ``npm run bundle``): bundled with our ES modules they
# import, or minified alone; committed, and tests/test_bundle.py says when they are stale.
BUNDLED = "bundled"
# Smaller answers go as they are: gzip's header and the work would cost more than the bytes saved. Every
# page is larger (the page's frame alone is over 2 KB); an empty 304 or a tiny JSON answer is not.
COMPRESS_MIN_BYTES = 500
COMPRESSED_TYPES = ["text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                    "image/svg+xml", "text/csv", "application/manifest+json"]


def digests(folder: Path) -> dict[str, str]:
    """A short content digest of every file under ``folder``, by its path there."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        for path in sorted(folder.rglob("*")) if path.is_file()
    }


def compress_error_page(response: Response) -> Response:
    """Flask-Compress leaves answers outside 2xx alone: an error page (404, 403, a form sent back with 400)
    is HTML like any other, so it is compressed here on the same terms."""
    if (response.status_code < 300 or response.mimetype != "text/html" or response.direct_passthrough
            or "Content-Encoding" in response.headers or not request.accept_encodings["gzip"]):
        return response
    body = response.get_data()
    if len(body) < COMPRESS_MIN_BYTES:
        return response
    response.set_data(gzip.compress(body, compresslevel=6))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


# A stylesheet's ``@import "name.css";`` of another stylesheet at the top of the static folder, on a line of its own.
CSS_IMPORT = re.compile(r'^@import "([\w-]+\.css)";\n', re.M)


def with_imports(folder: Path, source: str) -> str:
    """A stylesheet with each ``@import`` of ours replaced by the stylesheet it names: one request for the
    page instead of one a file (the imported file is still sent on its own to a page that links it)."""
    return CSS_IMPORT.sub(lambda found: (folder / found.group(1)).read_text(encoding="utf-8"), source)


def bundled_copy(path: Path) -> Path:
    """Where esbuild's copy of the page script ``path`` (at the top of the static folder) is kept."""
    return path.parent / BUNDLED / path.name


def is_bundle(path: Path, source: str) -> bool:
    """A page script (esbuild made each one) or a stylesheet that imports another: sent as made, not as it is."""
    return path.suffix == ".js" or bool(CSS_IMPORT.search(source))


MEDIA_TYPES = {".css": "text/css", ".js": "text/javascript"}


def minified(folder: Path) -> dict[str, tuple[bytes, str]]:
    """The pages' stylesheets and scripts (the files at the top of ``folder``) as sent, made once at start, by
    their name: (bytes, media type). A script is sent as esbuild made it (static/bundled/): minified, and bundled
    with the ES modules it imports (static/js/…), one request for the page; a stylesheet without its comments and
    spaces, with any stylesheet it imports (``with_imports``)."""
    found = {}
    for path in sorted(folder.glob("*")):
        if path.suffix in MEDIA_TYPES and path.is_file():
            if path.suffix == ".js":
                body = bundled_copy(path).read_bytes()
            else:
                body = rcssmin.cssmin(with_imports(folder, path.read_text(encoding="utf-8"))).encode()
            found[path.name] = (body, MEDIA_TYPES[path.suffix])
    return found


def bundle_digests(folder: Path, sent: dict[str, tuple[bytes, str]]) -> dict[str, str]:
    """A bundle's digest is that of the file as sent, so that its address changes with any file in it."""
    return {
        name: hashlib.sha256(body).hexdigest()[:12] for name, (body, _) in sent.items()
        if is_bundle(folder / name, (folder / name).read_text(encoding="utf-8"))
    }


@dataclass(frozen=True)
class StaticFiles:
    """What the app serves under /static: each file's digest and the stylesheet and scripts as sent."""

    versions: dict[str, str]
    sent: dict[str, tuple[bytes, str]]

    def release(self) -> str:
        """One digest of every static file: it changes whenever any of them does (the service worker's
        version, so that a new release replaces what phones keep)."""
        listing = "\n".join(f"{name} {digest}" for name, digest in sorted(self.versions.items()))
        return hashlib.sha256(listing.encode()).hexdigest()[:12]


def static_files(app: Flask) -> StaticFiles:
    found: StaticFiles = app.extensions["scorekeeper.static"]
    return found


def init_app(app: Flask) -> None:
    small = minified(Path(app.static_folder or ""))
    versions = {**digests(Path(app.static_folder or "")), **bundle_digests(Path(app.static_folder or ""), small)}
    app.extensions["scorekeeper.static"] = StaticFiles(versions, small)

    def static(filename: str) -> Response:
        """A page's stylesheet or script as sent (minified); any other static file as it is."""
        if filename not in small:
            return app.send_static_file(filename)
        body, mimetype = small[filename]
        response = Response(body, mimetype=mimetype)
        response.set_etag(versions[filename])
        return response.make_conditional(request)

    app.view_functions["static"] = static

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
    app.after_request(compress_error_page)
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", "gzip")
    app.config.setdefault("COMPRESS_MIN_SIZE", COMPRESS_MIN_BYTES)
    compress.init_app(app)
