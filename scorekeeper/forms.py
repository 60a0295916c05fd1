"""Flask-WTF forms. Rule fields come from ``RULE_SPECS``; deal values are checked by the rules core."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import (
    BooleanField,
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import Length, Optional, ValidationError

from .rules.cards import Suit
from .rules.combinations import Combination
from .rules.errors import RulesError
from .rules.house_rules import PRESETS, PRESETS_BY_KEY, RULE_SPECS, HouseRules, Preset, RuleSpec
from .rules.problems import Problem

MAX_SIDES = max(len(preset.side_names) for preset in PRESETS)
SWITCH_CHOICES = [SelectChoice("on", "On"), SelectChoice("off", "Off")]
RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)


def suit_label(suit: Suit) -> Markup:
    """A trump button's label, "♥ Hearts", its sign red for the red suits as on the cards."""
    sign_class = ' class="suit-red"' if suit in RED_SUITS else ""
    # One inline run, so the button lays the sign and the name out as text with its space.
    return Markup('<span><span{}>{}</span> {}</span>').format(Markup(sign_class), suit.symbol, suit.name.title())


SUITS = [SelectChoice("", "None"), *(SelectChoice(suit.value, suit_label(suit)) for suit in Suit)]


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
        return RadioField(spec.label, choices=SWITCH_CHOICES, validators=check, description=spec.help,
                          validate_choice=False)
    options = [SelectChoice(value.value, label) for value, label in spec.choices]
    return SelectField(spec.label, choices=options, validators=check, description=spec.help, validate_choice=False)


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
    name = StringField("Name", validators=[
        Optional(), Length(max=40, message="Keep a side's name to %(max)d characters or fewer.")])
    players = StringField("Players", validators=[
        Optional(), Length(max=120, message="Keep the players' names to %(max)d characters in all.")],
                          description="Optional, separated by commas.",
                          render_kw={"placeholder": "optional", "autocomplete": "off"})

    def player_names(self) -> tuple[str, ...]:
        return tuple(name.strip() for name in (self.players.data or "").split(",") if name.strip())


class NewMatchForm(FlaskForm):
    """Start a match from a preset; the house rules can be changed before the first deal."""

    preset = RadioField("Game", choices=[SelectChoice(p.key, p.label) for p in PRESETS], default=PRESETS[0].key,
                        validate_choice=False)
    rules_from = HiddenField(default=PRESETS[0].key)
    name = StringField("Match name", validators=[
        Optional(), Length(max=80, message="Keep the match name to %(max)d characters or fewer.")],
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

    def clashing_sides(self) -> set[int]:
        """Indexes of the sides whose name another side has too (case aside)."""
        names = [(entry.name.data or "").strip().lower() for entry in self.side_entries()]
        return {index for index, name in enumerate(names) if name and names.count(name) > 1}

    def validate_sides(self, field: Field) -> None:
        if self.clashing_sides():
            raise ValidationError("Give each side a different name.")


# Deals ----------------------------------------------------------------------------------------------

QUICK, DETAIL = "quick", "detail"
SIDE_PATH = re.compile(r"sides\[(\d+)\](?:\.(\w+))?")
DEAL_KEY = re.compile(r"\w+")


class MeldSetsForm(Form):
    """How many sets of each combination one side showed (the 'Count meld' steppers)."""

    def _raw(self) -> dict[str, str]:
        return {c.value: (self[c.value].data or "").strip() for c in Combination}

    def counted(self) -> dict[str, int]:
        """The combinations counted at least once, by match file key."""
        return {key: int(raw) for key, raw in self._raw().items() if raw.isdigit() and int(raw) > 0}

    def has_bad_numbers(self) -> bool:
        return any(raw and not raw.isdigit() for raw in self._raw().values())


for _combination in Combination:
    setattr(MeldSetsForm, _combination.value,
            StringField(_combination.label.capitalize(), default="0", render_kw={"inputmode": "numeric"}))


class SideEntryForm(Form):
    """One side's facts in a deal."""

    total = StringField("Points", render_kw={"inputmode": "numeric", "autocomplete": "off"})
    meld = StringField("Meld", render_kw={"inputmode": "numeric", "autocomplete": "off"})
    tricks = StringField("Trick points", render_kw={"inputmode": "numeric", "autocomplete": "off"})
    no_trick = BooleanField("Took no trick")
    sets = FormField(MeldSetsForm)
    kept_meld = HiddenField()
    kept_tricks = HiddenField()


class DealForm(FlaskForm):
    """Enter or correct one deal. ``to_deal_json`` builds the match file's deal for the rules core."""

    version = HiddenField()
    mode = RadioField("Enter", choices=[SelectChoice(QUICK, "One number"), SelectChoice(DETAIL, "Meld + tricks")],
                      default=QUICK)
    passed = BooleanField("All passed")
    bidder = RadioField("Who won the bid?", choices=[], validate_choice=False)
    bid = StringField("Bid", render_kw={"inputmode": "numeric", "autocomplete": "off"})
    trump = RadioField("Trump", choices=SUITS, default="", validate_choice=False)
    thrown_in = BooleanField("Thrown in")
    last_trick = RadioField("Last trick", choices=[], validate_choice=False)
    sides = FieldList(FormField(SideEntryForm))

    def setup(self, side_names: list[str]) -> DealForm:
        """Fit the form to the match's sides."""
        sides = [SelectChoice(str(index), name) for index, name in enumerate(side_names)]
        self.bidder.choices = sides
        self.last_trick.choices = list(sides)
        while len(self.sides) < len(side_names):
            self.sides.append_entry()
        self.side_names = side_names
        return self

    def trump_label(self) -> str:
        label = next((suit.label for suit in SUITS if suit.value == (self.trump.data or "")), "")
        return Markup(label).striptags()

    def entries(self) -> list[SideEntryForm]:
        return [entry.form for entry in self.sides]

    def to_deal_json(self, auction: bool) -> dict[str, Any] | None:
        """The deal as the match file writes it, or None when a field holds something unreadable
        (the message is then at that field)."""
        if self.passed.data:
            return {"passed": True}
        data: dict[str, Any] = {"bidder": None}
        if auction:
            if self.bidder.data in (None, "", "None"):
                self.bidder.errors.append("Who won the bid? Tap a side.")
            else:
                data["bidder"] = int(self.bidder.data)
            data["bid"] = _whole_number(self.bid, "Type the bid.")
        if self.trump.data:
            data["trump"] = self.trump.data
        if self.thrown_in.data:
            data["thrown_in"] = True
        quick = self.mode.data != DETAIL
        data["sides"] = [self._side_json(index, entry, quick) for index, entry in enumerate(self.entries())]
        return None if self.errors_present() else data

    def _side_json(self, index: int, entry: SideEntryForm, quick: bool) -> dict[str, Any]:
        if quick:
            return {"total": _whole_number(entry.total, "Type the side's points (0 if none).")}
        side: dict[str, Any] = {}
        meld = self._meld_json(entry)
        if meld is not None:
            side["meld"] = meld
        if (entry.tricks.data or "").strip():
            side["tricks"] = _whole_number(entry.tricks, "")
        elif entry.kept_tricks.data:
            side["tricks"] = _kept(entry.kept_tricks, entry.tricks)
        if self.last_trick.data == str(index):
            side["last_trick"] = True
        if entry.no_trick.data:
            side["took_trick"] = False
        return side

    def _meld_json(self, entry: SideEntryForm) -> Any:
        typed = (entry.meld.data or "").strip()
        sets = entry.sets.form.counted()
        if entry.sets.form.has_bad_numbers():
            entry.meld.errors.append("Count each combination with a whole number.")
            return None
        if typed and sets:
            entry.meld.errors.append("Type the meld or count it, not both: clear one of them.")
            return None
        if sets:
            return sets
        if typed:
            return _whole_number(entry.meld, "")
        if entry.kept_meld.data:
            return _kept(entry.kept_meld, entry.meld)
        return None

    def errors_present(self) -> bool:
        fields = [self.bidder, self.bid, self.trump, self.last_trick]
        for entry in self.entries():
            fields += [entry.total, entry.meld, entry.tricks, entry.no_trick]
        return any(field.errors for field in fields) or bool(self.form_errors)

    def place_problem(self, problem: Problem) -> None:
        """Show a problem from the rules core at the field its path (within the deal) names, else at the top."""
        field = self.field_at(problem.path)
        if field is None:
            self.form_errors.append(_sentence(problem.message))
        else:
            field.errors = [*field.errors, _sentence(problem.message)]

    def field_at(self, path: str) -> Field | None:
        """The field that shows the value at ``path`` (``bid``, ``sides[1].tricks`` …); None for the whole deal."""
        found = SIDE_PATH.match(path)
        if found is None:
            key = DEAL_KEY.match(path)
            fields = {"bid": self.bid, "bidder": self.bidder, "trump": self.trump, "thrown_in": self.thrown_in}
            return fields.get(key.group()) if key else None
        index, key_in_side = int(found.group(1)), found.group(2) or ""
        if index >= len(self.sides):
            return None
        if key_in_side == "last_trick":
            return self.last_trick
        entry = self.entries()[index]
        fields = {"total": entry.total, "meld": entry.meld, "tricks": entry.tricks, "took_trick": entry.no_trick}
        return fields.get(key_in_side, entry.meld if self.mode.data == DETAIL else entry.total)


def deal_form_data(deal: Mapping[str, Any]) -> dict[str, Any]:
    """Form values for a stored deal (match file format): the reverse of ``to_deal_json``."""
    if deal.get("passed"):
        return {"passed": True, "mode": QUICK}
    sides = deal.get("sides", [])
    quick = all("total" in side for side in sides)
    data: dict[str, Any] = {
        "mode": QUICK if quick else DETAIL,
        "bidder": "" if deal.get("bidder") is None else str(deal["bidder"]),
        "bid": "" if deal.get("bid") is None else str(deal["bid"]),
        "trump": deal.get("trump") or "",
        "thrown_in": bool(deal.get("thrown_in")),
        "last_trick": next((str(i) for i, side in enumerate(sides) if side.get("last_trick")), ""),
        "sides": [_side_form_data(side) for side in sides],
    }
    return data


def _side_form_data(side: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {"no_trick": side.get("took_trick") is False}
    if "total" in side:
        values["total"] = str(side["total"])
        return values
    meld, tricks = side.get("meld"), side.get("tricks")
    if isinstance(meld, int):
        values["meld"] = str(meld)
    elif isinstance(meld, dict) and "cards" not in meld:
        values["sets"] = {key: str(count) for key, count in meld.items()}
    elif meld is not None:
        values["kept_meld"] = json.dumps(meld)
    if isinstance(tricks, int):
        values["tricks"] = str(tricks)
    elif tricks is not None:
        values["kept_tricks"] = json.dumps(tricks)
    return values


def _kept(hidden: Field, shown: Field) -> Any:
    """A fact kept from the stored deal in a hidden field (cards, counters, several hands)."""
    try:
        return json.loads(hidden.data)
    except ValueError:
        shown.errors.append("The stored value could not be read back; type it again.")
        return None


def _whole_number(field: Field, message: str) -> int | None:
    raw = (field.data or "").strip()
    if not raw:
        field.errors.append(message or "Type a number.")
        return None
    if not raw.isdigit():
        field.errors.append(f"'{raw}' is not a whole number.")
        return None
    return int(raw)


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")
