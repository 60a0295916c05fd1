"""Sides named after their players: a side whose name is empty or still a preset's placeholder ("We",
"They" …) is shown as its players ("Ann & Bob") on every page, by the core and by its browser twin alike,
while the stored name, and so every export, stays as it was."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import Actions, form_values
from flask.testing import FlaskClient

from scorekeeper.rules.match import SideInfo, shown_side_name

ROOT = Path(__file__).resolve().parent.parent

CASES = [  # name, players → shown
    ("We", ("Ann", "Bob"), "Ann & Bob"),
    ("They", ("Cy", "Di"), "Cy & Di"),
    ("North", ("Ann",), "Ann"),
    ("You", ("Bo",), "Bo"),
    ("", ("Ann", "Bob"), "Ann & Bob"),
    ("We", (), "We"),
    ("Reds", ("Ann", "Bob"), "Reds"),
    ("we", ("Ann", "Bob"), "we"),  # typed by hand: only the preset's own spelling is a placeholder
    ("Ann & Bob", ("Ann", "Bob"), "Ann & Bob"),
]


@pytest.mark.parametrize(("name", "players", "shown"), CASES)
def test_the_name_a_side_is_shown_by(name: str, players: tuple[str, ...], shown: str) -> None:
    assert shown_side_name(name, players) == SideInfo(name, players).shown_name == shown


def test_the_twin_names_a_side_as_the_core_does() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is missing: install Debian's nodejs (.ci/run does)")
    script = ('const rules = await import("./static/js/rules/index.js");'
              f'const cases = {json.dumps([[name, list(players)] for name, players, _ in CASES])};'
              'console.log(JSON.stringify(cases.map(([name, players]) => rules.shownSideName({ name, players }))));')
    run = subprocess.run([node, "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [shown for _, _, shown in CASES]


def preset_match(client: FlaskClient, first: str = "We") -> str:
    """A double-deck match to 500 started from the preset with both sides' players typed in."""
    data = form_values(client.get("/matches/new?preset=double-500")) | {
        "name": "Friday", "sides-0-name": first, "sides-0-players": "Ann, Bob",
        "sides-1-name": "They", "sides-1-players": "Cy, Di"}
    return client.post("/matches/new", data=data).headers["Location"].split("/")[2]  # /m/<id>/invite


def test_every_page_names_the_sides_after_their_players(client: FlaskClient, actions: Actions) -> None:
    public_id = preset_match(client)
    form = client.get(f"/m/{public_id}/deals/new").get_data(as_text=True)
    assert re.findall(r'name="last_trick"[^>]*><span>([^<]+)</span>', form) == ["Ann &amp; Bob", "Cy &amp; Di"]
    assert ">We<" not in form and ">They<" not in form
    actions.add_deal(public_id, 1, 50, (20, 60))
    actions.add_deal(public_id, 1, 50, (20, 500))
    sheet = client.get(f"/m/{public_id}").get_data(as_text=True)
    assert "★ Cy &amp; Di won at deal 2" in sheet
    assert "1. Cy &amp; Di 560 · 2. Ann &amp; Bob 40" in sheet
    assert sheet.count('<span class="total-name">Ann &amp; Bob</span>') == 1
    assert sheet.count('<th scope="col" class="side-head">Cy &amp; Di</th>') == 1
    assert '<span class="legend-name">Ann &amp; Bob</span>' in sheet  # the chart
    assert ">We<" not in sheet and ">They<" not in sheet and "We won" not in sheet
    home = client.get("/").get_data(as_text=True)
    assert "Ann &amp; Bob <strong>40</strong> · Cy &amp; Di <strong>560</strong>" in home
    stored = client.get(f"/m/{public_id}/export.json").get_json()
    assert [side["name"] for side in stored["sides"]] == ["We", "They"]  # the export keeps the facts


def test_a_side_name_typed_by_hand_stays(client: FlaskClient) -> None:
    public_id = preset_match(client, first="Reds")
    sheet = client.get(f"/m/{public_id}").get_data(as_text=True)
    assert '<span class="total-name">Reds</span><span class="side-players">Ann &amp; Bob</span>' in sheet
    assert '<span class="total-name">Cy &amp; Di</span>' in sheet
