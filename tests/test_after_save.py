"""After a save: the sheet at its top, the saved deal marked, "Deal N saved · Undo"; on a decided match,
the next match with the same sides and rules."""

from __future__ import annotations

import re

from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.device import KEY as DEVICE_MATCHES
from scorekeeper.models import MatchRow
from scorekeeper.store import reading, write_keys


def undo_form(html: str) -> dict[str, str]:
    found = re.search(r'<form method="post" action="([^"]+/undo)"(.*?)</form>', html, re.S)
    assert found, "no Undo on the page"
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', found.group(2)))
    return fields | {"action": found.group(1)}


def deals_of(app: Flask, public_id: str) -> list[list[dict[str, int]]]:
    with app.app_context():
        return [deal.sides for deal in reading.get_match_or_404(public_id).deals]


def test_a_saved_deal_lands_on_the_sheet_top_marked_with_undo(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    saved = actions.add_deal(public_id, 1, 50, (10, 70))
    assert saved.headers["Location"] == f"/m/{public_id}"  # no jump to the row, away from the totals
    page = client.get(saved.headers["Location"])
    html = page.get_data(as_text=True)
    assert "Deal 2 saved" in html and undo_form(html)["action"].endswith("/deals/2/undo")
    assert re.search(r'<tr id="deal-2" class="row-changed"', html)
    assert 'id="deal-1" class="row-changed' not in html
    assert page.headers["Cache-Control"] == "no-store"
    again = client.get(f"/m/{public_id}").get_data(as_text=True)  # said once
    assert "Deal 2 saved" not in again and "row-changed" not in again


def test_a_corrected_deal_is_marked_saved_without_undo(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    client.get(f"/m/{public_id}")
    data = actions.deal_form(public_id, 1) | {"sides-1-total": "30"}
    html = client.get(client.post(f"/m/{public_id}/deals/1/edit", data=data).headers["Location"]).get_data(as_text=True)
    assert "Deal 1 saved" in html and "/undo" not in html and 'id="deal-1" class="row-changed"' in html


def test_undo_removes_the_deal_once(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    client.get(f"/m/{public_id}")
    actions.add_deal(public_id, 1, 50, (10, 70))
    form = undo_form(client.get(f"/m/{public_id}").get_data(as_text=True))
    action = form.pop("action")
    answers = [client.post(action, data=form) for _ in range(2)]  # a double tap
    assert [answer.status_code for answer in answers] == [302, 302]
    html = client.get(f"/m/{public_id}").get_data(as_text=True)
    assert "Deal 2 was removed." in html and "not removed" not in html
    assert deals_of(app, public_id) == [[{"total": 60}, {"total": 20}]]


def test_a_stale_undo_removes_nothing_and_says_why(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    form = undo_form(client.get(f"/m/{public_id}").get_data(as_text=True))
    other = app.test_client()  # another phone at the table adds deal 2
    with other.session_transaction() as session:
        session[DEVICE_MATCHES] = [public_id]
    Actions(other).add_deal(public_id, 1, 50, (10, 70))
    answer = client.post(form.pop("action"), data=form)
    html = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Deal 1 was not removed: since it was saved, deal 2 was added on another phone." in html
    assert len(deals_of(app, public_id)) == 2


def test_undo_takes_back_only_the_last_deal(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    actions.add_deal(public_id, 0, 50, (60, 20))
    with app.app_context():
        version = str(reading.match_version(public_id))
    refused = client.post(f"/m/{public_id}/deals/1/undo", data={"version": version})
    assert refused.status_code == 400 and len(deals_of(app, public_id)) == 2


def win(actions: Actions, public_id: str, bid: int = 50) -> None:
    for _ in range(2):
        assert actions.add_deal(public_id, 0, bid, (300, 20)).status_code == 302


def test_a_decided_match_offers_the_next_match(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match(name="Friday", sides=("Ann & Bo", "Cy & Di"), target=500, min_bid=60)
    win(actions, public_id, bid=60)
    html = client.get(f"/m/{public_id}").get_data(as_text=True)
    banner = html[html.index('class="banner"'):html.index('class="totals"')]
    assert "won at deal 2" in banner and f'href="/m/{public_id}/rematch"' in banner
    data = form_values(client.get(f"/m/{public_id}/rematch"))
    started = client.post(f"/m/{public_id}/rematch", data=data)
    assert started.status_code == 302
    new_id = started.headers["Location"].rsplit("/", 1)[-1]
    assert new_id != public_id
    with app.app_context():
        old, new = reading.get_match_or_404(public_id), reading.get_match_or_404(new_id)
        assert [(s.name, s.players) for s in new.sides] == [(s.name, s.players) for s in old.sides]
        assert new.rules == old.rules and new.rules["min_bid"] == 60 and new.auction == old.auction
        assert new.deals == [] and new.name.startswith("Ann & Bo v Cy & Di, ")
    with client.session_transaction() as session:
        assert session[DEVICE_MATCHES][0] == new_id  # this phone's list, with the right to write
    assert client.post(f"/m/{new_id}/deals/new", data=actions.deal_form(new_id) | {
        "mode": "quick", "bidder": "0", "bid": "60", "sides-0-total": "70", "sides-1-total": "10"}).status_code == 302


def primary_links(html: str) -> list[str]:
    """The text of every link drawn as a main button ("button primary"), in page order."""
    return re.findall(r'<a class="button primary[^"]*"[^>]*>([^<]*)</a>', html)


def test_a_decided_match_puts_the_next_match_first_and_a_late_deal_in_a_small_link(
        client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (100, 20))
    playing = client.get(f"/m/{public_id}").get_data(as_text=True)
    assert primary_links(playing) == ["+ Add deal 2"]
    actions.add_deal(public_id, 0, 50, (500, 20))
    decided = client.get(f"/m/{public_id}").get_data(as_text=True)
    assert primary_links(decided) == ["Start the next match"]
    late = re.search(r'<p class="add-after-end"><a class="add-deal" href="([^"]+)">([^<]+)</a>', decided)
    assert late is not None and late.groups() == (f"/m/{public_id}/deals/new",
                                                 "Add deal 3 after the end (it will not count)")
    assert decided.index("Start the next match") < decided.index('class="totals"') < late.start()
    part = client.get(f"/m/{public_id}/live").get_data(as_text=True)  # what a phone following the sheet gets
    assert primary_links(part) == ["Start the next match"] and "Add deal 3 after the end (it will not count)" in part


def test_the_rematch_is_not_offered_before_the_end_nor_on_the_watch_link(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (100, 20))
    assert "/rematch" not in client.get(f"/m/{public_id}").get_data(as_text=True)
    actions.add_deal(public_id, 0, 50, (500, 20))
    with app.app_context():
        watch_id = reading.get_match_or_404(public_id).watch_id
    watched = app.test_client().get(f"/w/{watch_id}").get_data(as_text=True)
    assert "won at deal 2" in watched and "/rematch" not in watched


def test_a_phone_without_the_right_cannot_start_the_rematch(app: Flask, actions: Actions) -> None:
    public_id = actions.create_match()
    win(actions, public_id)
    stranger = app.test_client()
    assert stranger.post(f"/m/{public_id}/rematch").status_code == 403
    assert stranger.get(f"/m/{public_id}/rematch").status_code == 403


def test_a_decided_match_is_one_page_for_every_phone_and_may_be_kept(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    """Nothing of one phone's session is on it (its token, a form's key), so a phone keeps it for reading
    offline; the next match's form, which has them, is a page of its own that is never kept."""
    public_id = actions.create_match()
    win(actions, public_id)
    client.get(f"/m/{public_id}")  # the sheet right after the save, with its one-time message
    other = app.test_client()
    other.get(f"/m/{public_id}")  # a second phone at the players' link
    pages = [phone.get(f"/m/{public_id}") for phone in (client, other)]
    bodies = [page.get_data(as_text=True) for page in pages]
    assert bodies[0] == bodies[1] and "won at deal 2" in bodies[0]
    assert "csrf_token" not in bodies[0] and "write_key" not in bodies[0]
    assert all(page.headers["Cache-Control"] == pages[0].headers["Cache-Control"] for page in pages)
    assert "no-store" not in pages[0].headers["Cache-Control"] and pages[0].headers["ETag"]
    again = client.get(f"/m/{public_id}", headers={"If-None-Match": pages[0].headers["ETag"]})
    assert again.status_code == 304
    form = client.get(f"/m/{public_id}/rematch")
    assert form.headers["Cache-Control"] == "no-store" and "write_key" in form.get_data(as_text=True)


def test_the_same_rematch_form_sent_twice_starts_one_match(app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    win(actions, public_id)
    data = form_values(client.get(f"/m/{public_id}/rematch"))
    assert write_keys.is_write_key(data["write_key"])
    with app.app_context():
        before = get_session().scalar(select(func.count()).select_from(MatchRow))
    answers = [client.post(f"/m/{public_id}/rematch", data=data | {"partners": "same"}) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [302, 302]
    assert answers[0].headers["Location"] == answers[1].headers["Location"] != f"/m/{public_id}"
    with app.app_context():
        assert get_session().scalar(select(func.count()).select_from(MatchRow)) == before + 1
    assert client.get(f"/m/{public_id}/rematch").headers["Location"] == answers[0].headers["Location"]
