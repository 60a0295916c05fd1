"""The new-match form: a preset, a name, the sides and their house rules."""

from __future__ import annotations

from datetime import date

from flask_wtf import FlaskForm
from wtforms import Field, FormField, HiddenField, RadioField, StringField
from wtforms.form import Form
from wtforms.validators import ValidationError

from ..rules.errors import RulesError
from ..rules.house_rules import PRESETS, PRESETS_BY_KEY, Preset
from ..rules.limits import MAX_MATCH_NAME, MAX_PLAYER_NAME, MAX_PLAYERS, MAX_SIDE_NAME, MAX_SIDES
from ..rules.text import clean_name
from .common import NumberedList, SelectChoice, sentence
from .house_rules import FIELD_SPECS, RulesForm, rule_values

SIDE_SLOTS = max(len(preset.side_names) for preset in PRESETS)  # side name fields: the most sides a preset has
assert SIDE_SLOTS <= MAX_SIDES


class _Name:
    """Validator: the rules core's reading of a name (NFC, spaces stripped, length and characters
    within ``limits``), its message shown at the field; the field keeps the name as read."""

    def __init__(self, maximum: int, what: str) -> None:
        self.maximum, self.what = maximum, what

    def __call__(self, form: Form, field: Field) -> None:
        try:
            field.data = clean_name(field.data or "", "", self.maximum, self.what)
        except RulesError as error:
            raise ValidationError(sentence(error.problem.message)) from None


def player_names(text: str) -> tuple[str, ...]:
    """The players typed in one field, separated by commas; raises RulesError for a name the core refuses."""
    names = tuple(clean_name(part, "", MAX_PLAYER_NAME, "a player's name") for part in text.split(","))
    return tuple(name for name in names if name)


class SideNameForm(Form):
    name = StringField("Name", validators=[_Name(MAX_SIDE_NAME, "a side's name")])
    players = StringField("Players", description=f"Optional, up to {MAX_PLAYERS}, separated by commas.",
                          render_kw={"placeholder": "optional", "autocomplete": "off"})

    def validate_players(self, field: Field) -> None:
        try:
            names = player_names(field.data or "")
        except RulesError as error:
            raise ValidationError(sentence(error.problem.message)) from None
        if len(names) > MAX_PLAYERS:
            raise ValidationError(f"A side has at most {MAX_PLAYERS} players.")

    def player_names(self) -> tuple[str, ...]:
        return player_names(self.players.data or "")


class NewMatchForm(FlaskForm):
    """Start a match from a preset; the house rules can be changed before the first deal."""

    preset = RadioField("Game", choices=[SelectChoice(p.key, p.label) for p in PRESETS], default=PRESETS[0].key,
                        validate_choice=False)
    rules_from = HiddenField(default=PRESETS[0].key)
    name = StringField("Match name", validators=[_Name(MAX_MATCH_NAME, "a match's name")],
                       render_kw={"placeholder": "Friday at Ann's", "autocomplete": "off"})
    sides = NumberedList(FormField(SideNameForm), min_entries=SIDE_SLOTS, max_entries=SIDE_SLOTS)
    rules = FormField(RulesForm)
    # The phone's own date (YYYY-MM-DD), filled in by static/phone.js: a match started late in the evening
    # is named after the phone's day, not the server's. Without scripts it stays empty and UTC's day is used.
    local_date = HiddenField()

    def naming_date(self, today_utc: date) -> date:
        """The date a match without a name is named after: the phone's, when it sent a sensible one."""
        try:
            sent = date.fromisoformat((self.local_date.data or "").strip())
        except ValueError:
            return today_utc
        return sent if abs((sent - today_utc).days) <= 1 else today_utc

    @classmethod
    def for_preset(cls, preset: Preset) -> NewMatchForm:
        """A blank form filled with a preset's side names and rules."""
        sides = [{"name": name, "players": ""} for name in preset.side_names]
        sides += [{"name": "", "players": ""}] * (SIDE_SLOTS - len(sides))
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
        for spec in FIELD_SPECS:
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

    def clashing_sides(self) -> set[int]:
        """Indexes of the sides whose name another side has too (case aside)."""
        names = [(entry.name.data or "").strip().casefold() for entry in self.side_entries()]
        return {index for index, name in enumerate(names) if name and names.count(name) > 1}

    def validate_sides(self, field: Field) -> None:
        if self.clashing_sides():
            raise ValidationError("Give each side a different name.")
