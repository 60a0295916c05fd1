"""The house-rules forms: one field per rule, built from the rules' own declarations (``RULE_SPECS``)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import Field, FormField, HiddenField, RadioField, SelectField, StringField
from wtforms.form import Form
from wtforms.validators import ValidationError

from ..rules.errors import RulesError
from ..rules.house_rules import RULE_SPECS, HouseRules, RuleKind, RuleSpec
from .common import SelectChoice, new_write_key

SWITCH_CHOICES = [SelectChoice("on", "On"), SelectChoice("off", "Off")]
FIELD_SPECS = tuple(spec for spec in RULE_SPECS if spec.kind is not RuleKind.PRICES)
"""The rules with a field here; the table's own meld prices have a page of their own (``forms/meld_prices``)."""

class _RuleCheck:
    """Validator: the rule's own parser decides, and its message is shown at the field."""

    def __init__(self, spec: RuleSpec) -> None:
        self.spec = spec

    def __call__(self, form: Form, field: Field) -> None:
        try:
            self.spec.parse(field.data)
        except RulesError as error:
            raise ValidationError(str(error)) from None


def rule_values(rules: HouseRules) -> dict[str, str]:
    """The rules as the text the form fields hold."""
    values = {}
    for spec in FIELD_SPECS:
        value = rules.to_mapping(complete=True)[spec.key]
        values[spec.key] = ("on" if value else "off") if spec.kind is RuleKind.SWITCH else str(value)
    return values


def _rule_field(spec: RuleSpec) -> Field:
    check = [_RuleCheck(spec)]
    if spec.kind is RuleKind.NUMBER:
        return StringField(
            spec.label, validators=check, description=spec.help,
            render_kw={"inputmode": "numeric", "data-min": spec.minimum, "data-max": spec.maximum,
                       "data-step": spec.step},
        )
    if spec.kind is RuleKind.SWITCH:
        return RadioField(spec.label, choices=SWITCH_CHOICES, validators=check, description=spec.help,
                          validate_choice=False)
    options = [SelectChoice(value.value, label) for value, label in spec.choices]
    return SelectField(spec.label, choices=options, validators=check, description=spec.help, validate_choice=False)


class RulesForm(Form):
    """The eight house rules, one field each, named by the rule's key."""

    def house_rules(self, base: HouseRules | None = None) -> HouseRules:
        """The rules typed in (call after validation); the meld prices are ``base``'s."""
        return HouseRules.from_mapping({spec.key: self[spec.key].data for spec in FIELD_SPECS}, base)

    def grouped(self) -> list[tuple[str, list[Field]]]:
        """The fields in the groups the rules declare, in declaration order."""
        groups: dict[str, list[Field]] = {}
        for spec in FIELD_SPECS:
            groups.setdefault(spec.group, []).append(self[spec.key])
        return list(groups.items())


for _spec in FIELD_SPECS:
    setattr(RulesForm, _spec.key, _rule_field(_spec))


class HouseRulesForm(FlaskForm):
    """Change the house rules of a match; ``confirm`` is set on the preview page."""

    version = HiddenField()
    write_key = HiddenField(default=new_write_key)  # kept from the rules page through its preview to the apply
    confirm = HiddenField()
    rules = FormField(RulesForm)


class RescaleForm(FlaskForm):
    """Rescale the match ×10 or ÷10 (``factor`` is the button tapped: ``up`` or ``down``); ``confirm`` is set
    on its preview."""

    version = HiddenField()
    write_key = HiddenField(default=new_write_key)  # kept from the rules page through the preview to the rescale
    confirm = HiddenField()
    factor = HiddenField()


class UndoForm(FlaskForm):
    """Undo one change of the rules history (the change is named in the address); ``confirm`` is set on
    its preview."""

    version = HiddenField()
    write_key = HiddenField()  # kept from the rules page through the preview to the undo
    confirm = HiddenField()
