"""The deal form: one deal's facts, as one number per side or as meld and tricks."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import BooleanField, Field, FieldList, FormField, HiddenField, RadioField, StringField
from wtforms.form import Form

from ..rules.combinations import Combination
from ..rules.errors import RulesError
from ..rules.numbers import parse_whole_number, whole_number_or_none
from ..rules.problems import Problem
from ..rules.text import load_json
from .common import SUITS, SelectChoice, add_error, new_write_key, sentence

QUICK, DETAIL = "quick", "detail"
SIDE_PATH = re.compile(r"sides\[(\d+)\](?:\.(\w+))?")
DEAL_KEY = re.compile(r"\w+")


class MeldSetsForm(Form):
    """How many sets of each combination one side showed (the 'Count meld' steppers)."""

    def _raw(self) -> dict[str, str]:
        return {c.value: (self[c.value].data or "").strip() for c in Combination}

    def counted(self) -> dict[str, int]:
        """The combinations counted at least once, by match file key (unreadable counts left out)."""
        counts = {key: whole_number_or_none(raw) for key, raw in self._raw().items() if raw}
        return {key: n for key, n in counts.items() if n}

    def has_bad_numbers(self) -> bool:
        return any(raw and whole_number_or_none(raw) is None for raw in self._raw().values())


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
    write_key = HiddenField(default=new_write_key)  # a fresh key each time the form is drawn anew
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
        while len(self.sides) > len(side_names):  # fields posted for sides the match does not have
            self.sides.pop_entry()
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
            bidder = whole_number_or_none(self.bidder.data or "")
            if self.bidder.data in (None, "", "None"):
                add_error(self.bidder, "Who won the bid? Tap a side.")
            elif bidder is None or bidder >= len(self.sides):
                add_error(self.bidder, "Tap one of the sides of this match.")
            else:
                data["bidder"] = bidder
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
            add_error(entry.meld, "Count each combination with a whole number.")
            return None
        if typed and sets:
            add_error(entry.meld, "Type the meld or count it, not both: clear one of them.")
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
            self.form_errors.append(sentence(problem.message))
        else:
            add_error(field, sentence(problem.message))

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
        return load_json(hidden.data)
    except RulesError:
        add_error(shown, "The stored value could not be read back; type it again.")
        return None


def _whole_number(field: Field, message: str) -> int | None:
    raw = (field.data or "").strip()
    if not raw:
        add_error(field, message or "Type a number.")
        return None
    try:
        return parse_whole_number(raw)
    except RulesError as error:
        add_error(field, sentence(error.problem.message))
        return None
