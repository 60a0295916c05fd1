"""Sample matches: offered on the home page of a phone with none, each tap its own copy."""

from __future__ import annotations

import re

from conftest import Actions
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.models import MatchRow
from scorekeeper.samples import bundled_samples, sample_public_id


def match_count(app: Flask) -> int:
    with app.app_context():
        return get_session().scalar(select(func.count()).select_from(MatchRow)) or 0


def test_an_empty_home_page_offers_every_sample(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert "Try a sample match" in html
    for key, sample in bundled_samples().items():
        assert f'action="/samples/{key}"' in html
        assert sample.match.name.replace("'", "&#39;") in html


def test_trying_a_sample_gives_this_phone_its_own_copy_in_its_list(app: Flask, client: FlaskClient) -> None:
    key, sample = next(iter(bundled_samples().items()))
    answer = client.post(f"/samples/{key}")
    assert answer.status_code == 302
    public_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert public_id != sample_public_id(app.config["SECRET_KEY"], key)  # not the seeded one
    home = client.get("/").get_data(as_text=True)
    assert f'href="/m/{public_id}"' in home and "Try a sample match" not in home
    other = app.test_client()
    again = other.post(f"/samples/{key}").headers["Location"].rsplit("/", 1)[1]
    assert again != public_id and match_count(app) == 2
    sheet = client.get(f"/m/{public_id}").get_data(as_text=True)
    assert re.search(r"Playing to \d+ · \d+ deals", sheet)


def test_a_phone_with_matches_is_not_offered_samples(client: FlaskClient, actions: Actions) -> None:
    actions.create_match()
    assert "Try a sample match" not in client.get("/").get_data(as_text=True)


def test_an_unknown_sample_is_404_and_makes_nothing(app: Flask, client: FlaskClient) -> None:
    assert client.post("/samples/no-such-sample").status_code == 404
    assert match_count(app) == 0


def test_a_seeded_samples_link_depends_on_the_secret_key() -> None:
    assert sample_public_id("one", "worked-sheet") == sample_public_id("one", "worked-sheet")
    assert sample_public_id("one", "worked-sheet") != sample_public_id("two", "worked-sheet")
    assert sample_public_id("one", "worked-sheet") != sample_public_id("one", "single-deck-1500")
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", sample_public_id("one", "worked-sheet"))


def test_a_match_without_a_name_takes_the_phones_date_within_a_day_of_utc(app: Flask, client: FlaskClient) -> None:
    """The phone sends its own date (static/new_match.js); a date far from today's in UTC is not believed."""
    from datetime import UTC, datetime, timedelta

    from conftest import form_values

    today = datetime.now(UTC).date()
    for sent, named in ((today - timedelta(days=1), today - timedelta(days=1)), ("2001-01-01", today),
                        ("not a date", today), ("", today)):
        data = form_values(client.get("/matches/new")) | {"name": "", "local_date": str(sent)}
        answer = client.post("/matches/new", data=data)
        html = client.get(answer.headers["Location"]).get_data(as_text=True)
        assert f"We v They, {named:%d %b %Y}" in html, sent
