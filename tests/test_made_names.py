"""Names the app makes (a match named after its sides and the day, a side after its players, an event's
table) keep within the limits it enforces, so every file it exports (match, table, event) imports again,
whatever the names typed: at their longest, in any script."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

from conftest import form_values
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.limits import MAX_MATCH_NAME, MAX_PLAYER_NAME, MAX_SIDE_NAME, MAX_TABLE_NAME
from scorekeeper.rules.text import fit_name
from strategies import name_text

EXAMPLES = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
DATED = re.compile(r", [0-9]{2} [A-Z][a-z]{2} [0-9]{4}$")
LONGEST = st.sampled_from(["W" * MAX_SIDE_NAME, "Ann Smith & Bob Jones of the North Road C", "é" * MAX_SIDE_NAME])


def names(count: int, longest: int) -> st.SearchStrategy[list[str]]:
    """``count`` names no two alike, up to ``longest`` characters, leaning to the longest."""
    one = st.one_of(name_text(1, longest), LONGEST.map(lambda name: name[:longest]),
                    name_text(longest - 3, longest).filter(lambda name: name.strip() == name))
    return st.lists(one, min_size=count, max_size=count, unique_by=str.casefold)


def imports_again(client: FlaskClient, export: str, api: str) -> dict[str, Any]:
    """The file at ``export`` (answered 200) posted to ``api``: made again (201)."""
    exported = client.get(export)
    assert exported.status_code == 200
    imported = client.post(api, data=exported.get_data(), content_type="application/json")
    assert imported.status_code == 201, imported.get_json()
    answer: dict[str, Any] = exported.get_json()
    return answer


@EXAMPLES
@given(sides=st.integers(2, 3).flatmap(lambda count: names(count, MAX_SIDE_NAME)))
def test_a_match_the_form_names_exports_and_imports_again(client: FlaskClient, sides: list[str]) -> None:
    preset = "double-500" if len(sides) == 2 else "auction-3"
    fields = form_values(client.get(f"/matches/new?preset={preset}")) | {"name": ""}
    fields |= {f"sides-{index}-name": name for index, name in enumerate(sides)}
    made = client.post("/matches/new", data=fields)
    assert made.status_code == 302, made.get_data(as_text=True)[:500]
    public_id = made.headers["Location"].split("/")[2]
    match = imports_again(client, f"/m/{public_id}/export.json", "/api/v1/matches")
    assert len(match["name"]) <= MAX_MATCH_NAME and DATED.search(match["name"])  # the day is kept whole


@EXAMPLES
@given(players=names(8, MAX_PLAYER_NAME), name=names(1, MAX_TABLE_NAME))
def test_a_table_and_its_matches_named_by_the_app_export_and_import_again(client: FlaskClient, players: list[str],
                                                                          name: list[str]) -> None:
    made = client.post("/api/v1/tables", json={"name": name[0], "players": players}).get_json()
    assert client.get(f"/t/{made['id']}").status_code == 200  # this phone opened the table's link
    fields = form_values(client.get(f"/t/{made['id']}/matches/new"))
    for side in range(4):
        fields[f"sides-{side}-name"] = ""
        for seat in range(2):
            fields[f"sides-{side}-players-{seat}"] = players[side * 2 + seat]
    started = client.post(f"/t/{made['id']}/matches/new", data=fields)
    assert started.status_code == 302, started.get_data(as_text=True)[:500]
    match_id = started.headers["Location"].split("/")[2]
    match = imports_again(client, f"/m/{match_id}/export.json", "/api/v1/matches")
    assert all(len(side["name"]) <= MAX_SIDE_NAME for side in match["sides"])
    table = imports_again(client, f"/t/{made['id']}/export.json", "/api/v1/tables/import")
    assert [match["name"] for match in table["matches"]] == [match["name"]]


@EXAMPLES
@given(name=names(1, MAX_TABLE_NAME), players=names(8, MAX_PLAYER_NAME))
def test_an_events_matches_export_and_import_again(client: FlaskClient, name: list[str], players: list[str]) -> None:
    made = client.post("/api/v1/events", json={"name": name[0], "format": "progressive", "round_end": {"deals": 2},
                                               "rounds": 2, "players": players}).get_json()
    seated = client.post(f"/api/v1/events/{made['id']}/rounds",
                         headers={"Authorization": f"Bearer {made['director_token']}"})
    assert seated.status_code == 201, seated.get_json()
    files = zipfile.ZipFile(io.BytesIO(client.get(f"/e/{made['id']}/matches.zip").get_data()))
    assert files.namelist()
    for file_name in files.namelist():
        imported = client.post("/api/v1/matches", data=files.read(file_name), content_type="application/json")
        assert imported.status_code == 201, imported.get_json()


@given(text=name_text(0, 200), maximum=st.integers(2, 80))
def test_a_name_cut_to_fit_is_within_its_limit_and_ends_as_a_name_may(text: str, maximum: int) -> None:
    fitted = fit_name(text, maximum)
    assert len(fitted) <= maximum and fitted == fitted.strip()
    assert fitted == text or (fitted.endswith("…") and text.startswith(fitted[:-1].rstrip()))


def test_rematches_of_a_match_named_at_its_longest_keep_within_the_limit(client: FlaskClient) -> None:
    """The next matches are numbered after the name ("… (2)", "… (3)"), and still import again."""
    fields = form_values(client.get("/matches/new?preset=double-500")) | {"name": ""}
    fields |= {"sides-0-name": "W" * MAX_SIDE_NAME, "sides-1-name": "T" * MAX_SIDE_NAME}
    public_id = client.post("/matches/new", data=fields).headers["Location"].split("/")[2]
    for number in (2, 3):
        again = client.post(f"/m/{public_id}/rematch", data=form_values(client.get(f"/m/{public_id}/rematch")))
        assert again.status_code == 302
        public_id = again.headers["Location"].split("/")[2]
        match = imports_again(client, f"/m/{public_id}/export.json", "/api/v1/matches")
        assert match["name"].endswith(f" ({number})") and len(match["name"]) <= MAX_MATCH_NAME
