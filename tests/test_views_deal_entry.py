"""The deal form's entry aids: meld per player (the match file's list form), the three states of
'took a trick', and the preview of what a deal scores, worked out by the rules core before saving."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.matchfile import match_from_json
from scorekeeper.rules.scoring import score_match
from scorekeeper.store import reading, writing


def partnership_match(client: FlaskClient, players: tuple[str, str] = ("Ann, Bob", "Cy, Di")) -> str:
    """A double-deck match to 500, We (Ann, Bob) against They (Cy, Di)."""
    data = form_values(client.get("/matches/new?preset=double-500")) | {
        "name": "Friday", "preset": "double-500", "rules_from": "double-500",
        "sides-0-name": "We", "sides-0-players": players[0], "sides-1-name": "They", "sides-1-players": players[1],
    }
    response = client.post("/matches/new", data=data)
    assert response.status_code == 302
    return response.headers["Location"].split("/")[2]  # /m/<id>/invite


def detailed(client: FlaskClient, public_id: str, **fields: str) -> dict[str, str]:
    return form_values(client.get(f"/m/{public_id}/deals/new")) | {"mode": "detail", **fields}


def stored_sides(app: Flask, public_id: str, number: int = 1) -> list[dict[str, Any]]:
    with app.app_context():
        return list(reading.get_match_or_404(public_id).deals[number - 1].sides)


# Meld per player ----------------------------------------------------------------------------------

def test_each_partner_has_a_meld_line_named_for_the_player(client: FlaskClient) -> None:
    public_id = partnership_match(client)
    html = client.get(f"/m/{public_id}/deals/new").get_data(as_text=True)
    for side, hand, name in ((0, 0, "Ann"), (0, 1, "Bob"), (1, 0, "Cy"), (1, 1, "Di")):
        assert re.search(rf'<label class="label" for="sides-{side}-hands-{hand}-meld">{name}&#39;s meld</label>', html)


def test_partners_melds_are_stored_as_the_list_form_and_shown_back(app: Flask, client: FlaskClient) -> None:
    public_id = partnership_match(client)
    sent = detailed(client, public_id, bidder="0", bid="50",
                    **{"sides-0-hands-0-meld": "20", "sides-0-hands-1-sets-run": "1",
                       "sides-0-hands-1-sets-pinochle": "1", "sides-0-tricks": "30", "sides-1-hands-1-meld": "4",
                       "sides-1-tricks": "18", "last_trick": "0"})
    assert client.post(f"/m/{public_id}/deals/new", data=sent).status_code == 302
    sides = stored_sides(app, public_id)
    assert sides[0]["meld"] == [20, {"run": 1, "pinochle": 1}]
    assert sides[1]["meld"] == [0, 4]  # Cy showed nothing, Di 4
    # The sheet counts the sum: We 20 + 15 + 4 + 30 + 2 = 71; They 4 + 18 = 22.
    sheet = client.get(f"/m/{public_id}").get_data(as_text=True)
    assert re.search(r"71", sheet) and re.search(r"22", sheet)
    with app.app_context():
        assert score_match(reading.load_match(public_id).match).totals == (71, 22)
    shown = form_values(client.get(f"/m/{public_id}/deals/1/edit"))
    assert (shown["sides-0-hands-0-meld"], shown["sides-0-hands-1-meld"]) == ("20", "")
    assert (shown["sides-0-hands-1-sets-run"], shown["sides-0-hands-1-sets-pinochle"]) == ("1", "1")
    assert (shown["sides-1-hands-0-meld"], shown["sides-1-hands-1-meld"]) == ("0", "4")
    edit = client.get(f"/m/{public_id}/deals/1/edit").get_data(as_text=True)
    assert re.search(r'data-meld-total="0">39<', edit) and re.search(r'data-meld-total="1">4<', edit)
    # Saved again unchanged, the facts stay as they were.
    assert client.post(f"/m/{public_id}/deals/1/edit", data=shown).status_code == 302
    assert stored_sides(app, public_id) == sides


def test_one_partner_alone_keeps_the_plain_form(app: Flask, client: FlaskClient) -> None:
    public_id = partnership_match(client)
    sent = detailed(client, public_id, bidder="0", bid="50",
                    **{"sides-0-hands-0-meld": "20", "sides-0-tricks": "30", "sides-1-hands-0-meld": "4",
                       "sides-1-tricks": "18", "last_trick": "0"})
    assert client.post(f"/m/{public_id}/deals/new", data=sent).status_code == 302
    assert [side["meld"] for side in stored_sides(app, public_id)] == [20, 4]


def test_a_stored_list_of_cards_comes_back_per_hand(app: Flask, client: FlaskClient) -> None:
    public_id = partnership_match(client)
    with app.app_context():
        loaded = reading.load_match(public_id)
        writing.add_deal(loaded, {"bidder": 0, "bid": 50, "trump": "H", "sides": [
            {"meld": [{"cards": ["AH", "10H", "KH", "QH", "JH"]}, 10], "tricks": 30, "last_trick": True},
            {"meld": 4, "tricks": 18}]}, loaded.row.version)
    response = client.get(f"/m/{public_id}/deals/1/edit")
    values = form_values(response)
    assert json.loads(values["sides-0-hands-0-kept"]) == {"cards": ["AH", "10H", "KH", "QH", "JH"]}
    assert values["sides-0-hands-1-meld"] == "10"
    assert re.search(r'data-meld-total="0">25<', response.get_data(as_text=True))  # run 15 + 10
    assert client.post(f"/m/{public_id}/deals/1/edit", data=values | {"bid": "55"}).status_code == 302
    assert stored_sides(app, public_id)[0]["meld"] == [{"cards": ["AH", "10H", "KH", "QH", "JH"]}, 10]


def test_a_side_without_players_of_a_four_handed_game_has_two_lines(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    values = form_values(client.get(f"/m/{public_id}/deals/new"))
    assert {"sides-0-hands-0-meld", "sides-0-hands-1-meld", "sides-1-hands-1-meld"} <= set(values)
    three = actions.create_match(preset="auction-3", sides=("North", "East", "South"))
    values = form_values(client.get(f"/m/{three}/deals/new"))
    assert "sides-0-hands-0-meld" in values and "sides-0-hands-1-meld" not in values


def test_the_calculator_fills_the_chosen_partner_and_keeps_the_other(app: Flask, client: FlaskClient) -> None:
    public_id = partnership_match(client)
    sent = detailed(client, public_id, bidder="0", bid="50",
                    **{"sides-0-hands-0-meld": "24", "sides-0-tricks": "30", "sides-1-hands-0-meld": "4",
                       "sides-1-tricks": "18", "last_trick": "0"})
    assert client.post(f"/m/{public_id}/deals/new", data=sent).status_code == 302
    html = client.post("/meld", data={"deck": "double", "table": "double-small", "trump": "H",
                                      "cards": "AH 10H KH QH JH QS JD", "match": public_id, "side": "0",
                                      "player": "1", "deal": "1"}).get_data(as_text=True)
    link = re.search(r'<a class="button primary" href="([^"]+)">Use in deal', html)
    assert link
    form = client.get(link.group(1).replace("&amp;", "&"))
    values = form_values(form)
    assert values["sides-0-hands-0-meld"] == "24"  # Ann's meld is kept
    assert (values["sides-0-hands-1-sets-run"], values["sides-0-hands-1-sets-pinochle"]) == ("1", "1")
    assert re.search(r'data-meld-total="0">43<', form.get_data(as_text=True))  # 24 + run 15 + pinochle 4
    assert client.post(f"/m/{public_id}/deals/1/edit", data=values).status_code == 302
    assert stored_sides(app, public_id)[0]["meld"] == [24, {"run": 1, "pinochle": 1}]


# Took a trick: three states -----------------------------------------------------------------------

@pytest.mark.parametrize(("took", "tricks", "stored", "scores"), [
    # must take a trick (the default): tricks worth no points keep the meld, no trick loses it.
    ("points", "18", {"meld": 4, "tricks": 18}, (52, 22)),
    ("no_points", "", {"meld": 4, "tricks": 0, "took_trick": True}, (70, 4)),
    ("none", "", {"meld": 4, "took_trick": False}, (70, 0)),
])
def test_took_a_trick_has_three_states_in_the_match_file(
    app: Flask, client: FlaskClient, actions: Actions, took: str, tricks: str, stored: dict[str, Any],
    scores: tuple[int, int],
) -> None:
    public_id = actions.create_match()
    last = "0"  # We took the last trick: 2 more
    we_tricks = str(48 - int(tricks or 0))
    sent = detailed(client, public_id, bidder="0", bid="50",
                    **{"sides-0-hands-0-meld": "20", "sides-0-tricks": we_tricks, "sides-1-hands-0-meld": "4",
                       "sides-1-tricks": tricks, "sides-1-took": took, "last_trick": last})
    assert client.post(f"/m/{public_id}/deals/new", data=sent).status_code == 302
    exported = json.loads(client.get(f"/m/{public_id}/export.json").get_data(as_text=True))
    assert exported["deals"][0]["sides"][1] == stored
    assert score_match(match_from_json(exported)).deals[0].scores == scores
    assert form_values(client.get(f"/m/{public_id}/deals/1/edit"))["sides-1-took"] == took


def test_tricks_worth_no_points_with_points_typed_is_refused_at_the_field(
    client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match()
    sent = detailed(client, public_id, bidder="0", bid="50",
                    **{"sides-0-hands-0-meld": "20", "sides-0-tricks": "30", "sides-1-hands-0-meld": "4",
                       "sides-1-tricks": "18", "sides-1-took": "no_points", "last_trick": "0"})
    response = client.post(f"/m/{public_id}/deals/new", data=sent)
    assert response.status_code == 422
    assert re.search(r'id="sides-1-tricks-error"[^>]*>\s*Tricks worth no points', response.get_data(as_text=True))


# The preview ------------------------------------------------------------------------------------------

def preview(client: FlaskClient, public_id: str, fields: dict[str, str], number: int | None = None) -> Any:
    url = f"/m/{public_id}/deals/{'preview' if number is None else f'{number}/preview'}"
    response = client.post(url, data=fields)
    assert response.status_code == 200
    return response.get_json()


def test_preview_says_what_each_side_scores_and_its_new_total(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    fields = form_values(client.get(f"/m/{public_id}/deals/new"))
    assert preview(client, public_id, fields)["ready"] is False
    made = preview(client, public_id, fields | {"mode": "quick", "bidder": "1", "bid": "55",
                                               "sides-0-total": "38", "sides-1-total": "62"})
    assert made["ready"] is True
    assert made["lines"] == ["We: +38 \u2192 105", "They make it: +62 \u2192 82"]
    set_ = preview(client, public_id, fields | {"mode": "quick", "bidder": "1", "bid": "55",
                                               "sides-0-total": "38", "sides-1-total": "51"})
    assert set_["lines"] == ["We: +38 \u2192 105", "They are set: \u221255 \u2192 \u221235"]


def test_preview_matches_the_saved_sheet(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = partnership_match(client)
    fields = detailed(client, public_id, bidder="1", bid="50", trump="H",
                      **{"sides-0-hands-0-meld": "10", "sides-0-tricks": "40", "sides-1-hands-0-sets-run": "1",
                         "sides-1-hands-1-meld": "20", "sides-1-tricks": "8", "last_trick": "0"})
    shown = preview(client, public_id, fields)
    assert shown["melds"] == [10, 35]
    assert client.post(f"/m/{public_id}/deals/new", data=fields).status_code == 302
    with app.app_context():
        line = score_match(reading.load_match(public_id).match).deals[0]
    assert line.scores is not None and line.totals is not None
    expected = [f"Ann & Bob: +{line.scores[0]} \u2192 {line.totals[0]}",  # "We" and "They" with players named
                f"Cy & Di are set: \u2212{-line.scores[1]} \u2192 \u2212{-line.totals[1]}"]
    assert shown["lines"] == expected


def test_preview_gives_the_reason_beside_a_lost_meld(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    fields = detailed(client, public_id, bidder="0", bid="50",
                      **{"sides-0-hands-0-meld": "20", "sides-0-tricks": "48", "sides-1-hands-0-meld": "6",
                         "sides-1-took": "none", "last_trick": "0"})
    assert preview(client, public_id, fields)["lines"][1] == "They: 0 \u2192 0 \u00b7 meld 6 lost: no trick"
    kept = fields | {"sides-1-took": "no_points"}
    assert preview(client, public_id, kept)["lines"][1] == "They: +6 \u2192 6"


def test_preview_of_an_edit_replaces_the_deal_and_a_stored_deal_is_previewed_on_the_page(
    client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    actions.add_deal(public_id, 1, 55, (38, 62))
    page = client.get(f"/m/{public_id}/deals/1/edit").get_data(as_text=True)
    assert "We make it: +67 \u2192 67" in page
    fields = form_values(client.get(f"/m/{public_id}/deals/1/edit")) | {"sides-0-total": "70"}
    assert preview(client, public_id, fields, 1)["lines"] == ["We make it: +70 \u2192 70", "They: +20 \u2192 20"]


def test_preview_names_what_the_rules_refuse_and_never_writes(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match(min_bid=50)
    fields = form_values(client.get(f"/m/{public_id}/deals/new")) | {
        "mode": "quick", "bidder": "0", "bid": "40", "sides-0-total": "67", "sides-1-total": "20"}
    answer = preview(client, public_id, fields)
    assert answer["ready"] is False and "below the minimum opening bid of 50" in answer["lines"][0]
    with app.app_context():
        assert reading.get_match_or_404(public_id).deals == []


def test_preview_needs_the_players_right(app: Flask, actions: Actions) -> None:
    public_id = actions.create_match()
    stranger = app.test_client()
    assert stranger.post(f"/m/{public_id}/deals/preview", data={"mode": "quick"}).status_code == 403
