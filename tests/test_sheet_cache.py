"""The score sheet is drawn once per version of a match: every write shows at once, nothing of one
session reaches another, the cache stays bounded, and phones revalidate with the version's ETag."""

from __future__ import annotations

import gzip
import re
import threading
import time
from typing import Any

import pytest
from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient

from matches import make_match
from scorekeeper import create_app, store
from scorekeeper.sheet.cache import FACTS_BYTES_PER_DEAL, SheetCache, SheetPage, sheet_cache
from scorekeeper.sheet.view import SheetView

DEAD_DEAL = {  # We bid 90 with 10 meld: 10 + 50 trick points cannot make it
    "bidder": 0, "bid": 90,
    "sides": [{"meld": 10, "tricks": 30}, {"meld": 8, "tricks": 18, "last_trick": True}],
}


def totals(client: FlaskClient, public_id: str) -> dict[str, str]:
    html = client.get(f"/m/{public_id}").get_data(as_text=True)
    found = re.findall(r'total-name">([^<]*)</span>\s*<span class="total-points[^"]*">([^<]*)<', html)
    return dict(found)


def cached_page(app: Flask, public_id: str) -> SheetPage | None:
    with app.app_context():
        version = store.match_version(public_id)
        assert version is not None
        return sheet_cache().get(public_id, version)


def test_a_second_view_of_the_same_version_is_served_from_the_cache(
        app: Flask, client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    client.get(f"/m/{public_id}")  # the view right after a save says so, once
    first = client.get(f"/m/{public_id}")
    kept = cached_page(app, public_id)
    assert kept is not None
    second = client.get(f"/m/{public_id}")
    assert cached_page(app, public_id) is kept  # not drawn again
    assert second.get_data() == first.get_data() == kept.page.body


@pytest.mark.parametrize("write", ["add", "edit", "delete", "rules"])
def test_every_write_shows_on_the_next_view(client: FlaskClient, actions: Actions, write: str) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    actions.add_deal(public_id, 1, 55, (38, 51))
    assert totals(client, public_id) == {"We": "105", "They": "−35"}
    if write == "add":
        actions.add_deal(public_id, 0, 50, (60, 10))
        expected = {"We": "165", "They": "−25"}
    elif write == "edit":
        values = actions.deal_form(public_id, 2) | {"sides-1-total": "56"}
        assert client.post(f"/m/{public_id}/deals/2/edit", data=values).status_code == 302
        expected = {"We": "105", "They": "76"}
    elif write == "delete":
        version = actions.deal_form(public_id, 2)["version"]
        assert client.post(f"/m/{public_id}/deals/2/delete", data={"version": version}).status_code == 302
        expected = {"We": "67", "They": "20"}
    else:
        values = form_values(client.get(f"/m/{public_id}/rules")) | {"rules-min_bid": "20", "confirm": "yes"}
        assert client.post(f"/m/{public_id}/rules", data=values).status_code == 302
        expected = {"We": "105", "They": "−35"}
        assert "Playing to 500" in client.get(f"/m/{public_id}").get_data(as_text=True)
    assert totals(client, public_id) == expected


def test_a_write_made_by_another_process_shows_too(app: Flask, client: FlaskClient, actions: Actions) -> None:
    """Another process has its own cache; the version in the database tells this one to redraw."""
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    assert totals(client, public_id) == {"We": "67", "They": "20"}
    other = create_app({"TESTING": True, "DATABASE_URL": app.config["DATABASE_URL"], "SECRET_KEY": "x",
                        "WTF_CSRF_ENABLED": False})
    try:
        Actions(other.test_client()).add_deal(public_id, 1, 55, (38, 51))
    finally:
        other.extensions["scorekeeper.engine"].dispose()
    assert totals(client, public_id) == {"We": "105", "They": "−35"}


def test_the_cache_keeps_at_most_its_size(database_url: str, tmp_path: Any) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "SHEET_CACHE_SIZE": 2, "INSTANCE_PATH": str(tmp_path)})
    try:
        client = app.test_client()
        ids = [Actions(client).create_match(name=f"m{n}") for n in range(3)]
        for public_id in ids:
            client.get(f"/m/{public_id}")
        assert len(app.extensions["scorekeeper.sheet_cache"]) == 2
        assert cached_page(app, ids[0]) is None  # the least recently viewed went first
        assert cached_page(app, ids[2]) is not None
        assert client.get(f"/m/{ids[0]}").status_code == 200  # and is simply drawn again
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def _page(public_id: str, version: int) -> SheetPage:
    match = make_match([])
    return SheetPage.drawn(public_id, version, match, SheetView.of(match), "")


def test_an_older_version_never_replaces_a_newer_one() -> None:
    cache = SheetCache(4)
    cache.put(_page("a", 3))
    cache.put(_page("a", 2))  # a slow request that loaded version 2 finishes last
    assert cache.get("a", 2) is None
    assert cache.get("a", 3) is not None


def test_each_match_keeps_only_its_newest_version() -> None:
    cache = SheetCache(4)
    for version in (1, 2, 3):
        cache.put(_page("a", version))
    assert len(cache) == 1
    assert cache.get("a", 3) is not None and cache.get("a", 1) is None


def test_size_zero_turns_the_cache_off() -> None:
    cache = SheetCache(0)
    cache.put(_page("a", 1))
    assert cache.get("a", 1) is None


def _sized_page(public_id: str, html_bytes: int, version: int = 1) -> SheetPage:
    match = make_match([])
    return SheetPage.drawn(public_id, version, match, SheetView.of(match), "x" * html_bytes)


def test_a_page_counts_its_html_body_gzipped_and_facts() -> None:
    page = _sized_page("a", 10_000)
    assert page.size >= 10_000 + 10_000 + len(page.page.gzipped) + FACTS_BYTES_PER_DEAL


def test_a_page_counts_its_live_part_too() -> None:
    match = make_match([])
    html = "<p>head</p><!--live-->" + "y" * 5_000 + "<!--/live--><p>foot</p>"
    page = SheetPage.drawn("a", 1, match, SheetView.of(match), html)
    assert page.live.body == b"y" * 5_000
    assert page.size >= len(html) * 2 + 5_000 + len(page.page.gzipped) + len(page.live.gzipped)


def test_the_cache_keeps_at_most_its_bytes_dropping_the_least_recently_used() -> None:
    one = _sized_page("a", 1000).size
    cache = SheetCache(64, max_bytes=3 * one)
    for public_id in "abc":
        cache.put(_sized_page(public_id, 1000))
    assert cache.get("a", 1) is not None  # a is now the most recently used
    cache.put(_sized_page("d", 1000))
    assert cache.get("b", 1) is None and all(cache.get(key, 1) for key in "acd")
    assert cache.bytes == 3 * one <= cache.max_bytes
    cache.put(_sized_page("e", 1500))  # larger: two go to make room
    assert len(cache) == 2 and cache.bytes <= cache.max_bytes


def test_a_page_larger_than_the_whole_budget_is_not_kept() -> None:
    cache = SheetCache(64, max_bytes=10_000)
    cache.put(_sized_page("small", 100))
    cache.put(_sized_page("huge", 20_000))
    assert cache.get("huge", 1) is None and cache.get("small", 1) is not None


def test_the_budget_in_bytes_is_configurable(database_url: str, tmp_path: Any) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "x",
                      "SHEET_CACHE_BYTES": 12345, "INSTANCE_PATH": str(tmp_path)})
    try:
        assert app.extensions["scorekeeper.sheet_cache"].max_bytes == 12345
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_readers_missing_the_same_version_at_once_draw_it_once() -> None:
    cache = SheetCache(4)
    drawn: list[int] = []
    start = threading.Barrier(8)

    def draw() -> SheetPage:
        drawn.append(1)
        time.sleep(0.05)  # long enough for every reader to miss meanwhile
        return _page("a", 2)

    pages: list[SheetPage] = []

    def read() -> None:
        start.wait()
        pages.append(cache.page("a", 2, draw))

    readers = [threading.Thread(target=read) for _ in range(8)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(timeout=10)
    assert len(drawn) == 1 and len(pages) == 8 and all(page is pages[0] for page in pages)


def test_a_reader_of_a_newer_version_does_not_wait_for_an_older_one_and_a_failed_draw_is_redone() -> None:
    cache = SheetCache(4)
    cache.put(_page("a", 1))
    assert cache.page("a", 2, lambda: _page("a", 2)).version == 2

    def broken() -> SheetPage:
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        cache.page("a", 3, broken)
    assert cache.page("a", 3, lambda: _page("a", 3)).version == 3


# ETag and 304 ------------------------------------------------------------------------------------

def test_a_reload_of_an_unchanged_match_is_answered_304(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    first = client.get(f"/m/{public_id}")
    etag = first.headers["ETag"]
    assert etag.startswith('W/"') and "private" in first.headers["Cache-Control"]
    again = client.get(f"/m/{public_id}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    actions.add_deal(public_id, 0, 60, (67, 20))
    client.get(f"/m/{public_id}")  # the view right after a save says so, once
    changed = client.get(f"/m/{public_id}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_a_page_with_a_message_is_sent_whole_and_not_kept(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    etag = client.get(f"/m/{public_id}").headers["ETag"]
    unchanged = form_values(client.get(f"/m/{public_id}/rules")) | {"confirm": "yes"}
    client.post(f"/m/{public_id}/rules", data=unchanged)  # a message for the next page; same version
    with_message = client.get(f"/m/{public_id}", headers={"If-None-Match": etag})
    assert with_message.status_code == 200
    assert "The house rules are unchanged." in with_message.get_data(as_text=True)
    assert "ETag" not in with_message.headers and with_message.headers["Cache-Control"] == "no-store"
    plain = client.get(f"/m/{public_id}", headers={"If-None-Match": etag})
    assert plain.status_code == 304


def test_a_phone_that_accepts_gzip_gets_the_page_compressed(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    client.get(f"/m/{public_id}")  # the view right after a save says so, once
    plain = client.get(f"/m/{public_id}")
    packed = client.get(f"/m/{public_id}", headers={"Accept-Encoding": "gzip, deflate"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert len(packed.get_data()) < len(plain.get_data()) / 2
    for response in (plain, packed):
        assert "Accept-Encoding" in response.headers["Vary"] and response.headers["ETag"] == plain.headers["ETag"]


# Sessions ----------------------------------------------------------------------------------------

@pytest.fixture
def csrf_app(database_url: str, tmp_path: Any) -> Any:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": True, "INSTANCE_PATH": str(tmp_path)})
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def _dead_contract_match(app: Flask) -> str:
    with app.app_context():
        return store.create_match(make_match([DEAD_DEAL])).public_id


def _offer(client: FlaskClient, public_id: str) -> tuple[str, str]:
    """The CSRF token and the version in the dead-contract offer this client is shown."""
    html = client.get(f"/m/{public_id}?dead=1").get_data(as_text=True)
    found = re.search(r'id="dead-contract".*?name="csrf_token" value="([^"]+)".*?name="version" value="(\d+)"',
                      html, re.S)
    assert found, html
    return found.group(1), found.group(2)


def test_two_sessions_never_see_each_others_csrf_token(csrf_app: Flask) -> None:
    public_id = _dead_contract_match(csrf_app)
    ann, bob = csrf_app.test_client(), csrf_app.test_client()
    (ann_token, version), (bob_token, _) = _offer(ann, public_id), _offer(bob, public_id)
    assert ann_token != bob_token
    kept = cached_page(csrf_app, public_id)
    assert kept is not None and "csrf_token" not in kept.html
    refused = bob.post(f"/m/{public_id}/deals/1/throw-in", data={"csrf_token": ann_token, "version": version})
    assert refused.status_code == 400
    accepted = bob.post(f"/m/{public_id}/deals/1/throw-in", data={"csrf_token": bob_token, "version": version})
    assert accepted.status_code == 302


def test_the_sheet_has_no_form_but_the_dead_contract_offer(csrf_app: Flask) -> None:
    """Every form of the score sheet carries a CSRF token: the offer is the only one, the rest are links."""
    public_id = _dead_contract_match(csrf_app)
    client = csrf_app.test_client()
    assert "<form" not in client.get(f"/m/{public_id}").get_data(as_text=True)
    forget = client.get(f"/m/{public_id}/forget").get_data(as_text=True)
    assert forget.count("<form") == 1 and 'name="csrf_token"' in forget
    assert client.post(f"/m/{public_id}/forget").status_code == 400


def test_viewing_the_sheet_again_does_not_rewrite_the_session_cookie(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    assert "Set-Cookie" not in client.get(f"/m/{public_id}").headers  # already at the top of the list
    actions.create_match(name="Other")
    assert "Set-Cookie" in client.get(f"/m/{public_id}").headers  # the list changed order
    assert "Set-Cookie" not in client.get(f"/m/{public_id}").headers


def test_the_cookie_is_renewed_once_a_month_to_keep_its_year(client: FlaskClient, actions: Actions) -> None:
    from datetime import date

    from scorekeeper.device import RENEW_AFTER_DAYS, RENEWED_KEY

    public_id = actions.create_match()
    with client.session_transaction() as session:
        session[RENEWED_KEY] = date.today().toordinal() - RENEW_AFTER_DAYS
    assert "Set-Cookie" in client.get(f"/m/{public_id}").headers
    assert "Set-Cookie" not in client.get(f"/m/{public_id}").headers


def _page_in_a_new_process(database_url: str, tmp_path: Any, public_id: str) -> bytes:
    """The sheet as an app that has drawn nothing yet draws it."""
    fresh = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                        "INSTANCE_PATH": str(tmp_path / "fresh"), "RATELIMIT_ENABLED": False})
    body = fresh.test_client().get(f"/m/{public_id}", headers={"Cookie": ""}).get_data()
    fresh.extensions["scorekeeper.engine"].dispose()
    return body


@pytest.mark.parametrize("write", ["add", "edit", "delete"])
def test_a_new_version_redraws_only_the_rows_whose_line_changed(
        app: Flask, client: FlaskClient, actions: Actions, database_url: str, tmp_path: Any, write: str) -> None:
    public_id = actions.create_match()
    with app.app_context():
        auth = {"Authorization": f"Bearer {store.get_match_or_404(public_id).edit_token}"}
    deals = f"/api/v1/matches/{public_id}/deals"
    for bidder, bid, we, they in ((0, 60, 67, 20), (1, 55, 38, 51), (0, 50, 60, 30), (1, 70, 20, 90)):
        assert client.post(deals, json=quick(bidder, bid, we, they), headers=auth).status_code == 201
    client.get(f"/m/{public_id}")
    before = cached_page(app, public_id)
    assert before is not None and len(before.rows) == 4
    if write == "add":
        assert client.post(deals, json=quick(0, 65, 70, 10), headers=auth).status_code == 201
        unchanged = [1, 2, 3, 4]
    elif write == "edit":  # deal 3 changes, and the running totals after it: deal 4's row only gets new ones
        assert client.put(f"{deals}/3", json=quick(0, 50, 10, 80), headers=auth).status_code == 200
        unchanged = [1, 2, 4]
    else:
        assert client.delete(f"{deals}/4", headers=auth).status_code == 200
        unchanged = [1, 2, 3]
    page = client.get(f"/m/{public_id}")
    after = cached_page(app, public_id)
    assert after is not None and after.version > before.version
    kept = [line for line, html in after.rows.items() if before.rows.get(line) is html]
    assert [line.number for line in kept] == unchanged
    # What is put together from kept rows is the page a process drawing it afresh makes.
    fresh = _page_in_a_new_process(database_url, tmp_path, public_id)
    assert _without_session_parts(page.get_data()) == _without_session_parts(fresh)


def quick(bidder: int, bid: int, we: int, they: int) -> dict[str, object]:
    return {"bidder": bidder, "bid": bid, "sides": [{"total": we}, {"total": they}]}


def _without_session_parts(body: bytes) -> bytes:
    return re.sub(rb'<div class="flashes".*?</div>|name="(csrf_token|write_key)" value="[^"]*"', b"", body, flags=re.S)
