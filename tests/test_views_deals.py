"""Entering, correcting and deleting deals through the deal form."""

from __future__ import annotations

import re

import pytest
from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import reading, writing

# The worked score sheet of RULES.md: (bidder, bid, bidders take, defenders take), play to 300.
WORKED_SHEET = [(0, 60, 67, 20), (1, 55, 51, 38), (0, 80, 95, 15), (1, 70, 84, 30), (0, 75, 88, 12)]


def side_totals(bidder: int, bidders_take: int, defenders_take: int) -> tuple[int, int]:
    return (bidders_take, defenders_take) if bidder == 0 else (defenders_take, bidders_take)


def enter_worked_sheet(actions: Actions, public_id: str) -> None:
    for bidder, bid, took, others in WORKED_SHEET:
        response = actions.add_deal(public_id, bidder, bid, side_totals(bidder, took, others))
        assert response.status_code == 302, response.get_data(as_text=True)


def page(client: FlaskClient, url: str) -> str:
    return client.get(url).get_data(as_text=True)


def test_worked_sheet_entered_through_the_form(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    html = page(client, f"/m/{public_id}")
    assert "We won at deal 5" in html
    assert "1. We 318 · 2. They 76" in html
    assert re.search(r'id="deal-2".*?−35', html, re.S)


def test_first_deal_needs_only_bidder_bid_and_two_numbers(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    start = actions.deal_form(public_id)
    assert start["mode"] == "quick"
    sent = {"csrf_token": "", "version": start["version"], "mode": start["mode"],
            "bidder": "0", "bid": "60", "sides-0-total": "67", "sides-1-total": "20"}
    response = client.post(f"/m/{public_id}/deals/new", data=sent)
    assert response.status_code == 302
    assert "We bid 60:" in page(client, f"/m/{public_id}")


def bid_chips(client: FlaskClient, public_id: str) -> list[int]:
    html = client.get(f"/m/{public_id}/deals/new").get_data(as_text=True)
    return [int(value) for value in re.findall(r'data-bid="(\d+)"', html)]


def test_new_deal_starts_with_an_empty_bid_and_offers_the_minimum_and_the_last_bids(
    client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match(min_bid=50)
    assert actions.deal_form(public_id)["bid"] == ""
    assert bid_chips(client, public_id) == [50]
    for bid in (70, 60, 70, 50, 65, 80, 75):
        actions.add_deal(public_id, 0, bid, (bid + 10, 20))
    assert actions.deal_form(public_id)["bid"] == ""
    assert bid_chips(client, public_id) == [50, 65, 70, 75, 80]  # the minimum and the last four distinct bids


def test_new_deal_uses_the_way_the_last_deal_was_entered(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    assert actions.add_detailed_deal(public_id).status_code == 302
    assert actions.deal_form(public_id)["mode"] == "detail"


def test_unreadable_bid_is_shown_at_the_field_and_typed_values_are_kept(
    client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match()
    response = actions.add_deal(public_id, 0, None, (67, 20), {"bid": "sixty"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'id="bid-error"[^>]*>\s*&#39;sixty&#39; is not a whole number', html)
    assert "Nothing was saved yet" in html
    kept = form_values(response)
    assert kept["bid"] == "sixty" and kept["sides-0-total"] == "67" and kept["sides-1-total"] == "20"
    assert kept["bidder"] == "0"
    assert store_deal_count(client, public_id) == 0


def store_deal_count(client: FlaskClient, public_id: str) -> int:
    html = page(client, f"/m/{public_id}")
    return len(re.findall(r'<tr id="deal-\d+"', html))


def test_bid_below_the_minimum_is_refused_at_the_bid_field(actions: Actions) -> None:
    public_id = actions.create_match(min_bid=50)
    response = actions.add_deal(public_id, 0, 40, (67, 20))
    assert response.status_code == 422
    assert re.search(r'id="bid-error"[^>]*>\s*Bid 40 is below the minimum opening bid of 50',
                     response.get_data(as_text=True))


@pytest.mark.parametrize(("fields", "field_id", "fragment"), [
    ({"bidder": ""}, "bidder-error", "Who won the bid?"),
    ({"sides-1-total": ""}, "sides-1-total-error", "Type the side"),
    ({"sides-0-total": "6x"}, "sides-0-total-error", "is not a whole number"),
    ({"sides-0-total": "1.5"}, "sides-0-total-error", "is not a whole number"),
    # A set written as on a paper sheet: refused, saying what to type instead (RULES.md: the bidders'
    # number is what they took; below the bid they are set).
    ({"sides-0-total": "-60"}, "sides-0-total-error", "Type what the bidders took, not the score: any number "
                                                      "below 60 means they are set, and the sheet shows \u221260"),
    ({"sides-0-total": "\u221260"}, "sides-0-total-error", "Type what the bidders took, not the score"),
    ({"sides-0-total": "\u2013 60"}, "sides-0-total-error", "Type what the bidders took, not the score"),
    ({"sides-1-total": "\u221220"}, "sides-1-total-error", "Type what the side took (0 if nothing)"),
])
def test_missing_or_bad_numbers_are_named_at_their_field(
    actions: Actions, fields: dict[str, str], field_id: str, fragment: str
) -> None:
    public_id = actions.create_match()
    response = actions.add_deal(public_id, 0, 60, (67, 20), fields)
    assert response.status_code == 422
    assert re.search(rf'id="{field_id}"[^>]*>[^<]*{re.escape(fragment)}', response.get_data(as_text=True))


def test_trick_points_that_do_not_add_up_are_shown_at_the_tricks(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {
        "mode": "detail", "bidder": "0", "bid": "50",
        "sides-0-hands-0-meld": "20", "sides-0-tricks": "30", "sides-1-hands-0-meld": "4", "sides-1-tricks": "10",
        "last_trick": "0",
    }
    response = client.post(f"/m/{public_id}/deals/new", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'id="sides-1-tricks-error"[^>]*>\s*Trick points add up to 40', html)
    assert form_values(response)["sides-0-hands-0-meld"] == "20"


def test_meld_counted_in_sets_is_priced_by_the_match(client: FlaskClient, actions: Actions, app: Flask) -> None:
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {
        "mode": "detail", "bidder": "0", "bid": "50", "trump": "H",
        "sides-0-hands-0-sets-run": "1", "sides-0-hands-0-sets-pinochle": "1", "sides-0-tricks": "30",
        "sides-1-hands-0-meld": "4", "sides-1-tricks": "18", "last_trick": "0",
    }
    assert client.post(f"/m/{public_id}/deals/new", data=data).status_code == 302
    with app.app_context():
        row = reading.get_match_or_404(public_id)
        assert row.deals[0].sides[0] == {"meld": {"run": 1, "pinochle": 1}, "tricks": 30, "last_trick": True}
    # run 15 + pinochle 4 + 30 tricks + 2 for the last trick = 51 on the default table
    assert re.search(r'id="deal-1".*?\+51', page(client, f"/m/{public_id}"), re.S)


def test_meld_typed_and_counted_is_refused(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {
        "mode": "detail", "bidder": "0", "bid": "50", "sides-0-hands-0-meld": "20", "sides-0-hands-0-sets-run": "1",
        "sides-0-tricks": "30", "sides-1-tricks": "18", "last_trick": "0",
    }
    response = client.post(f"/m/{public_id}/deals/new", data=data)
    assert response.status_code == 422
    assert "Type the meld or count it, not both" in response.get_data(as_text=True)


def test_meld_calculator_result_fills_the_side(actions: Actions) -> None:
    public_id = actions.create_match()
    values = actions.deal_form_url(f"/m/{public_id}/deals/new?side=1&sets=run:1,pinochle:2")
    assert values["mode"] == "detail"
    assert values["sides-1-hands-0-sets-run"] == "1" and values["sides-1-hands-0-sets-pinochle"] == "2"
    assert values["sides-0-hands-0-sets-run"] == "0"


def test_all_passed_is_recorded(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {"passed": "y"}
    assert client.post(f"/m/{public_id}/deals/new", data=data).status_code == 302
    html = page(client, f"/m/{public_id}")
    assert re.search(r'id="deal-1".*?class="status status-passed">passed<', html, re.S)


def test_dead_contract_is_offered_a_throw_in(client: FlaskClient, actions: Actions, app: Flask) -> None:
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {
        "mode": "detail", "bidder": "0", "bid": "90",
        "sides-0-hands-0-meld": "10", "sides-0-tricks": "30", "sides-1-hands-0-meld": "8", "sides-1-tricks": "18",
        "last_trick": "1",
    }
    response = client.post(f"/m/{public_id}/deals/new", data=data)
    assert "dead=1" in response.headers["Location"]
    sheet = client.get(response.headers["Location"])
    html = sheet.get_data(as_text=True)
    assert "the contract was dead" in html
    offer = re.search(r'action="([^"]*throw-in)".*?name="version" value="(\d+)"', html, re.S)
    assert offer
    assert client.post(offer.group(1), data={"version": offer.group(2)}).status_code == 302
    with app.app_context():
        deal = reading.get_match_or_404(public_id).deals[0]
        assert deal.thrown_in and deal.sides == [{"meld": 10}, {"meld": 8}]
    assert 'class="status status-thrown_in">thrown in<' in page(client, f"/m/{public_id}")


def test_a_saved_deal_that_was_not_dead_gets_no_offer(actions: Actions) -> None:
    public_id = actions.create_match()
    assert "dead=" not in actions.add_deal(public_id, 0, 60, (67, 20)).headers["Location"]


def test_edit_shows_the_deal_and_saves_the_correction(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    enter_worked_sheet(actions, public_id)
    values = actions.deal_form(public_id, 2)
    assert (values["bidder"], values["bid"], values["sides-1-total"]) == ("1", "55", "51")
    values["sides-1-total"] = "56"
    response = client.post(f"/m/{public_id}/deals/2/edit", data=values)
    assert response.status_code == 302
    html = page(client, f"/m/{public_id}")
    assert re.search(r'id="deal-2".*?<span class="bid">55</span>\s*<span class="status status-made">', html, re.S)


def test_stale_edit_is_refused_with_what_changed_and_nothing_lost(
    client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    mine = actions.deal_form(public_id, 1)
    other_phone = actions.deal_form(public_id, 1) | {"sides-1-total": "25"}
    assert client.post(f"/m/{public_id}/deals/1/edit", data=other_phone).status_code == 302

    mine["sides-0-total"] = "70"
    response = client.post(f"/m/{public_id}/deals/1/edit", data=mine)
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "deal 1 was changed on another phone" in html
    assert "Deal 1 now reads: We bid 60; We 67, They 25" in html
    kept = form_values(response)
    assert kept["sides-0-total"] == "70"
    # Saving again after reading the message keeps what this phone typed.
    assert client.post(f"/m/{public_id}/deals/1/edit", data=kept).status_code == 302
    assert re.search(r'id="deal-1".*?70.*?20', page(client, f"/m/{public_id}"), re.S)


def bids_and_totals(app: Flask, public_id: str) -> list[tuple[int, list[int]]]:
    with app.app_context():
        deals = [reading.deal_json(deal) for deal in reading.get_match_or_404(public_id).deals]
    return [(deal["bid"], [side["total"] for side in deal["sides"]]) for deal in deals]


@pytest.mark.parametrize(("corrected", "deleted", "said"), [
    (3, 1, "deal 3 is now deal 2. Nothing was saved; open deal 2 on the sheet to correct it."),
    (5, 1, "deal 5 is now deal 4. Nothing was saved; open deal 4 on the sheet to correct it."),  # no deal 5 now
    (3, 3, "deal 3 was deleted on another phone. Nothing was saved."),
])
def test_a_correction_of_a_deal_moved_or_deleted_meanwhile_is_never_saved_over_another(
    client: FlaskClient, actions: Actions, app: Flask, corrected: int, deleted: int, said: str
) -> None:
    public_id = actions.create_match()
    enter_worked_sheet(actions, public_id)
    mine = actions.deal_form(public_id, corrected) | {"sides-0-total": "90"}
    other_phone = form_values(client.get(f"/m/{public_id}/deals/{deleted}/delete"))
    assert client.post(f"/m/{public_id}/deals/{deleted}/delete", data=other_phone).status_code == 302
    before = bids_and_totals(app, public_id)
    for _ in range(2):  # the message read, Save tapped again: still not saved over the deal now at its number
        response = client.post(f"/m/{public_id}/deals/{corrected}/edit", data=mine)
        assert response.status_code == 409
        assert said in response.get_data(as_text=True)
    assert bids_and_totals(app, public_id) == before


def test_stale_new_deal_says_a_deal_was_added(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    mine = actions.deal_form(public_id) | {"bidder": "1", "bid": "55", "sides-0-total": "38",
                                           "sides-1-total": "51"}
    actions.add_deal(public_id, 0, 60, (67, 20))
    response = client.post(f"/m/{public_id}/deals/new", data=mine)
    assert response.status_code == 409
    assert "deal 1 was added on another phone" in response.get_data(as_text=True)
    assert form_values(response)["sides-1-total"] == "51"


def test_delete_asks_first_then_removes_and_renumbers(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    enter_worked_sheet(actions, public_id)
    confirm = client.get(f"/m/{public_id}/deals/2/delete")
    assert "Delete deal 2?" in confirm.get_data(as_text=True)
    assert "They bid 55; We 38, They 51" in confirm.get_data(as_text=True)
    response = client.post(f"/m/{public_id}/deals/2/delete", data=form_values(confirm))
    assert response.status_code == 302
    html = page(client, f"/m/{public_id}")
    assert len(re.findall(r'<tr id="deal-\d+"', html)) == 4
    assert re.search(r'id="deal-2".*?We bid 80:', html, re.S)


def test_deal_that_does_not_exist_is_404(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    assert client.get(f"/m/{public_id}/deals/1/edit").status_code == 404
    assert client.get("/m/nope/deals/new").status_code == 404


def test_post_without_version_is_refused(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {"bidder": "0", "bid": "60", "sides-0-total": "1",
                                           "sides-1-total": "2"}
    del data["version"]
    assert client.post(f"/m/{public_id}/deals/new", data=data).status_code == 400


def test_two_hand_match_has_no_bidder(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(preset="two-hand", sides=("You", "Me"))
    form = client.get(f"/m/{public_id}/deals/new").get_data(as_text=True)
    assert 'name="bidder"' not in form
    response = actions.add_deal(public_id, None, None, (120, 90))
    assert response.status_code == 302
    assert re.search(r'id="deal-1".*?120.*?90', page(client, f"/m/{public_id}"), re.S)


def test_new_deal_after_the_end_says_the_match_is_decided(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    assert "The match was decided" not in page(client, f"/m/{public_id}/deals/new")
    enter_worked_sheet(actions, public_id)
    assert "The match was decided at deal 5" in page(client, f"/m/{public_id}/deals/new")


def test_editing_keeps_facts_the_form_cannot_show(client: FlaskClient, actions: Actions, app: Flask) -> None:
    public_id = actions.create_match()
    with app.app_context():
        row = reading.get_match_or_404(public_id)
        writing.add_deal(reading.load_match(public_id), {"bidder": 0, "bid": 50, "trump": "H", "sides": [
            {"meld": {"cards": ["AH", "10H", "KH", "QH", "JH"]}, "tricks": {"counters": 30}, "last_trick": True},
            {"meld": 4, "tricks": 18}]}, row.version)
    form = client.get(f"/m/{public_id}/deals/1/edit")
    assert "Partner 1's meld by cards: run 15 = 15 (♥ trump)." in form.get_data(as_text=True)
    assert "Tricks kept as stored: 30 counters" in form.get_data(as_text=True)
    values = form_values(form) | {"bid": "55"}
    assert client.post(f"/m/{public_id}/deals/1/edit", data=values).status_code == 302
    with app.app_context():
        deal = reading.get_match_or_404(public_id).deals[0]
        assert deal.bid == 55
        assert deal.sides[0] == {"meld": {"cards": ["AH", "10H", "KH", "QH", "JH"]},
                                 "tricks": {"counters": 30}, "last_trick": True}


def test_throw_in_on_an_old_version_is_refused_with_a_message(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    data = actions.deal_form(public_id) | {
        "mode": "detail", "bidder": "0", "bid": "90",
        "sides-0-hands-0-meld": "10", "sides-0-tricks": "30", "sides-1-hands-0-meld": "8", "sides-1-tricks": "18",
        "last_trick": "1",
    }
    sheet_url = client.post(f"/m/{public_id}/deals/new", data=data).headers["Location"]
    offer = re.search(r'action="([^"]*throw-in)".*?name="version" value="(\d+)"', page(client, sheet_url), re.S)
    assert offer
    actions.add_deal(public_id, 1, 60, (10, 70))
    response = client.post(offer.group(1), data={"version": offer.group(2)}, follow_redirects=True)
    html = response.get_data(as_text=True)
    assert "deal 2 was added on another phone" in html and "Deal 1 was left as it is." in html
    assert 'class="status status-thrown_in"' not in html


def test_stale_new_deal_is_dealt_by_the_player_after_the_deal_added(client: FlaskClient, actions: Actions) -> None:
    made = client.post("/api/v1/matches", json={
        "format": "pinochle-match/1", "name": "Seated", "deals": [],
        "sides": [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}]})
    public_id = made.get_json()["id"]
    mine = actions.deal_form(public_id) | {"bidder": "1", "bid": "55", "sides-0-total": "38", "sides-1-total": "51"}
    assert mine["dealt_by"] == "Ann"
    actions.add_deal(public_id, 0, 60, (67, 20))  # dealt by Ann, on another phone
    response = client.post(f"/m/{public_id}/deals/new", data=mine)
    assert response.status_code == 409
    kept = form_values(response)
    assert (kept["dealt_by"], kept["sides-1-total"]) == ("Cy", "51")
