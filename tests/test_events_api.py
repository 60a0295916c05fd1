"""Club events through the JSON API: an event, its rounds seated as ordinary matches whose deals go through
the match API, the director's changes, and the standings worked out from the matches' sheets.

No browser: every request goes through the Flask test client, a few deals per table.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event as sqlalchemy_event
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.db import get_session
from scorekeeper.models import DealRow, EventRoundRow, EventRow, MatchRow
from scorekeeper.rules.events import SeatedTable, Seating
from scorekeeper.rules.seating import repeat_counts
from scorekeeper.rules.standings import TableOutcome, progressive_standings

EIGHT = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def make_event(client: FlaskClient, **fields: Any) -> dict[str, Any]:
    """A new event (eight players, three rounds of two deals unless ``fields`` say otherwise; a field
    given as None is left out)."""
    body = {"name": "Club night", "format": "progressive", "round_end": {"deals": 2}, "rounds": 3,
            "players": EIGHT} | fields
    answer = client.post("/api/v1/events", json={key: value for key, value in body.items() if value is not None})
    assert answer.status_code == 201, answer.get_json()
    made: dict[str, Any] = answer.get_json()
    return made


def director(event: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {event['director_token']}"}


def seat(client: FlaskClient, event: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(f"/api/v1/events/{event['id']}/rounds", headers=director(event))
    assert answer.status_code == 201, answer.get_json()
    seated: dict[str, Any] = answer.get_json()
    return seated


def deal(we: int, they: int, bidder: int = 0) -> dict[str, Any]:
    return {"bidder": bidder, "bid": 50, "sides": [{"total": we}, {"total": they}]}


def enter(client: FlaskClient, table: dict[str, Any], *deals: dict[str, Any]) -> dict[str, Any]:
    """Enter ``deals`` at a table through the match API; the match's last answer."""
    match = table["match"]
    answer: TestResponse | None = None
    for one in deals:
        answer = client.post(f"/api/v1/matches/{match['id']}/deals", json=one,
                             headers={"Authorization": f"Bearer {match['edit_token']}"})
        assert answer.status_code == 201, answer.get_json()
    assert answer is not None
    body: dict[str, Any] = answer.get_json()
    return body


def problem(answer: TestResponse) -> dict[str, Any]:
    """The error an answer carries (its field, code and message)."""
    found: dict[str, Any] = answer.get_json()["error"]
    return found


def standings(client: FlaskClient, event: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"/api/v1/events/{event['id']}/standings")
    assert answer.status_code == 200
    found: dict[str, Any] = answer.get_json()
    return found


def seating_of(seated: dict[str, Any]) -> Seating:
    return Seating(seated["round"], tuple(SeatedTable(table["table"], (tuple(table["sides"][0]),
                                                                         tuple(table["sides"][1])))
                                          for table in seated["tables"]),
                   tuple(tuple(bye) for bye in seated["byes"]))


# The whole evening -------------------------------------------------------------------------------------

def test_forty_players_ten_tables_six_rounds_standings_are_the_cores_of_the_sheets(client: FlaskClient) -> None:
    players = [f"Player {number:02}" for number in range(1, 41)]
    event = make_event(client, players=players, rounds=6, round_end={"deals": 1})
    seatings: list[Seating] = []
    outcomes: list[TableOutcome] = []
    for round_number in range(1, 7):
        seated = seat(client, event)
        assert seated["round"] == round_number and len(seated["tables"]) == 10 and seated["byes"] == []
        seated_names = [name for table in seated["tables"] for side in table["sides"] for name in side]
        assert sorted(seated_names) == players  # everyone seated, once
        seatings.append(seating_of(seated))
        first = client.get(seated["tables"][0]["match"]["links"]["self"]).get_json()
        assert first["match"]["event"] == {"name": "Club night", "round": round_number, "table": 1}
        for table in seated["tables"]:
            number = table["table"]
            answer = enter(client, table, deal(50 + number, 20 + round_number, bidder=number % 2))
            sheet = answer["sheet"]
            outcomes.append(TableOutcome(round_number, number, (tuple(table["sides"][0]), tuple(table["sides"][1])),
                                         tuple(sheet["totals"]), sheet["winner"], 1, True))  # type: ignore[arg-type]
    counts = repeat_counts(seatings)
    assert (counts.partner_repeats, counts.opponent_repeats) == (0, 0)  # what the core promises for 40 players
    expected = progressive_standings(outcomes, seatings)
    found = standings(client, event)
    assert [(p["name"], p["points"], p["rank"], p["won"]) for p in found["players"]] == [
        (p.name, p.points, p.rank, p.won) for p in expected]
    assert [r["done"] for r in found["rounds"]] == [True] * 6
    past_the_last = client.post(f"/api/v1/events/{event['id']}/rounds", headers=director(event))
    assert past_the_last.status_code == 409 and problem(past_the_last)["code"] == "no_rounds_left"


# Worked out by hand: eight players, two tables, three rounds of two deals. The director seats each round as
# written here (swapping from the app's seating), so the expectation depends on no seating algorithm.
HAND_SEATING = [
    [[["Ann", "Bob"], ["Cy", "Di"]], [["Ed", "Flo"], ["Gus", "Hal"]]],
    [[["Ann", "Cy"], ["Ed", "Gus"]], [["Bob", "Di"], ["Flo", "Hal"]]],
    [[["Ann", "Di"], ["Flo", "Gus"]], [["Bob", "Cy"], ["Ed", "Hal"]]],
]
HAND_DEALS = [  # each table's two deals, the first side bidding 50; a total below the bid is set (-50)
    [[(60, 20), (50, 30)], [(70, 10), (55, 25)]],  # table totals 110-50 and 125-35
    [[(80, 20), (60, 40)], [(40, 30), (60, 20)]],  # 140-60 and 10-50 (set, then made)
    [[(50, 50), (50, 15)], [(90, 0), (50, 30)]],  # 100-65 and 140-30
]
HAND_STANDINGS = [  # name, points, rank, rounds won
    ("Ann", 350, 1, 3),  # 110 + 140 + 100
    ("Cy", 330, 2, 2),  # 50 + 140 + 140
    ("Bob", 260, 3, 2),  # 110 + 10 + 140
    ("Flo", 240, 4, 2),  # 125 + 50 + 65
    ("Ed", 215, 5, 1),  # 125 + 60 + 30
    ("Di", 160, 6, 1),  # 50 + 10 + 100: level with Gus, one round won more
    ("Gus", 160, 7, 0),  # 35 + 60 + 65
    ("Hal", 115, 8, 1),  # 35 + 50 + 30
]
HAND_ROUND_ONE = [("Ed", 125, 1), ("Flo", 125, 1), ("Ann", 110, 3), ("Bob", 110, 3), ("Cy", 50, 5), ("Di", 50, 5),
                  ("Gus", 35, 7), ("Hal", 35, 7)]


def seat_as(client: FlaskClient, event: dict[str, Any], seated: dict[str, Any], wanted: list[Any]) -> dict[str, Any]:
    """Swap players until the round is seated as ``wanted``; the round as it then is."""
    seats = [name for table in seated["tables"] for side in table["sides"] for name in side]
    goal = [name for table in wanted for side in table for name in side]
    answer = seated
    for place, name in enumerate(goal):
        if seats[place] != name:
            other = seats.index(name)
            reply = client.post(f"/api/v1/events/{event['id']}/rounds/{seated['round']}/swap",
                                json={"first": seats[place], "second": name}, headers=director(event))
            assert reply.status_code == 200, reply.get_json()
            answer = reply.get_json()
            seats[place], seats[other] = name, seats[place]
    assert [table["sides"] for table in answer["tables"]] == wanted
    return answer


def test_a_small_evening_worked_out_by_hand(client: FlaskClient) -> None:
    event = make_event(client)
    for round_number, (wanted, deals) in enumerate(zip(HAND_SEATING, HAND_DEALS, strict=True), start=1):
        seated = seat(client, event)
        assert seated["round"] == round_number
        tokens = {table["table"]: table["match"] for table in seated["tables"]}
        swapped = seat_as(client, event, seated, wanted)
        for table, table_deals in zip(swapped["tables"], deals, strict=True):
            answer = enter(client, {"match": tokens[table["table"]]}, *(deal(we, they) for we, they in table_deals))
            assert [side["players"] for side in answer["match"]["sides"]] == table["sides"]  # the swap reached it
    found = standings(client, event)
    assert [(p["name"], p["points"], p["rank"], p["won"]) for p in found["players"]] == HAND_STANDINGS
    assert [(p["name"], p["points"], p["rank"]) for p in found["rounds"][0]["players"]] == HAND_ROUND_ONE
    public = client.get(event["links"]["standings_data"]).get_json()
    assert public["players"] == found["players"]
    assert "director_token" not in str(public) and event["id"] not in str(public)


def test_players_beyond_a_multiple_of_four_sit_out_and_are_credited_the_rounds_average(client: FlaskClient) -> None:
    event = make_event(client, players=[*EIGHT, "Ivy", "Jo"], round_end={"deals": 1})
    seated = seat(client, event)
    assert len(seated["tables"]) == 2 and len(seated["byes"]) == 2
    enter(client, seated["tables"][0], deal(60, 20))
    enter(client, seated["tables"][1], deal(70, 30))
    found = {player["name"]: player for player in standings(client, event)["players"]}
    for (name,) in seated["byes"]:
        assert (found[name]["byes"], found[name]["points"]) == (1, 45)  # (60 + 20 + 70 + 30) / 4


def test_the_public_standings_answer_304_until_a_deal_or_the_director_changes_them(client: FlaskClient) -> None:
    event = make_event(client)
    table = seat(client, event)["tables"][0]
    address = event["links"]["standings_data"]
    first = client.get(address)
    tag = first.headers["ETag"]
    assert client.get(address, headers={"If-None-Match": tag}).status_code == 304
    enter(client, table, deal(60, 20))
    after_a_deal = client.get(address, headers={"If-None-Match": tag})
    assert after_a_deal.status_code == 200 and after_a_deal.get_json()["players"] != first.get_json()["players"]
    closed = client.post(f"/api/v1/events/{event['id']}/rounds/1/close", json={"late": True}, headers=director(event))
    assert closed.status_code == 200
    assert client.get(address, headers={"If-None-Match": after_a_deal.headers["ETag"]}).status_code == 200
    assert client.get("/api/v1/standings/no-such-event").status_code == 404


def test_the_standings_read_the_event_in_a_few_statements_however_many_tables(app: Flask, client: FlaskClient) -> None:
    event = make_event(client, players=[f"Player {number:02}" for number in range(1, 25)])  # six tables
    for _ in range(2):
        for table in seat(client, event)["tables"]:
            enter(client, table, deal(60, 20), deal(55, 30))
    statements: list[str] = []
    engine = app.extensions["scorekeeper.engine"]

    def counted(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        statements.append(statement)

    sqlalchemy_event.listen(engine, "before_cursor_execute", counted)
    try:
        answers = [client.get(f"/api/v1/events/{event['id']}/standings") for _ in range(2)]
    finally:
        sqlalchemy_event.remove(engine, "before_cursor_execute", counted)
    assert [answer.status_code for answer in answers] == [200, 200]
    assert answers[0].get_json() == answers[1].get_json()
    assert len(statements) <= 2 * 7  # the event, its rounds, tables and matches, and the matches' facts at most once


def test_a_team_event_moves_teams_and_gives_the_odd_team_a_bye(client: FlaskClient) -> None:
    teams = [["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"], ["Ivy", "Jo"]]
    event = make_event(client, format="team", teams=teams, players=None)
    seated = seat(client, event)
    assert len(seated["tables"]) == 2 and len(seated["byes"]) == 1
    for table in seated["tables"]:
        enter(client, table, deal(60, 20), deal(60, 20))
    found = standings(client, event)
    bye = next(team for team in found["teams"] if team["byes"] == 1)
    assert bye["won"] == 1 and bye["points"] == 120  # the average of the round's winning scores
    assert [team["rank"] for team in found["teams"]] == [1, 1, 1, 4, 4]


# The director's changes --------------------------------------------------------------------------------

def test_a_late_table_closed_keeps_its_score_as_it_stood(client: FlaskClient) -> None:
    event = make_event(client, round_end={"target": True})
    seated = seat(client, event)
    late, finished = seated["tables"]
    enter(client, late, deal(60, 20))
    enter(client, finished, deal(400, 0), deal(200, 0))  # past the target of 500
    still = client.post(f"/api/v1/events/{event['id']}/rounds/1/close", headers=director(event))
    assert still.status_code == 409 and problem(still)["code"] == "tables_playing"
    assert problem(still)["tables"] == [late["table"]]
    closed = client.post(f"/api/v1/events/{event['id']}/tables/{late['match']['id']}/close", headers=director(event))
    assert closed.status_code == 200 and closed.get_json()["closed"] and closed.get_json()["winner"] == 0
    after = client.post(f"/api/v1/matches/{late['match']['id']}/deals", json=deal(0, 300, bidder=1),
                        headers={"Authorization": f"Bearer {late['match']['edit_token']}"})
    assert after.status_code == 409 and problem(after)["code"] == "table_closed"  # its results are locked
    table = client.get(f"/api/v1/events/{event['id']}").get_json()["played"][0]["tables"][0]
    assert (table["totals"], table["deals"], table["done"]) == ([60, 20], 1, True)
    again = client.post(f"/api/v1/events/{event['id']}/tables/{late['match']['id']}/close", headers=director(event))
    assert again.status_code == 409 and problem(again)["code"] == "table_closed"
    assert client.post(f"/api/v1/events/{event['id']}/rounds/1/close", headers=director(event)).status_code == 200
    twice = client.post(f"/api/v1/events/{event['id']}/rounds/1/close", headers=director(event))
    assert twice.status_code == 409 and problem(twice)["code"] == "round_closed"


def test_closing_a_round_late_closes_the_tables_still_playing(client: FlaskClient) -> None:
    event = make_event(client)
    seated = seat(client, event)
    enter(client, seated["tables"][0], deal(60, 20))
    too_soon = client.post(f"/api/v1/events/{event['id']}/rounds", headers=director(event))
    assert too_soon.status_code == 409 and problem(too_soon)["code"] == "round_open"
    closed = client.post(f"/api/v1/events/{event['id']}/rounds/1/close", json={"late": True}, headers=director(event))
    assert closed.status_code == 200
    assert [(t["closed"], t["done"], t["deals"]) for t in closed.get_json()["tables"]] == [(True, True, 1),
                                                                                          (True, True, 0)]
    assert seat(client, event)["round"] == 2


def test_a_time_limit_finishes_the_deal_in_play(app: Flask, client: FlaskClient) -> None:
    event = make_event(client, round_end={"minutes": 30})
    seated = seat(client, event)
    table = seated["tables"][0]
    enter(client, table, deal(60, 20))
    with app.app_context():  # the round started 31 minutes ago: its first deal was entered in time
        session = get_session()
        played = session.scalars(select(EventRoundRow)).one()
        played.started_at -= timedelta(minutes=31)
        for row in session.scalars(select(DealRow)):
            row.created_at -= timedelta(minutes=31)
        session.commit()
    state = client.get(f"/api/v1/events/{event['id']}").get_json()["played"][0]["tables"][0]
    assert (state["time_up"], state["done"]) == (True, False)  # the deal in play is still to come
    enter(client, table, deal(70, 10), deal(90, 10))
    state = client.get(f"/api/v1/events/{event['id']}").get_json()["played"][0]["tables"][0]
    assert (state["done"], state["deals"], state["totals"]) == (True, 2, [130, 30])


def test_a_swap_after_the_first_deal_or_in_another_round_is_refused(client: FlaskClient) -> None:
    event = make_event(client)
    seated = seat(client, event)
    enter(client, seated["tables"][1], deal(60, 20))
    first, second = seated["tables"][0]["sides"][0][0], seated["tables"][1]["sides"][0][0]
    answer = client.post(f"/api/v1/events/{event['id']}/rounds/1/swap", json={"first": first, "second": second},
                         headers=director(event))
    assert answer.status_code == 409 and problem(answer)["code"] == "round_started"
    ahead = client.post(f"/api/v1/events/{event['id']}/rounds/2/swap", json={"first": first, "second": second},
                        headers=director(event))
    assert ahead.status_code == 409 and problem(ahead)["code"] == "not_current_round"


def test_the_match_file_of_an_event_match_names_it_and_imports_as_a_plain_match(client: FlaskClient) -> None:
    event = make_event(client)
    table = seat(client, event)["tables"][1]
    file = client.get(f"/m/{table['match']['id']}/export.json").get_json()
    assert file["event"] == {"name": "Club night", "round": 1, "table": 2}
    assert file["name"] == "Club night · round 1, table 2" and file["rules"]["deal_limit"] == 2
    imported = client.post("/api/v1/matches", json=file)
    assert imported.status_code == 201 and "event" not in imported.get_json()["match"]


def test_the_event_links_name_pages_that_open(client: FlaskClient) -> None:
    event = make_event(client)
    for page in (event["links"]["director"], event["links"]["standings"]):
        answer = client.get(page)
        assert answer.status_code == 200 and "Club night" in answer.get_data(as_text=True)
    assert client.get("/standings/" + event["id"]).status_code == 404  # the director's link is no standings link


# Bad input -------------------------------------------------------------------------------------------

BASE = {"name": "Club night", "format": "progressive", "round_end": {"deals": 2}, "rounds": 3, "players": EIGHT}


@pytest.mark.parametrize(("changes", "status", "field", "code"), [
    ({"players": ["Ann", "Bob", "Cy"]}, 422, "players", "too_few_entrants"),
    ({"players": [*EIGHT, "ann "]}, 422, "players[8]", "duplicate_player"),
    ({"format": "team", "teams": [["Ann", "Bob"], ["Cy", "Ann"]], "players": None}, 422, "teams[1][1]",
     "duplicate_player"),
    ({"format": "team", "teams": [["Ann", "Bob"], ["Cy"]], "players": None}, 422, "teams[1]", "entrant_size"),
    ({"format": "swiss"}, 422, "format", "wrong_format"),
    ({"round_end": {"deals": 0}}, 422, "round_end.deals", "out_of_range"),
    ({"round_end": {"deals": 101}}, 422, "round_end.deals", "out_of_range"),  # beyond the house rule deal_limit
    ({"round_end": {"deals": 2, "minutes": 5}}, 422, "round_end", "unknown_key"),
    ({"round_end": {"target": False}}, 422, "round_end.target", "wrong_type"),
    ({"rounds": "6"}, 422, "rounds", "not_a_number"),
    ({"rules": {"target": -5}}, 422, "rules.target", "bad_rule_value"),
    ({"players": "Ann, Bob"}, 422, "players", "wrong_type"),
    ({"players": [*EIGHT[:7], ""]}, 422, "players[7]", "name_missing"),
    ({"referee": "Zed"}, 422, "referee", "unknown_key"),
])
def test_a_new_event_the_rules_refuse_names_the_field_and_stores_nothing(
        app: Flask, client: FlaskClient, changes: dict[str, Any], status: int, field: str, code: str) -> None:
    body = {key: value for key, value in (BASE | changes).items() if value is not None}
    answer = client.post("/api/v1/events", json=body)
    assert (answer.status_code, problem(answer)["field"], problem(answer)["code"]) == (status, field, code)
    with app.app_context():
        assert get_session().scalar(select(func.count()).select_from(EventRow)) == 0


@pytest.mark.parametrize(("first", "second", "code", "field"), [
    ("Ann", "Ann", "duplicate_player", "second"),
    ("Ann", "Zed", "player_unknown", "second"),
])
def test_a_swap_that_would_seat_someone_twice_or_no_one_is_refused(
        client: FlaskClient, first: str, second: str, code: str, field: str) -> None:
    event = make_event(client)
    seat(client, event)
    answer = client.post(f"/api/v1/events/{event['id']}/rounds/1/swap", json={"first": first, "second": second},
                         headers=director(event))
    assert (answer.status_code, problem(answer)["code"], problem(answer)["field"]) == (422, code, field)
    assert client.get(f"/api/v1/events/{event['id']}").get_json()["version"] == 2  # unchanged since seating


def test_the_director_token_is_needed_and_must_be_this_events(client: FlaskClient) -> None:
    event, other = make_event(client), make_event(client)
    address = f"/api/v1/events/{event['id']}/rounds"
    missing = client.post(address)
    assert missing.status_code == 401 and problem(missing)["field"] == "Authorization"
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = client.post(address, headers=director(other))
    assert wrong.status_code == 403 and problem(wrong)["code"] == "token_wrong"
    assert client.get(f"/api/v1/events/{event['id']}").get_json()["played"] == []


def test_a_table_of_one_event_is_refused_by_another(client: FlaskClient) -> None:
    event, other = make_event(client), make_event(client)
    table = seat(client, event)["tables"][0]
    seat(client, other)
    answer = client.post(f"/api/v1/events/{other['id']}/tables/{table['match']['id']}/close", headers=director(other))
    assert (answer.status_code, problem(answer)["code"], problem(answer)["field"]) == (
        422, "table_of_another_event", "table")
    unknown = client.post(f"/api/v1/events/{other['id']}/tables/no-such-match/close", headers=director(other))
    assert unknown.status_code == 404


def test_a_version_the_event_has_moved_past_is_refused(client: FlaskClient) -> None:
    event = make_event(client)
    answer = client.post(f"/api/v1/events/{event['id']}/rounds", json={"version": 7}, headers=director(event))
    assert (answer.status_code, problem(answer)["code"], problem(answer)["current_version"]) == (409, "stale", 1)
    assert seat(client, event)["version"] == 2


@pytest.mark.parametrize("body", [b"[]", b"{", b'{"version": "one"}', b'{"late": "yes"}', "\udcff".encode(
    "utf-8", "surrogatepass")])
def test_odd_bodies_are_refused_with_a_4xx(client: FlaskClient, body: bytes) -> None:
    event = make_event(client)
    seat(client, event)
    for address in (f"/api/v1/events/{event['id']}/rounds/1/close", f"/api/v1/events/{event['id']}/rounds",
                    "/api/v1/events"):
        answer = client.post(address, data=body, content_type="application/json", headers=director(event))
        assert 400 <= answer.status_code < 500, (address, answer.get_json())
    assert client.get(f"/api/v1/events/{event['id']}").get_json()["version"] == 2


def test_events_and_their_tables_count_against_the_limit_on_new_matches(database_url: str, tmp_path: Any) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False,
                      "INSTANCE_PATH": str(tmp_path), "RATELIMIT_ENABLED": True, "CREATE_MATCH_LIMIT": "4 per minute"})
    client = app.test_client()
    seat(client, make_event(client))  # the event and its round's two tables: 3
    other = make_event(client)  # 4
    refused = client.post(f"/api/v1/events/{other['id']}/rounds", headers=director(other))
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert client.get(f"/api/v1/events/{other['id']}").get_json()["played"] == []
    assert client.post("/api/v1/events", json=BASE).status_code == 429
    app.extensions["scorekeeper.engine"].dispose()


# Two directors at once ---------------------------------------------------------------------------------

def race(app: Flask, send: Callable[[FlaskClient], TestResponse], threads: int = 2) -> list[TestResponse]:
    """``send`` from ``threads`` clients at once, each its own session."""
    start = threading.Barrier(threads)
    answers: list[TestResponse] = []
    failures: list[BaseException] = []

    def run() -> None:
        client = app.test_client()
        start.wait()
        try:
            answers.append(send(client))
        except BaseException as error:  # noqa: BLE001 - reported by the test
            failures.append(error)

    workers = [threading.Thread(target=run) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not failures, failures
    return answers


@pytest.mark.both_databases
def test_two_directors_seating_at_once_seat_one_round(app: Flask, client: FlaskClient) -> None:
    event = make_event(client)
    answers = race(app, lambda other: other.post(f"/api/v1/events/{event['id']}/rounds", json={"version": 1},
                                                 headers=director(event)), threads=4)
    assert Counter(answer.status_code for answer in answers) == Counter({201: 1, 409: 3})
    with app.app_context():
        session = get_session()
        assert session.scalar(select(func.count()).select_from(EventRoundRow)) == 1
        assert session.scalar(select(func.count()).select_from(MatchRow)) == 2  # one round's tables, no more


@pytest.mark.both_databases
def test_two_directors_closing_a_round_at_once_close_it_once(app: Flask, client: FlaskClient) -> None:
    event = make_event(client)
    seat(client, event)
    answers = race(app, lambda other: other.post(f"/api/v1/events/{event['id']}/rounds/1/close", json={"late": True},
                                                 headers=director(event)), threads=3)
    assert sorted(answer.status_code for answer in answers) == [200, 409, 409]
    assert client.get(f"/api/v1/events/{event['id']}").get_json()["version"] == 3
