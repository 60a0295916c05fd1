"""The event's house rules, changed by its director for every table at once: first a preview (each table's
outcome and the standings before and after), then, confirmed, the change, one transaction for the event and
every table's match (no table changes its rules on its own: ``store.locks``).

Every table of every round plays the new rules, as the event's next rounds will: the standings are worked out
again from the recorded deals under them, as a match's sheet is after a change of rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..models import EventRow
from ..rules.errors import ContradictionError
from ..rules.events import RoundEndKind
from ..rules.house_rules import RULE_SPECS_BY_KEY, HouseRules
from ..rules.refusals import Conflict, Invalid
from ..rules.scoring import score_match
from ..rules.standings import TableOutcome
from ..store import reading, writing
from .corrections import as_the_director
from .director import check_version, claim, commit
from .loading import Standings, event_standings_under, round_end, table_state
from .scores import facts_of

RULES_CONTRADICTED = "contradiction"
NO_DEAL_LIMIT = "no_deal_limit"


@dataclass(frozen=True)
class TableChange:
    """A table whose outcome for the event the change moves."""

    before: TableOutcome
    after: TableOutcome


@dataclass(frozen=True)
class EventRulesPreview:
    """What a change of the event's rules does: the rules that change, the tables whose outcome moves, the
    standings before and after."""

    old: HouseRules
    new: HouseRules
    changed_rules: tuple[str, ...]
    tables: tuple[TableChange, ...]
    before: Standings
    after: Standings

    @property
    def labels(self) -> list[tuple[str, str, str]]:
        """(label, old value, new value) for each rule changed."""
        return [(RULE_SPECS_BY_KEY[key].label, RULE_SPECS_BY_KEY[key].value_label(getattr(self.old, key)),
                 RULE_SPECS_BY_KEY[key].value_label(getattr(self.new, key))) for key in self.changed_rules]


def event_rules(event: EventRow) -> HouseRules:
    return HouseRules.from_mapping(event.rules)


def preview_event_rules(event: EventRow, new: HouseRules, now: datetime) -> EventRulesPreview:
    """The change worked out and checked, nothing written: refused (422) when a table's recorded deals
    contradict the new rules, or a round of a number of deals would have no deal limit."""
    old = event_rules(event)
    if round_end(event).kind is RoundEndKind.DEALS and new.deal_limit < 1:
        raise Invalid("rules.deal_limit", NO_DEAL_LIMIT, "the rounds are a number of deals: the deal "
                           "limit is that number, at least 1")
    moved: list[TableChange] = []
    for played in event.played_rounds:
        for table in played.tables:
            try:
                score_match(facts_of(table.match).match.with_rules(new))
            except ContradictionError as error:
                deals = "; ".join(f"deal {number}: {text}" for number, text in error.problems)
                raise Invalid("rules", RULES_CONTRADICTED, f"round {played.number}, table {table.number}: "
                                   f"the recorded deals contradict these rules ({deals})") from None
            before = table_state(event, played, table, now).outcome
            after = table_state(event, played, table, now, new).outcome
            if (before.totals, before.winner, before.done) != (after.totals, after.winner, after.done):
                moved.append(TableChange(before, after))
    return EventRulesPreview(old, new, tuple(old.differences(new)), tuple(moved),
                             event_standings_under(event, now, None), event_standings_under(event, now, new))


def change_event_rules(event: EventRow, new: HouseRules, expected: int | None, now: datetime) -> EventRulesPreview:
    """Put ``new`` in force for the event and every table's match, in one transaction, as the director's."""
    check_version(event, expected)
    preview = preview_event_rules(event, new, now)
    if not preview.changed_rules:
        return preview
    claim(event)
    event.rules = new.to_mapping()
    if round_end(event).kind is RoundEndKind.DEALS:
        event.round_end_count = new.deal_limit
    try:
        with as_the_director(), writing.one_transaction():
            for played in event.played_rounds:
                for table in played.tables:
                    loaded = reading.load_match(table.match.public_id)
                    writing.change_rules(loaded, new, loaded.row.version, action="event rules")
    except writing.StaleEdit:
        raise Conflict("version", "stale", "a table's match changed at the same moment; look again and "
                           "redo the change") from None
    commit()
    return preview
