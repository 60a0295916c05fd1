"""Addresses are built once and remembered, and a remembered one is always the address Flask builds."""

from __future__ import annotations

from flask import Flask, url_for


def test_a_remembered_address_is_the_one_built(app: Flask) -> None:
    asked = [("matches.sheet", {"public_id": "abc"}), ("static", {"filename": "style.css"}),
             ("deals.edit", {"public_id": "abc", "number": 3}), ("matches.sheet", {"public_id": "abc", "dead": 2})]
    with app.test_request_context("/"):
        first = [url_for(endpoint, **values) for endpoint, values in asked]
        again = [url_for(endpoint, **values) for endpoint, values in asked]
    assert first == again
    assert first[0] == "/m/abc" and first[3] == "/m/abc?dead=2"
    assert first[1].startswith("/static/style.css?v=")


def test_an_address_under_another_script_root_is_built_for_it(app: Flask) -> None:
    with app.test_request_context("/"):
        assert url_for("matches.sheet", public_id="abc") == "/m/abc"
    with app.test_request_context("/", environ_overrides={"SCRIPT_NAME": "/score"}):
        assert url_for("matches.sheet", public_id="abc") == "/score/m/abc"


def test_values_equal_in_python_but_written_differently_are_kept_apart(app: Flask) -> None:
    with app.test_request_context("/"):
        assert url_for("matches.sheet", public_id="abc", dead=1) == "/m/abc?dead=1"
        assert url_for("matches.sheet", public_id="abc", dead=True) == "/m/abc?dead=True"


def test_absolute_addresses_are_built_every_time(app: Flask) -> None:
    with app.test_request_context("/", base_url="http://one.example"):
        assert url_for("matches.sheet", public_id="abc", _external=True) == "http://one.example/m/abc"
    with app.test_request_context("/", base_url="http://two.example"):
        assert url_for("matches.sheet", public_id="abc", _external=True) == "http://two.example/m/abc"
