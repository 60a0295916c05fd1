"""The watch link: the score sheet for onlookers, with no way to change the match or to reach its players'
link or edit token; and the Share section on the players' sheet that gives both links."""

from __future__ import annotations

import html
import re

from conftest import Actions, watch_id_of
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import reading


def test_a_match_has_its_own_unguessable_watch_id(app: Flask, actions: Actions) -> None:
    ids = [actions.create_match(name=f"m{n}") for n in range(3)]
    watch_ids = [watch_id_of(app, public_id) for public_id in ids]
    assert len(set(watch_ids) | set(ids)) == 6
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", value) for value in watch_ids)  # 128 random bits


def test_the_watch_link_shows_the_sheet_and_nothing_to_change_it_with(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match(name="Club night", sides=("Ann & Bob", "Cy & Di"))
    assert actions.add_deal(public_id, 0, 60, (67, 20)).status_code == 302
    assert actions.add_deal(public_id, 1, 55, (30, 70)).status_code == 302
    with app.app_context():
        row = reading.get_match_or_404(public_id)
        token, watch_id = row.edit_token, row.watch_id
    answer = app.test_client().get(f"/w/{watch_id}")
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert "Club night" in html and "Ann &amp; Bob" in html and 'id="deal-2"' in html
    assert "97" in html and "90" in html  # the running totals
    assert public_id not in html and token not in html
    assert "/m/" not in html and "/api/" not in html
    assert "<form" not in html and "Add deal" not in html and "Edit deal" not in html and "✎" not in html
    assert "House rules" not in html and "Export" not in html and "Share" not in html


def test_the_watch_link_gives_no_right_and_is_not_remembered(app: Flask, actions: Actions) -> None:
    public_id = actions.create_match()
    watcher = app.test_client()
    opened = watcher.get(f"/w/{watch_id_of(app, public_id)}")
    assert opened.status_code == 200 and "Set-Cookie" not in opened.headers
    deal = {"version": "1", "mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": "60",
            "sides-1-total": "20"}
    assert watcher.post(f"/m/{public_id}/deals/new", data=deal).status_code == 403
    assert "Friday" not in watcher.get("/").get_data(as_text=True)


def test_the_watch_page_follows_the_match_and_is_checked_on_every_reload(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match()
    url = f"/w/{watch_id_of(app, public_id)}"
    first = client.get(url)
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    actions.add_deal(public_id, 0, 60, (67, 20))
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and 'id="deal-1"' in again.get_data(as_text=True)
    assert again.headers["ETag"] != first.headers["ETag"]


def test_an_unknown_watch_link_is_404(client: FlaskClient) -> None:
    assert client.get("/w/not-a-real-watch-id").status_code == 404


def test_the_invite_page_shares_the_players_link_and_the_watch_link(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match()
    html = client.get(f"/m/{public_id}/invite").get_data(as_text=True)
    section = html[html.index('<section class="card share"'):]
    section = section[:section.index("</section>")]
    assert f'href="/m/{public_id}"' in section and f'href="/w/{watch_id_of(app, public_id)}"' in section
    assert "Players' link" in html_text(section) and "Watch link" in html_text(section)


def html_text(markup: str) -> str:
    return html.unescape(markup)


def test_the_api_gives_the_watch_link(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    links = client.get(f"/api/v1/matches/{public_id}").get_json()["links"]
    assert links["watch"] == f"/w/{watch_id_of(app, public_id)}"


def test_with_a_base_url_the_shared_links_are_absolute_whatever_the_host(app_at_an_address: Flask) -> None:
    client = app_at_an_address.test_client()
    public_id = Actions(client).create_match()
    watch_id = watch_id_of(app_at_an_address, public_id)
    for host in ("evil.example", "localhost"):
        html = client.get(f"/m/{public_id}/invite", headers={"Host": host}).get_data(as_text=True)
        assert f'href="https://score.example.org/m/{public_id}"' in html
        assert f'href="https://score.example.org/w/{watch_id}"' in html
        assert "evil.example" not in html
