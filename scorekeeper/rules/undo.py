"""Undoing a change of house rules: the rules in force with the changed ones put back as they were."""

from __future__ import annotations

from collections.abc import Mapping

from .house_rules import HouseRules


def rules_before(current: HouseRules, old_values: Mapping[str, object]) -> HouseRules:
    """``current`` with each rule in ``old_values`` (key → value as the match file writes it) set back to it;
    rules changed since and not named stay as they are; the old values are read as stored values. Raises
    ``HouseRuleError`` for a value no longer allowed."""
    return HouseRules.from_mapping(old_values, base=current, stored=True)
