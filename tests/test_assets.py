"""Pages compressed for phones that accept it; static files at content-hashed, immutable addresses."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

from conftest import Actions
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.assets import COMPRESS_MIN_BYTES, is_bundle, with_imports
from scorekeeper.store import reading

STATIC = Path(__file__).resolve().parent.parent / "static"


def stylesheet_address(html: str) -> str:
    found = re.search(r'<link rel="stylesheet" href="([^"]+)"', html)
    assert found, "the page links no stylesheet"
    return found.group(1)


def test_a_static_address_names_the_file_content(client: FlaskClient) -> None:
    address = stylesheet_address(client.get("/meld").get_data(as_text=True))
    digest = hashlib.sha256((STATIC / "base.css").read_bytes()).hexdigest()[:12]
    assert address.endswith(f"/static/base.css?v={digest}")


def test_a_stylesheet_is_sent_with_the_one_it_imports_under_the_address_of_both(client: FlaskClient) -> None:
    """style.css imports base.css: one request for the page, and a change to either gives a new address."""
    address = stylesheet_address(client.get("/").get_data(as_text=True))
    sent = client.get(address).get_data()
    frame = client.get("/static/base.css").get_data()
    assert address.split("?")[0] == "/static/style.css" and b"@import" not in sent
    assert sent.startswith(frame) and len(sent) > len(frame)
    assert address.endswith("?v=" + hashlib.sha256(sent).hexdigest()[:12])


def test_a_current_static_address_is_kept_for_a_year(client: FlaskClient) -> None:
    address = stylesheet_address(client.get("/").get_data(as_text=True))
    answer = client.get(address)
    assert answer.status_code == 200 and "immutable" in answer.headers["Cache-Control"]
    assert "max-age=31536000" in answer.headers["Cache-Control"]


def test_an_old_static_address_is_not_kept_for_ever(client: FlaskClient) -> None:
    answer = client.get("/static/style.css?v=000000000000")
    assert answer.status_code == 200 and "immutable" not in answer.headers.get("Cache-Control", "")


def test_pages_are_compressed_when_the_phone_accepts_it(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    for address in ("/", "/matches/new", f"/m/{public_id}/deals/new", f"/m/{public_id}/rules", "/rules", "/meld"):
        plain = client.get(address)
        packed = client.get(address, headers={"Accept-Encoding": "gzip"})
        assert plain.status_code == packed.status_code == 200, address
        assert "Content-Encoding" not in plain.headers, address
        assert packed.headers["Content-Encoding"] == "gzip", address
        assert "Accept-Encoding" in packed.headers["Vary"], address
        unpacked = gzip.decompress(packed.get_data())
        assert len(packed.get_data()) < len(unpacked), address
        assert without_tokens(unpacked) == without_tokens(plain.get_data()), address


def without_tokens(page: bytes) -> bytes:
    """The page without what differs on each drawing: the form's CSRF token and its write key."""
    return re.sub(rb'(name="(?:csrf_token|write_key)" type="hidden" value=)"[^"]*"', rb"\1", page)


def test_the_score_sheet_is_compressed_once(client: FlaskClient, actions: Actions, app: Flask) -> None:
    public_id = actions.create_match()
    packed = client.get(f"/m/{public_id}", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert b"<html" in gzip.decompress(packed.get_data())


def test_every_html_answer_is_compressed_error_pages_too(app: Flask, client: FlaskClient, actions: Actions) -> None:
    """Every page a phone may be sent (each route that answers HTML, the error pages, the More page and the
    sheet's live part) comes compressed: all are over the minimum size (``assets.COMPRESS_MIN_BYTES``)."""
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, [60, 20])
    with app.app_context():
        watch_id = reading.get_match_or_404(public_id).watch_id
    pages = {
        "/": 200, "/matches/new": 200, f"/m/{public_id}": 200, f"/m/{public_id}/live": 200,
        f"/m/{public_id}/more": 200, f"/m/{public_id}/api": 200, f"/m/{public_id}/forget": 200,
        f"/m/{public_id}/deals/1/edit": 200, f"/w/{watch_id}": 200, f"/w/{watch_id}/live": 200,
        "/import": 200, "/rules": 200, "/meld": 200, "/m/no-such-match": 404, "/no/such/page": 404,
        f"/m/{public_id}/deals/9/edit": 404,
    }
    for address, status in pages.items():
        packed = client.get(address, headers={"Accept-Encoding": "gzip"})
        assert packed.status_code == status, address
        assert packed.mimetype == "text/html", address
        assert packed.headers.get("Content-Encoding") == "gzip", address
        assert len(gzip.decompress(packed.get_data())) >= COMPRESS_MIN_BYTES, address
    refused = app.test_client().post(f"/m/{public_id}/deals/new", data={}, headers={"Accept-Encoding": "gzip"})
    assert refused.status_code == 403 and refused.headers.get("Content-Encoding") == "gzip"


def test_every_static_file_is_linked_at_its_immutable_address(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True) + client.get("/matches/new").get_data(as_text=True)
    addresses = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert {address.split("?")[0] for address in addresses} >= {"/static/style.css", "/static/app.js",
                                                                "/static/new_match.js"}
    for address in addresses:
        name = address.split("?")[0].removeprefix("/static/")
        source = (STATIC / name).read_bytes()
        named = client.get(address).get_data() if is_bundle(STATIC / name, source.decode()) else source
        assert address.endswith("?v=" + hashlib.sha256(named).hexdigest()[:12])
        assert client.get(address).headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_the_stylesheet_and_scripts_are_sent_without_comments(client: FlaskClient) -> None:
    for name in ("style.css", "faces.css", "app.js", "phone.js"):
        source = (STATIC / name).read_text(encoding="utf-8")
        source = with_imports(STATIC, source) if name.endswith(".css") else source
        answer = client.get(f"/static/{name}", headers={"Accept-Encoding": "identity"})
        sent = answer.get_data(as_text=True)
        assert answer.status_code == 200 and 0 < len(sent) < len(source) * 0.9, name
        assert "/*" not in sent and "\n//" not in sent, name
        assert answer.mimetype == ("text/css" if name.endswith(".css") else "text/javascript")
        etag = answer.headers["ETag"]
        assert client.get(f"/static/{name}", headers={"If-None-Match": etag}).status_code == 304
