"""One error hierarchy for the rules core: every message is written for a player."""

from __future__ import annotations


class RulesError(ValueError):
    """Input that the rules of Pinochle (or the house rules) do not allow."""


class CardError(RulesError):
    """A card or hand that cannot be read or cannot be in the deck."""


class HouseRuleError(RulesError):
    """A house rule value outside what the rule allows."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


class MatchFileError(RulesError):
    """A match file that is not valid; ``path`` points at the place, e.g. ``deals[3].bid``."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.detail = message


class ContradictionError(RulesError):
    """Recorded facts that the house rules say cannot have happened."""

    def __init__(self, problems: list[tuple[int, str]]) -> None:
        self.problems = problems
        lines = [f"deal {number}: {text}" for number, text in problems]
        super().__init__("; ".join(lines))

    @property
    def deal_numbers(self) -> list[int]:
        """The deals (numbered from 1) that contradict the rules, each once."""
        return sorted({number for number, _ in self.problems})
