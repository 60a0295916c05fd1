"""The event's house rules: no table changes them (``event_rules``); the director changes them for every
table at once, after a preview of each table's outcome and the standings before and after."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Actions, form_values
from flask.testing import FlaskClient
from test_events_api import deal, director, enter, make_event, problem, seat
from test_events_pages import create, form_to, play, tables_of, text
from test_events_pages import seat as seat_page
from werkzeug.test import TestResponse

pytestmark = pytest.mark.both_databases


def change(client: FlaskClient, event: dict[str, Any], **body: Any) -> TestResponse:
    return client.put(f"/api/v1/events/{event['id']}/rules", json=body, headers=director(event))


def one_deal_in(client: FlaskClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """An event of rounds of two deals, round 1 seated, table 1 one deal in (60–20)."""
    event = make_event(client)
    seated = seat(client, event)
    enter(client, seated["tables"][0], deal(60, 20))
    return event, seated


def test_the_preview_shows_the_tables_and_standings_it_moves_and_writes_nothing(client: FlaskClient) -> None:
    event, seated = one_deal_in(client)
    answer = change(client, event, rules={"deal_limit": 1}, preview=True)
    assert answer.status_code == 200, answer.get_json()
    found = answer.get_json()
    assert found["preview"] and found["changed_rules"] == ["deal_limit"]
    assert [(t["round"], t["table"]) for t in found["tables"]] == [(1, 1)]  # the table one deal in is now done
    moved = found["tables"][0]
    assert (moved["before"]["done"], moved["after"]["done"], moved["after"]["winner"]) == (False, True, 0)
    won_after = {player["name"]: player["won"] for player in found["standings"]["after"]}
    assert all(won_after[name] == 1 for name in seated["tables"][0]["sides"][0])
    assert all(player["won"] == 0 for player in found["standings"]["before"])
    now = client.get(f"/api/v1/events/{event['id']}").get_json()
    assert now["version"] == event["version"] + 1 and now["rules"]["deal_limit"] == 2  # only the seating moved it


def test_applied_the_change_reaches_every_table_and_the_rounds_to_come(client: FlaskClient) -> None:
    event, seated = one_deal_in(client)
    version = client.get(f"/api/v1/events/{event['id']}").get_json()["version"]
    answer = change(client, event, rules={"deal_limit": 1}, version=version)
    assert answer.status_code == 200, answer.get_json()
    now = client.get(f"/api/v1/events/{event['id']}").get_json()
    assert now["rules"]["deal_limit"] == 1 and now["round_end"] == {"deals": 1}
    assert now["played"][0]["tables"][0]["done"]
    for table in seated["tables"]:
        match = client.get(table["match"]["links"]["self"]).get_json()["match"]
        assert match["rules"]["deal_limit"] == 1
    history = client.get(f"/api/v1/matches/{seated['tables'][1]['match']['id']}/rules/history",
                         headers={"Authorization": f"Bearer {seated['tables'][1]['match']['edit_token']}"}).get_json()
    assert history["changes"][0]["by"] == "the director"
    stale = change(client, event, rules={"deal_limit": 3}, version=version)  # the preview's version, now old
    assert stale.status_code == 409 and problem(stale)["code"] == "stale"


@pytest.mark.parametrize(("body", "status", "code", "field"), [
    ({"rules": {"deal_limit": 0}}, 422, "no_deal_limit", "rules.deal_limit"),
    ({"rules": {"deal_limit": "x"}}, 422, None, "rules.deal_limit"),
    ({"rules": 3}, 422, "wrong_type", "rules"),
    ({"rules": {}, "preview": "yes"}, 422, "wrong_type", "preview"),
    ({"rules": {}, "what": 1}, 422, "unknown_key", "what"),
])
def test_a_change_of_the_events_rules_that_cannot_be_made_writes_nothing(
        client: FlaskClient, body: dict[str, Any], status: int, code: str | None, field: str) -> None:
    event, _ = one_deal_in(client)
    answer = change(client, event, **body)
    assert answer.status_code == status, answer.get_json()
    assert problem(answer)["field"] == field and (code is None or problem(answer)["code"] == code)
    assert client.get(f"/api/v1/events/{event['id']}").get_json()["rules"]["deal_limit"] == 2


def test_only_the_director_changes_the_events_rules(client: FlaskClient) -> None:
    event, seated = one_deal_in(client)
    table = seated["tables"][0]["match"]
    answer = client.put(f"/api/v1/events/{event['id']}/rules", json={"rules": {"deal_limit": 1}},
                        headers={"Authorization": f"Bearer {table['edit_token']}"})
    assert answer.status_code == 403


# The director's pages -----------------------------------------------------------------------------------------

def test_the_directors_page_previews_then_applies_the_events_rules(client: FlaskClient) -> None:
    public_id = create(client)
    seat_page(client, public_id)
    table = tables_of(client, public_id)[0]
    play(client, Actions(client), str(table["match"]["id"]), (60, 20))  # type: ignore[index]
    assert "House rules of the event" in text(client.get(f"/e/{public_id}"))
    fields = form_values(client.get(f"/e/{public_id}/rules")) | {"rules-deal_limit": "1"}
    preview = client.post(f"/e/{public_id}/rules", data=fields)
    assert preview.status_code == 200
    page = text(preview)
    assert "Number of deals" in page and "Round 1, table 1" in page and "Apply to every table" in page
    assert client.get(f"/api/v1/events/{public_id}").get_json()["rules"]["deal_limit"] == 2  # nothing yet
    confirm = form_to(page, f"/e/{public_id}/rules") | {
        key: value for key, value in fields.items() if key.startswith("rules-")}
    assert client.post(f"/e/{public_id}/rules", data=confirm).status_code == 303
    assert client.get(f"/api/v1/events/{public_id}").get_json()["rules"]["deal_limit"] == 1
    again = client.post(f"/e/{public_id}/rules", data=confirm)  # the preview's version is now old
    assert again.status_code == 409 and "Someone else changed the event" in text(again)
    refused = client.post(f"/e/{public_id}/rules", data=form_values(client.get(f"/e/{public_id}/rules"))
                          | {"rules-deal_limit": "0"})
    assert refused.status_code == 422 and "the deal limit is that number" in text(refused)


@pytest.mark.parametrize("path", ["/rules", "/rules/rescale", "/rules/meld"])
def test_a_tables_rules_pages_refuse_even_the_preview_of_a_change(client: FlaskClient, path: str) -> None:
    _, seated = one_deal_in(client)
    match_id = seated["tables"][0]["match"]["id"]
    client.get(f"/m/{match_id}")
    fields = form_values(client.get(f"/m/{match_id}/rules")) | {"rules-target": "1000", "factor": "up"}
    answer = client.post(f"/m/{match_id}{path}", data=fields)
    assert answer.status_code == 409
    assert "The event&#39;s house rules" in text(answer) or "The event's house rules" in text(answer)
    assert "only the director changes them" in text(answer)
