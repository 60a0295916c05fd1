"""Sharing a match or a table: the QR codes of its two links, drawn on the server as SVG, and what `serve` prints."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

import pytest
import segno
from conftest import Actions, watch_id_of
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.cli import announce, phone_addresses

SVG = "{http://www.w3.org/2000/svg}"


def served_matrix(svg: bytes) -> list[list[bool]]:
    """The dark modules the SVG draws: segno writes each row's runs as ``h`` strokes along ``y + .5``."""
    root = ElementTree.fromstring(svg)  # valid XML, or this raises
    assert root.tag == f"{SVG}svg"
    width, height = (int(value) for value in root.attrib["viewBox"].split()[2:])
    dark = [[False] * width for _ in range(height)]
    strokes = [path for path in root.iter(f"{SVG}path") if path.get("stroke")]
    assert len(strokes) == 1
    x = y = 0.0
    for command, numbers in re.findall(r"([MmHh])([-\d.\s]+)", strokes[0].attrib["d"]):
        values = [float(part) for part in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            length = values[0]
            for column in range(int(x), int(x + length)):
                dark[int(y - 0.5)][column] = True
            x += length
    return dark


def segno_matrix(link: str) -> list[list[bool]]:
    code = segno.make(link, error="m", micro=False)
    return [[bool(module) for module in row] for row in code.matrix_iter(scale=1, border=4)]


def test_each_qr_code_holds_the_absolute_link_from_the_base_url(app_at_an_address: Flask) -> None:
    client = app_at_an_address.test_client()
    public_id = Actions(client).create_match()
    sheet = client.get(f"/m/{public_id}/invite").get_data(as_text=True)
    links = {
        "players": f"https://score.example.org/m/{public_id}",
        "watch": f"https://score.example.org/w/{watch_id_of(app_at_an_address, public_id)}",
    }
    for which, link in links.items():
        address = f"/m/{public_id}/qr/{which}.svg"
        assert f'src="{address}"' in sheet
        answer = client.get(address)
        assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
        assert answer.headers["Cache-Control"] == "private, max-age=86400"
        assert served_matrix(answer.get_data()) == segno_matrix(link), which


def test_without_a_base_url_the_qr_code_holds_the_address_the_phone_used(app: Flask, client: FlaskClient,
                                                                          actions: Actions) -> None:
    public_id = actions.create_match()
    answer = client.get(f"/m/{public_id}/qr/players.svg", base_url="http://192.168.1.20:8000")
    assert served_matrix(answer.get_data()) == segno_matrix(f"http://192.168.1.20:8000/m/{public_id}")
    assert served_matrix(answer.get_data()) != segno_matrix(f"http://localhost/m/{public_id}")


def test_a_table_shares_its_link_as_a_match_does(app_at_an_address: Flask) -> None:
    client = app_at_an_address.test_client()
    answer = client.post("/tables/new", data={"name": "Thursdays", "players-0": "Ann", "players-1": "Bob"})
    table_id = answer.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    link = f"https://score.example.org/t/{table_id}"
    share = page[page.index('id="share-table"'):]
    share = share[:share.index("</details>")]
    assert f'<a class="share-link" href="{link}">{link}</a>' in share
    assert f'data-share-url="{link}" data-share-title="Thursdays (table)"' in share
    assert 'data-copy-label="Copy the table&#39;s link">Share the table&#39;s link</button>' in share
    assert f'src="/t/{table_id}/qr.svg"' in share and "phone.js" in page
    qr = client.get(f"/t/{table_id}/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert served_matrix(qr.get_data()) == segno_matrix(link)
    assert client.get("/t/nothing-here/qr.svg").status_code == 404


def test_a_qr_code_of_an_unknown_match_or_link_is_404(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    assert client.get(f"/m/{public_id}/qr/edit.svg").status_code == 404
    assert client.get("/m/nothing-here/qr/players.svg").status_code == 404


def test_the_watch_page_has_no_share_section(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    html = client.get(f"/w/{watch_id_of(app, public_id)}").get_data(as_text=True)
    assert "qr/" not in html and "data-share" not in html


def test_serving_on_every_interface_prints_the_addresses_phones_can_open() -> None:
    addresses = phone_addresses("0.0.0.0", 8123)
    assert all(re.fullmatch(r"http://(\d+\.){3}\d+:8123/", address) for address in addresses)
    assert not any(address.startswith("http://127.") for address in addresses)
    text = announce("0.0.0.0", 8123, "")
    if not addresses:
        pytest.skip("this machine has no network address")
    assert "Phones on the same network open:" in text
    for address in addresses:
        assert f"  {address}" in text.splitlines()
    assert f"Scan to open {addresses[0]}:" in text
    code = text.split(f"Scan to open {addresses[0]}:\n", 1)[1]
    assert len(code.splitlines()) >= 14 and ("█" in code or "▀" in code)  # segno's terminal drawing


def test_serving_on_one_address_says_how_to_let_phones_in() -> None:
    text = announce("127.0.0.1", 8000, "")
    assert "http://127.0.0.1:8000/" in text and "--host 0.0.0.0" in text


def test_with_a_base_url_serve_shows_that_address() -> None:
    text = announce("0.0.0.0", 8000, "https://score.example.org")
    assert "Players open https://score.example.org/" in text
    assert "Scan to open https://score.example.org/:" in text
