"""Home page, starting a match, the score sheet, and the protections around them."""

from __future__ import annotations

import math
import re
from html import unescape

import pytest
from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.forms.house_rules import FIELD_SPECS
from scorekeeper.rules.house_rules import PRESETS, PRESETS_BY_KEY, RULE_SPECS
from scorekeeper.store import reading


def page(client: FlaskClient, url: str) -> str:
    return client.get(url).get_data(as_text=True)


def test_home_without_matches_offers_a_new_one(client: FlaskClient) -> None:
    html = page(client, "/")
    assert "New match" in html
    assert "No matches yet" in html


def test_home_lists_only_the_matches_of_this_device(app: Flask, client: FlaskClient, actions: Actions) -> None:
    mine = actions.create_match(name="Ann's table")
    other_device = app.test_client()
    theirs = Actions(other_device).create_match(name="Bob's table")
    html = page(client, "/")
    assert "Ann&#39;s table" in html and mine in html
    assert "Bob&#39;s table" not in html and theirs not in html
    assert "Ann&#39;s table" not in page(other_device, "/")


def test_home_shows_current_totals(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    assert re.search(r"We <strong>67</strong> · They <strong>20</strong>", page(client, "/"))


def test_opening_a_shared_link_remembers_the_match(app: Flask, actions: Actions) -> None:
    public_id = actions.create_match(name="Shared")
    friend = app.test_client()
    assert "Shared" not in page(friend, "/")
    friend.get(f"/m/{public_id}")
    assert "Shared" in page(friend, "/")


def test_forget_removes_a_match_from_this_device_only(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(name="Old one")
    assert f'href="/m/{public_id}/more"' in page(client, f"/m/{public_id}")
    assert f'href="/m/{public_id}/forget"' in page(client, f"/m/{public_id}/more")
    assert 'method="post"' in page(client, f"/m/{public_id}/forget")  # a confirm page with its form
    client.post(f"/m/{public_id}/forget")
    assert "Old one" not in page(client, "/")
    assert client.get(f"/m/{public_id}").status_code == 200


def test_new_match_form_offers_every_preset_and_every_house_rule(client: FlaskClient) -> None:
    html = page(client, "/matches/new")
    for preset in PRESETS:
        assert preset.label in html
    for spec in FIELD_SPECS:
        assert f'name="rules-{spec.key}"' in html
        assert spec.help in unescape(html)
    # The table's own meld prices are set on their page once the match has started (its house rules).
    assert {spec.key for spec in RULE_SPECS} - {spec.key for spec in FIELD_SPECS} == {"meld_prices"}


def test_new_match_is_created_with_its_sides_players_and_rules(app: Flask, client: FlaskClient) -> None:
    data = form_values(client.get("/matches/new")) | {
        "name": "Friday", "sides-0-name": "Ann & Bob", "sides-0-players": "Ann, Bob",
        "sides-1-name": "Cy & Di", "rules-target": "1000",
    }
    response = client.post("/matches/new", data=data)
    assert response.status_code == 302
    public_id = response.headers["Location"].split("/")[2]  # /m/<id>/invite
    with app.app_context():
        match = reading.to_core(reading.get_match_or_404(public_id))
    assert [side.name for side in match.sides] == ["Ann & Bob", "Cy & Di"]
    assert match.sides[0].players == ("Ann", "Bob")
    assert match.rules.target == 1000 and match.name == "Friday"


def test_new_match_without_a_name_is_named_after_its_sides(app: Flask, client: FlaskClient) -> None:
    data = form_values(client.get("/matches/new")) | {"name": ""}
    public_id = client.post("/matches/new", data=data).headers["Location"].split("/")[2]  # /m/<id>/invite
    with app.app_context():
        assert reading.get_match_or_404(public_id).name.startswith("We v They, ")


def test_bad_house_rule_is_shown_at_its_field_and_typed_values_kept(client: FlaskClient) -> None:
    data = form_values(client.get("/matches/new")) | {"name": "Kept name", "rules-target": "333"}
    response = client.post("/matches/new", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert re.search(r'id="rules-target-error"[^>]*>\s*Play to: &#39;333&#39; is not allowed', html)
    kept = form_values(response)
    assert kept["name"] == "Kept name" and kept["rules-target"] == "333"


def test_two_sides_with_one_name_are_refused(client: FlaskClient) -> None:
    data = form_values(client.get("/matches/new")) | {"sides-0-name": "We", "sides-1-name": "we"}
    response = client.post("/matches/new", data=data)
    assert "Give each side a different name." in response.get_data(as_text=True)


def test_changing_the_preset_without_scripts_takes_its_rules_and_sides(app: Flask, client: FlaskClient) -> None:
    data = form_values(client.get("/matches/new"))  # filled from the first preset
    data["preset"] = "auction-3"
    data["rules-min_bid"] = "60"  # typed by hand: stays
    public_id = client.post("/matches/new", data=data).headers["Location"].split("/")[2]  # /m/<id>/invite
    with app.app_context():
        match = reading.to_core(reading.get_match_or_404(public_id))
    preset = PRESETS_BY_KEY["auction-3"]
    assert [side.name for side in match.sides] == list(preset.side_names)
    assert match.rules == preset.rules.replace(min_bid=60)


def test_two_hand_preset_starts_a_match_without_auction(app: Flask, actions: Actions) -> None:
    public_id = actions.create_match(preset="two-hand", sides=("You", "Me"))
    with app.app_context():
        assert reading.get_match_or_404(public_id).auction is False


def test_score_sheet_before_the_first_deal(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    html = page(client, f"/m/{public_id}")
    assert "No deals yet" in html
    assert "300 to go" in html
    assert f"/m/{public_id}/deals/new" in html
    assert f"/meld?match={public_id}" in html
    assert f"/m/{public_id}/rules" in html


def test_score_sheet_shows_totals_distance_statuses_and_chart(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    actions.add_deal(public_id, 0, 60, (67, 20))
    actions.add_deal(public_id, 1, 55, (38, 51))
    html = page(client, f"/m/{public_id}")
    assert "195 to go" in html and "335 to go" in html  # We 105, They −35
    assert '<span class="status status-set">set</span>' in html
    assert "<svg" in html and html.count("<polyline") == 2
    assert "Deal 2: set" in html


def test_user_text_is_escaped(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(name="<b>bold</b>", sides=("<script>alert(1)</script>", "They"))
    for url in ("/", f"/m/{public_id}", f"/m/{public_id}/deals/new", f"/m/{public_id}/rules"):
        html = page(client, url)
        assert "<script>alert(1)</script>" not in html
        assert "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page(client, f"/m/{public_id}")


def test_user_text_is_escaped_in_the_rows_and_the_chart(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(sides=("<script>alert(1)</script>", "<i>They</i>"))
    actions.add_deal(public_id, 0, 60, (67, 20))
    actions.add_deal(public_id, 1, 55, (38, 51))  # set: a ring on the chart
    actions.add_deal(public_id, 0, 50, (60, 30))  # drawn from the rows of the page before
    html = page(client, f"/m/{public_id}")
    assert "<script>" not in html and "<i>" not in html
    assert html.count('<span class="legend-name">&lt;script&gt;alert(1)&lt;/script&gt;</span>') == 1
    assert html.count('<span class="visually-hidden">&lt;script&gt;alert(1)&lt;/script&gt; bid 60:</span>') == 1
    assert html.count('<span class="visually-hidden">&lt;i&gt;They&lt;/i&gt; bid 55:</span>') == 1


def test_match_links_are_unguessable(app: Flask, actions: Actions) -> None:
    ids = [actions.create_match(name=f"m{n}") for n in range(5)]
    assert len(set(ids)) == 5
    for public_id in ids:
        assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", public_id)
        assert len(public_id) * math.log2(64) >= 128
    with app.app_context():
        row = reading.get_match_or_404(ids[0])
        assert row.edit_token != row.public_id and len(row.edit_token) >= 32


def test_unknown_match_is_404(client: FlaskClient) -> None:
    response = client.get("/m/not-a-real-match-id")
    assert response.status_code == 404
    assert "There is no match at this link." in response.get_data(as_text=True)


def test_form_without_csrf_token_is_refused(database_url: str, tmp_path) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s",
                      "WTF_CSRF_ENABLED": True, "INSTANCE_PATH": str(tmp_path)})
    client = app.test_client()
    response = client.post("/matches/new", data={"preset": "double-500", "name": "x"})
    assert response.status_code == 400
    assert "This form has expired" in response.get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page(client, "/matches/new"))
    assert token
    data = form_values(client.get("/matches/new")) | {"csrf_token": token.group(1)}
    assert client.post("/matches/new", data=data).status_code == 302
    app.extensions["scorekeeper.engine"].dispose()


@pytest.mark.parametrize("url", ["/", "/matches/new"])
def test_pages_are_made_for_phones(client: FlaskClient, url: str) -> None:
    html = page(client, url)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "http://" not in html and "https://" not in html  # nothing loaded from another host


def test_the_api_page_shows_its_own_api_edit_token_and_no_other(app: Flask, client: FlaskClient,
                                                                actions: Actions) -> None:
    mine, theirs = actions.create_match(name="Mine"), actions.create_match(name="Theirs")
    sheet = page(client, f"/m/{mine}")
    more = page(client, f"/m/{mine}/more")
    assert "Use this match from the API" in more and f'href="/m/{mine}/api"' in more
    answer = client.get(f"/m/{mine}/api")
    assert answer.headers["Cache-Control"] == "no-store"
    html = answer.get_data(as_text=True)
    token = re.search(r"<dt>Edit token</dt><dd><code>([^<]+)</code>", html)
    assert token
    with app.app_context():
        assert token.group(1) == reading.get_match_or_404(mine).edit_token
        assert reading.get_match_or_404(theirs).edit_token not in html
        assert token.group(1) not in sheet  # the cached sheet never carries the token
    deal = {"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]}
    headers = {"Authorization": f"Bearer {token.group(1)}"}
    assert client.post(f"/api/v1/matches/{mine}/deals", json=deal, headers=headers).status_code == 201
    assert client.post(f"/api/v1/matches/{theirs}/deals", json=deal, headers=headers).status_code == 403


@pytest.mark.parametrize("preset", PRESETS, ids=lambda preset: preset.key)
def test_the_create_match_helper_applies_the_presets_rules(app: Flask, actions: Actions, preset) -> None:
    public_id = actions.create_match(preset=preset.key, sides=preset.side_names)
    with app.app_context():
        match = reading.to_core(reading.get_match_or_404(public_id))
    assert match.rules == preset.rules
    assert [side.name for side in match.sides] == list(preset.side_names)


@pytest.mark.parametrize("option", ['<option selected value="b">', '<option value="b" selected>',
                                    '<option value="b" selected="selected">'])
def test_form_values_reads_a_selected_option_whatever_its_attribute_order(option: str) -> None:
    from werkzeug.wrappers import Response

    html = f'<form><select name="deck"><option value="a">A</option>{option}B</option></select></form>'
    assert form_values(Response(html))["deck"] == "b"  # type: ignore[arg-type]
    assert form_values(Response(html.replace(" selected", "")))["deck"] == "a"  # type: ignore[arg-type]


def test_a_new_match_opens_on_inviting_the_table_which_is_linked_from_the_top_of_its_sheet(client: FlaskClient) -> None:
    data = form_values(client.get("/matches/new")) | {"name": "Friday"}
    response = client.post("/matches/new", data=data)
    public_id = response.headers["Location"].split("/")[2]
    assert response.headers["Location"] == f"/m/{public_id}/invite"
    invite = client.get(f"/m/{public_id}/invite").get_data(as_text=True)
    assert f'href="/m/{public_id}"' in invite and f'src="/m/{public_id}/qr/players.svg"' in invite
    assert '<details class="qr-fold" open>' in invite and "Share the players&#39; link" in invite
    sheet = client.get(f"/m/{public_id}").get_data(as_text=True)
    assert sheet.index(f'href="/m/{public_id}/invite"') < sheet.index('class="live-sheet"')  # in the top bar
    watch = re.search(r'href="(/w/[^"]+)"', invite).group(1)  # type: ignore[union-attr]
    assert "/invite" not in client.get(watch).get_data(as_text=True)
    assert client.get("/m/no-such-match/invite").status_code == 404
