"""Tables through the API and the pages: players, rule cards, matches at a table, statistics, the table file.

Each test runs on SQLite and, when ``SCOREKEEPER_TEST_DATABASE_URL`` is set, on PostgreSQL.
"""

from __future__ import annotations

import re
from io import BytesIO
from typing import Any
from unittest.mock import ANY

import pytest
from conftest import form_values
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select
from sqlalchemy.exc import OperationalError

from scorekeeper import tables
from scorekeeper.db import get_session
from scorekeeper.models import MatchRow, TableRow

pytestmark = pytest.mark.both_databases

FOUR = ["Ann", "Bob", "Cy", "Di"]
FORMAT = "pinochle-match/1"


TOKENS: dict[str, str] = {}  # each table made here, by its id: its edit token


def new_table(client: FlaskClient, players: list[str] = FOUR, name: str = "Thursdays") -> tuple[str, str]:
    answer = client.post("/api/v1/tables", json={"name": name, "players": players})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    TOKENS[body["id"]] = body["token"]
    return body["id"], body["token"]


def bearer(table_id: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[table_id]}"}


def pairs(first: list[str], second: list[str]) -> list[dict[str, Any]]:
    return [{"name": " & ".join(first), "players": first}, {"name": " & ".join(second), "players": second}]


def start(client: FlaskClient, table_id: str, deals: list[dict[str, Any]], **extra: Any) -> Any:
    body = {"format": "pinochle-match/1", "table": table_id, "sides": pairs(["Ann", "Bob"], ["Cy", "Di"]),
            "deals": deals, **extra}
    return client.post("/api/v1/matches", json=body, headers=bearer(table_id))


def error_of(answer: Any) -> tuple[int, str | None, str | None]:
    body = answer.get_json()["error"]
    return answer.status_code, body["field"], body["code"]


# Worked out by hand: match 1, Ann bids 60 twice for Ann & Bob, who make it with 300 each time and
# reach 600 (won at deal 2). Match 2: Cy bids 70 for Cy & Di and makes it (280); Bob bids 80 and takes
# 40, so Ann & Bob are set (−80); Cy bids 70 again and Cy & Di reach 580: they win.
MATCH_ONE = [
    {"bidder": 0, "bid": 60, "bid_by": "Ann", "sides": [{"total": 300}, {"total": 50}]},
    {"bidder": 0, "bid": 60, "bid_by": "Ann", "sides": [{"total": 300}, {"total": 50}]},
]
MATCH_TWO = [
    {"bidder": 1, "bid": 70, "bid_by": "Cy", "sides": [{"total": 20}, {"total": 280}]},
    {"bidder": 0, "bid": 80, "bid_by": "Bob", "sides": [{"total": 40}, {"total": 100}]},
    {"bidder": 1, "bid": 70, "bid_by": "Cy", "sides": [{"total": 20}, {"total": 200}]},
]


def test_a_table_is_made_with_its_players_and_read_back(client: FlaskClient) -> None:
    answer = client.post("/api/v1/tables", json={"name": "Thursdays", "players": FOUR})
    assert answer.status_code == 201
    body = answer.get_json()
    assert len(body["id"]) == 22 and len(body["token"]) >= 32
    assert answer.headers["Location"].endswith(f"/api/v1/tables/{body['id']}")
    assert answer.headers["Cache-Control"] == "no-store"
    read = client.get(f"/api/v1/tables/{body['id']}").get_json()
    assert read["players"] == FOUR and read["name"] == "Thursdays" and read["matches"] == []
    assert "token" not in read
    assert client.get("/api/v1/tables/nope").status_code == 404


@pytest.mark.parametrize(("body", "field", "code"), [
    ({"players": ["Ann", "Bob", "ann"]}, "players[2]", "duplicate_name"),
    ({"players": ["Ann", " "]}, "players[1]", "name_missing"),
    ({"players": "Ann, Bob"}, "players", "wrong_type"),
    ({"players": [7]}, "players[0]", "wrong_type"),
    ({"players": [f"P{n}" for n in range(41)]}, "players", "too_many_players"),
    ({"players": ["x" * 41]}, "players[0]", "too_long"),
    ({"players": ["A\u0000"]}, "players[0]", "bad_character"),
    ({"name": "x" * 81, "players": []}, "name", "too_long"),
    ({"players": [], "colour": "red"}, "colour", "unknown_key"),
    ({"players": [], "rule_cards": [{"name": "Ours", "rules": {"target": 3}}]}, "rule_cards[0].rules.target",
     "bad_rule_value"),
])
def test_a_table_refuses_bad_input_naming_the_field(client: FlaskClient, body: dict[str, Any], field: str,
                                                    code: str) -> None:
    answer = client.post("/api/v1/tables", json=body)
    assert error_of(answer) == (422, field, code)


def test_a_match_at_a_table_takes_only_the_tables_players(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    started = start(client, table_id, [])
    assert started.status_code == 201, started.get_json()
    stranger = client.post("/api/v1/matches", headers=bearer(table_id),
                           json={"format": FORMAT, "table": table_id, "sides": pairs(["Ann", "Bob"], ["Cy", "Zed"])})
    assert error_of(stranger) == (422, "sides[1].players[1]", "not_at_table")
    twice = client.post("/api/v1/matches", headers=bearer(table_id),
                        json={"format": FORMAT, "table": table_id, "sides": pairs(["Ann", "Bob"], ["Cy", "Ann"])})
    assert error_of(twice) == (422, "sides[1].players[1]", "duplicate_player")
    for table, code in (("nope", "not_at_table"), (5, "wrong_type")):
        body = {"format": FORMAT, "table": table, "sides": pairs(["A"], ["B"])}
        assert error_of(client.post("/api/v1/matches", json=body)) == (422, "table", code)
    listed = client.get(f"/api/v1/tables/{table_id}").get_json()["matches"]
    assert [entry["id"] for entry in listed] == [started.get_json()["id"]]


def test_a_match_joins_a_table_only_with_the_tables_token(client: FlaskClient) -> None:
    """Issue 25, D10: the table's id alone does not put a match in its list and statistics."""
    table_id, token = new_table(client)
    other_id, other_token = new_table(client, name="Fridays")
    body = {"format": FORMAT, "table": table_id, "sides": pairs(["Ann", "Bob"], ["Cy", "Di"]),
            "deals": [{"bidder": 0, "bid": 60, "bid_by": "Ann", "sides": [{"total": 300}, {"total": 0}]}]}
    assert error_of(client.post("/api/v1/matches", json=body)) == (401, "Authorization", "token_missing")
    wrong = client.post("/api/v1/matches", json=body, headers={"Authorization": f"Bearer {other_token}"})
    assert error_of(wrong) == (403, "Authorization", "token_wrong")
    assert client.get(f"/api/v1/tables/{table_id}").get_json()["matches"] == []
    assert client.get(f"/api/v1/tables/{table_id}/stats").get_json()["matches"] == 0
    started = client.post("/api/v1/matches", json=body, headers={"Authorization": f"Bearer {token}"})
    assert started.status_code == 201 and started.get_json()["edit_token"] not in (token, other_token)
    assert [entry["id"] for entry in client.get(f"/api/v1/tables/{table_id}").get_json()["matches"]] == [
        started.get_json()["id"]]
    assert client.get(f"/api/v1/tables/{other_id}").get_json()["matches"] == []


def test_a_bid_by_who_is_not_on_the_bidding_side_is_refused(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    answer = start(client, table_id, [{"bidder": 0, "bid": 60, "bid_by": "Cy", "sides": [{"total": 60}, {"total": 0}]}])
    assert answer.status_code == 422
    problems = answer.get_json()["error"]["problems"]
    assert [(p["field"], p["code"]) for p in problems] == [("deals[0].bid_by", "bid_by_not_bidder")]


def test_writes_to_a_table_need_its_token(client: FlaskClient) -> None:
    table_id, token = new_table(client)
    other_id, other_token = new_table(client, ["Eve"])
    url = f"/api/v1/tables/{table_id}/players"
    assert error_of(client.post(url, json={"players": ["Eve"]}))[:2] == (401, "Authorization")
    wrong = {"Authorization": f"Bearer {other_token}"}
    assert error_of(client.post(url, json={"players": ["Eve"]}, headers=wrong))[:2] == (403, "Authorization")
    mine = {"Authorization": f"Bearer {token}"}
    added = client.post(url, json={"players": ["Eve"]}, headers=mine)
    assert added.status_code == 201 and added.get_json()["players"] == [*FOUR, "Eve"]
    assert error_of(client.post(url, json={"players": ["EVE"]}, headers=mine)) == (422, "players[0]", "duplicate_name")
    card = client.post(f"/api/v1/tables/{table_id}/rule-cards", headers=mine,
                       json={"name": "Grandma's rules", "rules": {"target": 1000}})
    assert card.status_code == 201
    assert card.get_json()["rule_cards"][0]["rules"]["target"] == 1000
    again = client.post(f"/api/v1/tables/{table_id}/rule-cards", headers=mine, json={"name": "grandma's RULES"})
    assert error_of(again) == (422, "name", "duplicate_name")
    bad_rule = client.post(f"/api/v1/tables/{table_id}/rule-cards", headers=mine,
                           json={"name": "B", "rules": {"deck": 3}})
    assert error_of(bad_rule)[:2] == (422, "rules.deck")
    assert client.get(f"/api/v1/tables/{other_id}").get_json()["players"] == ["Eve"]


def test_removing_a_player_keeps_their_matches_and_names(client: FlaskClient) -> None:
    table_id, token = new_table(client)
    match_id = start(client, table_id, MATCH_ONE).get_json()["id"]
    gone = client.delete(f"/api/v1/tables/{table_id}/players/Bob", headers={"Authorization": f"Bearer {token}"})
    assert gone.status_code == 200 and gone.get_json()["players"] == ["Ann", "Cy", "Di"]
    match = client.get(f"/api/v1/matches/{match_id}").get_json()["match"]
    assert match["sides"][0]["players"] == ["Ann", "Bob"]
    stats = client.get(f"/api/v1/tables/{table_id}/stats").get_json()
    assert {p["name"] for p in stats["players"]} == set(FOUR)
    assert client.delete(f"/api/v1/tables/{table_id}/players/Bob",
                         headers={"Authorization": f"Bearer {token}"}).status_code == 404


def test_the_statistics_are_the_figures_worked_out_by_hand(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    for deals in (MATCH_ONE, MATCH_TWO):
        assert start(client, table_id, deals).status_code == 201
    stats = client.get(f"/api/v1/tables/{table_id}/stats").get_json()
    players = {p["name"]: p for p in stats["players"]}
    assert stats["matches"] == 2
    assert {name: (p["matches"], p["won"], p["bids"], p["made"], p["set"]) for name, p in players.items()} == {
        "Ann": (2, 1, 2, 2, 0), "Bob": (2, 1, 1, 0, 1), "Cy": (2, 1, 2, 2, 0), "Di": (2, 1, 0, 0, 0)}
    assert (players["Ann"]["average_bid"], players["Ann"]["biggest_bid_made"]) == (60, 60)
    assert (players["Cy"]["average_bid"], players["Bob"]["biggest_bid_made"]) == (70, None)
    assert players["Ann"]["form"] == [{"played": 1, "won": 1}, {"played": 2, "won": 1}]
    assert stats["partnerships"] == [{"players": ["Ann", "Bob"], "matches": 2, "won": 1},
                                     {"players": ["Cy", "Di"], "matches": 2, "won": 1}]
    faced = {tuple(t["players"]): (t["matches"], t["won"], t["lost"]) for t in stats["head_to_head"]}
    assert faced[("Ann", "Cy")] == (2, 1, 1) and ("Ann", "Bob") not in faced


def test_a_rule_change_in_a_match_changes_the_statistics(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    match = start(client, table_id, MATCH_ONE).get_json()
    token = match["edit_token"]
    assert client.get(f"/api/v1/tables/{table_id}/stats").get_json()["matches"] == 1
    changed = client.put(f"/api/v1/matches/{match['id']}/rules", json={"target": 1000},
                         headers={"Authorization": f"Bearer {token}"})
    assert changed.status_code == 200
    stats = client.get(f"/api/v1/tables/{table_id}/stats").get_json()
    assert (stats["matches"], stats["unfinished"]) == (0, 1)
    assert {p["name"]: p["bids"] for p in stats["players"]}["Ann"] == 2


def test_a_table_file_imports_again_without_loss(client: FlaskClient) -> None:
    table_id, token = new_table(client)
    client.post(f"/api/v1/tables/{table_id}/rule-cards", headers={"Authorization": f"Bearer {token}"},
                json={"name": "Grandma's rules", "rules": {"target": 1000, "min_bid": 60}})
    for deals in (MATCH_ONE, MATCH_TWO):
        start(client, table_id, deals)
    exported = client.get(f"/api/v1/tables/{table_id}/export").get_json()
    assert exported["format"] == "scorekeeper-table/1" and len(exported["matches"]) == 2
    imported = client.post("/api/v1/tables/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    new_id = imported.get_json()["id"]
    assert new_id != table_id
    # The answer works the matches out from the file as read; the table read back from the store agrees.
    assert imported.get_json() == client.get(f"/api/v1/tables/{new_id}").get_json() | {"token": ANY}
    assert [match["winner"] for match in imported.get_json()["matches"]] == [0, 1]  # each match has its winner
    assert client.get(f"/api/v1/tables/{new_id}/export").get_json() == exported
    assert client.get(f"/api/v1/tables/{new_id}/stats").get_json() == \
        client.get(f"/api/v1/tables/{table_id}/stats").get_json()
    broken = exported | {"matches": [exported["matches"][0] | {"sides": "x"}]}
    assert error_of(client.post("/api/v1/tables/import", json=broken))[:2] == (422, "matches[0].sides")



def test_a_table_import_failing_halfway_stores_nothing(app: Flask) -> None:
    """The database refusing the second match's row leaves no table, no match: one transaction."""
    deal = {"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 20}]}
    match = {"format": "pinochle-match/1", "sides": [{"name": "We"}, {"name": "They"}], "deals": [deal] * 2}
    file = tables.read_table_file({"format": "scorekeeper-table/1", "name": "Club", "matches": [match] * 3})
    inserted: list[str] = []

    def refuse_the_second_match(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if re.match(r'\s*INSERT INTO "?match"? ', statement, re.IGNORECASE):
            inserted.append(statement)
            if len(inserted) == 2:
                raise OperationalError(statement, None, Exception("disk full"))

    with app.app_context():
        engine = get_session().get_bind()
        event.listen(engine, "before_cursor_execute", refuse_the_second_match)
        try:
            with pytest.raises(OperationalError):
                tables.import_table(file)
        finally:
            event.remove(engine, "before_cursor_execute", refuse_the_second_match)
        get_session().rollback()
        counts = [get_session().scalar(select(func.count()).select_from(row)) for row in (TableRow, MatchRow)]
    assert len(inserted) == 2 and counts == [0, 0]

# Pages --------------------------------------------------------------------------------------------------

def make_table_through_the_form(client: FlaskClient, players: list[str] = FOUR) -> str:
    data = {"name": "Thursdays", **{f"players-{i}": name for i, name in enumerate(players)}}
    answer = client.post("/tables/new", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return str(answer.headers["Location"]).rsplit("/", 1)[-1]


def test_the_form_makes_a_table_listed_on_this_device_only(client: FlaskClient, app: Any) -> None:
    table_id = make_table_through_the_form(client)
    assert "Thursdays" in client.get("/").get_data(as_text=True)
    assert "Thursdays" not in app.test_client().get("/").get_data(as_text=True)
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert all(name in page for name in FOUR)


def test_the_same_name_twice_is_shown_at_its_field(client: FlaskClient) -> None:
    answer = client.post("/tables/new", data={"name": "T", "players-0": "Ann", "players-1": "ANN"})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert re.search(r'id="players-1"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="players-1"', html)
    assert "already a player" in html


def test_a_match_from_a_table_names_its_sides_and_adds_a_new_player(client: FlaskClient) -> None:
    table_id = make_table_through_the_form(client)
    data = form_values(client.get(f"/t/{table_id}/matches/new")) | {
        "start": "preset-double-500", "sides-0-players-0": "ann", "sides-0-players-1": "Bob",
        "sides-1-players-0": "Cy", "sides-1-players-1": "Eve"}
    answer = client.post(f"/t/{table_id}/matches/new", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    assert answer.headers["Location"].endswith("/invite")  # a new match opens on inviting the table
    sheet = client.get(answer.headers["Location"].removesuffix("/invite")).get_data(as_text=True)
    assert "Ann &amp; Bob" in sheet and "Cy &amp; Eve" in sheet and "Ann deals" in sheet
    assert client.get(f"/api/v1/tables/{table_id}").get_json()["players"] == [*FOUR, "Eve"]


def test_one_player_on_two_sides_is_shown_at_the_field(client: FlaskClient) -> None:
    table_id = make_table_through_the_form(client)
    data = form_values(client.get(f"/t/{table_id}/matches/new")) | {
        "start": "preset-double-500", "sides-0-players-0": "Ann", "sides-0-players-1": "Bob",
        "sides-1-players-0": "Cy", "sides-1-players-1": "ANN"}
    answer = client.post(f"/t/{table_id}/matches/new", data=data)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "already plays on another side" in html
    assert 'id="sides-1-players-1-error"' in html


def test_writes_to_a_table_need_this_phone_to_have_opened_it(client: FlaskClient, app: Any) -> None:
    table_id = make_table_through_the_form(client)
    stranger = app.test_client()
    assert stranger.post(f"/t/{table_id}/players", data={"name": "Zed"}).status_code == 403
    assert stranger.post(f"/t/{table_id}/matches/new", data={}).status_code == 403
    stranger.get(f"/t/{table_id}")  # opening the link gives the right
    assert stranger.post(f"/t/{table_id}/players", data={"name": "Zed"}).status_code == 302


def test_a_rule_card_saved_on_the_table_starts_a_match(client: FlaskClient) -> None:
    table_id = make_table_through_the_form(client)
    data = form_values(client.get(f"/t/{table_id}/rule-cards/new?preset=single-1500")) | {"name": "Grandma's rules"}
    data["rules-target"] = "2000"
    assert client.post(f"/t/{table_id}/rule-cards/new", data=data).status_code == 302
    assert "Grandma&#39;s rules" in client.get(f"/t/{table_id}/matches/new").get_data(as_text=True)
    data = form_values(client.get(f"/t/{table_id}/matches/new")) | {
        "start": "card-0", "sides-0-players-0": "Ann", "sides-1-players-0": "Bob"}
    answer = client.post(f"/t/{table_id}/matches/new", data=data)
    match_id = answer.headers["Location"].split("/")[2]  # /m/<id>/invite
    match = client.get(f"/api/v1/matches/{match_id}").get_json()["match"]
    assert match["rules"]["target"] == 2000 and match["rules"]["deck"] == "single"


def test_a_rematch_keeps_the_table_players_and_the_rules_in_force(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    first = start(client, table_id, [])
    match_id, token = first.get_json()["id"], first.get_json()["edit_token"]
    auth = {"Authorization": f"Bearer {token}"}
    client.put(f"/api/v1/matches/{match_id}/rules", json={"target": 300}, headers=auth)
    client.post(f"/api/v1/matches/{match_id}/deals", json=MATCH_ONE[0], headers=auth)
    client.get(f"/m/{match_id}")
    assert f'href="/m/{match_id}/rematch"' in client.get(f"/m/{match_id}").get_data(as_text=True)
    assert "partners rotated" in client.get(f"/m/{match_id}/rematch").get_data(as_text=True)
    rotated = client.post(f"/m/{match_id}/rematch", data={"partners": "rotate"})
    again = client.get(f"/api/v1/matches/{rotated.headers['Location'].rsplit('/', 1)[-1]}").get_json()["match"]
    assert [side["players"] for side in again["sides"]] == [["Ann", "Cy"], ["Di", "Bob"]]
    assert again["rules"]["target"] == 300
    same = client.post(f"/m/{match_id}/rematch", data={"partners": "same"})  # the table has its next match
    assert same.headers["Location"] == rotated.headers["Location"]
    assert len(client.get(f"/api/v1/tables/{table_id}").get_json()["matches"]) == 2


def test_the_statistics_pages_show_the_figures(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    for deals in (MATCH_ONE, MATCH_TWO):
        start(client, table_id, deals)
    page = client.get(f"/t/{table_id}/stats").get_data(as_text=True)
    assert "<svg" in page and 'data-player="Ann"' in page
    player = client.get(f"/t/{table_id}/stats/player?name=cy").get_data(as_text=True)
    assert re.search(r'data-figure="bids">2<', player) and re.search(r'data-figure="average_bid">70<', player)
    assert client.get(f"/t/{table_id}/stats/player?name=Zed").status_code == 404


def test_the_table_file_round_trips_through_the_pages(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    start(client, table_id, MATCH_ONE)
    exported = client.get(f"/t/{table_id}/export.json")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    answer = client.post("/tables/import", data={"file": (BytesIO(exported.data), "table.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 302, answer.get_data(as_text=True)
    new_id = answer.headers["Location"].rsplit("/", 1)[-1]
    assert client.get(f"/api/v1/tables/{new_id}/export").get_json() == exported.get_json()
    bad = client.post("/tables/import", data={"file": (BytesIO(b'{"players": ["A", "a"]}'), "t.json")},
                      content_type="multipart/form-data")
    assert bad.status_code == 200 and "players[1]" in bad.get_data(as_text=True)
    for upload, message in ((None, "Choose a table file."), (b"\xff\xfe{", "not a text file in UTF-8"),
                            (b"[1", "cannot be read as a table file")):
        data = {"file": (BytesIO(upload), "t.json")} if upload is not None else {}
        page = client.post("/tables/import", data=data, content_type="multipart/form-data")
        assert page.status_code == 200 and 'id="file-error"' in page.get_data(as_text=True)
        assert message in page.get_data(as_text=True)


def test_the_deal_form_records_who_bid_in_one_tap_and_who_dealt(client: FlaskClient) -> None:
    table_id = make_table_through_the_form(client)
    data = form_values(client.get(f"/t/{table_id}/matches/new")) | {
        "start": "preset-double-500", "sides-0-players-0": "Ann", "sides-0-players-1": "Bob",
        "sides-1-players-0": "Cy", "sides-1-players-1": "Di"}
    match_id = client.post(f"/t/{table_id}/matches/new", data=data).headers["Location"].split("/")[2]  # /m/<id>/invite
    form = form_values(client.get(f"/m/{match_id}/deals/new"))
    assert form["dealt_by"] == "Ann" and form.get("bidder", "") == ""
    form |= {"mode": "quick", "bid_by": "Cy", "bid": "50", "sides-0-total": "20", "sides-1-total": "60"}
    assert client.post(f"/m/{match_id}/deals/new", data=form).status_code == 302
    stored = client.get(f"/api/v1/matches/{match_id}").get_json()["match"]["deals"][0]
    assert (stored["bidder"], stored["bid_by"], stored["dealt_by"]) == (1, "Cy", "Ann")
    assert form_values(client.get(f"/m/{match_id}/deals/new"))["dealt_by"] == "Cy"
    assert "Cy deals" in client.get(f"/m/{match_id}").get_data(as_text=True)
    wrong = form_values(client.get(f"/m/{match_id}/deals/new")) | {
        "mode": "quick", "bidder": "0", "bid_by": "Di", "bid": "50", "sides-0-total": "60", "sides-1-total": "0"}
    refused = client.post(f"/m/{match_id}/deals/new", data=wrong)
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422 and 'id="bidder-error"' in html and "Di does not play" in html


def test_who_bid_is_one_row_of_the_players_where_the_sides_name_them(client: FlaskClient) -> None:
    body = {"format": FORMAT, "sides": [{"name": "Ann & Bob", "players": ["Ann", "Bob"]},
                                        {"name": "Cy & Di", "players": ["Cy", "Di"]}, {"name": "Ed"}],
            "deals": [{"bidder": 0, "bid": 50, "sides": [{"total": 60}, {"total": 0}, {"total": 0}]}]}
    answer = client.post("/api/v1/matches", json=body).get_json()
    match_id = answer["id"]
    client.get(f"/m/{match_id}")
    html = client.get(f"/m/{match_id}/deals/new").get_data(as_text=True)
    buttons = re.findall(r'name="bidder"[^>]*value="([^"]*)"', html)
    assert buttons == ["0:Ann", "0:Bob", "1:Cy", "1:Di", "2"]  # the players, and a side that names none
    assert "Who bid?" in html and "Who won the bid?" not in html and 'name="bid_by"' not in html
    # A stored deal whose side bid with no player noted keeps its side's button, chosen.
    stored = client.get(f"/m/{match_id}/deals/1/edit").get_data(as_text=True)
    assert re.search(r'checked[^>]*value="0"|value="0"[^>]*checked', stored)
    form = form_values(client.get(f"/m/{match_id}/deals/new")) | {
        "mode": "quick", "bidder": "1:Di", "bid": "50", "sides-0-total": "0", "sides-1-total": "60",
        "sides-2-total": "0"}
    assert client.post(f"/m/{match_id}/deals/new", data=form).status_code == 302
    deal = client.get(f"/api/v1/matches/{match_id}").get_json()["match"]["deals"][1]
    assert (deal["bidder"], deal["bid_by"]) == (1, "Di")
    corrected = client.get(f"/m/{match_id}/deals/2/edit").get_data(as_text=True)
    assert re.search(r'checked[^>]*value="1:Di"|value="1:Di"[^>]*checked', corrected)


def test_the_home_list_names_the_players_of_sides_named_otherwise(client: FlaskClient) -> None:
    body = {"format": FORMAT, "sides": [{"name": "Reds", "players": ["Ann", "Bob"]},
                                        {"name": "Cy & Di", "players": ["Cy", "Di"]}]}
    match_id = client.post("/api/v1/matches", json=body).get_json()["id"]
    client.get(f"/m/{match_id}")
    home = client.get("/").get_data(as_text=True)
    assert "Reds: Ann &amp; Bob" in home and "Cy &amp; Di: " not in home


def test_the_more_page_leads_to_the_table_and_a_table_can_leave_the_list(client: FlaskClient) -> None:
    table_id = make_table_through_the_form(client)
    data = form_values(client.get(f"/t/{table_id}/matches/new")) | {
        "start": "preset-two-hand", "sides-0-players-0": "Ann", "sides-1-players-0": "Bob"}
    match_id = client.post(f"/t/{table_id}/matches/new", data=data).headers["Location"].split("/")[2]  # /m/<id>/invite
    assert f'href="/t/{table_id}"' in client.get(f"/m/{match_id}/more").get_data(as_text=True)
    assert client.post(f"/t/{table_id}/forget").status_code == 302
    assert "Thursdays" not in client.get("/").get_data(as_text=True)


def test_remembered_statistics_and_results_follow_every_change(client: FlaskClient) -> None:
    """Asked again, the figures come from memory; a deal added, a house rule changed or a player added
    in between is seen at once on the statistics, the table's API and its page."""
    table_id, table_token = new_table(client)
    first = start(client, table_id, MATCH_ONE).get_json()
    auth = {"Authorization": f"Bearer {first['edit_token']}"}

    def figures() -> tuple[Any, Any, str]:
        stats = client.get(f"/api/v1/tables/{table_id}/stats").get_json()
        ann = next(p for p in stats["players"] if p["name"] == "Ann")
        winner = client.get(f"/api/v1/tables/{table_id}").get_json()["matches"][0]["winner"]
        return (stats["matches"], ann["won"], ann["bids"]), winner, client.get(f"/t/{table_id}").get_data(as_text=True)

    won = figures()
    assert won[:2] == ((1, 1, 2), 0) and "won" in won[2]
    assert figures()[:2] == won[:2]
    client.put(f"/api/v1/matches/{first['id']}/rules", json={"target": 800}, headers=auth)
    playing = figures()
    assert playing[:2] == ((0, 0, 2), None) and "playing to 800" in playing[2]
    client.post(f"/api/v1/matches/{first['id']}/deals", json=MATCH_ONE[0], headers=auth)
    assert figures()[:2] == ((1, 1, 3), 0)
    client.post(f"/api/v1/tables/{table_id}/players", json={"players": ["Eve"]},
                headers={"Authorization": f"Bearer {table_token}"})
    names = [p["name"] for p in client.get(f"/api/v1/tables/{table_id}/stats").get_json()["players"]]
    assert "Eve" in names
