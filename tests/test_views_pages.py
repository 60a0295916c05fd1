"""The rules page shows every house rule, preset, meld table and trick scale the core declares."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from scorekeeper.rules.house_rules import PRESETS, RULE_SPECS, RULE_SPECS_BY_KEY, TrickScale


@pytest.fixture
def page(client: FlaskClient) -> str:
    response = client.get("/rules")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def row(page: str, heading: str) -> list[str]:
    """The cells of the table row headed ``heading``."""
    found = re.search(rf'<th scope="row"[^>]*>{re.escape(heading)}</th>(.*?)</tr>', page, re.S)
    assert found, heading
    return re.findall(r"<td>(.*?)</td>", found.group(1))


@pytest.mark.parametrize("spec", RULE_SPECS, ids=lambda spec: spec.key)
def test_every_house_rule_with_help_allowed_values_and_default(page: str, spec: object) -> None:
    section = page[page.index(f'id="rule-{spec.key}"'):]  # type: ignore[attr-defined]
    section = section[: section.index("</dd>")]
    assert str(escape(spec.label)) in section  # type: ignore[attr-defined]
    assert str(escape(spec.help)) in section  # type: ignore[attr-defined]
    assert f"Default: <strong>{escape(spec.value_label(spec.default))}</strong>" in section  # type: ignore[attr-defined]
    for _, label in spec.choices:  # type: ignore[attr-defined]
        assert f"<li>{escape(label)}</li>" in section


def test_presets_with_their_rules(page: str) -> None:
    for preset in PRESETS:
        assert str(escape(preset.label)) in page
    assert row(page, "Play to") == [str(preset.rules.target) for preset in PRESETS]


# RULES.md, pricing table: single-classic, double-small, double-large
@pytest.mark.parametrize(
    ("combination", "prices"),
    [
        ("Run", ["150 / 1500", "15 / 150 / 225 / 300", "150 / 1500 / 2250 / 3000"]),
        ("Royal marriage", ["40 each", "4 each", "40 each"]),
        ("Marriage", ["20 each", "2 each", "20 each"]),
        ("Dix", ["10 each", "1 each", "10 each"]),
        ("Pinochle", ["40 / 300", "4 / 30 / 60 / 90", "40 / 300 / 600 / 900"]),
        ("Aces around", ["100 / 1000", "10 / 100 / 150 / 200", "100 / 1000 / 1500 / 2000"]),
        ("Jacks around", ["40 / 400", "4 / 40 / 60 / 80", "40 / 400 / 600 / 800"]),
    ],
)
def test_meld_tables(page: str, combination: str, prices: list[str]) -> None:
    cells = row(page, combination)
    assert sorted(cells[1:]) == sorted(prices)


def test_trick_scales_and_what_each_deck_holds(page: str) -> None:
    scale_label = RULE_SPECS_BY_KEY["trick_scale"].value_label
    cells = row(page, str(escape(scale_label(TrickScale.CLASSIC))))
    assert cells[:6] == ["11", "10", "4", "3", "2", "0"]
    assert cells[6:] == ["240 + last trick", "480 + last trick"]
    one_point = row(page, str(escape(scale_label(TrickScale.ONE_POINT))))
    assert one_point[6:] == ["24 + last trick", "48 + last trick"]


def test_sections_on_scoring_winning_and_changing_rules(page: str) -> None:
    for anchor in ("meld", "tricks", "deal", "winning", "changing"):
        assert f'<section id="{anchor}">' in page
    assert "Thrown in" in page and "kept as it was entered" in page
