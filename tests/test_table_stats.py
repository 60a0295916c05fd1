"""The statistics pages (views/table_stats.py): finished matches counted apart from those in progress, each
figure saying which matches it comes from, and a form chart readable with one match and with many."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from test_tables import MATCH_ONE, new_table, start

from scorekeeper.rules.stats import FormPoint
from scorekeeper.sheet.form_chart import DOTS_UP_TO, form_chart


def figures(page: str, player: str) -> dict[str, str]:
    """A player's figures on a statistics page, by name, as their text reads."""
    found = re.findall(rf'<dl class="figures" data-player="{player}">(.*?)</dl>', page, re.S)
    values = re.findall(r'data-figure="(\w+)">(.*?)</dd>', "".join(found), re.S)
    return {name: " ".join(re.sub(r"<[^>]+>", " ", text).split()) for name, text in values}


def test_finished_matches_are_counted_apart_from_those_in_progress(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    assert start(client, table_id, MATCH_ONE).status_code == 201  # Ann & Bob win at deal 2
    assert start(client, table_id, MATCH_ONE[:1]).status_code == 201  # one deal: in progress
    page = client.get(f"/t/{table_id}/stats").get_data(as_text=True)
    assert "finished matches 1 · in progress 1" in page
    ann = figures(page, "Ann")
    assert (ann["matches"], ann["in_progress"], ann["won"]) == ("1", "1", "1 (100%)")
    assert (ann["bids"], ann["made"]) == ("3", "3 (100%)")  # two bids in the finished match, one in progress
    assert re.search(r"<dt>Finished matches</dt>.*<dt>In progress</dt>.*<dt>Won, of finished</dt>", page, re.S)
    assert "Bids and meld, in finished matches and the 1 in progress" in page
    player = client.get(f"/t/{table_id}/stats/player?name=Cy").get_data(as_text=True)
    cy = figures(player, "Cy")
    assert (cy["matches"], cy["in_progress"], cy["won"], cy["bids"]) == ("1", "1", "0 (0%)", "0")


def test_with_every_match_finished_the_bids_say_so(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    start(client, table_id, MATCH_ONE)
    page = client.get(f"/t/{table_id}/stats").get_data(as_text=True)
    assert "finished matches 1 · in progress 0" in page
    assert "Bids and meld, in finished matches (" in page and figures(page, "Ann")["in_progress"] == "0"


def circles(page: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r'<circle[^>]*cx="([\d.]+)" cy="([\d.]+)"', page)]


def test_the_chart_of_one_match_shows_each_player_apart(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    start(client, table_id, MATCH_ONE)
    page = client.get(f"/t/{table_id}/stats").get_data(as_text=True)
    dots = circles(page)
    assert len(dots) == 4 and len(set(dots)) == 4
    assert all(abs(a[0] - b[0]) >= 8 for i, a in enumerate(dots) for b in dots[i + 1:])  # a dot is 8 wide
    middle = (40 + 348) / 2
    assert abs(sum(x for x, _ in dots) / 4 - middle) < 0.5  # in the middle, not on the chart's edge
    assert re.findall(r'<li class="series-\d"><span class="legend-swatch"></span><span class="legend-name">(\w+)'
                      r'</span> <span class="muted small">won (\d of \d)</span>', page) == \
        [("Ann", "1 of 1"), ("Bob", "1 of 1"), ("Cy", "0 of 1"), ("Di", "0 of 1")]


def test_the_chart_of_many_matches_keeps_to_its_columns_and_marks_the_last_points() -> None:
    played = 40
    record = tuple(FormPoint(n, n // 2) for n in range(1, played + 1))
    chart = form_chart({"Ann": record, "Bob": record})
    assert chart is not None and played > DOTS_UP_TO
    column = (chart.right - chart.left) / played
    ann, bob = chart.series
    assert len(ann.dots) == len(bob.dots) == 1
    assert 0 < bob.dots[0][0] - ann.dots[0][0] <= column  # side by side, within the last match's column
    assert (ann.band, bob.band) == (1, 0)  # the same course: Bob's line shows inside Ann's wider one
    assert [n for n, _ in chart.match_labels] == list(range(5, played + 1, 5))
