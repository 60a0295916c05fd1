"""The director's corrections of a closed table on the director's page, and the adjustments the standings
show; a closed table's sheet answers its players' writes with a message."""

from __future__ import annotations

import pytest
from conftest import Actions
from flask.testing import FlaskClient
from test_events_pages import (
    create,
    director_form,
    event_json,
    form_to,
    match_id,
    play,
    seat,
    standings_id,
    tables_of,
    text,
)

pytestmark = pytest.mark.both_databases


def closed_round(client: FlaskClient, actions: Actions) -> tuple[str, str]:
    """An event whose round 1 was closed late, table 1 one deal in (60–20); its id and table 1's match."""
    public_id = create(client)
    seat(client, public_id)
    table = match_id(tables_of(client, public_id)[0])
    play(client, actions, table, (60, 20))
    action = f"/e/{public_id}/rounds/1/close"
    assert client.post(action, data=form_to(text(client.get(action)), action)).status_code == 303
    return public_id, table


def correction_form(client: FlaskClient, public_id: str, **fields: str) -> dict[str, str]:
    return director_form(client, public_id, "/corrections") | {"table": "1-1", "action": "score"} | fields


def test_the_director_gives_an_adjusted_score_shown_with_the_standings(client: FlaskClient, actions: Actions) -> None:
    public_id, _ = closed_round(client, actions)
    page = text(client.get(f"/e/{public_id}"))
    assert "Correct a closed table" in page and "Round 1, table 1" in page
    data = correction_form(client, public_id, first="100", second="120", reason="A revoke: arbitral score")
    assert client.post(f"/e/{public_id}/corrections", data=data).status_code == 303
    table = tables_of(client, public_id)[0]
    assert (table["totals"], table["winner"], table["adjusted"]) == ([100, 120], 1, True)
    shown = text(client.get(f"/standings/{standings_id(client, public_id)}"))
    assert "Adjustments" in shown and "Round 1, table 1: adjusted score 100–120" in shown
    assert "A revoke: arbitral score" in shown


def test_the_director_corrects_a_deals_points_from_the_slip(client: FlaskClient, actions: Actions) -> None:
    public_id, _ = closed_round(client, actions)
    data = correction_form(client, public_id, action="points", deal="1", first="20", second="60",
                           reason="slip misread")
    answer = client.post(f"/e/{public_id}/corrections", data=data)
    assert answer.status_code == 303, [line for line in text(answer).splitlines() if "error" in line]
    assert tables_of(client, public_id)[0]["totals"] == [-50, 60]  # 20 taken on a bid of 50: set
    assert event_json(client, public_id)["adjustments"][0]["what"] == "deal 1 corrected"  # type: ignore[index]


@pytest.mark.parametrize(("fields", "message"), [
    ({"first": "100", "second": "120", "reason": " "}, "Say why the table is corrected"),
    ({"first": "1o0", "second": "120", "reason": "x"}, "Type a whole number of points"),
    ({"action": "delete", "deal": "", "reason": "x"}, "Type the number of the deal"),
    ({"action": "delete", "deal": "5", "reason": "x"}, "table 1 has no deal 5"),
    ({"table": "", "first": "1", "second": "2", "reason": "x"}, "Choose a closed table"),
])
def test_a_correction_the_page_cannot_make_is_shown_at_its_field(client: FlaskClient, actions: Actions,
                                                                  fields: dict[str, str], message: str) -> None:
    public_id, _ = closed_round(client, actions)
    answer = client.post(f"/e/{public_id}/corrections", data=correction_form(client, public_id, **fields))
    assert answer.status_code in (404, 409, 422)
    assert message.lower() in text(answer).lower()
    assert event_json(client, public_id)["adjustments"] == []


def test_a_closed_tables_sheet_refuses_its_players_deal_with_a_message(client: FlaskClient, actions: Actions) -> None:
    _, table = closed_round(client, actions)
    answer = actions.add_deal(table, 0, 50, (60, 20))
    assert answer.status_code == 409
    assert "This table is closed" in text(answer) and "Ask the director to correct it" in text(answer)
