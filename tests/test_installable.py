"""Installable and readable offline: the manifest, its icons, the service worker and the offline page."""

from __future__ import annotations

import json
import re
import struct

from flask.testing import FlaskClient

from scorekeeper.assets import IMMUTABLE


def manifest_of(client: FlaskClient) -> dict[str, object]:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    found: dict[str, object] = json.loads(answer.get_data(as_text=True))
    return found


def png_size(body: bytes) -> tuple[int, int]:
    assert body.startswith(b"\x89PNG\r\n\x1a\n") and body[12:16] == b"IHDR"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def test_every_page_links_the_manifest(client: FlaskClient) -> None:
    for path in ("/", "/rules", "/meld", "/matches/new", "/import", "/offline", "/no-such-page"):
        html = client.get(path).get_data(as_text=True)
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, path


def test_the_manifest_makes_the_app_installable(client: FlaskClient) -> None:
    manifest = manifest_of(client)
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["name"] and manifest["short_name"]
    assert re.fullmatch(r"#[0-9a-f]{6}", str(manifest["theme_color"]))
    assert re.fullmatch(r"#[0-9a-f]{6}", str(manifest["background_color"]))


def test_the_icons_are_pngs_of_the_sizes_they_claim_kept_for_a_year(client: FlaskClient) -> None:
    icons = manifest_of(client)["icons"]
    assert isinstance(icons, list)
    assert {(icon["sizes"], icon.get("purpose", "any")) for icon in icons} >= {
        ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in icons:
        answer = client.get(icon["src"])
        assert answer.status_code == 200 and answer.mimetype == "image/png"
        assert answer.headers["Cache-Control"] == IMMUTABLE
        width, height = png_size(answer.data)
        assert f"{width}x{height}" == icon["sizes"]


def test_the_service_worker_is_served_from_the_root_and_never_kept_stale(client: FlaskClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    settings = json.loads(re.match(r"const SETTINGS = (.*);\n", answer.get_data(as_text=True)).group(1))  # type: ignore[union-attr]
    assert settings["offlinePage"] == "/offline"
    kept = settings["keepFirst"]
    assert kept[:2] == ["/offline", "/manifest.webmanifest"]
    # What the offline page needs is kept from the start, by the addresses the page uses.
    offline = client.get("/offline").get_data(as_text=True)
    assert kept[2].startswith("/static/icons/icon-192.png?v=")
    *page_needs, outbox, twin = kept[3:]
    for address in page_needs:
        assert address.startswith("/static/") and f'"{address}"' in offline
    assert any(address.startswith("/static/style.css?v=") for address in kept)
    # So is the outbox with the twin: a form sent with no network is kept and worked out on the phone.
    assert outbox.startswith("/static/outbox.js?v=") and twin.startswith("/static/twin.js?v=")


def test_the_release_changes_with_any_static_file(client: FlaskClient) -> None:
    from flask import current_app

    from scorekeeper.assets import StaticFiles, static_files

    with client.application.app_context():
        files = static_files(current_app)
    changed = StaticFiles({**files.versions, "app.js": "0" * 12}, files.sent)
    assert files.release() != changed.release()
    assert files.release() in client.get("/sw.js").get_data(as_text=True)


def test_the_offline_page_says_what_still_opens(client: FlaskClient) -> None:
    answer = client.get("/offline")
    assert answer.status_code == 200
    assert "No connection" in answer.get_data(as_text=True)


def test_the_tab_icon_asked_for_at_the_root_is_the_apps_icon_kept_a_week(client: FlaskClient) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200 and answer.mimetype == "image/vnd.microsoft.icon"
    assert "public" in answer.headers["Cache-Control"] and "max-age=604800" in answer.headers["Cache-Control"]
    body = answer.get_data()
    reserved, kind, count = struct.unpack("<HHH", body[:6])
    assert (reserved, kind, count) == (0, 1, 1)
    size, offset = struct.unpack("<II", body[14:22])
    icon = client.get("/static/icons/icon-192.png").get_data()
    assert body[offset:offset + size] == icon and png_size(icon) == (body[6], body[7])
    again = client.get("/favicon.ico", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304
