"""Each form the phone may keep with no network says what it is (``data-outbox``) and, for a deal's form, which
deal (``data-outbox-deal``), as the server drew it: the outbox labels and replays a kept form by that, not by
its address."""

from __future__ import annotations

import re

from conftest import Actions
from flask.testing import FlaskClient


def kept_forms(client: FlaskClient, path: str) -> list[tuple[str, str | None]]:
    page = client.get(path).get_data(as_text=True)
    forms = re.findall(r"<form\b[^>]*\bdata-outbox=\"([a-z_]+)\"([^>]*)>", page)
    return [(kind, (re.findall(r'data-outbox-deal="(\d+)"', rest) or [None])[0]) for kind, rest in forms]


def test_each_kept_form_says_what_it_is(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    assert actions.add_deal(public_id, 0, 50, (60, 20)).status_code == 302
    assert kept_forms(client, f"/m/{public_id}/deals/new") == [("add", None)]
    assert kept_forms(client, f"/m/{public_id}/deals/1/edit") == [("edit", "1")]
    assert kept_forms(client, f"/m/{public_id}/deals/1/delete") == [("delete", "1")]
    assert ("rules", None) in kept_forms(client, f"/m/{public_id}/rules")
    assert {kind for kind, _ in kept_forms(client, f"/m/{public_id}/rules/meld")} == {"meld_prices"}


def test_no_form_is_kept_unlabelled(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    assert actions.add_deal(public_id, 0, 50, (60, 20)).status_code == 302
    for path in ("/deals/new", "/deals/1/edit", "/deals/1/delete", "/rules", "/rules/meld", ""):
        page = client.get(f"/m/{public_id}{path}").get_data(as_text=True)
        assert not re.search(r"<form\b[^>]*\bdata-outbox[\s>]", page), path
