"""The score sheet is drawn once per version of a match: every write shows at once, nothing of one
session reaches another, the cache stays bounded, and phones revalidate with the version's ETag."""

from __future__ import annotations

import gzip
import json
import re
from typing import Any

import pytest
from conftest import Actions, form_values
from flask import Flask
from flask.testing import FlaskClient

from matches import make_match, match_file
from scorekeeper import create_app
from scorekeeper.sheet.cache import SheetCache, SheetPage, sheet_cache
from scorekeeper.store import reading, writing

pytestmark = pytest.mark.both_databases

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
        version = reading.match_version(public_id)
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


def test_many_versions_of_a_match_keep_the_cache_within_its_budget(database_url: str, tmp_path: Any) -> None:
    """One address stepping a match's version and reading its sheet, its API answer and its CSV: the cache
    keeps the bytes it answers with, never more than its budget, the least recently used going first."""
    budget = 60_000
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "SHEET_CACHE_BYTES": budget, "RATELIMIT_ENABLED": False,
                      "INSTANCE_PATH": str(tmp_path)})
    try:
        client, cache = app.test_client(), app.extensions["scorekeeper.sheet_cache"]
        actions = Actions(client)
        public_id = actions.create_match()
        for number in range(12):
            actions.add_deal(public_id, number % 2, 50, (60, 10))
            for address in (f"/m/{public_id}", f"/api/v1/matches/{public_id}", f"/m/{public_id}/export.csv"):
                assert client.get(address).status_code == 200
            assert 0 < cache.nbytes <= budget
        assert cache.nbytes == sum(entry.nbytes for entry in cache._entries.values())
        assert len(cache) < 3 * 12  # older versions went
        assert cached_page(app, public_id) is not None  # the latest one is kept
        with app.app_context():
            version = reading.match_version(public_id)
            assert cache.get(f"api:{public_id}", version) is not None
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def _page(version: int, text: str = "live") -> SheetPage:
    return SheetPage.drawn(version, f"<p>head</p><!--live--><p>{text}</p><!--/live-->")


def test_a_page_is_kept_by_match_and_version() -> None:
    cache = SheetCache(10**6)
    drawn: list[int] = []

    def draw(version: int) -> SheetPage:
        drawn.append(version)
        return _page(version)

    first = cache.page("a", 1, lambda: draw(1))
    assert cache.page("a", 1, lambda: draw(1)) is first and drawn == [1]
    assert cache.page("a", 2, lambda: draw(2)).version == 2 and drawn == [1, 2]
    assert cache.page("b", 1, lambda: draw(1)) is not first and drawn == [1, 2, 1]
    assert first.live.body == b"<p>live</p>" and gzip.decompress(first.live.gzipped) == b"<p>live</p>"


def test_the_least_recently_used_pages_go_first_and_a_budget_of_zero_keeps_none() -> None:
    size = _page(1).nbytes
    cache = SheetCache(2 * size)
    for key in "abc":
        cache.page(key, 1, lambda: _page(1))
    assert len(cache) == 2 and cache.get("a", 1) is None and cache.get("c", 1) is not None
    assert cache.nbytes == 2 * size
    off = SheetCache(0)
    off.page("a", 1, lambda: _page(1))
    assert len(off) == 0 and off.nbytes == 0


def test_a_page_larger_than_the_budget_is_sent_but_not_kept() -> None:
    cache = SheetCache(_page(1).nbytes * 3)
    cache.page("small", 1, lambda: _page(1))
    large = cache.page("large", 1, lambda: _page(1, "x" * 10**5))
    assert large.live.body.startswith(b"<p>xxx")
    assert cache.get("large", 1) is None and cache.get("small", 1) is not None


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
        return writing.create_match(make_match([DEAD_DEAL])).public_id


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
    assert kept is not None and b"csrf_token" not in kept.page.body
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


# The API's match and the downloads ---------------------------------------------------------------

def test_the_apis_match_is_kept_once_per_version_and_per_host_its_links_name(database_url: str, tmp_path: Any) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                      "RATELIMIT_ENABLED": False, "TRUSTED_HOSTS": ["score.example.org", "score.example.net"],
                      "INSTANCE_PATH": str(tmp_path)})
    try:
        client = app.test_client()
        created = client.post("/api/v1/matches", json=match_file([]), headers={"Host": "score.example.org"})
        public_id = created.get_json()["id"]
        for host in ("score.example.org", "score.example.net", "score.example.org"):
            answer = client.get(f"/api/v1/matches/{public_id}", headers={"Host": host, "Accept-Encoding": "gzip"})
            assert answer.headers["Content-Encoding"] == "gzip" and answer.headers["ETag"] == '"1"'
            links = json.loads(gzip.decompress(answer.get_data()))["links"]
            assert links["self"] == f"http://{host}/api/v1/matches/{public_id}"
        assert len(app.extensions["scorekeeper.sheet_cache"]) == 2
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_a_download_is_kept_for_its_version_and_follows_every_write(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 60, (67, 20))
    first = client.get(f"/m/{public_id}/export.csv")
    assert first.headers["Content-Disposition"].startswith('attachment; filename="') and first.mimetype == "text/csv"
    assert client.get(f"/m/{public_id}/export.csv").get_data() == first.get_data()
    actions.add_deal(public_id, 1, 55, (38, 51))
    after = client.get(f"/m/{public_id}/export.csv").get_data(as_text=True)
    assert after.count("\n") == first.get_data(as_text=True).count("\n") + 1


def test_a_gzip_is_made_for_a_client_that_accepts_it_and_counted_from_then_on() -> None:
    text = "a sheet row " * 200
    page = _page(1, text)
    cache = SheetCache(page.nbytes + len(text))
    kept = cache.page("a", 1, lambda: page)
    plain = cache.nbytes
    assert plain == page.nbytes and kept.live._gzipped is None  # noqa: SLF001 - nothing compressed yet
    assert gzip.decompress(kept.live.gzipped).decode() == f"<p>{text}</p>"
    assert cache.nbytes == plain + len(kept.live.gzipped) == kept.nbytes
    cache.page("b", 1, lambda: _page(1, text))  # no room for both: the least recently used goes
    assert cache.get("a", 1) is None and cache.nbytes == cache.get("b", 1).nbytes  # type: ignore[union-attr]
