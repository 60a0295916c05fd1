"""The result card: an SVG of a decided match (its name, winner, final totals, deals and day), at the
players' link and the watch link, kept by a phone until the match changes, with every name escaped."""

from __future__ import annotations

from datetime import UTC, datetime
from xml.etree import ElementTree

from conftest import Actions, watch_id_of
from flask import Flask
from flask.testing import FlaskClient

NAME = '<script>alert("x")</script> & Co'
SIDES = ("Ann & <Bob>", "Cy 'n' Di")


def decided_match(actions: Actions) -> str:
    """Double deck to 500: Ann & <Bob> 300 + 250 = 550 against 150, decided at deal 2."""
    public_id = actions.create_match(name=NAME, sides=SIDES)
    assert actions.add_deal(public_id, 0, 60, (300, 100)).status_code == 302
    return public_id


def card_texts(svg: bytes) -> list[str]:
    """The card's lines of text, as an SVG reader gets them (the file must parse as XML)."""
    root = ElementTree.fromstring(svg)
    return ["".join(element.itertext()) for element in root.iter("{http://www.w3.org/2000/svg}text")]


def test_no_card_before_the_match_is_decided(client: FlaskClient, actions: Actions) -> None:
    public_id = decided_match(actions)
    answer = client.get(f"/m/{public_id}/result.svg")
    assert answer.status_code == 404
    assert "not decided" in answer.get_data(as_text=True)
    assert client.get("/m/no-such-match-here-at-all/result.svg").status_code == 404
    assert client.get("/w/no-such-match-here-at-all/result.svg").status_code == 404


def test_the_card_of_a_decided_match_names_the_winner_and_the_totals(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    public_id = decided_match(actions)
    assert actions.add_deal(public_id, 0, 60, (250, 50)).status_code == 302
    answer = client.get(f"/m/{public_id}/result.svg")
    assert answer.status_code == 200
    assert answer.mimetype == "image/svg+xml"
    today = datetime.now(UTC).date()
    assert card_texts(answer.data) == [
        NAME, "★ Ann & <Bob> won", "1. Ann & <Bob>", "550", "2. Cy 'n' Di", "150", f"2 deals · {today:%d %b %Y}",
    ]
    watched = app.test_client().get(f"/w/{watch_id_of(app, public_id)}/result.svg")
    assert watched.status_code == 200 and watched.data == answer.data


def test_every_name_on_the_card_is_escaped(client: FlaskClient, actions: Actions) -> None:
    public_id = decided_match(actions)
    actions.add_deal(public_id, 0, 60, (250, 50))
    svg = client.get(f"/m/{public_id}/result.svg").get_data(as_text=True)
    assert "<script" not in svg and "<Bob>" not in svg and "'n'" not in svg
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co" in svg
    assert "Ann &amp; &lt;Bob&gt;" in svg


def test_a_phone_keeps_the_card_until_the_match_changes(client: FlaskClient, actions: Actions) -> None:
    public_id = decided_match(actions)
    actions.add_deal(public_id, 0, 60, (250, 50))
    first = client.get(f"/m/{public_id}/result.svg")
    etag = first.headers["ETag"]
    again = client.get(f"/m/{public_id}/result.svg", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    actions.add_deal(public_id, 1, 60, (0, 100))  # after the end: the match's version changes
    changed = client.get(f"/m/{public_id}/result.svg", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_the_winner_banner_links_each_page_to_its_own_card(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    public_id = decided_match(actions)
    watch_id = watch_id_of(app, public_id)
    assert "Share the result" not in client.get(f"/m/{public_id}").get_data(as_text=True)
    actions.add_deal(public_id, 0, 60, (250, 50))
    assert f'href="/m/{public_id}/result.svg"' in client.get(f"/m/{public_id}").get_data(as_text=True)
    watched = app.test_client().get(f"/w/{watch_id}").get_data(as_text=True)
    assert f'href="/w/{watch_id}/result.svg"' in watched and public_id not in watched


def test_long_names_are_cut_short_on_the_card(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(name="A" * 60, sides=("B" * 40, "They"))
    actions.add_deal(public_id, 0, 60, (300, 100))
    actions.add_deal(public_id, 0, 60, (250, 50))
    texts = card_texts(client.get(f"/m/{public_id}/result.svg").data)
    assert texts[:3] == ["A" * 33 + "…", "★ " + "B" * 19 + "… won", "1. " + "B" * 21 + "…"]
