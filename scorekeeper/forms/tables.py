"""The table forms: a new table with its players, a player added, a rule card, a match started from a table."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import Field, FormField, HiddenField, SelectField, StringField
from wtforms.form import Form
from wtforms.validators import ValidationError

from ..extensions import count_made
from ..rules.errors import RulesError
from ..rules.house_rules import HouseRules
from ..rules.limits import MAX_PLAYER_NAME, MAX_RULE_CARD_NAME, MAX_SIDES, MAX_TABLE_NAME
from ..rules.refusals import Invalid
from ..rules.text import load_json
from ..tables import TableFile, read_table_file
from .common import NumberedList, SelectChoice, add_error, sentence
from .house_rules import RulesForm
from .transfer import uploaded_text

NEW_TABLE_SLOTS = 6  # player fields on the new-table form (more are added on the table page)
PLAYERS_PER_SIDE = 2  # player fields per side on a table's new-match form


def _text(maximum: int, placeholder: str = "", **extra: str) -> dict[str, str | int]:
    return {"maxlength": maximum, "autocomplete": "off", **({"placeholder": placeholder} if placeholder else {}),
            **extra}


class NewTableForm(FlaskForm):
    name = StringField("Table name", render_kw=_text(MAX_TABLE_NAME, "Thursdays at Ann's"))
    players = NumberedList(StringField("Player", render_kw=_text(MAX_PLAYER_NAME)),
                           min_entries=NEW_TABLE_SLOTS, max_entries=NEW_TABLE_SLOTS)

    def typed_players(self) -> list[tuple[Field, str]]:
        """The player fields with something typed, with what was typed."""
        return [(entry, entry.data or "") for entry in self.players if (entry.data or "").strip()]


class AddPlayerForm(FlaskForm):
    name = StringField("New player", render_kw=_text(MAX_PLAYER_NAME))


class RuleCardForm(FlaskForm):
    """A named set of every house rule, started from a preset or another card."""

    name = StringField("Name of the rule card", render_kw=_text(MAX_RULE_CARD_NAME, "Grandma's rules"))
    start = HiddenField()
    auction = HiddenField(default="yes")
    rules = FormField(RulesForm)


class SidePlayersForm(Form):
    name = StringField("Side name", render_kw=_text(MAX_PLAYER_NAME, "named after its players"))
    players = NumberedList(StringField("Player", render_kw=_text(MAX_PLAYER_NAME, list="table-players")),
                           min_entries=PLAYERS_PER_SIDE, max_entries=PLAYERS_PER_SIDE)

    def typed(self) -> list[tuple[Field, str]]:
        return [(entry, (entry.data or "").strip()) for entry in self.players if (entry.data or "").strip()]


class TableMatchForm(FlaskForm):
    """A match at a table: its players on 2 to 4 sides, and the rule card or preset to start from."""

    start = SelectField("House rules", validate_choice=False)
    sides = NumberedList(FormField(SidePlayersForm), min_entries=MAX_SIDES, max_entries=MAX_SIDES)

    def used_sides(self) -> list[SidePlayersForm]:
        """The sides with a player or a name typed."""
        return [entry.form for entry in self.sides
                if entry.form.typed() or (entry.form.name.data or "").strip()]


def starting_choices(form: TableMatchForm, options: list[tuple[str, str]]) -> None:
    form.start.choices = [SelectChoice(key, label) for key, label in options]


def show_problem(field: Field, message: str) -> None:
    add_error(field, sentence(message))


def rules_of_form(form: RuleCardForm) -> HouseRules:
    return form.rules.form.house_rules()


class ImportTableForm(FlaskForm):
    """A table file, uploaded: it must read as a table whose every match fits its rules."""

    file = FileField("Table file")

    table: TableFile | None = None

    def validate_file(self, field: FileField) -> None:
        text = uploaded_text(field, "a table file")
        if text is None:
            raise ValidationError("Choose a table file.")
        try:
            self.table = read_table_file(load_json(text), count=count_made)
        except RulesError as problem:
            raise ValidationError(f"This file cannot be read as a table file: {problem}.") from None
        except Invalid as problem:
            where = f"{problem.field}: " if problem.field and problem.field != "file" else ""
            raise ValidationError(where + sentence(problem.message)) from None
