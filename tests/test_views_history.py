"""The changes pages: a deal's history (in its correction form and on a page of its own, a deleted deal's too),
"I am …", undoing the last change after its preview, and the same through the API."""

from __future__ import annotations

from html import unescape

from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient
from test_api import Created
from test_outbox_sync import send

from scorekeeper.store import reading

QUICK = {"mode": "quick", "bidder": "0", "bid": "50", "sides-0-total": "60", "sides-1-total": "20"}


def page(client: FlaskClient, url: str) -> str:
    return unescape(client.get(url).get_data(as_text=True))


def say_who(client: FlaskClient, public_id: str, name: str) -> None:
    data = form_values(client.get(f"/m/{public_id}/me"))
    assert client.post(f"/m/{public_id}/me", data=data | {"name": name}).status_code == 302


def correct(client: FlaskClient, actions: Actions, public_id: str, number: int, total: int) -> None:
    data = actions.deal_form(public_id, number) | {"mode": "quick", "sides-0-total": str(total)}
    assert client.post(f"/m/{public_id}/deals/{number}/edit", data=data).status_code == 302


def undo_form(client: FlaskClient, public_id: str) -> dict[str, str]:
    return form_values(client.get(f"/m/{public_id}/history"))


def version_of(app: Flask, public_id: str) -> int | None:
    with app.app_context():
        return reading.match_version(public_id)


def test_a_correction_shows_in_the_deals_history_with_before_after_and_the_phones_name(
        client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, [60, 20])
    say_who(client, public_id, "Ann")
    correct(client, actions, public_id, 1, 70)
    form = page(client, f"/m/{public_id}/deals/1/edit")
    assert f'href="/m/{public_id}/deals/1/history">History of deal 1</a>' in form
    html = page(client, f"/m/{public_id}/deals/1/history")
    assert "History of deal 1" in html and "Deal 1 corrected" in html and "Ann's phone" in html
    assert "Before: <del>We bid 50; We 60, They 20</del>" in html
    assert "After: <strong>We bid 50; We 70, They 20</strong>" in html
    assert "Deal 1 entered" in html


def test_a_phone_that_never_said_who_it_is_is_a_phone_with_a_short_id(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, [60, 20])
    html = page(client, f"/m/{public_id}/deals/1/history")
    assert "Deal 1 entered" in html and "· a phone (" in html and "'s phone" not in html


def test_i_am_keeps_the_name_escaped_and_refuses_a_long_one(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    data = form_values(client.get(f"/m/{public_id}/me"))
    assert client.post(f"/m/{public_id}/me", data=data | {"name": "x" * 41}).status_code == 422
    say_who(client, public_id, "<b>Bo</b>")
    html = client.get(f"/m/{public_id}/history").get_data(as_text=True)
    assert "&lt;b&gt;Bo&lt;/b&gt;&#39;s phone" in html and "<b>Bo</b>" not in html


def test_i_am_offers_the_matchs_players_and_returns_only_to_this_match(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    html = page(client, f"/m/{public_id}/me?next=https://elsewhere.example/")
    assert "https://elsewhere.example" not in html
    data = form_values(client.get(f"/m/{public_id}/me"))
    answer = client.post(f"/m/{public_id}/me", data=data | {"name": "Cy", "next": f"/m/{public_id}/history"})
    assert answer.headers["Location"] == f"/m/{public_id}/history"


def test_a_deleted_deal_keeps_its_history_reachable_from_the_changes_page(
        client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, [60, 20])
    actions.add_deal(public_id, 1, 50, [10, 70])
    data = form_values(client.get(f"/m/{public_id}/deals/1/delete"))
    assert client.post(f"/m/{public_id}/deals/1/delete", data=data).status_code == 302
    assert "Deal 1 was deleted. Changes · undo, below the sheet, puts it back" in page(client, f"/m/{public_id}")
    html = page(client, f"/m/{public_id}/history")
    assert "Deal 1 deleted" in html
    link = html.split("Deal 1 deleted", 1)[1].split('href="', 1)[1].split('"', 1)[0]
    deleted = page(client, link)
    assert "History of deal 1 (deleted)" in deleted and "Deal 1 entered" in deleted
    assert client.get(f"/m/{public_id}/history/999999").status_code == 404


def test_undo_shows_its_preview_first_and_writes_only_when_confirmed(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, [60, 20])
    correct(client, actions, public_id, 1, 70)
    seen = version_of(app, public_id)
    preview = client.post(f"/m/{public_id}/undo", data=undo_form(client, public_id))
    html = unescape(preview.get_data(as_text=True))
    assert preview.status_code == 200 and "Undo: Corrected deal 1?" in html
    assert "Deal 1 now: We bid 50; We 70, They 20" in html
    assert "After the undo: <strong>We bid 50; We 60, They 20" in html
    assert "After the undo" in html and "Now" in html  # the sheet before and after, as a rule change's preview
    assert version_of(app, public_id) == seen  # nothing written yet
    confirmed = form_values(preview)
    assert confirmed["confirm"] == "yes"
    done = client.post(f"/m/{public_id}/undo", data=confirmed)
    assert done.status_code == 302
    assert "Undone: corrected deal 1." in page(client, f"/m/{public_id}")
    again = client.post(f"/m/{public_id}/undo", data=confirmed)  # the same form sent twice: once
    assert again.status_code == 302 and "sent before" in page(client, f"/m/{public_id}")
    assert version_of(app, public_id) == (seen or 0) + 1
    assert "Deal 1 corrected" in page(client, f"/m/{public_id}/deals/1/history").split("(an undo)")[-2]


def test_a_stale_undo_is_refused_with_a_clear_message_and_nothing_written(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, [60, 20])
    form = undo_form(client, public_id) | {"confirm": "yes"}
    actions.add_deal(public_id, 1, 50, [10, 70])  # on another phone, meanwhile
    seen = version_of(app, public_id)
    for data in (form, form | {"confirm": ""}):
        answer = client.post(f"/m/{public_id}/undo", data=data)
        html = unescape(answer.get_data(as_text=True))
        assert answer.status_code == 409 and "Nothing was undone: While you were typing, deal 2 was added" in html
    assert version_of(app, public_id) == seen


def test_undo_of_a_rule_change_previews_the_rules_it_puts_back(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, [60, 20])
    say_who(client, public_id, "Bo")
    rules = form_values(client.get(f"/m/{public_id}/rules")) | {"rules-target": "600", "confirm": "yes"}
    assert client.post(f"/m/{public_id}/rules", data=rules).status_code == 302
    assert "after deal 1, " in page(client, f"/m/{public_id}/rules")
    assert ", Bo's phone</span>" in page(client, f"/m/{public_id}/rules")  # who changed the rules
    preview = client.post(f"/m/{public_id}/undo", data=undo_form(client, public_id))
    html = unescape(preview.get_data(as_text=True))
    assert preview.status_code == 200, html
    assert "Undo: Changed the house rules?" in html and "Play to</strong>: 600 → <strong>500" in html
    assert client.post(f"/m/{public_id}/undo", data=form_values(preview)).status_code == 302
    with app.app_context():
        assert reading.rules_of(reading.get_match_or_404(public_id)).target == 500


def test_nothing_to_undo_on_a_new_match(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    assert "Nothing has changed in this match yet." in page(client, f"/m/{public_id}/history")
    data = undo_form(client, public_id) | {"version": str(version_of(app, public_id))}
    answer = client.post(f"/m/{public_id}/undo", data=data)
    assert answer.status_code == 422 and "Nothing has changed" in answer.get_data(as_text=True)


def test_the_api_shows_a_deals_history_naming_the_api_and_undoes_the_last_change(client: FlaskClient) -> None:
    made = Created(client, {"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}]})
    added = made.send("POST", "/deals", {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]})
    assert added.status_code == 201
    fixed = made.send("PUT", "/deals/1", {"bidder": 0, "bid": 50, "sides": [{"total": 70}, {"total": 20}]})
    history = made.send("GET", "/deals/1/history").get_json()
    assert [(change["what"], change["by"]) for change in history["changes"]] == [
        ("entered", "the API"), ("corrected", "the API")]
    assert history["changes"][1]["before"]["sides"][0] == {"total": 60}
    assert history["changes"][1]["after"]["sides"][0] == {"total": 70}
    assert made.send("POST", "/undo", {}).status_code == 422  # the version is required
    stale = made.send("POST", "/undo", {"version": fixed.get_json()["version"] - 1})
    assert stale.status_code == 409
    undone = made.send("POST", "/undo", {"version": fixed.get_json()["version"]})
    assert undone.status_code == 200 and undone.get_json()["sheet"]["totals"][0] == 60
    assert made.send("PUT", "/rules", {"target": 600}).status_code == 200
    assert made.send("GET", "/rules/history").get_json()["changes"][0]["by"] == "the API"
    assert client.get(f"{made.url}/deals/1/history").status_code == 401  # the edit token is asked for
    assert made.send("GET", "/deals/9/history").status_code == 404


def test_a_deal_from_the_entry_panel_and_one_from_the_outbox_are_in_the_history_by_this_phone(
        client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    say_who(client, public_id, "Di")
    panel = client.post(f"/m/{public_id}/deals/new", data=actions.deal_form(public_id) | QUICK,
                        headers={"X-Entry-Panel": "1"})
    assert panel.status_code == 200 and panel.get_json()["saved"] == 1
    fields = actions.deal_form(public_id) | QUICK
    kept = send(client, public_id, f"/m/{public_id}/deals/new", fields, "outbox-key-01", token="unchecked-here")
    assert kept.status_code == 201
    html = page(client, f"/m/{public_id}/history")
    entries = html.split('<li class="deal-change">')[1:]
    assert [("Deal 2 entered" in entry, "Di's phone" in entry) for entry in entries] == [(True, True), (False, True)]
