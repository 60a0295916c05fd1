"""The forms build and render on the choice types WTForms keeps (no shape it has deprecated)."""

from __future__ import annotations

import warnings

import pytest
from flask import Flask

from scorekeeper.forms.deals import DealForm, meld_lines
from scorekeeper.forms.house_rules import HouseRulesForm, rule_values
from scorekeeper.forms.matches import NewMatchForm
from scorekeeper.rules.house_rules import PRESETS, HouseRules
from scorekeeper.rules.matchfile import match_from_json


def render_all(form: object) -> None:
    for field in form:  # type: ignore[attr-defined]
        str(field())
        for sub in getattr(field, "entries", []):
            for inner in sub.form:
                str(inner())


@pytest.mark.parametrize("build", [
    lambda: NewMatchForm.for_preset(PRESETS[0]),
    lambda: HouseRulesForm(data={"version": 1, "rules": rule_values(HouseRules())}),
    lambda: DealForm(data={"trump": "H"}).setup(["We", "They", "Third"]),
], ids=["new match", "house rules", "deal"])
def test_forms_use_no_deprecated_choice_shape(app: Flask, build) -> None:
    with app.test_request_context("/"), warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        form = build()
        render_all(form)
        for field in form.rules.form if hasattr(form, "rules") else ():
            str(field())


def test_deal_form_names_the_trump_it_holds(app: Flask) -> None:
    with app.test_request_context("/"):
        assert DealForm(data={"trump": "H"}).setup(["We", "They"]).trump_label() == "♥ Hearts"
        assert DealForm(data={"trump": ""}).setup(["We", "They"]).trump_label() == "None"


@pytest.mark.parametrize(("players", "auction", "lines"), [
    ([["Ann", "Bob"], ["Cy"]], True, [["Ann", "Bob"], ["Cy"]]),
    ([[], []], True, [["Partner 1", "Partner 2"], ["Partner 1", "Partner 2"]]),
    ([[], []], False, [[], []]),  # one unnamed hand a side: a line with no name
    ([[], [], ["Zoë"]], True, [[], [], ["Zoë"]]),
])
def test_the_deal_form_has_a_meld_line_for_each_hand_a_side_plays(
        players: list[list[str]], auction: bool, lines: list[list[str]]) -> None:
    data = {"format": "pinochle-match/1", "rules": {}, "deals": [], "auction": auction,
            "sides": [{"name": f"Side {n}", "players": named} for n, named in enumerate(players, 1)]}
    assert meld_lines(match_from_json(data)) == lines
