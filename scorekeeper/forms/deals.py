"""The deal form: one deal's facts, as one number per side or as meld and tricks."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import BooleanField, Field, FormField, HiddenField, RadioField, SelectField, StringField
from wtforms.form import Form

from ..rules.combinations import Combination
from ..rules.errors import RulesError
from ..rules.match import Match
from ..rules.numbers import parse_whole_number, whole_number_or_none
from ..rules.problems import Problem
from ..rules.rotation import side_hands
from ..rules.text import load_json
from .common import SUITS, NumberedList, SelectChoice, add_error, new_write_key, sentence

QUICK, DETAIL = "quick", "detail"
SIDE_PATH = re.compile(r"sides\[(\d+)\](?:\.(\w+)(?:\[(\d+)\])?)?")
DEAL_KEY = re.compile(r"\w+")
BIDDER_PLAYER = re.compile(r"([0-9]+):(.+)", re.S)  # a player's button in "Who bid?": their side and name
MAX_HANDS = 4  # meld lines a side may have: one per partner
NUMBER_FIELD = {"inputmode": "numeric", "autocomplete": "off", "enterkeyhint": "next"}
# A score written as on a paper sheet: a minus (hyphen, the real minus sign or a dash) and digits.
NEGATIVE = re.compile(r"[-\u2212\u2013\u2014]\s*([0-9]+)")

# How a side fared in play, for the must-take-a-trick rule (the match file's ``took_trick``).
TOOK_POINTS, TOOK_NO_POINTS, TOOK_NOTHING = "points", "no_points", "none"
TOOK_CHOICES = [
    SelectChoice(TOOK_POINTS, "Took points"),
    SelectChoice(TOOK_NO_POINTS, "Tricks, no points"),
    SelectChoice(TOOK_NOTHING, "No trick"),
]


class MeldSetsForm(Form):
    """How many sets of each combination one hand showed (the 'Count meld' steppers)."""

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


class HandMeldForm(Form):
    """One hand's meld (a line per partner): a number, sets counted, or kept as stored (cards)."""

    meld = StringField("Meld", render_kw=NUMBER_FIELD)
    sets = FormField(MeldSetsForm)
    kept = HiddenField()

    def is_empty(self) -> bool:
        return not ((self.meld.data or "").strip() or self.sets.form.counted() or self.kept.data
                    or self.sets.form.has_bad_numbers())

    def to_json(self) -> tuple[Any, str]:
        """The hand's meld as the match file writes it, or None and a message saying what to fix."""
        typed = (self.meld.data or "").strip()
        sets = self.sets.form.counted()
        if self.sets.form.has_bad_numbers():
            return None, "Count each combination with a whole number."
        if typed and sets:
            return None, "Type the meld or count it, not both: clear one of them."
        if sets:
            return sets, ""
        if typed:
            try:
                return parse_whole_number(typed), ""
            except RulesError as error:
                return None, sentence(error.problem.message)
        if self.kept.data:
            try:
                return load_json(self.kept.data), ""
            except RulesError:
                return None, "The stored meld could not be read back; type it again."
        return 0, ""


class SideEntryForm(Form):
    """One side's facts in a deal."""

    total = StringField("Points", render_kw=NUMBER_FIELD)
    hands = NumberedList(FormField(HandMeldForm), min_entries=1)
    tricks = StringField("Trick points", render_kw=NUMBER_FIELD)
    took = RadioField("In play", choices=TOOK_CHOICES, default=TOOK_POINTS, validate_choice=False)
    kept_tricks = HiddenField()

    def hand_forms(self) -> list[HandMeldForm]:
        return [hand.form for hand in self.hands]


class DealForm(FlaskForm):
    """Enter or correct one deal. ``to_deal_json`` builds the match file's deal for the rules core."""

    version = HiddenField()
    deal = HiddenField()  # a correction's: the deal's row id as drawn, to tell where it is if deals before it go
    write_key = HiddenField(default=new_write_key)  # a fresh key each time the form is drawn anew
    mode = RadioField("Enter", choices=[SelectChoice(QUICK, "One number"), SelectChoice(DETAIL, "Meld + tricks")],
                      default=QUICK)
    passed = BooleanField("All passed")
    bidder = RadioField("Who won the bid?", choices=[], validate_choice=False)
    bid = StringField("Bid", render_kw=NUMBER_FIELD)
    bid_by = RadioField("Who bid?", choices=[], validate_choice=False, default="")
    dealt_by = SelectField("Who dealt?", choices=[], validate_choice=False, default="")
    trump = RadioField("Trump", choices=SUITS, default="", validate_choice=False)
    thrown_in = BooleanField("Thrown in")
    out = BooleanField("Announced going out")  # offered when the house rules say a side must bid out
    forced = BooleanField("Forced bid: all passed")  # offered when the dealer's side must take the minimum
    last_trick = RadioField("Last trick", choices=[], validate_choice=False)
    sides = NumberedList(FormField(SideEntryForm))

    def setup(self, side_names: list[str], hand_names: list[list[str]] | None = None,
              players: list[list[str]] | None = None, min_bid: int = 0) -> DealForm:
        """Fit the form to the match's sides, to each side's meld lines (one per partner, by name) and
        to its named players (who bid, who dealt: offered only when the sides name players)."""
        sides = [SelectChoice(str(index), name) for index, name in enumerate(side_names)]
        buttons = _bidder_choices(side_names, players or [], self.bidder.data or "", self.bid_by.data or "")
        self.bidder.choices = buttons
        self.bidder_values = [button.value for button in buttons]
        if self.bid_by.data and f"{self.bidder.data}:{self.bid_by.data}" in self.bidder_values:
            self.bidder.data = f"{self.bidder.data}:{self.bid_by.data}"  # a stored deal: its player's button
        named = [name for side in players or [] for name in side]
        none = [SelectChoice("", "Not noted")] if named else []
        self.bid_by.choices = none + [SelectChoice(name, name) for name in named]
        self.dealt_by.choices = none + [SelectChoice(name, name) for name in named]
        self.side_of_player = {name: index for index, side in enumerate(players or []) for name in side}
        self.min_bid = min_bid  # what a forced bid is, when the bid is left empty
        dealer_side = self.side_of_player.get(self.dealt_by.data or "", "")
        self.forced.render_kw = {"data-forced": f"{min_bid} {dealer_side}"}  # the script fills them in
        self.last_trick.choices = list(sides)
        while len(self.sides) < len(side_names):
            self.sides.append_entry()
        while len(self.sides) > len(side_names):  # fields posted for sides the match does not have
            self.sides.pop_entry()
        self.side_names = side_names
        wanted = hand_names or [[] for _ in side_names]
        self.hand_names: list[list[str]] = []  # who melds each line: a player's name, or "hand 3"
        for entry, names in zip(self.entries(), wanted, strict=True):
            while len(entry.hands) < min(max(len(names), 1), MAX_HANDS):
                entry.hands.append_entry()
            while len(entry.hands) > MAX_HANDS:
                entry.hands.pop_entry()
            count = len(entry.hands)
            self.hand_names.append([*names[:count], *(f"hand {n}" for n in range(len(names) + 1, count + 1))])
        if self.entries():
            last = self.entries()[-1].total
            last.render_kw = {**NUMBER_FIELD, "enterkeyhint": "done"}
        return self

    def players_bid(self) -> bool:
        """Whether "Who bid?" offers players (some side names its players) rather than the sides alone."""
        return any(":" in value for value in self.bidder_values)

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
        tapped = BIDDER_PLAYER.fullmatch(self.bidder.data or "")
        if auction and tapped:  # a player tapped in "Who bid?": their side bid
            self.bidder.data, self.bid_by.data = tapped.group(1), tapped.group(2)
        if auction:
            if self.bidder.data in (None, "", "None") and self.bid_by.data in self.side_of_player:
                self.bidder.data = str(self.side_of_player[self.bid_by.data])  # one tap on the bidder
            if self.forced.data:
                self._fill_forced_bid()
            bidder = whole_number_or_none(self.bidder.data or "")
            if self.bidder.data in (None, "", "None"):
                asked = "Who bid? Tap a player." if self.players_bid() else "Who won the bid? Tap a side."
                add_error(self.bidder, asked)
            elif bidder is None or bidder >= len(self.sides):
                add_error(self.bidder, "Tap one of the sides of this match.")
            else:
                data["bidder"] = bidder
            data["bid"] = _whole_number(self.bid, "Type the bid.")
        if tapped:
            self.bidder.data = f"{self.bidder.data}:{self.bid_by.data}"  # shown again as tapped
        if auction and self.bid_by.data and self.bid_by.choices:
            data["bid_by"] = self.bid_by.data
        if self.dealt_by.data and self.dealt_by.choices:
            data["dealt_by"] = self.dealt_by.data
        if self.trump.data:
            data["trump"] = self.trump.data
        if self.thrown_in.data:
            data["thrown_in"] = True
        if auction and self.out.data:
            data["out"] = True
        if auction and self.forced.data:
            data["forced"] = True
        quick = self.mode.data != DETAIL
        conceded = data.get("bidder") if data.get("thrown_in") else None
        data["sides"] = [self._side_json(index, entry, quick, index == conceded)
                         for index, entry in enumerate(self.entries())]
        return None if self.errors_present() else data

    def _fill_forced_bid(self) -> None:
        """A forced bid left empty is the minimum bid, taken by the dealer's side when the dealer is known."""
        if self.bidder.data in (None, "", "None") and self.dealt_by.data in self.side_of_player:
            self.bidder.data = str(self.side_of_player[self.dealt_by.data])
        if not (self.bid.data or "").strip() and self.min_bid:
            self.bid.data = str(self.min_bid)

    def _side_json(self, index: int, entry: SideEntryForm, quick: bool, conceded: bool) -> dict[str, Any]:
        """``conceded``: the bidders of a deal thrown in, whose one number does not count (left empty, 0)."""
        if quick:
            if conceded and not (entry.total.data or "").strip():
                return {"total": 0}
            return {"total": self._side_total(index, entry.total)}
        side: dict[str, Any] = {}
        meld = self._side_meld_json(entry)
        if meld is not None:
            side["meld"] = meld
        if (entry.tricks.data or "").strip():
            side["tricks"] = _whole_number(entry.tricks, "")
        elif entry.kept_tricks.data:
            side["tricks"] = _kept(entry.kept_tricks, entry.tricks)
        elif entry.took.data == TOOK_NO_POINTS:
            side["tricks"] = 0
        if self.last_trick.data == str(index):
            side["last_trick"] = True
        if entry.took.data == TOOK_NOTHING:
            side["took_trick"] = False
        elif entry.took.data == TOOK_NO_POINTS:
            side["took_trick"] = True
            if side.get("tricks"):
                add_error(entry.tricks, "Tricks worth no points: leave the trick points at 0, or choose 'Took points'.")
        return side

    def _side_total(self, index: int, field: Field) -> int | None:
        """A side's one number. A minus score ('−60', as a paper sheet writes a set) is refused with what to type."""
        negative = NEGATIVE.fullmatch((field.data or "").strip())
        if negative is None:
            return _whole_number(field, "Type the side's points (0 if none).")
        if (self.bidder.data or "") == str(index):
            bid = (self.bid.data or "").strip() or "the bid"
            add_error(field, f"Type what the bidders took, not the score: any number below {bid} means they are "
                             f"set, and the sheet shows −{bid} for them.")
        else:
            add_error(field, "Type what the side took (0 if nothing): only the bidders lose points, when they are set.")
        return None

    def _side_meld_json(self, entry: SideEntryForm) -> Any:
        """The side's meld: the first line's alone as it is; more lines as the match file's list, one entry
        per line up to the last one filled (an empty line before it counts 0)."""
        hands = entry.hand_forms()
        filled = [index for index, hand in enumerate(hands) if not hand.is_empty()]
        if not filled:
            return None
        melds = []
        for hand in hands[: filled[-1] + 1]:
            value, message = hand.to_json()
            if message:
                add_error(hand.meld, message)
            melds.append(value)
        return melds if len(melds) > 1 else melds[0]

    def side_melds(self) -> list[Any]:
        """Each side's meld as ``to_deal_json`` would write it, where every line reads (else None); adds no error."""
        melds: list[Any] = []
        for entry in self.entries():
            read = [hand.to_json() for hand in entry.hand_forms() if not hand.is_empty()]
            melds.append([value for value, _ in read] if read and not any(message for _, message in read) else None)
        return melds

    def errors_present(self) -> bool:
        fields = [self.bidder, self.bid, self.bid_by, self.dealt_by, self.trump, self.last_trick, self.out, self.forced]
        for entry in self.entries():
            fields += [entry.total, entry.tricks, entry.took, *(hand.meld for hand in entry.hand_forms())]
        return any(field.errors for field in fields) or bool(self.form_errors)

    def place_problem(self, problem: Problem) -> None:
        """Show a problem from the rules core at the field its path (within the deal) names, else at the top."""
        field = self.field_at(problem.path)
        if field is None:
            self.form_errors.append(sentence(problem.message))
        else:
            add_error(field, sentence(problem.message))

    def field_at(self, path: str) -> Field | None:
        """The field that shows the value at ``path`` (``bid``, ``sides[1].meld[0]`` …); None for the whole deal."""
        found = SIDE_PATH.match(path)
        if found is None:
            key = DEAL_KEY.match(path)
            fields = {"bid": self.bid, "bidder": self.bidder, "trump": self.trump, "thrown_in": self.thrown_in,
                      "bid_by": self.bidder, "dealt_by": self.dealt_by, "out": self.out, "forced": self.forced}
            return fields.get(key.group()) if key else None
        index, key_in_side, hand = int(found.group(1)), found.group(2) or "", int(found.group(3) or 0)
        if index >= len(self.sides):
            return None
        if key_in_side == "last_trick":
            return self.last_trick
        entry = self.entries()[index]
        hands = entry.hand_forms()
        meld = hands[min(hand, len(hands) - 1)].meld
        fields = {"total": entry.total, "meld": meld, "tricks": entry.tricks, "took_trick": entry.took}
        return fields.get(key_in_side, meld if self.mode.data == DETAIL else entry.total)


def _bidder_choices(side_names: list[str], players: list[list[str]], bidder: str, bid_by: str) -> list[SelectChoice]:
    """The buttons of "Who bid?": the players of a side that names them (``side:player``, the side follows from
    the player), the side itself where it names none, or where a stored deal has it bid with no player noted."""
    choices = []
    for index, name in enumerate(side_names):
        named = players[index] if index < len(players) else []
        if not named or (bidder == str(index) and bid_by not in named):
            choices.append(SelectChoice(str(index), name))
        choices += [SelectChoice(f"{index}:{player}", player) for player in named]
    return choices


def meld_lines(match: Match) -> list[list[str]]:
    """The meld lines of each side, one per hand it plays (``side_hands``): its players' names, "Partner 1" and
    "Partner 2" for a partnership that names none, and no name for a side of one unnamed hand."""
    return [list(side.players) or ([f"Partner {n}" for n in range(1, hands + 1)] if hands > 1 else [])
            for side, hands in zip(match.sides, side_hands(match), strict=True)]


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
        "bid_by": deal.get("bid_by") or "",
        "dealt_by": deal.get("dealt_by") or "",
        "thrown_in": bool(deal.get("thrown_in")),
        "out": bool(deal.get("out")),
        "forced": bool(deal.get("forced")),
        "last_trick": next((str(i) for i, side in enumerate(sides) if side.get("last_trick")), ""),
        "sides": [_side_form_data(side) for side in sides],
    }
    return data


def _side_form_data(side: Mapping[str, Any]) -> dict[str, Any]:
    took = side.get("took_trick")
    values: dict[str, Any] = {"took": TOOK_NOTHING if took is False else TOOK_POINTS}
    if "total" in side:
        values["total"] = str(side["total"])
        return values
    meld, tricks = side.get("meld"), side.get("tricks")
    hands = meld if isinstance(meld, list) else [] if meld is None else [meld]
    values["hands"] = [_hand_form_data(hand) for hand in hands] or [{}]
    if isinstance(tricks, int):
        values["tricks"] = str(tricks)
    elif tricks is not None:
        values["kept_tricks"] = json.dumps(tricks)
    if took is True and tricks in (None, 0):
        values["took"] = TOOK_NO_POINTS
    return values


def _hand_form_data(meld: Any) -> dict[str, Any]:
    if isinstance(meld, int):
        return {"meld": str(meld)}
    if isinstance(meld, dict) and "cards" not in meld:
        return {"sets": {key: str(count) for key, count in meld.items()}}
    return {"kept": json.dumps(meld)}


def _kept(hidden: Field, shown: Field) -> Any:
    """A fact kept from the stored deal in a hidden field (cards, counters)."""
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
