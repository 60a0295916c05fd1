"""Rescaling a match and undoing any change of its rules, through the pages and the API."""

from __future__ import annotations

from html import unescape

from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient
from test_api import WORKED, Created
from test_views_deals import enter_worked_sheet

from scorekeeper.rule_history import history_entries
from scorekeeper.rules.scoring import score_match
from scorekeeper.store import reading
from scorekeeper.views.write_keys import SENT_BEFORE


def page(client: FlaskClient, url: str) -> str:
    return unescape(client.get(url).get_data(as_text=True))


def sheet_of(app: Flask, public_id: str):
    with app.app_context():
        return score_match(reading.to_core(reading.get_match_or_404(public_id)))


def rescale_preview(client: FlaskClient, public_id: str, factor: str):
    """Tap Rescale ×10 (``up``) or ÷10 (``down``) on the rules page: its preview, or the refusal."""
    data = form_values(client.get(f"/m/{public_id}/rules"))
    return client.post(f"/m/{public_id}/rules/rescale", data={
        "csrf_token": data["csrf_token"], "version": data["version"], "write_key": data["write_key"], "factor": factor})


def rescale(client: FlaskClient, public_id: str, factor: str):
    """Tap Rescale on the rules page, then the button of its preview (the refusal when there is no preview)."""
    preview = rescale_preview(client, public_id, factor)
    if preview.status_code != 200:
        return preview
    return client.post(f"/m/{public_id}/rules/rescale", data=form_values(preview))


def history_count(app: Flask, public_id: str) -> int:
    """The entries of the match's history of changes."""
    with app.app_context():
        return len(history_entries(reading.get_match_or_404(public_id)))


def undo_latest(client: FlaskClient, public_id: str):
    """Tap the newest change's Undo on the rules page, then the button of its preview."""
    html = client.get(f"/m/{public_id}/rules").get_data(as_text=True)
    action = html.split('action="', html.index("Changes during this match"))
    url = next(part.split('"', 1)[0] for part in action[1:] if "/undo/" in part.split('"', 1)[0])
    data = form_values(client.get(f"/m/{public_id}/rules"))
    preview = client.post(url, data={"csrf_token": data["csrf_token"], "version": data["version"]})
    assert preview.status_code == 200 and "After the undo" in preview.get_data(as_text=True)
    return client.post(url, data=form_values(preview))


def test_rescale_times_ten_is_one_change_and_undo_restores_the_sheet(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    """The worked sheet ×10: We 3180, They 760, bids ×10; one entry in the history; its undo brings back
    318 and 76 exactly, and is itself an entry."""
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    before = sheet_of(app, public_id)
    response = rescale(client, public_id, "up")
    assert response.status_code == 302
    after = sheet_of(app, public_id)
    assert after.totals == (3180, 760) and after.deals[0].bid == 600
    history = page(client, f"/m/{public_id}/rules").split("Changes during this match")[1]
    assert history.count("Rescaled ×10") == 1 and "<strong>Play to</strong>: 300 → 3000" in history
    assert undo_latest(client, public_id).status_code == 302
    assert sheet_of(app, public_id) == before
    html = page(client, f"/m/{public_id}/rules")
    assert "Undo: rescaled ÷10" in html and "Rescaled ×10" in html


def test_rescale_is_previewed_then_its_confirm_writes_once(app: Flask, client: FlaskClient, actions: Actions) -> None:
    """The preview shows the rules and the sheet before and after and writes nothing; its button rescales,
    and the same button sent again (same key) is the same one change."""
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    before = sheet_of(app, public_id)
    preview = rescale_preview(client, public_id, "up")
    html = unescape(preview.get_data(as_text=True))
    assert preview.status_code == 200 and "Rescale ×10?" in html
    assert "<strong>Play to</strong>: 300 → <strong>3000</strong>" in html
    now, after = html.split('class="card card-after"')
    assert "<h2>Now</h2>" in now and "<strong>318</strong>" in now.split("<h2>Now</h2>")[1]
    assert "After rescaling" in after and "<strong>3180</strong>" in after
    assert sheet_of(app, public_id) == before and history_count(app, public_id) == 0  # nothing written
    fields = form_values(preview)
    assert fields["confirm"] == "yes" and fields["factor"] == "up" and fields["write_key"]
    flashed = []
    for _ in range(2):
        answer = client.post(f"/m/{public_id}/rules/rescale", data=fields)
        assert answer.status_code == 302
        flashed.append(page(client, answer.headers["Location"]))
    assert "Rescaled ×10:" in flashed[0] and SENT_BEFORE in flashed[1]
    assert sheet_of(app, public_id).totals == (3180, 760) and history_count(app, public_id) == 1


def test_a_stale_rescale_confirm_is_refused_and_writes_nothing(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    fields = form_values(rescale_preview(client, public_id, "up"))
    assert actions.add_deal(public_id, 0, 50, [60, 20]).status_code == 302  # the match changes meanwhile
    before = sheet_of(app, public_id)
    answer = client.post(f"/m/{public_id}/rules/rescale", data=fields)
    assert answer.status_code == 409 and "Look again before rescaling." in unescape(answer.get_data(as_text=True))
    assert sheet_of(app, public_id) == before and history_count(app, public_id) == 0


def test_divide_by_ten_is_refused_naming_the_deals(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    assert rescale(client, public_id, "up").status_code == 302
    assert actions.add_deal(public_id, 0, 505, [600, 15]).status_code == 302  # 505 and 15 do not divide
    response = rescale(client, public_id, "down")
    text = unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "deal 6: 505 is not a multiple of 10" in text and "15 is not a multiple of 10" in text
    assert f"/m/{public_id}/deals/6/edit" in text
    assert sheet_of(app, public_id).totals[0] > 3000  # nothing changed


def test_undo_of_a_plain_change_puts_the_old_values_back(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    before = sheet_of(app, public_id)
    data = form_values(client.get(f"/m/{public_id}/rules")) | {"rules-target": "200", "rules-set_penalty": "double"}
    confirm = form_values(client.post(f"/m/{public_id}/rules", data=data))
    assert client.post(f"/m/{public_id}/rules", data=confirm).status_code == 302
    assert sheet_of(app, public_id) != before
    assert undo_latest(client, public_id).status_code == 302
    assert sheet_of(app, public_id) == before
    assert "Undo" in page(client, f"/m/{public_id}/rules")


def test_preview_warns_of_mixed_scales_and_offers_the_rescale(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    data = form_values(client.get(f"/m/{public_id}/rules")) | {"rules-trick_scale": "ten-point"}
    html = unescape(client.post(f"/m/{public_id}/rules", data=data).get_data(as_text=True))
    assert "different scales" in html and "Rescale ×10 instead" in html
    assert "No deal's score changes." in html  # one-number deals kept as entered: not listed as changes


def test_preview_names_flips_and_the_change_of_winner(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(target=300)
    enter_worked_sheet(actions, public_id)
    data = form_values(client.get(f"/m/{public_id}/rules")) | {"rules-target": "200"}
    html = unescape(client.post(f"/m/{public_id}/rules", data=data).get_data(as_text=True))
    assert "The winner changes: now We won at deal 5; after the change We won at deal 3." in html
    data = form_values(client.get(f"/m/{public_id}/rules")) | {"rules-min_meld": "60", "rules-save_points": "0"}
    # One-number entries ignore the minimum meld (RULES.md), so nothing flips there either.
    assert "Made ↔ set" not in unescape(client.post(f"/m/{public_id}/rules", data=data).get_data(as_text=True))


def test_api_rescale_history_and_undo(client: FlaskClient) -> None:
    worked = Created(client, WORKED)
    totals = worked.get()["sheet"]["totals"]
    response = worked.send("POST", "/rescale", {"direction": "up"})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["sheet"]["totals"] == [10 * n for n in totals]
    assert response.get_json()["match"]["deals"][0]["bid"] == 10 * WORKED["deals"][0]["bid"]
    history = worked.send("GET", "/rules/history").get_json()["changes"]
    assert len(history) == 1 and history[0]["title"] == "Rescaled ×10"
    undone = worked.send("POST", f"/rules/history/{history[0]['id']}/undo")
    assert undone.status_code == 200 and undone.get_json()["sheet"]["totals"] == totals
    assert len(worked.send("GET", "/rules/history").get_json()["changes"]) == 2
    assert worked.send("POST", "/rules/history/99999/undo").status_code == 404
    bad = worked.send("POST", "/rescale", {"direction": "sideways"})
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "direction"
    refused = worked.send("POST", "/rescale", {"direction": "down"})
    assert refused.status_code == 422 and "needs large" in refused.get_json()["error"]["message"]


def test_api_preview_reports_flips_winner_and_mixed_scales(client: FlaskClient) -> None:
    worked = Created(client, WORKED)
    body = worked.send("PUT", "/rules", {"trick_scale": "ten-point", "preview": True}).get_json()
    assert body["mixed_scales"] is True and body["rescale_instead"] == "up"
    assert body["changed_deals"] == [] and body["flipped_deals"] == [] and body["winner_changes"] is False
