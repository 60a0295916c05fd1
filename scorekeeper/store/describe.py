"""A stored deal or fact in a few words, for the messages of a lost race and the deal forms."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..models import DealRow, MatchRow
from ..rules.errors import RulesError
from ..rules.house_rules import HouseRules
from ..rules.match import MeldCards, SideDetail, shown_side_name
from ..rules.matchfile import deal_from_json
from ..rules.meld import MeldLine
from ..rules.messages import say
from ..rules.pricing import meld_of_hand


def describe_deal(row: MatchRow, deal: DealRow) -> str:
    """A deal's facts in a few words: 'We bid 60; We 67, They 20'."""
    return describe_facts(row, {"passed": deal.passed, "bidder": deal.bidder, "bid": deal.bid,
                                "thrown_in": deal.thrown_in, "sides": deal.sides})


def describe_facts(row: MatchRow, deal: Mapping[str, Any]) -> str:
    """A deal in the match file format in a few words, as ``describe_deal`` says a stored one."""
    if deal.get("passed"):
        return say("deal.passed")
    names = [shown_side_name(side.name, side.players) for side in row.sides]
    parts = []
    bidder = deal.get("bidder")
    if isinstance(bidder, int) and 0 <= bidder < len(names):
        bid = say("deal.bid", side=names[bidder], bid=deal.get("bid"))
        parts.append(say("deal.thrown_in", bid=bid) if deal.get("thrown_in") else bid)
    entries = []
    for name, entry in zip(names, deal.get("sides") or [], strict=False):
        if "total" in entry:
            entries.append(f"{name} {entry['total']}")
        else:
            meld, tricks = describe_fact(entry.get("meld")), describe_fact(entry.get("tricks"))
            entries.append(f"{name} meld {meld}, tricks {tricks}")
    parts.append(", ".join(entries))
    return "; ".join(parts)


def describe_fact(value: object) -> str:
    """A meld or trick fact of the match file in a few words."""
    if value is None:
        return "none"
    if isinstance(value, list):
        return " + ".join(describe_fact(item) for item in value)
    if isinstance(value, dict):
        cards = value.get("cards")
        if isinstance(cards, list):
            return "cards " + " ".join(str(card) for card in cards)
        if isinstance(cards, dict):
            return "cards taken " + ", ".join(f"{count} × {rank}" for rank, count in cards.items())
        if "counters" in value:
            return f"{value['counters']} counters"
        return ", ".join(f"{count} {str(key).replace('_', ' ')}" for key, count in value.items())
    return str(value)


def describe_cards(value: Any, trump: str, rules: HouseRules) -> str | None:
    """A hand's meld kept as its cards: each meld found with its value on the match's meld table, as the card
    faces' dialog shows it (static/js/meld_faces.js, meldBreakdown): "run 15 + 2 pinochle 30 = 45 (♠ trump)".
    None when ``value`` is not a hand's cards."""
    if not isinstance(value, dict) or not isinstance(value.get("cards"), (list, str)):
        return None
    data = {"bidder": None, "sides": [{"meld": value}], **({"trump": trump} if trump else {})}
    try:
        deal = deal_from_json(data, 1, rules=rules)
    except RulesError:
        return None
    side = deal.sides[0]
    fact = side.meld[0] if isinstance(side, SideDetail) and side.meld else None
    if not isinstance(fact, MeldCards):
        return None
    suit = fact.trump or deal.trump
    held = sum(fact.hand.counts)
    if suit is None:
        return f"{held} cards, priced once the trump is chosen"
    found = meld_of_hand(fact.hand, suit, rules.meld_table, rules.meld_prices)
    lines = " + ".join(meld_line_text(line) for line in found.lines) or say("meld.none")
    return say("meld.breakdown", lines=lines, total=found.total, suit=suit.symbol)


def meld_line_text(line: MeldLine) -> str:
    """One meld found, as the card faces' dialog writes it (static/js/meld_faces.js, meldLineText)."""
    name = f"{line.sets} {line.combination.label}" if line.sets > 1 else line.combination.label
    return f"{name} {line.points}" if line.on_table else say("meld.off_table", name=name)
