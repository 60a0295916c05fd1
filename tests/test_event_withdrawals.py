"""Withdrawals, no-shows and substitutes through the API and the director's page: a player withdrawn is
not seated again and keeps what they earned; a no-show's round is seated again; a substitute plays the
seat for the rest of a round, its points the player's."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.test_events_api import deal, director, enter, make_event, problem, seat, standings
from tests.test_events_pages import create, director_form, text
from tests.test_events_pages import seat as seat_on_page

NINE = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida"]


def close(client: FlaskClient, event: dict[str, Any], number: int) -> None:
    answer = client.post(f"/api/v1/events/{event['id']}/rounds/{number}/close", json={"late": True},
                         headers=director(event))
    assert answer.status_code == 200, answer.get_json()


def withdraw(client: FlaskClient, event: dict[str, Any], player: str, from_round: int) -> Any:
    return client.post(f"/api/v1/events/{event['id']}/withdrawals", json={"player": player, "from_round": from_round},
                       headers=director(event))


def seated_names(round: dict[str, Any]) -> set[str]:
    return {name for table in round["tables"] for side in table["sides"] for name in side} | {
        name for bye in round["byes"] for name in bye}


def test_a_player_withdrawn_after_round_two_is_not_seated_again_and_keeps_what_they_earned(
        client: FlaskClient) -> None:
    event = make_event(client, players=NINE, rounds=4)
    for number in (1, 2):
        for table in seat(client, event)["tables"]:
            enter(client, table, deal(60, 20), deal(55, 15))
        close(client, event, number)

    def ann() -> dict[str, Any]:
        found: dict[str, Any] = next(player for player in standings(client, event)["players"]
                                     if player["name"] == "Ann")
        return {key: value for key, value in found.items() if key != "rank"}  # others play on

    before = ann()
    answer = withdraw(client, event, "ann", 3)  # case aside
    assert answer.status_code == 201
    assert answer.get_json()["withdrawals"] == [{"player": "Ann", "from_round": 3}]
    for number in (3, 4):
        seated = seat(client, event)
        assert "Ann" not in seated_names(seated)
        for table in seated["tables"]:
            enter(client, table, deal(60, 20), deal(55, 15))
        close(client, event, number)
    assert ann() == before  # no points, rounds or byes after she left
    assert before["rounds"] + before["byes"] == 2


def test_a_no_show_is_taken_out_before_the_first_deal_and_the_round_seated_again(client: FlaskClient) -> None:
    event = make_event(client, players=NINE, rounds=3)
    first = seat(client, event)
    assert len(first["byes"]) == 1
    seated_player = first["tables"][0]["sides"][0][0]
    answer = withdraw(client, event, seated_player, 1)
    assert answer.status_code == 201
    again = answer.get_json()["played"][0]
    assert seated_player not in seated_names(again) and len(seated_names(again)) == 8 and again["byes"] == []
    for table in again["tables"]:  # each table's match plays the new sides
        match = client.get(f"/api/v1/matches/{table['match']['id']}").get_json()["match"]
        assert [side["players"] for side in match["sides"]] == table["sides"]


@pytest.mark.parametrize(("player", "from_round", "status", "field", "code"), [
    ("Zoe", 2, 422, "player", "player_unknown"),
    ("Ann", 9, 422, "from_round", "out_of_range"),
    ("Ann", 1, 409, "from_round", "round_started"),
])
def test_a_withdrawal_that_cannot_be_is_refused_with_nothing_written(client: FlaskClient, player: str,
                                                                     from_round: int, status: int, field: str,
                                                                     code: str) -> None:
    event = make_event(client, players=NINE, rounds=3)
    enter(client, seat(client, event)["tables"][0], deal(30, 20))
    answer = withdraw(client, event, player, from_round)
    assert answer.status_code == status
    assert (problem(answer)["field"], problem(answer)["code"]) == (field, code)
    assert client.get(f"/api/v1/events/{event['id']}").get_json()["withdrawals"] == []


def test_a_round_played_cannot_be_withdrawn_from_nor_a_player_twice_nor_without_the_token(
        client: FlaskClient) -> None:
    event = make_event(client, players=NINE, rounds=3)
    seat(client, event)
    close(client, event, 1)
    assert problem(withdraw(client, event, "Ann", 1))["code"] == "round_closed"
    assert withdraw(client, event, "Ann", 2).status_code == 201
    assert problem(withdraw(client, event, "Ann", 3))["code"] == "withdrawn"
    anonymous = client.post(f"/api/v1/events/{event['id']}/withdrawals", json={"player": "Bob", "from_round": 2})
    assert anonymous.status_code == 401


def test_a_substitute_plays_the_seat_for_the_round_and_its_points_are_the_players(client: FlaskClient) -> None:
    event = make_event(client, players=NINE[:8], rounds=2)
    table = seat(client, event)["tables"][0]
    player = table["sides"][0][0]
    enter(client, table, deal(30, 20))
    answer = client.post(f"/api/v1/events/{event['id']}/rounds/1/substitutes",
                         json={"player": player, "substitute": "Zed"}, headers=director(event))
    assert answer.status_code == 201
    assert answer.get_json()["substitutes"] == [{"round": 1, "player": player, "substitute": "Zed"}]
    enter(client, table, deal(25, 15))
    match = client.get(f"/api/v1/matches/{table['match']['id']}").get_json()["match"]
    assert any(f"Zed for {player}" in side["name"] for side in match["sides"])
    names = {standing["name"] for standing in standings(client, event)["players"]}
    assert player in names and "Zed" not in names
    again = client.post(f"/api/v1/events/{event['id']}/rounds/1/substitutes",
                        json={"player": player, "substitute": "Bob"}, headers=director(event))
    assert (again.status_code, problem(again)["code"]) == (422, "duplicate_player")


def test_the_director_withdraws_a_player_on_the_page(client: FlaskClient) -> None:
    public_id = create(client, entrants="\n".join(NINE))
    form = director_form(client, public_id, "/withdrawals")
    answer = client.post(f"/e/{public_id}/withdrawals", data=form | {"player": "Cy", "from_round": "2"})
    assert answer.status_code == 303
    page = text(client.get(f"/e/{public_id}"))
    assert "Cy (from round 2)" in page
    refused = client.post(f"/e/{public_id}/withdrawals",
                          data=director_form(client, public_id, "/withdrawals") | {"player": "Cy", "from_round": "2"})
    assert refused.status_code == 409 and "withdrawn from round 2" in text(refused)


def test_the_director_puts_a_substitute_in_a_seat_on_the_page(client: FlaskClient) -> None:
    public_id = create(client)
    seat_on_page(client, public_id)
    form = director_form(client, public_id, "/substitutes")
    answer = client.post(f"/e/{public_id}/substitutes", data=form | {"player": "Ann", "substitute": "Zed"})
    assert answer.status_code == 303
    assert "Zed for Ann (round 1)" in text(client.get(f"/e/{public_id}"))
    refused = client.post(f"/e/{public_id}/substitutes",
                          data=director_form(client, public_id, "/substitutes") | {"player": "Bob", "substitute": ""})
    assert refused.status_code == 422 and "Give the substitute" in text(refused)


def test_a_player_withdrawn_from_a_team_event_takes_the_team_out_and_the_rest_meet_no_one_twice(
        client: FlaskClient) -> None:
    teams = [[f"A{index}", f"B{index}"] for index in range(1, 6)]
    event = make_event(client, format="team", players=None, teams=teams, rounds=4)
    rounds = [seat(client, event)]
    close(client, event, 1)
    assert withdraw(client, event, "B2", 2).status_code == 201
    for number in (2, 3):
        rounds.append(seat(client, event))
        close(client, event, number)
    later = {name for round in rounds[1:] for name in seated_names(round)}
    assert not later & {"A2", "B2"}
    games = [frozenset(frozenset(side) for side in table["sides"]) for round in rounds for table in round["tables"]]
    assert len(games) == len(set(games))  # four teams left: no two meet twice
