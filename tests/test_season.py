"""A table's season (the rules core's sums, best N of M, shared ranks), its API, page and CSV, and an
event's prize list."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from test_events_api import deal, director, enter, make_event, problem, seat

from scorekeeper.rules.season import (
    Prize,
    SeasonStanding,
    event_points,
    prize_list,
    season_standings,
)
from scorekeeper.rules.standings import PlayerStanding, TeamStanding


def test_season_points_add_up_over_the_events_each_player_played() -> None:
    found = season_standings([{"Ann": 300, "Bob": 200}, {"Ann": 100, "Cy": 450}])
    assert found == (SeasonStanding("Cy", 1, 450, 1), SeasonStanding("Ann", 2, 400, 2),
                     SeasonStanding("Bob", 1, 200, 3))


def test_best_n_counts_only_each_players_highest_events() -> None:
    events = [{"Ann": 300, "Bob": 250}, {"Ann": 100, "Bob": 250}, {"Ann": 350}]
    assert season_standings(events, best=2) == (SeasonStanding("Ann", 3, 650, 1), SeasonStanding("Bob", 2, 500, 2))
    assert season_standings(events, best=1)[0] == SeasonStanding("Ann", 3, 350, 1)


def test_players_level_on_points_share_a_rank_listed_by_name() -> None:
    found = season_standings([{"bo": 10, "Al": 10, "Cy": 5}])
    assert [(standing.name, standing.rank) for standing in found] == [("Al", 1), ("bo", 1), ("Cy", 3)]


@pytest.mark.parametrize("best", [0, 101])
def test_best_out_of_range_is_refused(best: int) -> None:
    with pytest.raises(ValueError, match=str(best)):
        season_standings([], best)


def test_a_team_events_points_go_to_both_players() -> None:
    assert event_points([TeamStanding(("Ann", "Bob"), 2, 900, 1, 2, 0)]) == {"Ann": 900, "Bob": 900}


def _player(name: str, points: int, rank: int, rounds: int = 1) -> PlayerStanding:
    return PlayerStanding(name, points, rank, rounds, 0, points if rounds else None, 1 - rounds)


def test_the_prize_list_has_the_top_places_and_each_rounds_best() -> None:
    overall = [_player("Ann", 500, 1), _player("Bob", 400, 2), _player("Cy", 400, 2), _player("Di", 390, 4)]
    rounds = [(1, [_player("Bob", 250, 1), _player("Cy", 250, 1), _player("Ann", 240, 3)]),
              (2, [_player("Di", 300, 1, rounds=0), _player("Ann", 260, 2)])]
    found = prize_list(overall, rounds)
    assert [prize.players for prize in found.top] == [("Ann",), ("Bob",), ("Cy",)]
    assert found.rounds == ((Prize(("Bob",), 250, 1), Prize(("Cy",), 250, 1)), (Prize(("Ann",), 260, 2),))


# Through the app ---------------------------------------------------------------------------------------------

def _table(client: FlaskClient) -> dict[str, Any]:
    answer = client.post("/api/v1/tables", json={"name": "Club", "players": []})
    assert answer.status_code == 201, answer.get_json()
    made: dict[str, Any] = answer.get_json()
    return made


def _night(client: FlaskClient, table: dict[str, Any], name: str, first: int, second: int) -> None:
    """A one-round event of eight at ``table``: at each table the first side scores ``first``, the other
    ``second`` over two deals."""
    event = make_event(client, name=name, rounds=1, table={"id": table["id"], "edit_token": table["token"]})
    for seated in seat(client, event)["tables"]:
        enter(client, seated, deal(first, second), deal(first, second))


def _expected(client: FlaskClient, table: dict[str, Any], best: int | None) -> list[dict[str, Any]]:
    """Every player's events and points worked out from the events' own standings answers."""
    listed = client.get(f"/api/v1/tables/{table['id']}/season").get_json()["events"]
    events: dict[str, list[int]] = {}
    for event in listed:
        standings_id = event["standings"].rstrip("/").rsplit("/", 1)[1]
        for player in client.get(f"/api/v1/standings/{standings_id}").get_json()["players"]:
            events.setdefault(player["name"], []).append(player["points"])
    counted = {name: sum(sorted(points, reverse=True)[:best]) for name, points in events.items()}
    order = sorted(counted, key=lambda name: (-counted[name], name.casefold()))
    return [{"name": name, "events": len(events[name]), "points": counted[name],
             "rank": 1 + sum(other > counted[name] for other in counted.values())} for name in order]


@pytest.mark.both_databases
def test_the_season_of_a_tables_events_in_the_api_page_and_csv(client: FlaskClient) -> None:
    table = _table(client)
    _night(client, table, "First night", 60, 20)
    _night(client, table, "Second night", 10, 70)
    _night(client, table, "Third night", 40, 40)
    answer = client.get(f"/api/v1/tables/{table['id']}/season").get_json()
    assert [event["name"] for event in answer["events"]] == ["First night", "Second night", "Third night"]
    assert answer["best"] is None
    assert answer["players"] == _expected(client, table, None)
    assert {player["events"] for player in answer["players"]} == {3}

    token = {"Authorization": f"Bearer {table['token']}"}
    assert client.put(f"/api/v1/tables/{table['id']}/season", json={"best": 2}).status_code == 401
    refused = client.put(f"/api/v1/tables/{table['id']}/season", json={"best": 0}, headers=token)
    assert refused.status_code == 422 and problem(refused)["field"] == "best"
    best = client.put(f"/api/v1/tables/{table['id']}/season", json={"best": 2}, headers=token).get_json()
    assert best["best"] == 2 and best["players"] == _expected(client, table, 2)

    page = client.get(f"/t/{table['id']}").get_data(as_text=True)
    assert 'id="season"' in page and "best 2 count" in page
    csv = client.get(f"/t/{table['id']}/season.csv").get_data(as_text=True).splitlines()
    assert csv[0] == "rank,name,events,points"
    assert csv[1:] == [f"{row['rank']},{row['name']},{row['events']},{row['points']}" for row in best["players"]]


def test_the_season_best_is_set_on_the_tables_page(client: FlaskClient) -> None:
    table = _table(client)
    _night(client, table, "Night", 60, 20)
    client.get(f"/t/{table['id']}")  # this phone opened the table's link: it may change the table
    wrong = client.post(f"/t/{table['id']}/season", data={"best": "0"})
    assert wrong.status_code == 422 and "from 1 to 100" in wrong.get_data(as_text=True)
    assert client.post(f"/t/{table['id']}/season", data={"best": "3"}).status_code == 302
    assert client.get(f"/api/v1/tables/{table['id']}/season").get_json()["best"] == 3
    assert client.post(f"/t/{table['id']}/season", data={"best": ""}).status_code == 302
    assert client.get(f"/api/v1/tables/{table['id']}/season").get_json()["best"] is None


def test_an_events_prize_list_page(client: FlaskClient) -> None:
    table = _table(client)
    _night(client, table, "Night", 60, 20)
    season = client.get(f"/api/v1/tables/{table['id']}/season").get_json()
    standings_id = season["events"][0]["standings"].rstrip("/").rsplit("/", 1)[1]
    standings = client.get(f"/api/v1/standings/{standings_id}").get_json()
    page = client.get(f"/standings/{standings_id}/prizes").get_data(as_text=True)
    high = standings["players"][0]["points"]  # one round: its best are the first places
    # The names in the lists' name cells (a name may also stand by chance in a link's random letters).
    named = {name for cell in re.findall(r'<td class="name">(.*?)</td>', page, re.S)
             for prize in cell.split(", ") for name in prize.split(" &amp; ")}
    for player in standings["players"]:
        assert (player["name"] in named) == (player["rank"] <= 3 or player["points"] == high)
    assert "Each round's best" in page


def test_an_unknown_tables_season_is_404(client: FlaskClient) -> None:
    assert client.get("/api/v1/tables/nosuchtable000000000/season").status_code == 404
    assert director  # the helpers of the events' API tests are shared
