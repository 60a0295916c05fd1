"""The forms build and render on the choice types WTForms keeps (no shape it has deprecated)."""

from __future__ import annotations

import warnings

import pytest
from flask import Flask

from scorekeeper.forms.deals import DealForm
from scorekeeper.forms.house_rules import HouseRulesForm, rule_values
from scorekeeper.forms.matches import NewMatchForm
from scorekeeper.rules.house_rules import PRESETS, HouseRules


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
