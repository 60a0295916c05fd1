"""The rules page, built from the declarations of the rules core so that it cannot drift from them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import Blueprint, render_template

from ..rules.cards import Deck, Rank
from ..rules.combinations import Combination, MeldClass
from ..rules.house_rules import PRESETS, RULE_SPECS, RULE_SPECS_BY_KEY, HouseRules, RuleSpec, TrickScale
from ..rules.meld import MELD_TABLES
from ..rules.tricks import CARD_POINTS, deck_card_points

bp = Blueprint("pages", __name__)



@dataclass(frozen=True)
class RuleEntry:
    """One house rule as the page shows it."""

    spec: RuleSpec
    default: str
    allowed: str
    choices: tuple[str, ...]


def rule_entries() -> dict[str, list[RuleEntry]]:
    """The eight house rules grouped as the settings page groups them."""
    groups: dict[str, list[RuleEntry]] = {}
    for spec in RULE_SPECS:
        entry = RuleEntry(
            spec=spec,
            default=spec.value_label(spec.default),
            allowed=spec.describe_allowed(),
            choices=tuple(label for _, label in spec.choices),
        )
        groups.setdefault(spec.group, []).append(entry)
    return groups


def preset_rows() -> list[tuple[str, list[str]]]:
    """Each rule's value in each preset: one row per rule, one column per preset."""
    return [
        (spec.label, [spec.value_label(getattr(preset.rules, spec.key)) for preset in PRESETS])
        for spec in RULE_SPECS
    ]


def meld_rows() -> list[tuple[Combination, list[str]]]:
    """Prices of one, two, three and four sets of each combination on each meld table."""
    rows = []
    for combination in Combination:
        cells = []
        for table in MELD_TABLES.values():
            cells.append(price_cell(table.get(combination, {})))
        rows.append((combination, cells))
    return rows


def price_cell(groups: Mapping[int, int]) -> str:
    """'40 each' for a combination priced per set, else '150 / 1500'; '–' where a group has no price."""
    if not groups:
        return "–"
    if set(groups) == {1}:
        return f"{groups[1]} each"
    return " / ".join(str(groups[n]) if n in groups else "–" for n in range(1, max(groups) + 1))


def trick_rows() -> list[tuple[TrickScale, list[int], list[int]]]:
    """Per scale: the worth of each rank, and the card points a single and a double deck hold."""
    return [
        (scale, [points[rank] for rank in Rank], [deck_card_points(deck, scale) for deck in Deck])
        for scale, points in CARD_POINTS.items()
    ]


@bp.get("/rules")
def rules() -> str:
    table_spec = RULE_SPECS_BY_KEY["meld_table"]
    scale_spec = RULE_SPECS_BY_KEY["trick_scale"]
    return render_template(
        "pages/rules.html",
        groups=rule_entries(),
        presets=PRESETS,
        preset_rows=preset_rows(),
        meld_tables=[table_spec.value_label(name) for name in MELD_TABLES],
        meld_rows=meld_rows(),
        meld_classes=tuple(MeldClass),
        ranks=list(Rank),
        decks=list(Deck),
        trick_rows=trick_rows(),
        scale_label=scale_spec.value_label,
        defaults=HouseRules(),
        specs=RULE_SPECS_BY_KEY,
    )
