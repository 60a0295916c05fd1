"""One error hierarchy for the rules core: every error carries a ``Problem`` (code, path, message), and is an
``Invalid`` refusal (``refusals.py``) at the problem's path."""

from __future__ import annotations

from .messages import say
from .problems import Problem, ProblemCode, join_path
from .refusals import Invalid


class RulesError(Invalid, ValueError):
    """Input that the rules of Pinochle (or the house rules) do not allow; ``problem`` says what and where."""

    code: ProblemCode

    def __init__(self, problem: Problem, text: str | None = None) -> None:
        super().__init__(problem.path, problem.code, problem.message)
        if text is not None:
            self.args = (text,)
        self.problem = problem


class CardError(RulesError):
    """A card or hand that cannot be read or cannot be in the deck; ``index`` is the bad token's, if any."""

    def __init__(self, code: ProblemCode, message: str, index: int | None = None) -> None:
        super().__init__(Problem(code, "" if index is None else f"[{index}]", message))
        self.index = index


class HouseRuleError(RulesError):
    """A house rule value outside what the rule allows (or a key that is no rule); path ``rules.<key>``."""

    def __init__(self, key: str, message: str, code: ProblemCode = ProblemCode.BAD_RULE_VALUE) -> None:
        super().__init__(Problem(code, join_path("rules", key), message))
        self.key = key


class MatchFileError(RulesError):
    """A match file that is not valid; the problem's path points at the place, e.g. ``deals[3].bid``."""

    def __init__(self, problem: Problem) -> None:
        text = f"{problem.path}: {problem.message}" if problem.path else problem.message
        super().__init__(problem, text)

    @property
    def path(self) -> str:
        return self.problem.path

    @property
    def detail(self) -> str:
        return self.problem.message


class ContradictionError(RulesError):
    """Recorded facts that the house rules say cannot have happened: (deal number from 1, problem) pairs,
    each problem's path relative to its deal."""

    def __init__(self, problems: list[tuple[int, Problem]]) -> None:
        self.problems = problems
        text = "; ".join(say(ProblemCode.CONTRADICTION, deal=n, message=problem.message) for n, problem in problems)
        first = f"deals[{problems[0][0] - 1}]" if problems else ""
        super().__init__(Problem(ProblemCode.CONTRADICTION, first, text))

    @property
    def deal_numbers(self) -> list[int]:
        """The deals (numbered from 1) that contradict the rules, each once."""
        return sorted({number for number, _ in self.problems})

    def rooted(self) -> list[Problem]:
        """Each problem with its path from the top of the match file, e.g. ``deals[2].bid``."""
        return [problem.at(f"deals[{number - 1}]") for number, problem in self.problems]
