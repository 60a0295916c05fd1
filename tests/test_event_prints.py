"""The director's printables: table cards with each table's QR code drawn into the page, the movement sheet
(each player's table round by round, as seated) and the score slips (a deal line for each deal of the round)."""

from __future__ import annotations

import base64
import re
from typing import Any

from flask.testing import FlaskClient
from test_events_api import EIGHT, deal, director, enter, make_event, seat


def _page(client: FlaskClient, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, answer.status_code
    return answer.get_data(as_text=True)


def test_a_card_for_each_table_with_its_number_players_and_the_qr_code_of_its_link(client: FlaskClient) -> None:
    event = make_event(client, players=[*EIGHT, "Ivy", "Jo", "Kit", "Lu"])
    tables = seat(client, event)["tables"]
    page = _page(client, f"/e/{event['id']}/print/cards")
    cards = re.findall(r'<li class="table-card" id="card-(\d+)">(.*?)</li>', page, re.S)
    assert [int(number) for number, _ in cards] == [table["table"] for table in tables] == [1, 2, 3]
    for (_, card), table in zip(cards, tables, strict=True):
        assert f"Table <strong>{table['table']}</strong>" in card
        assert all(name in card for side in table["sides"] for name in side)
        assert table["match"]["links"]["sheet"] in card  # the link under the code, absolute
        drawn = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', card)
        assert drawn is not None
        served = client.get(f"/m/{table['match']['id']}/qr/players.svg").data  # the sheet's own QR code
        untitled = [re.sub(rb"<title>.*?</title>", b"", svg) for svg in (base64.b64decode(drawn.group(1)), served)]
        assert untitled[0] == untitled[1]  # the same modules: the same link


def test_the_movement_sheet_gives_each_players_table_in_every_round_seated(client: FlaskClient) -> None:
    event = make_event(client, players=[*EIGHT, "Ivy"])
    seatings: list[dict[str, Any]] = []
    for _ in range(2):
        seated = seat(client, event)
        seatings.append(seated)
        for table in seated["tables"]:
            enter(client, table, deal(60, 20), deal(50, 30))
    page = _page(client, f"/e/{event['id']}/print/movement")
    rows = dict(re.findall(r'<tr><th scope="row">([^<]+)</th>((?:<td>[^<]*</td>)+)</tr>', page))
    assert sorted(rows) == sorted([*EIGHT, "Ivy"], key=str.casefold)
    for name, cells in rows.items():
        expected = []
        for seated in seatings:
            at = [table["table"] for table in seated["tables"] if any(name in side for side in table["sides"])]
            expected.append(str(at[0]) if at else "bye")
        assert re.findall(r"<td>([^<]*)</td>", cells) == expected
    assert "2 of 3 rounds seated" in page


def test_a_score_slip_for_each_table_with_a_line_a_deal(client: FlaskClient) -> None:
    event = make_event(client, round_end={"deals": 6})
    tables = seat(client, event)["tables"]
    page = _page(client, f"/e/{event['id']}/print/slips")
    slips = re.findall(r'<li class="score-slip" id="slip-(\d+)">(.*?)</li>', page, re.S)
    assert [int(number) for number, _ in slips] == [table["table"] for table in tables]
    for (_, slip), table in zip(slips, tables, strict=True):
        assert len(re.findall(r'<tr><th scope="row">\d+</th>', slip)) == 6
        assert " &amp; ".join(table["sides"][0]) in slip and " &amp; ".join(table["sides"][1]) in slip


def test_printables_of_a_round_not_seated_are_404(client: FlaskClient) -> None:
    event = make_event(client)
    assert client.get(f"/e/{event['id']}/print/cards").status_code == 404
    assert client.get(f"/e/{event['id']}/print/slips").status_code == 404
    assert "No round has been seated yet" in _page(client, f"/e/{event['id']}/print/movement")
    seat(client, event)
    assert client.get(f"/e/{event['id']}/print/cards?round=1").status_code == 200
    assert client.get(f"/e/{event['id']}/print/cards?round=2").status_code == 404
    assert director(event)  # the helpers of the events' API tests are shared


def test_the_director_page_links_to_the_printables(client: FlaskClient) -> None:
    event = make_event(client)
    seat(client, event)
    page = _page(client, f"/e/{event['id']}")
    for path in ("print/cards", "print/movement", "print/slips"):
        assert f'href="/e/{event["id"]}/{path}"' in page
