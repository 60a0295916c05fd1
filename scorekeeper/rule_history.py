"""The history of a match's house rules as the player made the changes: one entry per change, however many
rules it touched (a rescale is one entry), newest first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .models import MatchRow, RuleChangeRow
from .rules.house_rules import RULE_SPECS_BY_KEY, HouseRules
from .store.history import who


@dataclass(frozen=True)
class HistoryEntry:
    """One change: the id that names it (its first row's), what it did, and when."""

    change_id: int
    title: str  # "Rescaled ×10", "Undo", "" for a plain change
    rules: tuple[tuple[str, str, str], ...]  # (label, before, after) per rule
    after_deal: int
    changed_at: datetime
    who: str  # "Ann's phone", "the API" (empty for a change made before phones were named)


def history_entries(row: MatchRow) -> list[HistoryEntry]:
    """The match's changes of house rules, newest first."""
    groups: dict[object, list[RuleChangeRow]] = {}
    for change in row.rule_changes:
        groups.setdefault(change.batch if change.batch is not None else ("row", change.id), []).append(change)
    entries = [
        HistoryEntry(group[0].id, _title(group[0].action),
                     tuple((RULE_SPECS_BY_KEY[c.rule].label if c.rule in RULE_SPECS_BY_KEY else c.rule,
                            value_label(c.rule, c.old_value), value_label(c.rule, c.new_value)) for c in group),
                     group[0].after_deal, group[0].changed_at,
                     who(group[0].by, group[0].by_name) if group[0].by is not None else "")
        for group in groups.values()
    ]
    return entries[::-1]


def _title(action: str | None) -> str:
    if not action:
        return ""
    if action.startswith("undo rescale"):
        return "Undo: rescaled " + action.rsplit(" ", 1)[-1]
    if action.startswith("rescale"):
        return "Rescaled " + action.rsplit(" ", 1)[-1]
    return "Undo"


def value_label(key: str, raw: object) -> str:
    """How a stored rule value reads on the page; a value the rules no longer accept is shown raw."""
    spec = RULE_SPECS_BY_KEY.get(key)
    if spec is None:
        return str(raw)
    try:
        return spec.value_label(spec.parse(raw, stored=True))
    except ValueError:
        return str(raw)


def rule_changes(old: HouseRules, new: HouseRules) -> list[tuple[str, str, str]]:
    """(label, old value, new value) for each rule that differs."""
    return [
        (RULE_SPECS_BY_KEY[key].label,
         RULE_SPECS_BY_KEY[key].value_label(getattr(old, key)),
         RULE_SPECS_BY_KEY[key].value_label(getattr(new, key)))
        for key in old.differences(new)
    ]
