"""The house rules, declared once (in the order the match file writes them), and the presets.

Everything else (forms, the API, the match file, the rules page, the CLI's ``--set``) reads
``RULE_SPECS`` instead of repeating a rule's name, range or help.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

from .cards import Deck
from .errors import HouseRuleError, RulesError
from .meld_prices import NO_PRICES, MeldPrices
from .messages import say
from .numbers import parse_whole_number, shown_text
from .problems import ProblemCode


class MeldTableName(Enum):
    """The three meld price lists."""

    SINGLE_CLASSIC = "single-classic"
    DOUBLE_SMALL = "double-small"
    DOUBLE_LARGE = "double-large"

    @classmethod
    def natural_for(cls, deck: Deck) -> MeldTableName:
        """The price list a deck is usually played with."""
        return cls.SINGLE_CLASSIC if deck is Deck.SINGLE else cls.DOUBLE_SMALL


class TrickScale(Enum):
    """How captured cards are counted."""

    ONE_POINT = "one-point"
    TEN_POINT = "ten-point"
    CLASSIC = "classic"


class MustTake(Enum):
    """What a side must take in play to keep its meld."""

    OFF = "off"
    TRICK = "trick"
    POINTS = "points"


class SetPenalty(Enum):
    """What bidders who are set lose."""

    BID = "bid"
    SHORTFALL = "shortfall"
    DOUBLE = "double"


class GoingOut(Enum):
    """How a side finishes the match."""

    TARGET = "target"
    ANNOUNCE = "announce"


class AllPass(Enum):
    """What happens when everybody passes."""

    REDEAL = "redeal"
    FORCED = "forced"


class RuleKind(StrEnum):
    """What sort of value a house rule takes."""

    NUMBER = "number"
    CHOICE = "choice"
    SWITCH = "switch"
    PRICES = "prices"  # the table's own meld prices, edited on a page of their own


@dataclass(frozen=True)
class RuleSpec:
    """One house rule: what it is called, what values it takes, what it means."""

    key: str
    label: str
    group: str
    help: str
    default: Any
    kind: RuleKind
    choices: tuple[tuple[Any, str], ...] = ()
    minimum: int = 0
    maximum: int = 0
    step: int = 1

    def parse(self, raw: object, *, stored: bool = False) -> Any:
        """Turn a value from a file, a form or a command line into the rule's value; ``stored``: a value this
        app stored earlier, read back (see ``MeldPrices.from_json``)."""
        if self.kind is RuleKind.NUMBER:
            return self._parse_number(raw)
        if self.kind is RuleKind.SWITCH:
            return self._parse_switch(raw)
        if self.kind is RuleKind.PRICES:
            return MeldPrices.from_json(raw, stored=stored)
        return self._parse_choice(raw)

    def describe_allowed(self) -> str:
        """The allowed values in words, for messages and help."""
        if self.kind is RuleKind.NUMBER:
            key = "allowed.number_step" if self.step != 1 else "allowed.number"
            return say(key, minimum=self.minimum, maximum=self.maximum, step=self.step)
        if self.kind is RuleKind.SWITCH:
            return say("allowed.switch")
        if self.kind is RuleKind.PRICES:
            return say("allowed.prices")
        return say("allowed.choice", choices=", ".join(str(_plain(value)) for value, _ in self.choices))

    def value_label(self, value: Any) -> str:
        """How a value reads on a page: 'Double deck', 'on', '500'."""
        if self.kind is RuleKind.SWITCH:
            return "on" if value else "off"
        if isinstance(value, MeldPrices):
            return value.label()
        for choice, label in self.choices:
            if choice == value:
                return label
        return str(value)

    def _fail(self, raw: object) -> HouseRuleError:
        try:
            shown = shown_text(raw if isinstance(raw, str) else repr(raw))
        except ValueError:  # the repr of a 5,000-digit number
            shown = say("allowed.too_large")
        return HouseRuleError(self.key, say(ProblemCode.BAD_RULE_VALUE, rule=self.label, shown=shown,
                                            allowed=self.describe_allowed()))

    def _parse_number(self, raw: object) -> int:
        if isinstance(raw, bool):
            raise self._fail(raw)
        if isinstance(raw, str):
            try:
                raw = parse_whole_number(raw)
            except RulesError:
                raise self._fail(raw) from None
        if not isinstance(raw, int):
            raise self._fail(raw)
        if not self.minimum <= raw <= self.maximum or (raw - self.minimum) % self.step:
            raise self._fail(raw)
        return raw

    def _parse_switch(self, raw: object) -> bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in SWITCH_WORDS:
            return SWITCH_WORDS[raw.strip().lower()]
        raise self._fail(raw)

    def _parse_choice(self, raw: object) -> Any:
        for value, _ in self.choices:
            if raw == value or (isinstance(raw, str) and raw.strip().lower() == _plain(value)):
                return value
        if self.key == "must_take_trick":
            # true/false (and on/off) are the switch-like spellings of "trick" and "off".
            switch = raw if isinstance(raw, bool) else SWITCH_WORDS.get(str(raw).strip().lower())
            if switch is not None:
                return MustTake.TRICK if switch else MustTake.OFF
        raise self._fail(raw)


SWITCH_WORDS = {"true": True, "on": True, "yes": True, "1": True,
                "false": False, "off": False, "no": False, "0": False}
"""How a switch may be written as text (spaces around and case aside)."""


def _written(spec: RuleSpec, value: Any) -> Any:
    """A rule's value as the match file writes it."""
    if isinstance(value, MeldPrices):
        return value.to_json()
    return _plain(value) if spec.kind is RuleKind.CHOICE else value


def _plain(value: Any) -> str:
    """The text form of a rule value, as the match file writes it."""
    return str(value.value) if isinstance(value, Enum) else str(value)


RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec(
        "target", "Play to", "Winning",
        "The total a side needs to win the match.",
        500, RuleKind.NUMBER, minimum=100, maximum=5000, step=50,
    ),
    RuleSpec(
        "deck", "Deck", "Cards",
        "Single deck: 48 cards with nines, 12 a player. Double deck: 80 cards, no nines, 20 a player.",
        Deck.DOUBLE, RuleKind.CHOICE,
        choices=((Deck.DOUBLE, "Double deck (80 cards)"), (Deck.SINGLE, "Single deck (48 cards)")),
    ),
    RuleSpec(
        "meld_table", "Meld values", "Meld",
        "The price list for combinations shown before play. Double deck small prices a run 15 and a "
        "pinochle 4; large prices everything ten times higher; single deck classic prices a run 150 and "
        "a double run 1500.",
        MeldTableName.DOUBLE_SMALL, RuleKind.CHOICE,
        choices=(
            (MeldTableName.DOUBLE_SMALL, "Double deck, small (run 15)"),
            (MeldTableName.DOUBLE_LARGE, "Double deck, large (run 150)"),
            (MeldTableName.SINGLE_CLASSIC, "Single deck classic"),
        ),
    ),
    RuleSpec(
        "trick_scale", "Trick point scale", "Tricks",
        "What captured cards are worth. The counters are the aces, tens and kings: 1 or 10 points "
        "each. The classic scale counts ace 11, ten 10, king 4, queen 3, jack 2 and nine 0.",
        TrickScale.ONE_POINT, RuleKind.CHOICE,
        choices=(
            (TrickScale.ONE_POINT, "Counters 1 point each"),
            (TrickScale.TEN_POINT, "Counters 10 points each"),
            (TrickScale.CLASSIC, "Classic: ace 11 … jack 2"),
        ),
    ),
    RuleSpec(
        "min_bid", "Minimum opening bid", "Bidding",
        "Nobody may bid less than this.",
        50, RuleKind.NUMBER, minimum=10, maximum=600,
    ),
    RuleSpec(
        "last_trick", "Last trick worth", "Tricks",
        "Bonus for the side that takes the final trick of a deal.",
        2, RuleKind.NUMBER, minimum=0, maximum=20,
    ),
    RuleSpec(
        "must_take_trick", "Defenders must take a trick to keep meld", "Tricks",
        "A side (bidders too) that takes no trick loses its meld for the deal. "
        "The stricter setting also takes it from a side whose tricks hold no points.",
        MustTake.TRICK, RuleKind.CHOICE,
        choices=(
            (MustTake.TRICK, "On: at least one trick"),
            (MustTake.POINTS, "On: at least one trick point"),
            (MustTake.OFF, "Off: meld always counts"),
        ),
    ),
    RuleSpec(
        "must_win_own_bid", "Must win on your own bid", "Winning",
        "On: a side can only finish the match on a deal it bid and made; "
        "a defending side past the target plays on.",
        True, RuleKind.SWITCH,
    ),
    RuleSpec(
        "set_penalty", "What a set costs", "Bidding",
        "Bidders who fall short lose the bid, only what they were short by, or twice the bid.",
        SetPenalty.BID, RuleKind.CHOICE,
        choices=(
            (SetPenalty.BID, "Minus the bid"),
            (SetPenalty.SHORTFALL, "Minus only the shortfall"),
            (SetPenalty.DOUBLE, "Minus twice the bid"),
        ),
    ),
    RuleSpec(
        "min_meld", "Meld needed to count", "Meld",
        "Less meld than this counts nothing (0: off).",
        0, RuleKind.NUMBER, minimum=0, maximum=1000,
    ),
    RuleSpec(
        "save_points", "Card points needed to score", "Tricks",
        "Fewer card points than this (last trick aside): the side scores 0 (0: off).",
        0, RuleKind.NUMBER, minimum=0, maximum=250,
    ),
    RuleSpec(
        "going_out", "How a side goes out", "Winning",
        "Bidding out: a side wins only on a deal it announced, bid, made and went out on.",
        GoingOut.TARGET, RuleKind.CHOICE,
        choices=((GoingOut.TARGET, "Reach the target"), (GoingOut.ANNOUNCE, "Bid out: announce it")),
    ),
    RuleSpec(
        "deal_limit", "Number of deals", "Winning",
        "After this many deals the highest total wins; a tie plays on (0: none).",
        0, RuleKind.NUMBER, minimum=0, maximum=100,
    ),
    RuleSpec(
        "throw_in_bonus", "Defenders' bonus on a throw-in", "Bidding",
        "Added to each defending side's meld when the bidders throw in.",
        0, RuleKind.NUMBER, minimum=0, maximum=100,
    ),
    RuleSpec(
        "all_pass", "When everyone passes", "Bidding",
        "Deal again, or the dealer's side must take the minimum bid.",
        AllPass.REDEAL, RuleKind.CHOICE,
        choices=((AllPass.REDEAL, "Deal again"), (AllPass.FORCED, "Dealer's side is forced to bid")),
    ),
    RuleSpec(
        "meld_prices", "The table's own meld prices", "Meld",
        "Prices of your own for some combinations (1 to 4 sets each), in place of the meld table's.",
        NO_PRICES, RuleKind.PRICES,
    ),
)

RULE_SPECS_BY_KEY: dict[str, RuleSpec] = {spec.key: spec for spec in RULE_SPECS}
FIRST_EIGHT = frozenset(spec.key for spec in RULE_SPECS[:8])
"""The rules every match file writes; the later ones are written only when not at their default."""


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The house rules in force for a match. Defaults: double deck to 500; every rule after the first
    eight is off by default, so that a match recorded before it existed scores as it did.

    Slots: the scoring reads the rules for every side of every deal, and in Python 3.11 a field whose
    default is an enum member is read slowly from an instance that keeps it in a ``__dict__``."""

    target: int = 500
    deck: Deck = Deck.DOUBLE
    meld_table: MeldTableName = MeldTableName.DOUBLE_SMALL
    trick_scale: TrickScale = TrickScale.ONE_POINT
    min_bid: int = 50
    last_trick: int = 2
    must_take_trick: MustTake = MustTake.TRICK
    must_win_own_bid: bool = True
    set_penalty: SetPenalty = SetPenalty.BID
    min_meld: int = 0
    save_points: int = 0
    going_out: GoingOut = GoingOut.TARGET
    deal_limit: int = 0
    throw_in_bonus: int = 0
    all_pass: AllPass = AllPass.REDEAL
    meld_prices: MeldPrices = NO_PRICES

    @classmethod
    def from_mapping(
        cls, data: Mapping[str, object], base: HouseRules | None = None, *, stored: bool = False
    ) -> HouseRules:
        """Rules from JSON-style values; a missing key keeps ``base`` (default: the defaults); ``stored``: values
        this app stored earlier, read back (see ``RuleSpec.parse``)."""
        source = base or cls()
        values = {spec.key: getattr(source, spec.key) for spec in RULE_SPECS}
        for key, raw in data.items():
            spec = RULE_SPECS_BY_KEY.get(key)
            if spec is None:
                raise HouseRuleError(key, say(ProblemCode.UNKNOWN_RULE, key=key), ProblemCode.UNKNOWN_RULE)
            values[key] = spec.parse(raw, stored=stored)
        return cls(**values)

    def to_mapping(self, complete: bool = False) -> dict[str, object]:
        """The rules as the match file writes them: the first eight always, a later one when it is not
        its default (so a match that uses none of them is written as it was before they existed);
        ``complete``: every rule."""
        data: dict[str, object] = {}
        for spec in RULE_SPECS:
            value = getattr(self, spec.key)
            if complete or spec.key in FIRST_EIGHT or value != spec.default:
                data[spec.key] = _written(spec, value)
        return data

    def replace(self, **changes: object) -> HouseRules:
        """A copy with some rules changed, each validated."""
        return HouseRules.from_mapping(changes, base=self)

    def differences(self, other: HouseRules) -> list[str]:
        """The keys of the rules that differ between ``self`` and ``other``."""
        return [spec.key for spec in RULE_SPECS if getattr(self, spec.key) != getattr(other, spec.key)]


@dataclass(frozen=True)
class Preset:
    """A named starting point for a new match."""

    key: str
    label: str
    description: str
    rules: HouseRules
    side_names: tuple[str, ...]
    players_per_side: int
    auction: bool = True


PRESETS: tuple[Preset, ...] = (
    Preset(
        "double-500", "Double deck to 500",
        "Two partnerships, 80 cards, small meld values, one point a counter.",
        HouseRules(), ("We", "They"), 2,
    ),
    Preset(
        "single-1500", "Single deck to 1500",
        "Two partnerships, 48 cards, classic meld, ten points a counter, opening bid 250.",
        HouseRules(
            target=1500, deck=Deck.SINGLE, meld_table=MeldTableName.SINGLE_CLASSIC,
            trick_scale=TrickScale.TEN_POINT, min_bid=250, last_trick=10,
            must_take_trick=MustTake.POINTS, must_win_own_bid=False,
        ),
        ("We", "They"), 2,
    ),
    Preset(
        "auction-3", "Auction, three players",
        "Three players, each on their own, single deck, classic meld, ten points a counter, opening bid 300, "
        "to 1000.",
        HouseRules(
            target=1000, deck=Deck.SINGLE, meld_table=MeldTableName.SINGLE_CLASSIC,
            trick_scale=TrickScale.TEN_POINT, min_bid=300, last_trick=10,
        ),
        ("North", "East", "South"), 1,
    ),
    Preset(
        "two-hand", "Two-hand",
        "Two players, no auction: each scores meld and tricks, single deck, ten points a counter, to 1000.",
        HouseRules(
            target=1000, deck=Deck.SINGLE, meld_table=MeldTableName.SINGLE_CLASSIC,
            trick_scale=TrickScale.TEN_POINT, min_bid=250, last_trick=10,
        ),
        ("You", "Me"), 1, auction=False,
    ),
)

PRESETS_BY_KEY: dict[str, Preset] = {preset.key: preset for preset in PRESETS}
