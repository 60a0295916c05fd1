"""The live sheet: a phone showing the score sheet asks for its live part with the ETag of the version it
shows, gets 304 while nothing changed and the new totals and rows once another phone saved a deal."""

from __future__ import annotations

import re

from conftest import Actions
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import reading


def live_part(html: str) -> tuple[str, str]:
    """The live address and ETag the sheet page gives its script."""
    found = re.search(r'data-live-url="([^"]+)" data-etag="([^"]+)"', html)
    assert found is not None, "the sheet has no live part"
    return found.group(1), f'W/"{found.group(2)}"'


def test_the_live_part_is_304_until_another_phone_saves_a_deal(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(sides=("We", "They"))
    actions.add_deal(public_id, 0, 60, (67, 20))
    url, etag = live_part(client.get(f"/m/{public_id}").get_data(as_text=True))
    assert url == f"/m/{public_id}/live"
    other_phone = app.test_client()
    assert other_phone.get(f"/m/{public_id}").status_code == 200  # opens the players' link

    unchanged = client.get(url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.get_data() == b""

    assert Actions(other_phone).add_deal(public_id, 1, 55, (30, 70)).status_code == 302
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["Cache-Control"] == "private, no-cache"
    new_etag = changed.headers["ETag"]
    assert new_etag != etag
    html = changed.get_data(as_text=True)
    assert 'id="deal-2"' in html
    assert "<html" not in html and "97" in html and "90" in html  # the new running totals
    assert "+ Add deal 3" in html
    assert client.get(url, headers={"If-None-Match": new_etag}).status_code == 304


def test_the_live_part_is_the_one_on_the_page(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    client.get(f"/m/{public_id}")  # the sheet just after the save, with its notice
    page = client.get(f"/m/{public_id}", headers={"Accept-Encoding": "identity"}).get_data(as_text=True)
    part = client.get(f"/m/{public_id}/live", headers={"Accept-Encoding": "identity"}).get_data(as_text=True)
    assert part.strip() and part in page


def test_the_live_part_is_compressed_for_phones_that_accept_it(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    answer = client.get(f"/m/{public_id}/live", headers={"Accept-Encoding": "gzip"})
    assert answer.headers["Content-Encoding"] == "gzip"
    assert answer.headers["Vary"] == "Accept-Encoding"


def test_the_watch_page_has_a_live_part_that_never_leads_to_the_players_link(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    with app.app_context():
        watch_id = reading.get_match_or_404(public_id).watch_id
    watcher = app.test_client()
    url, etag = live_part(watcher.get(f"/w/{watch_id}").get_data(as_text=True))
    assert url == f"/w/{watch_id}/live"
    assert watcher.get(url, headers={"If-None-Match": etag}).status_code == 304
    actions.add_deal(public_id, 0, 60, (67, 20))
    changed = watcher.get(url, headers={"If-None-Match": etag})
    html = changed.get_data(as_text=True)
    assert changed.status_code == 200 and 'id="deal-1"' in html
    assert public_id not in html and "/m/" not in html and "✎" not in html
    assert "Set-Cookie" not in changed.headers


def test_a_watch_page_is_drawn_once_per_version(app: Flask, actions: Actions) -> None:
    public_id = actions.create_match()
    with app.app_context():
        watch_id = reading.get_match_or_404(public_id).watch_id
    first = app.test_client().get(f"/w/{watch_id}", headers={"Accept-Encoding": "identity"})
    second = app.test_client().get(f"/w/{watch_id}", headers={"Accept-Encoding": "identity"})
    assert first.get_data() == second.get_data()
    assert first.headers["ETag"] == second.headers["ETag"]


def test_a_stale_or_odd_etag_gets_the_live_part(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    for etag in ('W/"0-old"', "*not an etag", "x" * 5000, ""):
        answer = client.get(f"/m/{public_id}/live", headers={"If-None-Match": etag})
        assert answer.status_code == 200, etag


def test_unknown_matches_have_no_live_part(client: FlaskClient) -> None:
    assert client.get("/m/nope/live").status_code == 404
    assert client.get("/w/nope/live").status_code == 404
    assert client.get("/m/" + "A" * 22 + "/live").status_code == 404


def test_a_poll_with_the_watch_etag_on_the_players_link_gets_the_part(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    with app.app_context():
        watch_id = reading.get_match_or_404(public_id).watch_id
    _, watch_etag = live_part(app.test_client().get(f"/w/{watch_id}").get_data(as_text=True))
    assert client.get(f"/m/{public_id}/live", headers={"If-None-Match": watch_etag}).status_code == 200
