"""A team event's movement through the API and the director's page: a round robin by default when the
rounds fit in one, stay/move when chosen, and a warning wherever meetings will repeat."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.test_events_api import director, make_event, problem, seat


def teams(count: int) -> list[list[str]]:
    return [[f"A{index}", f"B{index}"] for index in range(1, count + 1)]


def play_every_round(client: FlaskClient, event: dict[str, Any]) -> list[dict[str, Any]]:
    """Seat each round in turn, closing the one before with its tables as they stand."""
    seated: list[dict[str, Any]] = []
    for number in range(1, event["rounds"] + 1):
        if seated:
            closed = client.post(f"/api/v1/events/{event['id']}/rounds/{number - 1}/close", json={"late": True},
                                 headers=director(event))
            assert closed.status_code == 200, closed.get_json()
        seated.append(seat(client, event))
    return seated


def meetings(seated: list[dict[str, Any]]) -> Counter[frozenset[frozenset[str]]]:
    return Counter(frozenset(frozenset(side) for side in table["sides"]) for round in seated
                   for table in round["tables"])


def test_five_teams_over_four_rounds_play_a_round_robin_and_meet_no_one_twice(client: FlaskClient) -> None:
    event = make_event(client, format="team", players=None, teams=teams(5), rounds=4)
    assert (event["movement"], event["warnings"]) == ("round-robin", [])
    met = meetings(play_every_round(client, event))
    assert set(met.values()) == {1} and len(met) == 8


def test_stay_move_chosen_is_kept_and_warned_of_where_it_repeats(client: FlaskClient) -> None:
    event = make_event(client, format="team", players=None, teams=teams(4), rounds=3, movement="stay-move")
    assert event["movement"] == "stay-move"
    [warning] = event["warnings"]
    assert warning["code"] == "repeats_ahead" and "round robin" in warning["message"]
    assert max(meetings(play_every_round(client, event)).values()) == 2
    assert "round robin" in client.get(f"/e/{event['id']}").get_data(as_text=True)  # on the director's page


def test_more_rounds_than_a_round_robin_warn_that_teams_meet_again(client: FlaskClient) -> None:
    event = make_event(client, format="team", players=None, teams=teams(4), rounds=8)
    assert event["movement"] == "stay-move"
    assert "4 teams meet each other once in 3 rounds" in event["warnings"][0]["message"]


@pytest.mark.parametrize(("fields", "code"), [
    ({"movement": "swiss", "format": "team", "players": None, "teams": teams(4)}, "wrong_format"),
    ({"movement": "round-robin"}, "unknown_key"),
])
def test_a_movement_unknown_or_for_a_progressive_event_is_refused(client: FlaskClient, fields: dict[str, Any],
                                                                  code: str) -> None:
    body = {"name": "Club night", "format": "progressive", "round_end": {"deals": 2}, "rounds": 3,
            "players": ["Ann", "Bob", "Cy", "Di"]} | fields
    answer = client.post("/api/v1/events", json={key: value for key, value in body.items() if value is not None})
    assert answer.status_code == 422
    assert (problem(answer)["field"], problem(answer)["code"]) == ("movement", code)
