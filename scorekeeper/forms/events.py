"""The event forms: a new event, and the director's changes (seat a round, swap, add a player, close a
table or the round). Each of the director's forms carries the event's version it was drawn from."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import FormField, HiddenField, RadioField, SelectField, StringField, TextAreaField

from ..rules.events import EventFormat, Ranking, RoundEndKind
from ..rules.limits import MAX_PLAYER_NAME, MAX_TABLE_NAME
from ..rules.movements import Movement
from ..rules.numbers import whole_number_or_none
from .common import SelectChoice
from .house_rules import RulesForm, rule_values

FORMAT_CHOICES = [SelectChoice(EventFormat.PROGRESSIVE.value, "Progressive: partners change every round"),
                  SelectChoice(EventFormat.TEAM.value, "Teams: fixed partners, one team stays, one moves")]
ROUND_END_CHOICES = [SelectChoice(RoundEndKind.TARGET.value, "A game to the target"),
                     SelectChoice(RoundEndKind.DEALS.value, "A number of deals"),
                     SelectChoice(RoundEndKind.MINUTES.value, "A time limit in minutes")]
MOVEMENT_CHOICES = [SelectChoice("", "By the rounds"),  # a round robin when the rounds fit in one
                    SelectChoice(Movement.ROUND_ROBIN.value, "Round robin"),
                    SelectChoice(Movement.STAY_MOVE.value, "Stay and move")]
RANKING_CHOICES = [SelectChoice(Ranking.POINTS.value, "Points, then rounds won"),
                   SelectChoice(Ranking.WINS.value, "Rounds won, then points")]
TEAM_MARKS = ("&", ",", "+", "/")  # what may part a team's two names on its line


def _text(maximum: int, placeholder: str = "") -> dict[str, Any]:
    return {"maxlength": maximum, "autocomplete": "off", **({"placeholder": placeholder} if placeholder else {})}


class NewEventForm(FlaskForm):
    """A new event; the fields are read into the API's request body, so the API's checks decide."""

    name = StringField("Event name", render_kw=_text(MAX_TABLE_NAME, "Club night, 4 December"))
    format = RadioField("Format", choices=FORMAT_CHOICES, default=EventFormat.PROGRESSIVE.value,
                        validate_choice=False)
    movement = RadioField("Teams move by", choices=MOVEMENT_CHOICES, default="", validate_choice=False)
    ranking = RadioField("Progressive: rank by", choices=RANKING_CHOICES, default=Ranking.POINTS.value,
                         validate_choice=False)
    round_end = RadioField("A round is", choices=ROUND_END_CHOICES, default=RoundEndKind.DEALS.value,
                           validate_choice=False)
    round_count = StringField("Deals or minutes a round", default="8",
                              render_kw={"inputmode": "numeric", "autocomplete": "off"})
    rounds = StringField("Rounds", default="6", render_kw={"inputmode": "numeric", "autocomplete": "off"})
    entrants = TextAreaField("Players, one per line",
                             description="Progressive: one name a line. Teams: a team a line, \"Ann & Bob\".",
                             render_kw={"rows": 10, "autocomplete": "off", "spellcheck": "false"})
    auction = HiddenField(default="yes")
    rules = FormField(RulesForm)

    def lines(self) -> list[str]:
        return [line.strip() for line in (self.entrants.data or "").splitlines() if line.strip()]

    def api_body(self) -> dict[str, Any]:
        """The request ``POST /api/v1/events`` would take for what was typed (house rules checked first)."""
        end = self.round_end.data or ""
        count = whole_number_or_none((self.round_count.data or "").strip())
        rounds = whole_number_or_none((self.rounds.data or "").strip())
        body: dict[str, Any] = {
            "name": self.name.data or "", "format": self.format.data or "", "auction": self.auction.data != "no",
            "rules": self.rules.form.house_rules().to_mapping(),
            "round_end": {end: True} if end == RoundEndKind.TARGET else {end: count if count is not None
                                                                          else self.round_count.data},
            "rounds": rounds if rounds is not None else self.rounds.data,
        }
        team = self.format.data == EventFormat.TEAM
        if team and self.movement.data:
            body["movement"] = self.movement.data
        entrants = [list(player_line(line, team)) for line in self.lines()]
        body["teams" if team else "players"] = entrants if team else [names[0] for names in entrants]
        if not team:
            body["ranking"] = self.ranking.data or Ranking.POINTS.value
        return body


def player_line(line: str, team: bool) -> tuple[str, ...]:
    """A line typed for one entrant: a player's name, or a team's two names ("Ann & Bob")."""
    if team:
        for mark in TEAM_MARKS:
            if mark in line:
                return tuple(name.strip() for name in line.split(mark))
    return (line.strip(),)


class VersionForm(FlaskForm):
    """A director's change: the event's version the page showed."""

    version = HiddenField()

    def expected(self) -> int | None:
        return whole_number_or_none(self.version.data or "")


class SeatRoundForm(VersionForm):
    round = HiddenField()  # the round the button seats: a second tap finds it seated


class SwapForm(VersionForm):
    round = HiddenField()  # the round the page showed
    first = SelectField("Swap", validate_choice=False)
    second = SelectField("with", validate_choice=False)


class AddEntrantForm(VersionForm):
    name = StringField("Arrived at the door", render_kw=_text(2 * MAX_PLAYER_NAME + 3))


class WithdrawForm(VersionForm):
    player = SelectField("Withdraw", validate_choice=False)
    from_round = StringField("From round", render_kw={"inputmode": "numeric", "autocomplete": "off"})


class SubstituteForm(VersionForm):
    round = HiddenField()  # the round the page showed
    player = SelectField("Seat of", validate_choice=False)
    substitute = StringField("Substitute", render_kw=_text(MAX_PLAYER_NAME))


class ClockForm(VersionForm):
    """Pause, resume or extend the round's clock (``action`` is the button tapped)."""

    action = HiddenField()
    minutes = StringField("Minutes", default="5", render_kw={"inputmode": "numeric", "autocomplete": "off",
                                                            "size": 3})


class CloseRoundForm(VersionForm):
    late = HiddenField()


CORRECTION_CHOICES = [SelectChoice("score", "Give the table an adjusted score"),
                      SelectChoice("points", "Correct a deal's points"),
                      SelectChoice("delete", "Delete a deal")]


class CorrectTableForm(VersionForm):
    """The director's correction of a closed table (``events.corrections``), with its reason."""

    table = SelectField("Table", validate_choice=False)  # "<round>-<table>"
    action = RadioField("Correction", choices=CORRECTION_CHOICES, default="score", validate_choice=False)
    deal = StringField("Deal", render_kw={"inputmode": "numeric", "autocomplete": "off"})
    first = StringField("First side's points", render_kw={"inputmode": "numeric", "autocomplete": "off"})
    second = StringField("Second side's points", render_kw={"inputmode": "numeric", "autocomplete": "off"})
    reason = StringField("Why", render_kw=_text(300, "A revoke at table 3: arbitral score"))


class EventRulesForm(VersionForm):
    """The event's house rules, changed for every table; ``confirm`` is set on the preview."""

    confirm = HiddenField()
    rules = FormField(RulesForm)


def event_rules_form(rules: Any) -> EventRulesForm:
    """The form filled in with the event's rules as they are."""
    return EventRulesForm(formdata=None, data={"rules": rule_values(rules)})
