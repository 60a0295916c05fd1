"""Export as match file and CSV, and import of a match file with its problems shown by place."""

from __future__ import annotations

import copy
import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.models import MatchRow
from scorekeeper.rules.matchfile import loads_match, match_from_json
from scorekeeper.rules.scoring import score_match

pytestmark = pytest.mark.both_databases

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
WORKED_TEXT = (SEEDS / "worked-sheet.json").read_text(encoding="utf-8")
WORKED: dict[str, Any] = json.loads(WORKED_TEXT)


def create(client: FlaskClient, data: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/matches", json=data)
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def match_count(app: Flask) -> int:
    with app.app_context():
        return int(get_session().scalar(select(func.count()).select_from(MatchRow)) or 0)


def field_error(html: str, field: str) -> str:
    start = html.index(f'id="{field}-error"')
    return html[start: html.index("</p>", start)]


# Export ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", sorted(SEEDS.glob("*.json")), ids=lambda path: path.name)
def test_exported_match_file_reads_back_as_the_same_match(client: FlaskClient, seed: Path) -> None:
    created = create(client, json.loads(seed.read_text(encoding="utf-8")))
    response = client.get(f"/m/{created['id']}/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    assert loads_match(response.get_data(as_text=True)) == loads_match(seed.read_text(encoding="utf-8"))


def test_export_file_name_comes_from_the_match_name(client: FlaskClient) -> None:
    created = create(client, {**WORKED, "name": "Friday at Ann's / \"best\""})
    disposition = client.get(f"/m/{created['id']}/export.json").headers["Content-Disposition"]
    assert disposition == 'attachment; filename="friday-at-ann-s-best.json"'


def test_the_more_page_of_the_score_sheet_links_both_exports(client: FlaskClient) -> None:
    created = create(client, WORKED)
    assert f'href="/m/{created["id"]}/more"' in client.get(f"/m/{created['id']}").get_data(as_text=True)
    html = client.get(f"/m/{created['id']}/more").get_data(as_text=True)
    for kind in ("json", "csv"):
        link = f'href="/m/{created["id"]}/export.{kind}"'
        assert link in html
        assert client.get(f"/m/{created['id']}/export.{kind}").status_code == 200


def test_csv_is_the_worked_sheet(client: FlaskClient) -> None:
    created = create(client, WORKED)
    response = client.get(f"/m/{created['id']}/export.csv")
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == 'attachment; filename="worked-score-sheet.csv"'
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["deal", "bidder", "bid", "status", "We score", "We total", "They score", "They total",
                       "after end"]
    # RULES.md worked sheet: the set deal 2 costs They their bid of 55
    assert rows[1:] == [
        ["1", "We", "60", "made", "67", "67", "20", "20", "no"],
        ["2", "They", "55", "set", "38", "105", "-55", "-35", "no"],
        ["3", "We", "80", "made", "95", "200", "15", "-20", "no"],
        ["4", "They", "70", "made", "30", "230", "84", "64", "no"],
        ["5", "We", "75", "made", "88", "318", "12", "76", "no"],
    ]


def test_csv_marks_deals_after_the_end_and_passed_deals(client: FlaskClient) -> None:
    data = copy.deepcopy(WORKED)
    data["deals"] += [{"passed": True}]
    created = create(client, data)
    rows = list(csv.reader(io.StringIO(client.get(f"/m/{created['id']}/export.csv").get_data(as_text=True))))
    assert rows[6] == ["6", "", "", "passed", "", "", "", "", "yes"]


def test_csv_keeps_a_side_name_from_reading_as_a_formula(client: FlaskClient) -> None:
    data = copy.deepcopy(WORKED)
    data["sides"][1]["name"] = "=HYPERLINK(1)"
    created = create(client, data)
    rows = list(csv.reader(io.StringIO(client.get(f"/m/{created['id']}/export.csv").get_data(as_text=True))))
    assert rows[0][6] == "'=HYPERLINK(1) score"
    assert rows[2][1] == "'=HYPERLINK(1)"


@pytest.mark.parametrize("kind", ["json", "csv"])
def test_export_of_unknown_match_is_404(client: FlaskClient, kind: str) -> None:
    assert client.get(f"/m/nosuchmatch/export.{kind}").status_code == 404


# Import ----------------------------------------------------------------------------------------------

def test_import_page_offers_upload_and_paste(client: FlaskClient) -> None:
    html = client.get("/import").get_data(as_text=True)
    assert 'type="file"' in html and "<textarea" in html and 'enctype="multipart/form-data"' in html


def test_pasted_match_is_created_remembered_and_shown(app: Flask, client: FlaskClient) -> None:
    response = client.post("/import", data={"text": WORKED_TEXT})
    assert response.status_code == 302
    public_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert response.headers["Location"].endswith(f"/m/{public_id}")
    with client.session_transaction() as session:
        assert session["matches"][0] == public_id
    body = client.get(f"/api/v1/matches/{public_id}").get_json()
    assert match_from_json(body["match"]) == match_from_json(WORKED)
    assert body["sheet"]["winner"] == 0


def test_uploaded_file_is_imported(app: Flask, client: FlaskClient) -> None:
    seed = SEEDS / "single-deck-1500.json"
    response = client.post("/import", data={"file": (seed.open("rb"), seed.name)},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    public_id = response.headers["Location"].rsplit("/", 1)[-1]
    exported = client.get(f"/m/{public_id}/export.json").get_data(as_text=True)
    assert score_match(loads_match(exported)) == score_match(loads_match(seed.read_text(encoding="utf-8")))


def with_deal(index: int, **changes: Any) -> str:
    data = copy.deepcopy(WORKED)
    data["deals"][index].update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ('{"format": "pinochle-match/1", ', ["not valid JSON"]),
        (with_deal(3, sides=[{"total": 30}, {"meld": 4, "tricks": "lots"}]), ["deals[3].sides[1].tricks:"]),
        (with_deal(1, bid=40), ["deal 2: bid 40 is below the minimum opening bid of 50"]),
        (json.dumps({**WORKED, "rules": {"deck": "triple"}}), ["rules.deck:"]),
    ],
)
def test_pasted_problems_are_shown_by_place_and_nothing_is_stored(
    app: Flask, client: FlaskClient, text: str, fragments: list[str]
) -> None:
    response = client.post("/import", data={"text": text})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    message = field_error(html, "text")
    for fragment in fragments:
        assert str(fragment).replace("'", "&#39;") in message
    assert 'aria-invalid="true"' in html
    assert match_count(app) == 0


def test_numbers_too_large_to_store_are_refused(app: Flask, client: FlaskClient) -> None:
    text = with_deal(0, bid=10**30, sides=[{"total": 10**30}, {"total": 20}])
    html = client.post("/import", data={"text": text}).get_data(as_text=True)
    assert "deals[0].bid: must be at most" in field_error(html, "text")
    assert match_count(app) == 0


def test_several_contradictions_name_every_deal(client: FlaskClient) -> None:
    data = copy.deepcopy(WORKED)
    data["deals"][1]["bid"] = 40
    data["deals"][3]["bid"] = 30
    message = field_error(client.post("/import", data={"text": json.dumps(data)}).get_data(as_text=True), "text")
    assert "deal 2:" in message and "deal 4:" in message


def test_pasted_text_is_kept_and_escaped_after_an_error(client: FlaskClient) -> None:
    html = client.post("/import", data={"text": '{"name": "<b>x</b>"'}).get_data(as_text=True)
    assert "<b>x</b>" not in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html


def test_uploaded_file_problems_are_shown_at_the_file_field(app: Flask, client: FlaskClient) -> None:
    response = client.post("/import", data={"file": (io.BytesIO(b"\xff\xfe\x00"), "m.json")},
                           content_type="multipart/form-data")
    assert "not a text file" in field_error(response.get_data(as_text=True), "file")
    bad = with_deal(0, bid="sixty").encode()
    response = client.post("/import", data={"file": (io.BytesIO(bad), "m.json")}, content_type="multipart/form-data")
    assert "deals[0].bid:" in field_error(response.get_data(as_text=True), "file")
    assert match_count(app) == 0


def test_nothing_chosen_asks_for_a_file(client: FlaskClient) -> None:
    html = client.post("/import", data={"text": "  "}).get_data(as_text=True)
    assert "Choose a match file or paste one." in field_error(html, "text")


def test_import_is_not_remembered_when_it_fails(client: FlaskClient) -> None:
    client.post("/import", data={"text": "{}"})
    with client.session_transaction() as session:
        assert not session.get("matches")
