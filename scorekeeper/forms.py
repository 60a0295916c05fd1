"""Flask-WTF forms. Rule fields come from ``RULE_SPECS``; deal values are checked by the rules core."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import (
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.validators import Length, Optional, ValidationError

from .rules.errors import RulesError
from .rules.house_rules import PRESETS, PRESETS_BY_KEY, RULE_SPECS, HouseRules, Preset, RuleSpec

MAX_SIDES = max(len(preset.side_names) for preset in PRESETS)
SWITCH_CHOICES = [("on", "On"), ("off", "Off")]
SUITS = [("", "None"), ("S", "♠ Spades"), ("H", "♥ Hearts"), ("D", "♦ Diamonds"), ("C", "♣ Clubs")]


# House rules ---------------------------------------------------------------------------------------

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
    for spec in RULE_SPECS:
        value = rules.to_mapping()[spec.key]
        values[spec.key] = ("on" if value else "off") if spec.kind == "switch" else str(value)
    return values


def _rule_field(spec: RuleSpec) -> Field:
    check = [_RuleCheck(spec)]
    if spec.kind == "number":
        return StringField(
            spec.label, validators=check, description=spec.help,
            render_kw={"inputmode": "numeric", "data-min": spec.minimum, "data-max": spec.maximum,
                       "data-step": spec.step},
        )
    if spec.kind == "switch":
        return RadioField(spec.label, choices=SWITCH_CHOICES, validators=check, description=spec.help)
    choices = [(value.value, label) for value, label in spec.choices]
    return SelectField(spec.label, choices=choices, validators=check, description=spec.help)


class RulesForm(Form):
    """The eight house rules, one field each, named by the rule's key."""

    def house_rules(self) -> HouseRules:
        """The rules typed in (call after validation)."""
        return HouseRules.from_mapping({spec.key: self[spec.key].data for spec in RULE_SPECS})

    def grouped(self) -> list[tuple[str, list[Field]]]:
        """The fields in the groups the rules declare, in declaration order."""
        groups: dict[str, list[Field]] = {}
        for spec in RULE_SPECS:
            groups.setdefault(spec.group, []).append(self[spec.key])
        return list(groups.items())


for _spec in RULE_SPECS:
    setattr(RulesForm, _spec.key, _rule_field(_spec))


class HouseRulesForm(FlaskForm):
    """Change the house rules of a match; ``confirm`` is set on the preview page."""

    version = HiddenField()
    confirm = HiddenField()
    rules = FormField(RulesForm)


# New match ------------------------------------------------------------------------------------------

class SideNameForm(Form):
    name = StringField("Name", validators=[Optional(), Length(max=40)])
    players = StringField("Players", validators=[Optional(), Length(max=120)],
                          description="Optional, separated by commas.")

    def player_names(self) -> tuple[str, ...]:
        return tuple(name.strip() for name in (self.players.data or "").split(",") if name.strip())


class NewMatchForm(FlaskForm):
    """Start a match from a preset; the house rules can be changed before the first deal."""

    preset = RadioField("Game", choices=[(p.key, p.label) for p in PRESETS], default=PRESETS[0].key)
    rules_from = HiddenField(default=PRESETS[0].key)
    name = StringField("Match name", validators=[Optional(), Length(max=80)],
                       render_kw={"placeholder": "Friday at Ann's", "autocomplete": "off"})
    sides = FieldList(FormField(SideNameForm), min_entries=MAX_SIDES, max_entries=MAX_SIDES)
    rules = FormField(RulesForm)

    @classmethod
    def for_preset(cls, preset: Preset) -> NewMatchForm:
        """A blank form filled with a preset's side names and rules."""
        sides = [{"name": name, "players": ""} for name in preset.side_names]
        sides += [{"name": "", "players": ""}] * (MAX_SIDES - len(sides))
        return cls(data={"preset": preset.key, "rules_from": preset.key, "sides": sides,
                         "rules": rule_values(preset.rules)})

    def chosen_preset(self) -> Preset:
        return PRESETS_BY_KEY.get(self.preset.data or "", PRESETS[0])

    def settle_preset(self) -> None:
        """Without scripts, a changed preset still applies: every rule and side name left as the
        previous preset set it takes the new preset's value; anything typed by hand stays."""
        chosen = self.chosen_preset()
        previous = PRESETS_BY_KEY.get(self.rules_from.data or "", chosen)
        if previous is chosen:
            return
        old_values, new_values = rule_values(previous.rules), rule_values(chosen.rules)
        for spec in RULE_SPECS:
            field = self.rules[spec.key]
            if field.data == old_values[spec.key]:
                field.data = new_values[spec.key]
        for index, entry in enumerate(self.sides):
            old_name = previous.side_names[index] if index < len(previous.side_names) else ""
            if (entry.form.name.data or "").strip() in ("", old_name):
                entry.form.name.data = chosen.side_names[index] if index < len(chosen.side_names) else ""
        self.rules_from.data = chosen.key

    def validate_preset(self, field: Field) -> None:
        if field.data not in PRESETS_BY_KEY:
            raise ValidationError("Choose one of the games.")

    def side_entries(self) -> list[SideNameForm]:
        """The side fields this preset uses."""
        return [entry.form for entry in self.sides][: len(self.chosen_preset().side_names)]

    def validate_sides(self, field: Field) -> None:
        names = [(entry.name.data or "").strip().lower() for entry in self.side_entries()]
        filled = [name for name in names if name]
        if len(set(filled)) != len(filled):
            raise ValidationError("Give each side a different name.")
