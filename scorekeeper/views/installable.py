"""What makes the app installable and readable offline: the web app manifest, the service worker served
from the site's root (so that its scope is the whole site) and the page it shows for a page never opened.

The worker's code is ``static/sw.js``; it is sent here with its settings in front: the release (a digest
of every static file, so that a new release replaces the phones' caches) and what it keeps from the start
(the offline page, the stylesheet and script it uses, and the manifest).
"""

from __future__ import annotations

import json
import re
import struct
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, url_for

from ..assets import static_files

bp = Blueprint("installable", __name__)

THEME = "#0b5d3b"  # the top bar's green (base.css --accent)
BACKGROUND = "#f6f4ee"  # the page's light background (base.css --bg)
TAB_ICON = "icons/icon-192.png"  # the app's icon, drawn as every page's declared tab icon
TAB_ICON_MAX_AGE = 7 * 24 * 3600  # a week: the address never changes, the icon seldom does
STATIC_LINK = re.compile(r"""(?:href|src)=["'](/static/[^"'?]+\?v=[0-9a-f]+)["']""")


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    icons = [
        {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {"src": url_for("static", filename="icons/maskable-512.png"), "sizes": "512x512", "type": "image/png",
         "purpose": "maskable"},
    ]
    body = {
        "name": "Pinochle score keeper",
        "short_name": "Pinochle",
        "description": "Keep the score of a Pinochle match at the table.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icons,
    }
    return Response(json.dumps(body, indent=1), mimetype="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


@cache
def icon_file(png: Path) -> bytes:
    """The PNG icon ``png`` as an ICO file of one image (an ICO may hold a PNG as it is): its header, the
    image's entry (width and height 0 mean 256) and the PNG."""
    body = png.read_bytes()
    width, height = struct.unpack(">II", body[16:24])
    entry = struct.pack("<BBBBHHII", width % 256, height % 256, 0, 0, 1, 32, len(body), 6 + 16)
    return struct.pack("<HHH", 0, 1, 1) + entry + body


@bp.get("/favicon.ico")
def favicon() -> Response:
    """What a browser asks for when a page declares no icon (a JSON answer, an image opened on its own): the
    app's icon, so that no browser logs a missing file."""
    body = icon_file(Path(current_app.static_folder or "") / TAB_ICON)
    response = Response(body, mimetype="image/vnd.microsoft.icon",
                        headers={"Cache-Control": f"public, max-age={TAB_ICON_MAX_AGE}"})
    response.add_etag()
    response.make_conditional(request)  # a 304 in place when the browser's copy is this one
    return response


@bp.get("/offline")
def offline() -> str:
    return render_template("offline.html")


@bp.get("/sw.js")
def service_worker() -> Response:
    files = static_files(current_app)
    body, mimetype = files.sent["sw.js"]
    offline_page = render_template("offline.html")
    settings = {
        "release": files.release(),
        "offlinePage": url_for("installable.offline"),
        "keepFirst": [url_for("installable.offline"), url_for("installable.manifest"),
                      url_for("static", filename="icons/icon-192.png"),  # asked for by an installed app
                      *sorted(set(STATIC_LINK.findall(offline_page))),
                      # the outbox and the twin, so that a form sent with no network is kept and worked out
                      url_for("static", filename="outbox.js"), url_for("static", filename="twin.js")],
        # kept with a sheet's kit: loaded by the sheet on its first tap of "+ Add deal" (static/phone.js)
        "kitScripts": [url_for("static", filename="entry.js")],
    }
    head = f"const SETTINGS = {json.dumps(settings)};\n".encode()
    # Asked for on every page load and compared byte for byte by the browser: never kept stale.
    return Response(head + body, mimetype=mimetype, headers={"Cache-Control": "no-cache"})
