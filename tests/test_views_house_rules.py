"""A match's house rules: shown with their help, changed through a preview, refused when facts disagree."""

from __future__ import annotations

import re
from html import unescape

from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient
from test_views_deals import enter_worked_sheet

from scorekeeper.rules.house_rules import RULE_SPECS
from scorekeeper.store import reading


def page(client: FlaskClient, url: str) -> str:
    return client.get(url).get_data(as_text=True)


def preview(client: FlaskClient, public_id: str, **changes: str):
    data = form_values(client.get(f"/m/{public_id}/rules"))
    data.update({f"rules-{key}": value for key, value in changes.items()})
    return client.post(f"/m/{public_id}/rules", data=data)


def test_rules_page_shows_every_rule_grouped_with_help(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    html = page(client, f"/m/{public_id}/rules")
    text = unescape(html)
    for spec in RULE_SPECS:
        assert spec.label in text and spec.help in text
    for group in {spec.group for spec in RULE_SPECS}:
        assert f'<legend class="rule-group-title">{group}</legend>' in html
    assert form_values(client.get(f"/m/{public_id}/rules"))["rules-target"] == "300"


def test_change_is_previewed_before_it_is_applied(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    response = preview(client, public_id, target="200")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Preview the change" in html
    assert "We won at deal 5" in html and "We won at deal 3" in html
    with app.app_context():
        assert reading.get_match_or_404(public_id).rules["target"] == 300  # nothing applied yet


def test_play_to_200_moves_the_winner_earlier_and_marks_later_deals(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    confirm = preview(client, public_id, target="200")
    data = form_values(confirm)
    assert data["confirm"] == "yes" and data["rules-target"] == "200"
    response = client.post(f"/m/{public_id}/rules", data=data)
    assert response.status_code == 302
    html = page(client, f"/m/{public_id}")
    assert "We won at deal 3" in html
    assert "1. We 200 · 2. They −20" in html
    for number in (4, 5):
        assert re.search(rf'<tr id="deal-{number}" class="after-end">', html)
    assert html.count("after the end") >= 2
    history = page(client, f"/m/{public_id}/rules")
    assert re.search(r"<strong>Play to</strong>: 300 → 200", history)


def test_preview_lists_the_deals_that_change(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    html = preview(client, public_id, target="200").get_data(as_text=True)
    table = html[html.index("Deals that change"):]
    numbers = re.findall(r'<td class="left num">(\d+)', table)
    assert numbers == ["4", "5"]


def test_bad_rule_value_is_shown_at_its_field(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    response = preview(client, public_id, target="abc", min_bid="70")
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'id="rules-target-error"[^>]*>\s*Play to: &#39;abc&#39; is not allowed', html)
    assert form_values(response)["rules-min_bid"] == "70"


def test_change_that_recorded_deals_contradict_is_refused_naming_them(
    client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    data = actions.deal_form(public_id) | {
        "mode": "detail", "bidder": "0", "bid": "50", "sides-0-hands-0-sets-aces_around": "3",
        "sides-0-tricks": "30", "sides-1-tricks": "18", "last_trick": "0",
    }
    assert client.post(f"/m/{public_id}/deals/new", data=data).status_code == 302
    response = preview(client, public_id, deck="single", meld_table="single-classic")
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "deal 2:" in html and "cannot change" in html
    assert f'href="/m/{public_id}/deals/2/edit">deal 2</a>' in html


def test_unchanged_rules_say_so(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    response = preview(client, public_id)
    assert response.status_code == 302
    assert "The house rules are unchanged." in page(client, response.headers["Location"])


def test_stale_rules_change_is_refused_and_the_new_values_kept(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    data = form_values(preview(client, public_id, target="200"))
    actions.add_deal(public_id, 1, 60, (10, 70))
    response = client.post(f"/m/{public_id}/rules", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "deal 6 was added on another phone" in html
    assert form_values(response)["rules-target"] == "200"


def test_numbers_that_cannot_be_repriced_are_marked_as_entered(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    assert actions.add_detailed_deal(public_id).status_code == 302
    assert "Kept as entered" not in page(client, f"/m/{public_id}")
    confirm = form_values(preview(client, public_id, trick_scale="classic"))
    assert client.post(f"/m/{public_id}/rules", data=confirm).status_code == 302
    html = page(client, f"/m/{public_id}")
    assert "Kept as entered" in html
    assert re.search(r'id="deal-1".*?class="mark"', html, re.S)
    edit = page(client, f"/m/{public_id}/deals/1/edit")
    assert "entered under other house rules" in edit
