"""Bidding out and forced bids in the deal form (RULES.md "More house rules"): offered when the rule is on,
kept with the deal, shown on the sheet's row; the same through the API."""

from __future__ import annotations

from html import unescape

from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient
from test_api import Created

from scorekeeper.store import reading


def stored_deals(app: Flask, public_id: str) -> list[dict[str, object]]:
    with app.app_context():
        return [reading.deal_json(deal) for deal in reading.get_match_or_404(public_id).deals]


def sheet_html(client: FlaskClient, public_id: str) -> str:
    return unescape(client.get(f"/m/{public_id}").get_data(as_text=True))


def test_the_form_offers_each_box_only_when_its_rule_is_on(client: FlaskClient, actions: Actions) -> None:
    plain = actions.create_match()
    html = client.get(f"/m/{plain}/deals/new").get_data(as_text=True)
    assert 'name="out"' not in html and 'name="forced"' not in html
    bidding_out = actions.create_match(going_out="announce", all_pass="forced")
    html = client.get(f"/m/{bidding_out}/deals/new").get_data(as_text=True)
    assert "Announced going out" in html and "Forced bid: all passed" in html
    assert 'data-forced="50 "' in html  # the minimum bid; no dealer known in a match without players


def test_announced_going_out_is_kept_and_shown_and_ends_the_match(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    """Play to 100, bidding out: We bid 60 and take 110 without announcing: play on; next deal We bid 50,
    announce and take 60: out at 170."""
    public_id = actions.create_match(target=100, going_out="announce")
    assert actions.add_deal(public_id, 0, 60, [110, 20]).status_code == 302
    assert "won" not in sheet_html(client, public_id).split("<table", 1)[1].split("</table>", 1)[0]
    assert actions.add_deal(public_id, 0, 50, [60, 10], {"out": "y"}).status_code == 302
    deals = stored_deals(app, public_id)
    assert "out" not in deals[0] and deals[1]["out"] is True
    html = sheet_html(client, public_id)
    assert html.count("going out") == 1 and "We won" in html
    assert form_values(client.get(f"/m/{public_id}/deals/2/edit")).get("out") == "y"  # kept when corrected
    assert "out" not in form_values(client.get(f"/m/{public_id}/deals/1/edit"))


def test_a_forced_bid_left_empty_is_the_minimum_for_the_dealers_side(app: Flask, client: FlaskClient) -> None:
    """Cy (of They) deals, everybody passes: "forced bid" with bidder and bid left empty saves They at 50."""
    data = form_values(client.get("/matches/new?preset=double-500"))
    data.update({"name": "Forced", "preset": "double-500", "rules_from": "double-500", "rules-all_pass": "forced",
                 "sides-0-name": "We", "sides-0-players": "Ann, Bob", "sides-1-name": "They",
                 "sides-1-players": "Cy, Di"})
    created = client.post("/matches/new", data=data)
    assert created.status_code == 302, created.get_data(as_text=True)
    public_id = created.headers["Location"].split("/")[2]  # /m/<id>/invite
    form = form_values(client.get(f"/m/{public_id}/deals/new"))
    form.update({"mode": "quick", "dealt_by": "Cy", "forced": "y", "sides-0-total": "20", "sides-1-total": "62"})
    form.pop("bidder", None)
    response = client.post(f"/m/{public_id}/deals/new", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)
    deal = stored_deals(app, public_id)[0]
    assert (deal["bidder"], deal["bid"], deal["forced"]) == (1, 50, True)
    assert "forced" in sheet_html(client, public_id)
    new_form = client.get(f"/m/{public_id}/deals/new").get_data(as_text=True)  # the next dealer sits on We
    assert 'data-forced="50 0"' in new_form


def test_out_and_forced_through_the_api(client: FlaskClient) -> None:
    match = Created(client, {"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}],
                             "rules": {"going_out": "announce", "all_pass": "forced", "target": 100}})
    answer = match.send("POST", "/deals", {"bidder": 0, "bid": 50, "out": True, "forced": True,
                                           "sides": [{"total": 120}, {"total": 10}]})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert body["match"]["deals"][0]["out"] is True and body["match"]["deals"][0]["forced"] is True
    assert body["sheet"]["winner"] == 0
    html = unescape(client.get(f"/m/{match.id}").get_data(as_text=True))
    assert "going out" in html and "forced" in html
