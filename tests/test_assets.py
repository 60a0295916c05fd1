"""Pages compressed for phones that accept it; static files at content-hashed, immutable addresses."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

from conftest import Actions
from flask import Flask
from flask.testing import FlaskClient

STATIC = Path(__file__).resolve().parent.parent / "static"


def stylesheet_address(html: str) -> str:
    found = re.search(r'<link rel="stylesheet" href="([^"]+)"', html)
    assert found, "the page links no stylesheet"
    return found.group(1)


def test_a_static_address_names_the_file_content(client: FlaskClient) -> None:
    address = stylesheet_address(client.get("/").get_data(as_text=True))
    digest = hashlib.sha256((STATIC / "style.css").read_bytes()).hexdigest()[:12]
    assert address.endswith(f"/static/style.css?v={digest}")


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
