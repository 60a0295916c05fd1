"""The page of a match's own meld prices: presets, preview, apply (one entry in the history), bad input at the
field, and the meld calculator opened from the match pricing with them."""

from __future__ import annotations

import json
import re
from html import unescape

from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper.db import get_session
from scorekeeper.models import DealRow, MatchRow
from scorekeeper.store import reading

ONE_DEAL = {"bidder": 0, "bid": 50, "sides": [
    {"meld": {"pinochle": 2}, "tricks": 30, "last_trick": True},
    {"meld": {"run": 1}, "tricks": 18},
]}


def match_with_one_deal(app: Flask, client: FlaskClient, actions: Actions) -> str:
    """Double deck, small meld table: We bid 50, meld a double pinochle and take 30 + the last trick; They meld a
    run and take 18. On the table: We 30 + 32 = 62 (made), They 15 + 18 = 33."""
    public_id = actions.create_match()
    with app.app_context():
        token = reading.get_match_or_404(public_id).edit_token
    answer = client.post(f"/api/v1/matches/{public_id}/deals", json=ONE_DEAL,
                         headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201, answer.get_json()
    return public_id


def totals(client: FlaskClient, public_id: str) -> list[int]:
    return client.get(f"/api/v1/matches/{public_id}").get_json()["sheet"]["totals"]


def text_of(client: FlaskClient, url: str, **data: str) -> str:
    response = client.post(url, data=data) if data else client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    return unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def test_the_page_shows_each_group_beside_the_meld_tables_price(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    response = client.get(f"/m/{public_id}/rules/meld")
    values = form_values(response)
    # Double-small: pinochle 4 / 30 / 60 / 90; marriages are priced one at a time: one box each.
    assert [values[f"pinochle-{n}"] for n in (1, 2, 3, 4)] == ["4", "30", "60", "90"]
    assert values["royal_marriage-1"] == "4" and values["marriage-1"] == "2"
    assert not {"royal_marriage-2", "marriage-2", "marriage-4-off"} & set(values)
    assert "table: 30" in response.get_data(as_text=True)
    assert f"/m/{public_id}/rules/meld" in client.get(f"/m/{public_id}/rules").get_data(as_text=True)


def test_no_double_pinochle_previewed_then_applied_once(app: Flask, client: FlaskClient, actions: Actions) -> None:
    """No double pinochle on the small table prices pinochle 4 a set: We's meld is 4 + 4 = 8, and 8 + 32 = 40
    falls short of the bid of 50, so We are set: −50. They keep 15 + 18 = 33."""
    public_id = match_with_one_deal(app, client, actions)
    url = f"/m/{public_id}/rules/meld"
    assert totals(client, public_id) == [62, 33]
    filled = client.post(url, data=form_values(client.get(url)) | {"preset": "no-double-pinochle"})
    values = form_values(filled)
    assert values["pinochle-1"] == "4" and values.get("pinochle-2-off") == "y"
    preview = client.post(url, data=values)
    text = unescape(re.sub(r"<[^>]+>", " ", preview.get_data(as_text=True)))
    assert "pinochle 4 / – / – / –" in text and "deal 1" in text
    assert totals(client, public_id) == [62, 33]  # a preview changes nothing
    applied = client.post(url, data=form_values(preview))
    assert applied.status_code == 302
    assert totals(client, public_id) == [-50, 33]
    with app.app_context():
        row = reading.get_match_or_404(public_id)
        assert [(change.rule, change.new_value) for change in row.rule_changes] == [
            ("meld_prices", {"pinochle": [4, None, None, None]})]
    exported = client.get(f"/api/v1/matches/{public_id}").get_json()["match"]
    assert exported["rules"]["meld_prices"] == {"pinochle": [4, None, None, None]}


def test_npa_preset_on_the_small_table(app: Flask, client: FlaskClient, actions: Actions) -> None:
    """NPA double deck: run 25, double pinochle 30 as on the table. They: 25 + 18 = 43; We unchanged at 62."""
    public_id = match_with_one_deal(app, client, actions)
    url = f"/m/{public_id}/rules/meld"
    values = form_values(client.post(url, data=form_values(client.get(url)) | {"preset": "npa"}))
    assert [values[f"run-{n}"] for n in (1, 2, 3, 4)] == ["25", "150", "225", "300"]
    assert [values[f"pinochle-{n}"] for n in (1, 2, 3, 4)] == ["15", "30", "60", "90"]
    client.post(url, data=form_values(client.post(url, data=values)))
    assert totals(client, public_id) == [62, 43]


def test_a_bad_price_is_shown_at_its_box(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    url = f"/m/{public_id}/rules/meld"
    response = client.post(url, data=form_values(client.get(url)) | {"run-1": "lots", "pinochle-2": "20000"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.search(r'id="run-1"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="run-1"', html)
    assert 'id="run-1-error"' in html and 'id="pinochle-2-error"' in html and "At most 10,000" in html


def test_unchanged_prices_record_nothing(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    url = f"/m/{public_id}/rules/meld"
    assert client.post(url, data=form_values(client.get(url))).status_code == 302
    with app.app_context():
        assert reading.get_match_or_404(public_id).rule_changes == []


def test_a_phone_without_the_right_cannot_change_them(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    other = app.test_client()
    assert other.post(f"/m/{public_id}/rules/meld", data={"preset": "npa"}).status_code == 403


def test_the_calculator_opened_from_the_match_uses_its_prices(app: Flask, client: FlaskClient,
                                                              actions: Actions) -> None:
    """Two pinochles with hearts trump: a double pinochle, 30 on the small table; 4 + 4 = 8 with no double
    pinochle. The calculator not opened from the match keeps the table's 30."""
    public_id = match_with_one_deal(app, client, actions)
    url = f"/m/{public_id}/rules/meld"
    client.post(url, data=form_values(client.post(url, data=form_values(client.post(
        url, data=form_values(client.get(url)) | {"preset": "no-double-pinochle"})))))
    hand = "cards=QS+JD+QS+JD&trump=H"
    from_match = client.get(f"/meld?match={public_id}&side=0&{hand}").get_data(as_text=True)
    alone = client.get(f"/meld?{hand}").get_data(as_text=True)
    assert 'id="own-prices"' in from_match and "data-meld-prices" in from_match
    assert "Total</th><td class=\"num\"><strong>8</strong>" in from_match
    assert "Total</th><td class=\"num\"><strong>30</strong>" in alone


def test_the_api_changes_the_prices_and_names_a_bad_one(app: Flask, client: FlaskClient, actions: Actions) -> None:
    """PUT the NPA prices: They's run is 25, so They score 25 + 18 = 43; We keep 62. A price that is no number
    is refused naming it."""
    public_id = match_with_one_deal(app, client, actions)
    with app.app_context():
        auth = {"Authorization": f"Bearer {reading.get_match_or_404(public_id).edit_token}"}
    url = f"/api/v1/matches/{public_id}/rules"
    bad = client.put(url, json={"meld_prices": {"pinochle": [15, "thirty"]}}, headers=auth)
    assert bad.status_code == 422
    error = bad.get_json()["error"]
    assert (error["field"], error["code"]) == ("meld_prices.pinochle[1]", "not_a_number")
    npa = {"run": [25, 150, 225, 300], "pinochle": [15, 30, 60, 90]}
    answer = client.put(url, json={"meld_prices": npa}, headers=auth)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["changed_rules"] == ["meld_prices"]
    assert totals(client, public_id) == [62, 43]


def test_the_api_meld_calculator_takes_prices(client: FlaskClient) -> None:
    """A run and two pinochles, hearts trump: 15 + 30 = 45 on the small table; 25 + 4 + 4 = 33 with the run at 25
    and no double pinochle."""
    hand = {"cards": "AH 10H KH QH JH QS JD QS JD", "trump": "H"}
    assert client.post("/api/v1/meld", json=hand).get_json()["total"] == 45
    own = {"run": [25, 150, 225, 300], "pinochle": [4, None]}
    assert client.post("/api/v1/meld", json=hand | {"prices": own}).get_json()["total"] == 33
    bad = client.post("/api/v1/meld", json=hand | {"prices": {"runs": [25]}})
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "prices.runs"


def test_a_group_price_for_marriages_is_refused_naming_it(app: Flask, client: FlaskClient, actions: Actions) -> None:
    """RULES.md: marriages are priced one at a time. The API names the group price; the page's preview, sent back
    with one, says so on the form; the price of one is taken."""
    public_id = match_with_one_deal(app, client, actions)
    with app.app_context():
        auth = {"Authorization": f"Bearer {reading.get_match_or_404(public_id).edit_token}"}
    url = f"/api/v1/matches/{public_id}/rules"
    bad = client.put(url, json={"meld_prices": {"marriage": [2, 100]}}, headers=auth)
    assert bad.status_code == 422
    error = bad.get_json()["error"]
    assert (error["field"], error["code"]) == ("meld_prices.marriage[1]", "priced_one_at_a_time")
    page = f"/m/{public_id}/rules/meld"
    chosen = {"confirm": "yes", "chosen": '{"marriage": [2, 100]}'}
    sent = client.post(page, data=form_values(client.get(page)) | chosen)
    assert sent.status_code == 422 and "marriages are priced one at a time" in sent.get_data(as_text=True)
    assert client.put(url, json={"meld_prices": {"marriage": [3]}}, headers=auth).status_code == 200


def test_a_match_stored_with_a_group_price_for_marriages_still_opens(app: Flask, client: FlaskClient,
                                                                    actions: Actions) -> None:
    """Stored before marriages were priced one at a time: the match's prices and its deal's pricing give two
    marriages 100. Read back, only the price of one counts: We meld 2 + 2 and take 32, 36 short of the bid of 50."""
    public_id = actions.create_match()
    with app.app_context():
        token = reading.get_match_or_404(public_id).edit_token
    deal = {"bidder": 0, "bid": 50, "sides": [{"meld": {"marriage": 2}, "tricks": 30, "last_trick": True},
                                              {"meld": {"run": 1}, "tricks": 18}]}
    assert client.post(f"/api/v1/matches/{public_id}/deals", json=deal,
                       headers={"Authorization": f"Bearer {token}"}).status_code == 201
    grouped = {"marriage": [2, 100, None, None]}
    with app.app_context():
        row = reading.get_match_or_404(public_id)
        session = get_session()
        session.execute(update(DealRow).where(DealRow.match_id == row.id).values(meld_prices=grouped))
        session.execute(update(MatchRow).where(MatchRow.id == row.id)
                        .values(rules={**row.rules, "meld_prices": grouped}, version=row.version + 1))
        session.commit()
    assert totals(client, public_id) == [-50, 33]
    for page in (f"/m/{public_id}", f"/m/{public_id}/rules", f"/m/{public_id}/rules/meld", f"/meld?match={public_id}"):
        assert client.get(page).status_code == 200, page
    assert form_values(client.get(f"/m/{public_id}/rules/meld"))["marriage-1"] == "2"


def test_the_deal_form_gives_its_card_faces_the_match_deck_table_and_prices(app: Flask, client: FlaskClient,
                                                                             actions: Actions) -> None:
    """The deal form's "Count by cards" prices on the match's table with its own prices over it: a double
    pinochle is 8 (two of 4) once the match prices none; before that the form gives no prices of its own."""
    public_id = match_with_one_deal(app, client, actions)
    plain = client.get(f"/m/{public_id}/deals/new").get_data(as_text=True)
    assert 'data-meld-deck="double" data-meld-table="double-small"' in plain
    assert "data-meld-prices" not in plain
    url = f"/m/{public_id}/rules/meld"
    client.post(url, data=form_values(client.post(url, data=form_values(client.post(
        url, data=form_values(client.get(url)) | {"preset": "no-double-pinochle"})))))
    own = client.get(f"/m/{public_id}/deals/new").get_data(as_text=True)
    found = re.search(r"data-meld-prices='([^']*)'", own)
    assert found is not None
    prices = json.loads(unescape(found.group(1)))
    assert prices["pinochle"]["1"] == 4
    assert "2" not in prices["pinochle"]
    assert prices["run"]["1"] == 15  # the rest of the small table as it is


# Spades trump, double deck: a run, one more K Q of spades, two pinochles and aces around.
COUNTED_HAND = ["AS", "10S", "KS", "QS", "JS", "QS", "JD", "JD", "AH", "AD", "AC", "KS"]


def test_a_hand_counted_by_card_faces_is_kept_as_its_cards_and_priced_again(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    """The deal form sends a hand counted by card faces as its cards (the hand's kept field, as the faces' dialog
    fills it in); the match keeps them, the form says what they are worth meld by meld, and a change of the meld
    prices prices them again: on the sheet, in the API's match, and in the exported file imported again."""
    public_id = actions.create_match()
    cards = {"cards": COUNTED_HAND, "trump": "S"}
    sent = actions.deal_form(public_id) | {
        "mode": "detail", "bidder": "0", "bid": "50", "sides-0-hands-0-kept": json.dumps(cards),
        "sides-0-tricks": "30", "sides-1-tricks": "18", "last_trick": "0"}
    assert client.post(f"/m/{public_id}/deals/new", data=sent).status_code == 302
    with app.app_context():
        stored = reading.get_match_or_404(public_id).deals[0].sides[0]["meld"]
        token = reading.get_match_or_404(public_id).edit_token
    assert stored["trump"] == "S" and sorted(stored["cards"]) == sorted(COUNTED_HAND)
    assert totals(client, public_id) == [59 + 32, 18]
    edit = f"/m/{public_id}/deals/1/edit"
    assert ("Partner 1's meld by cards: run 15 + royal marriage 4 + 2 pinochle 30 + aces around 10 = 59 (♠ trump)."
            in text_of(client, edit))

    changed = client.put(f"/api/v1/matches/{public_id}/rules", json={"meld_prices": {"run": [25], "pinochle": [4]}},
                         headers={"Authorization": f"Bearer {token}"})
    assert changed.status_code == 200, changed.get_json()
    assert totals(client, public_id) == [47 + 32, 18]  # run 25, two single pinochles 4 + 4
    assert ("Partner 1's meld by cards: run 25 + royal marriage 4 + 2 pinochle 8 + aces around 10 = 47 (♠ trump)."
            in text_of(client, edit))
    answer = client.get(f"/api/v1/matches/{public_id}").get_json()
    assert answer["match"]["deals"][0]["sides"][0]["meld"] == stored
    assert answer["sheet"]["deals"][0]["as_entered"] == []

    exported = client.get(f"/m/{public_id}/export.json").get_json()
    assert exported["deals"][0]["sides"][0]["meld"] == stored
    imported = client.post("/api/v1/matches", json=exported)
    assert imported.status_code == 201, imported.get_json()
    assert totals(client, imported.get_json()["id"]) == [47 + 32, 18]
    # Saved again unchanged from its form, the hand stays its cards.
    assert client.post(edit, data=actions.deal_form(public_id, 1)).status_code == 302
    with app.app_context():
        assert reading.get_match_or_404(public_id).deals[0].sides[0]["meld"] == stored
