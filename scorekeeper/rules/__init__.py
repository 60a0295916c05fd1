"""The rules of Pinochle as the score keeper applies them: standard library only.

One module per concept: ``cards``, ``house_rules``, ``combinations`` and ``meld``, ``tricks``, the facts
of a match (``match``), what they are worth (``pricing``), what contradicts the rules (``checks``), the
sheet (``scoring``) and the match file (``matchfile``).
"""

from .cards import Card, Deck, Hand, Rank, Suit
from .errors import CardError, ContradictionError, HouseRuleError, MatchFileError, RulesError
from .house_rules import PRESETS, RULE_SPECS, HouseRules, MeldTableName, MustTake, TrickScale
from .match import Deal, Match, SideInfo
from .matchfile import deal_from_json, deal_to_json, dumps_match, loads_match, match_from_json, match_to_json
from .meld import MeldResult, best_meld, meld_all_trumps
from .scoring import RulesPreview, Sheet, preview_rules, score_match

__all__ = [
    "PRESETS", "RULE_SPECS", "Card", "CardError", "ContradictionError", "Deal", "Deck", "Hand", "HouseRuleError",
    "HouseRules", "Match", "MatchFileError", "MeldResult", "MeldTableName", "MustTake", "Rank", "RulesError",
    "RulesPreview", "Sheet", "SideInfo", "Suit", "TrickScale", "best_meld", "deal_from_json", "deal_to_json",
    "dumps_match", "loads_match", "match_from_json", "match_to_json", "meld_all_trumps", "preview_rules",
    "score_match",
]
