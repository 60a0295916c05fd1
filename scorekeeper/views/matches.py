"""Home (this device's matches), starting a match, and the score sheet."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .. import store
from ..chart import progression_chart
from ..device import device_match_ids, forget_match, remember_match
from ..forms import NewMatchForm, rule_values
from ..models import Match as MatchRow
from ..rules.errors import ContradictionError
from ..rules.house_rules import PRESETS, PRESETS_BY_KEY
from ..rules.match import Match, SideInfo
from ..rules.scoring import Sheet, dead_contract, score_match

bp = Blueprint("matches", __name__)


@bp.get("/")
def home() -> str:
    rows = store.matches_by_public_id(device_match_ids())
    summaries = [(row, SheetView.of(row, store.to_core(row))) for row in rows]
    return render_template("matches/home.html", summaries=summaries)


@bp.route("/matches/new", methods=["GET", "POST"])
def new() -> str | Response:
    if request.method == "GET":
        preset = PRESETS_BY_KEY.get(request.args.get("preset", ""), PRESETS[0])
        form = NewMatchForm.for_preset(preset)
    else:
        form = NewMatchForm()
        form.settle_preset()
        if form.validate():
            row = store.create_match(_match_from_form(form))
            remember_match(row.public_id)
            return redirect(url_for("matches.sheet", public_id=row.public_id))
    preset_data = {
        preset.key: {"rules": rule_values(preset.rules), "sides": list(preset.side_names)} for preset in PRESETS
    }
    return render_template("matches/new.html", form=form, presets_by_key=PRESETS_BY_KEY,
                           preset_data=preset_data)


def _match_from_form(form: NewMatchForm) -> Match:
    preset = form.chosen_preset()
    sides = tuple(
        SideInfo(name=(entry.name.data or "").strip() or default, players=entry.player_names())
        for entry, default in zip(form.side_entries(), preset.side_names, strict=True)
    )
    name = (form.name.data or "").strip() or f"{' v '.join(side.name for side in sides)}, " \
        f"{datetime.now(UTC):%d %b %Y}"
    return Match(sides=sides, rules=form.rules.form.house_rules(), name=name, auction=preset.auction)


@bp.get("/m/<public_id>")
def sheet(public_id: str) -> str:
    row, match = store.load_match(public_id)
    remember_match(row.public_id)
    view = SheetView.of(row, match)
    chart = progression_chart(view.sheet, view.names, match.rules.target) if view.sheet else None
    return render_template("matches/sheet.html", row=row, match=match, view=view, chart=chart,
                           dead=_dead_contract_offer(match), facts=store.describe_deal)


def _dead_contract_offer(match: Match) -> int | None:
    """The deal just saved (``?dead=N``) when its contract was dead and it was not thrown in."""
    raw = request.args.get("dead", "")
    if not raw.isdigit() or not 1 <= int(raw) <= len(match.deals):
        return None
    deal = match.deals[int(raw) - 1]
    return int(raw) if dead_contract(match.rules, deal) and not deal.thrown_in else None


@dataclass(frozen=True)
class SheetView:
    """What the score sheet pages show about a match: the sheet, or the facts that contradict."""

    names: list[str]
    sheet: Sheet | None
    problems: list[tuple[int, str]]
    target: int

    @classmethod
    def of(cls, row: MatchRow, match: Match) -> SheetView:
        try:
            sheet, problems = score_match(match), []
        except ContradictionError as error:
            sheet, problems = None, error.problems
        return cls([side.name for side in row.sides], sheet, problems, match.rules.target)

    def totals(self) -> list[tuple[str, int]]:
        totals = self.sheet.totals if self.sheet else tuple(0 for _ in self.names)
        return list(zip(self.names, totals, strict=True))

    def to_go(self, side: int) -> int:
        return self.target - (self.sheet.totals[side] if self.sheet else 0)

    def winner_name(self) -> str | None:
        if self.sheet is None or self.sheet.winner is None:
            return None
        return self.names[self.sheet.winner]

    def any_as_entered(self) -> bool:
        return self.sheet is not None and any(line.as_entered for line in self.sheet.deals)

    def ranked(self) -> list[tuple[str, int]]:
        if self.sheet is None:
            return []
        return [(self.names[side], self.sheet.totals[side]) for side in self.sheet.rank]


@bp.post("/m/<public_id>/forget")
def forget(public_id: str) -> Response:
    forget_match(public_id)
    return redirect(url_for("matches.home"))
