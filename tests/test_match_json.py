"""The API's answers that carry a whole match are the bytes ``jsonify`` gives for the same body, though
their deals and lines are put together from parts kept between answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, jsonify
from flask.testing import FlaskClient

from scorekeeper.rules.matchfile import match_from_json, match_to_json
from scorekeeper.rules.scoring import score_match

SEEDS = sorted((Path(__file__).resolve().parent.parent / "seeds").glob("*.json"))


def jsonify_bytes(app: Flask, answer: dict[str, Any]) -> bytes:
    """What ``jsonify`` gives for the answer's body worked out afresh from its match file."""
    match = match_from_json(answer["match"])
    body = {key: value for key, value in answer.items() if key not in ("match", "sheet")}
    body |= {"match": match_to_json(match), "sheet": score_match(match).to_json()}
    with app.test_request_context():
        return jsonify(body).get_data()


@pytest.mark.parametrize("seed", SEEDS, ids=lambda path: path.stem)
def test_an_answer_is_what_jsonify_gives(app: Flask, client: FlaskClient, seed: Path) -> None:
    created = client.post("/api/v1/matches", json=json.loads(seed.read_text()))
    assert created.status_code == 201
    assert created.get_data() == jsonify_bytes(app, created.get_json())
    public_id, auth = created.get_json()["id"], {"Authorization": f"Bearer {created.get_json()['edit_token']}"}
    deals = created.get_json()["match"]["deals"]
    if not deals:
        return
    # A correction of the first deal moves every later line: most parts are new, the deals' are kept.
    first = {key: value for key, value in deals[0].items() if key != "entered_under"}
    for answer in (client.put(f"/api/v1/matches/{public_id}/deals/1", json=first, headers=auth),
                   client.get(f"/api/v1/matches/{public_id}"),
                   client.delete(f"/api/v1/matches/{public_id}/deals/{len(deals)}", headers=auth)):
        assert answer.status_code == 200, answer.get_data()
        assert answer.get_data() == jsonify_bytes(app, answer.get_json())


def test_readable_output_in_debug_mode_is_jsonify_too(app: Flask, client: FlaskClient) -> None:
    app.debug = True
    seed = json.loads(SEEDS[0].read_text())
    created = client.post("/api/v1/matches", json=seed)
    assert created.status_code == 201
    assert b'\n  "id"' in created.get_data()  # indented, as Flask writes for people
    assert created.get_data() == jsonify_bytes(app, created.get_json())
