"""A note on a deal: kept with the deal through the match file, the form and the API; a file without one reads."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import Actions
from flask.testing import FlaskClient

from scorekeeper.rules.errors import MatchFileError
from scorekeeper.rules.matchfile import match_from_json, match_to_json
from scorekeeper.rules.problems import ProblemCode
from scorekeeper.rules.scoring import score_match

ROOT = Path(__file__).resolve().parents[1]

FILE: dict[str, Any] = {
    "format": "pinochle-match/1",
    "sides": [{"name": "We", "players": []}, {"name": "They", "players": []}],
    "deals": [
        {"bidder": 1, "bid": 250, "note": " Misdeal, redealt ", "sides": [{"total": 90}, {"total": 300}]},
        {"bidder": 0, "bid": 260, "sides": [{"total": 310}, {"total": 40}]},
    ],
}


def test_the_note_is_kept_tidied_and_written_back() -> None:
    match = match_from_json(FILE)
    assert [deal.note for deal in match.deals] == ["Misdeal, redealt", None]
    assert match_to_json(match)["deals"][0]["note"] == "Misdeal, redealt"
    assert "note" not in match_to_json(match)["deals"][1]  # a file written before notes reads as before
    assert match_from_json(match_to_json(match)) == match


def test_the_note_changes_no_score() -> None:
    bare = copy.deepcopy(FILE)
    del bare["deals"][0]["note"]
    assert score_match(match_from_json(FILE)) == score_match(match_from_json(bare))


@pytest.mark.parametrize(("note", "code"), [("x" * 201, ProblemCode.TOO_LONG), (7, ProblemCode.WRONG_TYPE)])
def test_a_bad_note_is_refused_at_its_place(note: object, code: ProblemCode) -> None:
    data = copy.deepcopy(FILE)
    data["deals"][0]["note"] = note
    with pytest.raises(MatchFileError) as caught:
        match_from_json(data)
    assert (caught.value.problem.code, caught.value.problem.path) == (code, "deals[0].note")


def test_a_note_typed_in_the_form_is_stored_and_shown_again(client: FlaskClient, actions: Actions) -> None:
    public_id = actions.create_match()
    actions.add_deal(public_id, 0, 50, (60, 20))
    values = actions.deal_form(public_id, 1)
    values["note"] = "Ann forgot the dix"
    assert client.post(f"/m/{public_id}/deals/1/edit", data=values).status_code == 302
    assert actions.deal_form(public_id, 1)["note"] == "Ann forgot the dix"
    deal = client.get(f"/api/v1/matches/{public_id}/deals/1").get_json()["deal"]
    assert deal["note"] == "Ann forgot the dix"


def test_the_api_takes_a_note_and_refuses_a_long_one(client: FlaskClient) -> None:
    created = client.post("/api/v1/matches", json=FILE).get_json()
    url = f"/api/v1/matches/{created['id']}"
    assert client.get(f"{url}/deals/1").get_json()["deal"]["note"] == "Misdeal, redealt"
    deal = {"bidder": 0, "bid": 50, "note": "y" * 201, "sides": [{"total": 60}, {"total": 20}]}
    refused = client.post(f"{url}/deals", json=deal, headers={"Authorization": f"Bearer {created['edit_token']}"})
    assert refused.status_code == 422
    assert (refused.get_json()["error"]["field"], refused.get_json()["error"]["code"]) == ("deal.note", "too_long")


def test_the_phone_fills_a_correction_form_with_the_note(deal_fields_of: Any) -> None:
    deal = {"bidder": 0, "bid": 50, "note": "Ann forgot the dix", "sides": [{"total": 60}, {"total": 20}]}
    assert ["note", "Ann forgot the dix"] in deal_fields_of(deal)


@pytest.fixture
def deal_fields_of() -> Any:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is missing")
    script = ('import { fieldsFromDeal } from "./static/js/offline/deal_fields.js";'
              "console.log(JSON.stringify(fieldsFromDeal(JSON.parse(process.argv[1]))));")

    def fields(deal: dict[str, Any]) -> list[list[str]]:
        run = subprocess.run([node, "--input-type=module", "-e", script, json.dumps(deal)], cwd=ROOT,
                             capture_output=True, text=True, check=True)
        return list(json.loads(run.stdout))
    return fields
