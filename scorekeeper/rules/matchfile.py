"""Reading and writing the match file, format ``pinochle-match/1``.

Errors point at the place in the file, e.g. ``deals[3].sides[1].tricks: …``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from operator import attrgetter
from typing import Any, ParamSpec, Protocol, TypeVar

from .cards import ALL_CARDS, Card, Deck, Hand, Rank, Suit
from .combinations import Combination
from .errors import HouseRuleError, MatchFileError, RulesError
from .house_rules import RULE_SPECS_BY_KEY, HouseRules, MeldTableName, TrickScale
from .limits import (
    MAX_DEALS,
    MAX_MATCH_NAME,
    MAX_NUMBER,
    MAX_PLAYER_NAME,
    MAX_PLAYERS,
    MAX_SIDE_NAME,
    MAX_SIDES,
    MIN_SIDES,
)
from .match import (
    Deal,
    Match,
    MeldCards,
    MeldFact,
    MeldPoints,
    MeldSets,
    PricingBasis,
    SideDetail,
    SideEntry,
    SideInfo,
    SideTotal,
    TrickCards,
    TrickCounters,
    TrickFact,
    TrickPoints,
)
from .meld_prices import MeldPrices
from .messages import problem, say
from .problems import Problem, ProblemCode, join_path
from .text import clean_name, dumps_lines, load_json

FORMAT = "pinochle-match/1"
MATCH_KEYS = frozenset(
    {"format", "name", "event", "sides", "first_dealer", "rules", "auction", "deals"})  # "event": read, ignored
DEAL_KEYS = frozenset(
    {"passed", "bidder", "bid", "trump", "thrown_in", "out", "forced", "sides", "entered_under", "bid_by", "dealt_by"}
)
SIDE_KEYS = frozenset({"name", "players"})
# A deal's optional texts, written as read; the store keeps each in the column of its name.
DEAL_TEXT_KEYS = ("bid_by", "dealt_by")
_NO_TEXTS = (None,) * len(DEAL_TEXT_KEYS)
_deal_texts = attrgetter(*DEAL_TEXT_KEYS)
T = TypeVar("T")
P = ParamSpec("P")


# Reading ---------------------------------------------------------------------------------------

def loads_match(text: str) -> Match:
    """Read a match file from JSON text (nesting and numbers bounded, see ``text.load_json``)."""
    return match_from_json(load_json(text))


def sent_deals(data: object) -> int:
    """How many deals a decoded match file brings, counted before it is read (0 when it has no list of them)."""
    deals = data.get("deals") if isinstance(data, dict) else None
    return len(deals) if isinstance(deals, list) else 0


def match_from_json(data: object, *, stored: bool = False) -> Match:
    """Build a match from a decoded match file, within the limits of ``limits``.

    ``stored``: facts this app stored earlier, read back; names are taken as stored, the limits
    on names, players and deals are not applied again, and house rule values read as stored values
    (``HouseRules.from_mapping``), so a match kept before a limit was lowered or a rule narrowed still
    opens (its next deal is still refused when it has the most deals a match may hold).
    """
    obj = _object(data, "")
    _only_keys(obj, MATCH_KEYS, "")
    if obj.get("format") != FORMAT:
        raise _fail(ProblemCode.WRONG_FORMAT, "format", format=FORMAT)
    name = _optional(obj, "name", "", _text)
    if not stored:
        name = clean_name(name, "name", MAX_MATCH_NAME, say("name.match"))
    sides = _sides(obj.get("sides"), "sides", stored)
    rules_data: dict[str, Any] = _optional(obj, "rules", {}, _object)
    try:
        rules = HouseRules.from_mapping(rules_data, stored=stored)
    except RulesError as error:
        found = error.problem if isinstance(error, HouseRuleError) else error.problem.at("rules")
        raise MatchFileError(found) from None
    deals_data: list[Any] = _optional(obj, "deals", [], _list)
    if len(deals_data) > MAX_DEALS and not stored:
        raise _fail(ProblemCode.TOO_MANY_DEALS, "deals", "file", most=MAX_DEALS, deals=len(deals_data))
    deals = _deals(deals_data, len(sides), rules, stored)
    auction = _optional_switch(obj, "auction", None)
    if auction is None:
        auction = _auction_implied(deals)
    first_dealer = _optional(obj, "first_dealer", None, _named_player)
    if first_dealer is not None and all(first_dealer not in side.players for side in sides):
        raise _fail(ProblemCode.DEALER_UNKNOWN, "first_dealer", player=first_dealer)
    return Match(sides=sides, rules=rules, deals=deals, name=name, auction=auction, first_dealer=first_dealer)


def _auction_implied(deals: tuple[Deal, ...]) -> bool:
    """A file that leaves out ``auction`` has one unless a played deal has no bidder."""
    for deal in deals:  # a loop: a generator would cost more than the test for each of a thousand deals
        if deal.bidder is None and not deal.passed:
            return False
    return True


def deal_from_json(
    data: object, side_count: int, path: str = "", rules: HouseRules | None = None, *, stored: bool = False
) -> Deal:
    """Read one deal of a match played under ``rules`` (default: the default rules); error paths start
    at ``path`` (default: relative to the deal, e.g. ``sides[1].tricks``); ``stored``: a deal this app stored
    earlier, its pricing read as stored values.

    Only the form of the facts is checked here; whether they fit the rules is ``checks``' job.
    """
    return _at(path, _deal, data, side_count, rules or HouseRules(), stored, {})


# The readers below name places relative to what they read; a caller that meets a refusal roots its path
# (``_at``), so that no path is written out for the thousands of values that are fine.

def _deal(data: object, side_count: int, rules: HouseRules, stored: bool, bases: dict[str, PricingBasis]) -> Deal:
    obj = _object(data, "", "object")
    if obj.get("passed") is True:
        _only_keys(obj, {"passed"}, "")
        return Deal(passed=True)
    _only_keys(obj, DEAL_KEYS, "")
    if "passed" in obj and obj["passed"] is not False:
        raise _fail(ProblemCode.WRONG_TYPE, "passed", "switch")
    if "bidder" not in obj:
        raise _fail(ProblemCode.MISSING_KEY, "bidder", "bidder")
    bidder = obj["bidder"]
    if bidder is not None:
        bidder = _index(bidder, "bidder", side_count)
        if obj.get("bid") is None:
            raise _fail(ProblemCode.MISSING_KEY, "bid", "bid")
        bid = _count(obj["bid"], "bid", minimum=1)
    else:
        if obj.get("bid") is not None:
            raise _fail(ProblemCode.BID_WITHOUT_BIDDER, "bid")
        bid = None
    trump = _optional(obj, "trump", None, _suit)
    thrown_in = _optional_switch(obj, "thrown_in", False)
    if thrown_in and bidder is None:
        raise _fail(ProblemCode.THROWN_IN_WITHOUT_BIDDER, "thrown_in")
    sides_data = _list(obj.get("sides"), "sides")
    if len(sides_data) != side_count:
        raise _fail(ProblemCode.SIDE_COUNT, "sides", "deal", sides=side_count)
    sides = _each("sides", _side_entry, sides_data, rules.deck)
    entered_under = None
    if obj.get("entered_under") is not None:
        entered_under = _basis_once(obj["entered_under"], rules, stored, bases)
    return Deal(
        sides=sides, bidder=bidder, bid=bid, trump=trump, thrown_in=thrown_in, entered_under=entered_under,
        out=_optional_switch(obj, "out", False),
        forced=_optional_switch(obj, "forced", False),
        bid_by=_optional(obj, "bid_by", None, _named_player),
        dealt_by=_optional(obj, "dealt_by", None, _named_player),
    )


def _deals(items: list[Any], side_count: int, rules: HouseRules, stored: bool) -> tuple[Deal, ...]:
    """Each deal of the file: read by ``_plain_deal`` when it is written in plain numbers, else by ``_deal``,
    which also names whatever is wrong."""
    bases: dict[tuple[str, str, int, bool], PricingBasis] = {}  # this file's ``entered_under``s, each read once
    written: dict[str, PricingBasis] = {}  # the same for the deals ``_deal`` reads, by their JSON text
    deals = []
    for index, item in enumerate(items):
        deal = _plain_deal(item, side_count, rules, stored, bases)
        if deal is None:
            deal = _at(f"deals[{index}]", _deal, item, side_count, rules, stored, written)
        deals.append(deal)
    return tuple(deals)


def _plain_deal(data: object, side_count: int, rules: HouseRules, stored: bool,
                bases: dict[tuple[str, str, int, bool], PricingBasis]) -> Deal | None:
    """The deal ``_deal`` reads from ``data``, told in one look at a deal written as this app writes one in plain
    numbers (meld and tricks as numbers, or a total, per side); None for anything else, or anything ``_deal``
    might refuse, which it then reads."""
    if type(data) is not dict or not DEAL_KEYS.issuperset(data):
        return None
    passed = data.get("passed", False)  # left out: not passed; null, as anything but a switch, is refused
    if passed is True:
        return Deal(passed=True) if len(data) == 1 else None
    if passed is not False or "bidder" not in data:
        return None
    bidder, bid = data["bidder"], data.get("bid")
    if bidder is None:
        if bid is not None:
            return None
    elif not (type(bidder) is int and 0 <= bidder < side_count and type(bid) is int and 1 <= bid <= MAX_NUMBER):
        return None
    trump = data.get("trump")
    if trump is not None:
        trump = _SUIT_BY_CODE.get(trump) if type(trump) is str else None
        if trump is None:
            return None
    thrown_in, out, forced = data.get("thrown_in"), data.get("out"), data.get("forced")
    if not (thrown_in is None or thrown_in is True or thrown_in is False) or (thrown_in and bidder is None):
        return None
    if not (out is None or out is True or out is False) or not (forced is None or forced is True or forced is False):
        return None
    items = data.get("sides")
    if type(items) is not list or len(items) != side_count:
        return None
    sides = []
    for item in items:
        entry = _plain_side(item)
        if entry is None:
            return None
        sides.append(entry)
    under = data.get("entered_under")
    basis = None if under is None else _plain_basis(under, rules, stored, bases)
    if under is not None and basis is None:
        return None
    bid_by, dealt_by = data.get("bid_by"), data.get("dealt_by")
    if bid_by is not None or dealt_by is not None:
        try:
            bid_by = None if bid_by is None else _named_player(bid_by, "")
            dealt_by = None if dealt_by is None else _named_player(dealt_by, "")
        except MatchFileError:
            return None
    # Made by position, in the order of Deal's fields, in half the time of naming each: a thousand deals a file.
    # tests/test_matchfile.py holds this reader to ``_deal``, which names them, and fails on any change of the
    # fields until this reader is told of it. The switches are True or absent (None).
    return Deal._make((tuple(sides), bidder, bid, trump, thrown_in is True, False, basis, bid_by, dealt_by,
                       out is True, forced is True))


def _plain_side(data: object) -> SideEntry | None:
    """A side's entry in plain numbers as ``_side_entry`` reads it; None for anything else."""
    if type(data) is not dict:
        return None
    took_trick = data.get("took_trick")
    if not (took_trick is None or took_trick is True or took_trick is False):
        return None
    if not _DETAIL_KEYS.issuperset(data):
        total = data.get("total")
        if not _TOTAL_KEYS.issuperset(data) or type(total) is not int or not 0 <= total <= MAX_NUMBER:
            return None
        return SideTotal(total=total, took_trick=took_trick)
    meld: tuple[MeldFact, ...] = ()
    raw = data.get("meld")
    if type(raw) is int and 0 <= raw <= MAX_NUMBER:
        meld = (raw,)
    elif type(raw) is list and len(raw) <= MAX_PLAYERS and all(
            type(points) is int and 0 <= points <= MAX_NUMBER for points in raw):
        meld = tuple(raw)
    elif raw is not None or "meld" in data:
        return None
    points = data.get("tricks")
    tricks = None
    if points is not None:
        if type(points) is not int or not 0 <= points <= MAX_NUMBER:
            return None
        tricks = points
    last_trick = data.get("last_trick")
    if not (last_trick is None or last_trick is True or last_trick is False):
        return None
    return SideDetail._make((meld, tricks, last_trick is True, took_trick))  # by position, as ``_plain_deal``


def _plain_basis(data: object, rules: HouseRules, stored: bool,
                 bases: dict[tuple[str, str, int, bool], PricingBasis]) -> PricingBasis | None:
    """``entered_under`` as ``_basis`` reads it, read once for each of the few a file holds; None when it
    might be refused."""
    if type(data) is not dict or not _BASIS_KEYS.issuperset(data) or data.get("meld_prices", {}) != {}:
        return None
    meld_table, trick_scale, last_trick = data.get("meld_table"), data.get("trick_scale"), data.get("last_trick")
    if not (type(meld_table) is str and type(trick_scale) is str and type(last_trick) is int):
        return None
    key = (meld_table, trick_scale, last_trick, "meld_prices" in data)
    basis = bases.get(key)
    if basis is None:
        try:
            basis = bases[key] = _basis(data, "", rules, stored)
        except MatchFileError:
            return None
    return basis


_TOTAL_KEYS = frozenset({"total", "took_trick"})
_DETAIL_KEYS = frozenset({"meld", "tricks", "last_trick", "took_trick"})
_SUIT_BY_CODE = {suit.value: suit for suit in Suit}


def _at(place: str, read: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """What ``read`` reads; a refusal's place rooted at ``place`` (``bid`` within ``deals[2]`` is ``deals[2].bid``)."""
    try:
        return read(*args, **kwargs)
    except MatchFileError as error:
        raise MatchFileError(error.problem.at(place)) from None


def _each(place: str, read: Callable[[object, Deck], T], items: list[Any], deck: Deck) -> tuple[T, ...]:
    """What ``read`` reads of each item of the list at ``place``: ``_at`` for each, with the item's place
    (``meld[3]``) written only when it is refused (a long match's file holds thousands)."""
    found = []
    for index, item in enumerate(items):
        try:
            found.append(read(item, deck))
        except MatchFileError as error:
            raise MatchFileError(error.problem.at(f"{place}[{index}]")) from None
    return tuple(found)


def _named_player(data: object, path: str) -> str:
    """``bid_by`` or ``dealt_by``: a player's name, written as in ``sides[].players``."""
    return _player(data, path, stored=False)


def _side_entry(data: object, deck: Deck) -> SideEntry:
    obj = _object(data, "", "object")
    took_trick = _optional_switch(obj, "took_trick", None)
    if "total" in obj:
        _only_keys(obj, _TOTAL_KEYS, "", hint="total")
        return SideTotal(total=_count(obj["total"], "total"), took_trick=took_trick)
    _only_keys(obj, _DETAIL_KEYS, "")
    meld: tuple[MeldFact, ...] = ()
    if "meld" in obj:
        raw = obj["meld"]
        if isinstance(raw, list) and len(raw) > MAX_PLAYERS:
            raise _fail(ProblemCode.TOO_MANY_PLAYERS, "meld", "meld", most=MAX_PLAYERS)
        if isinstance(raw, list):
            meld = _each("meld", _meld, raw, deck)
        else:
            meld = (_at("meld", _meld, raw, deck),)
    tricks = _tricks(obj["tricks"], "tricks") if obj.get("tricks") is not None else None
    last_trick = _optional_switch(obj, "last_trick", False)
    return SideDetail(meld=meld, tricks=tricks, last_trick=last_trick, took_trick=took_trick)


def _meld(data: object, deck: Deck) -> MeldFact:
    if not isinstance(data, dict):
        return _count(data, "")
    if "cards" in data:
        _only_keys(data, _CARDS_KEYS, "")
        cards = data["cards"]
        trump = data.get("trump")
        trump = _SUIT_BY_CODE.get(trump) if type(trump) is str else None  # as the app writes it: the usual case
        if trump is None:
            trump = _optional(data, "trump", None, _suit)
        if type(cards) is list:
            counts = [0] * len(ALL_CARDS)
            try:
                for text in cards:  # each card as the app writes it: one look-up
                    counts[_INDEX_BY_CODE[text]] += 1
            except (KeyError, TypeError):  # anything else is read card by card below, which names it
                pass
            else:
                return MeldCards(Hand(counts, deck), trump)
        if not isinstance(cards, (list, str)):
            raise _fail(ProblemCode.WRONG_TYPE, "cards", "cards")
        counts = [0] * len(ALL_CARDS)
        for i, text in enumerate(cards.split() if isinstance(cards, str) else cards):
            if not isinstance(text, str):
                raise _fail(ProblemCode.WRONG_TYPE, "cards", "cards")
            index = _INDEX_BY_CODE.get(text)  # as the app writes it: the usual case
            if index is None:
                try:
                    index = Card.from_text(text).index
                except RulesError as error:
                    if not all(isinstance(card, str) for card in cards):  # a list of the wrong kind says so first
                        raise _fail(ProblemCode.WRONG_TYPE, "cards", "cards") from None
                    raise MatchFileError(error.problem.at(f"cards[{i}]")) from None
            counts[index] += 1
        return MeldCards(hand=Hand(counts, deck), trump=trump)
    sets = []
    for key, value in data.items():
        try:
            combination = Combination.from_key(key)
        except RulesError as error:
            raise MatchFileError(error.problem.at(key)) from None
        n = _count(value, key)
        if n:
            sets.append((combination, n))
    sets.sort(key=lambda pair: _COMBINATION_ORDER[pair[0]])
    return MeldSets(tuple(sets))


_INDEX_BY_CODE = {card.code: card.index for card in ALL_CARDS}
_CARDS_KEYS = frozenset({"cards", "trump"})
_RANK_BY_CODE = {rank.value: rank for rank in Rank}
_RANK_ORDER = tuple(Rank)
_COMBINATION_ORDER = {combination: order for order, combination in enumerate(Combination)}


def _tricks(data: object, path: str) -> TrickFact:
    if not isinstance(data, dict):
        return _count(data, path)
    if "counters" in data:
        _only_keys(data, {"counters"}, path)
        return TrickCounters(_count(data["counters"], f"{path}.counters"))
    if "cards" in data:
        _only_keys(data, {"cards"}, path)
        ranks = _object(data["cards"], f"{path}.cards")
        by_rank: dict[Rank, int] = {}
        for key, value in ranks.items():
            rank = _RANK_BY_CODE.get(key)  # as the app writes it: the usual case
            if rank is None:
                try:
                    rank = Rank.from_text(key)
                except RulesError as error:
                    raise MatchFileError(error.problem.at(f"{path}.cards.{key}")) from None
            if type(value) is not int or not 0 <= value <= MAX_NUMBER:  # its place written only when refused
                value = _count(value, f"{path}.cards.{key}")
            by_rank[rank] = by_rank.get(rank, 0) + value
        return TrickCards(tuple((rank, by_rank[rank]) for rank in _RANK_ORDER if by_rank.get(rank)))
    raise _fail(ProblemCode.WRONG_TYPE, path, "tricks")


def _sides(data: object, path: str, stored: bool = False) -> tuple[SideInfo, ...]:
    items = _list(data, path)
    if not MIN_SIDES <= len(items) <= MAX_SIDES:
        raise _fail(ProblemCode.SIDE_COUNT, path, "match", least=MIN_SIDES, most=MAX_SIDES)
    sides: list[SideInfo] = []
    for i, item in enumerate(items):
        side_path = f"{path}[{i}]"
        obj = _object(item, side_path)
        _only_keys(obj, SIDE_KEYS, side_path)
        name = _text(obj.get("name"), f"{side_path}.name")
        name = name.strip() if stored else clean_name(name, f"{side_path}.name", MAX_SIDE_NAME, say("name.side"))
        if not name:
            raise _fail(ProblemCode.NAME_MISSING, f"{side_path}.name", "side")
        players: list[Any] = _optional(obj, "players", [], _list, side_path)
        if len(players) > MAX_PLAYERS and not stored:
            raise _fail(ProblemCode.TOO_MANY_PLAYERS, f"{side_path}.players", most=MAX_PLAYERS)
        names = tuple(_player(p, f"{side_path}.players[{j}]", stored) for j, p in enumerate(players))
        if not stored:
            _refuse_seated_twice(names, sides, f"{side_path}.players")
        if not stored and any(name.casefold() == other.name.casefold() for other in sides):
            raise _fail(ProblemCode.DUPLICATE_NAME, f"{side_path}.name")
        sides.append(SideInfo(name=name, players=names))
    return tuple(sides)


def _refuse_seated_twice(names: tuple[str, ...], earlier: list[SideInfo], path: str) -> None:
    """One player sits at one place: not twice on a side, not on two sides."""
    seen = {player.casefold() for side in earlier for player in side.players}
    for j, name in enumerate(names):
        if name.casefold() in seen:
            raise _fail(ProblemCode.DUPLICATE_PLAYER, f"{path}[{j}]", player=name)
        seen.add(name.casefold())


def _player(data: object, path: str, stored: bool) -> str:
    name = _text(data, path)
    if stored:
        return name
    name = clean_name(name, path, MAX_PLAYER_NAME, say("name.player"))
    if not name:
        raise _fail(ProblemCode.NAME_MISSING, path, "player")
    return name


def _basis(data: object, path: str, rules: HouseRules, stored: bool) -> PricingBasis:
    """``entered_under``: a key left out means the same as the match's rule."""
    obj = _object(data, path)
    _only_keys(obj, _BASIS_KEYS, path)
    values: dict[str, Any] = {}
    for key, spec in _BASIS_SPECS.items():
        try:
            values[key] = spec.parse(obj[key], stored=stored) if key in obj else getattr(rules, key)
        except RulesError as error:
            raise MatchFileError(Problem(error.code, f"{path}.{key}", error.problem.message)) from None
    return _interned_basis(values["meld_table"], values["trick_scale"], values["last_trick"], values["meld_prices"])


def _basis_once(data: object, rules: HouseRules, stored: bool, read: dict[str, PricingBasis]) -> PricingBasis:
    """``_basis`` of a deal's ``entered_under``, read once for each distinct one in a file (by its JSON text, so
    that only the same text gives the same basis): a file repeats its table's own meld prices in every deal, and
    reading them is most of the time of a deal written with cards."""
    key = json.dumps(data)
    basis = read.get(key)
    if basis is None:
        basis = read[key] = _basis(data, "entered_under", rules, stored)
    return basis


_BASIS_SPECS = {key: RULE_SPECS_BY_KEY[key] for key in ("meld_table", "trick_scale", "last_trick", "meld_prices")}
_BASIS_KEYS = frozenset(_BASIS_SPECS)


BASES_KEPT = 256  # a basis with its meld prices (sent by anyone) takes under 1 KB: 256 KB at most


@lru_cache(maxsize=BASES_KEPT)
def _interned_basis(
    meld_table: MeldTableName, trick_scale: TrickScale, last_trick: int, meld_prices: MeldPrices
) -> PricingBasis:
    """One object for each basis: a long match repeats the same few, and equal objects compare fast."""
    return PricingBasis(meld_table, trick_scale, last_trick, meld_prices)


# Small typed readers: each names the place when the value is of the wrong kind.

def _fail(code: ProblemCode, path: str, variant: str = "", /, **fields: object) -> MatchFileError:
    """A refusal at ``path`` that says its code's message (or the variant's: messages.py)."""
    return MatchFileError(problem(code, path, variant, **fields))


def _object(data: object, path: str, top: str = "match") -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(ProblemCode.WRONG_TYPE, path, "object" if path else top)
    return data


def _list(data: object, path: str) -> list[Any]:
    if not isinstance(data, list):
        raise _fail(ProblemCode.WRONG_TYPE, path, "list")
    return data


def _text(data: object, path: str) -> str:
    if not isinstance(data, str):
        raise _fail(ProblemCode.WRONG_TYPE, path, "text")
    return data


def _suit(data: object, path: str) -> Suit:
    text = _text(data, path)
    try:
        return Suit.from_text(text)
    except RulesError as error:
        raise MatchFileError(error.problem.at(path)) from None


def _count(data: object, path: str, minimum: int = 0) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise _fail(ProblemCode.NOT_A_NUMBER, path)
    if data < minimum:
        raise _fail(ProblemCode.OUT_OF_RANGE, path, "at_least", minimum=minimum)
    if data > MAX_NUMBER:
        raise _fail(ProblemCode.OUT_OF_RANGE, path, "at_most", maximum=MAX_NUMBER)
    return data


def _index(data: object, path: str, size: int) -> int:
    value = _count(data, path)
    if value >= size:
        raise _fail(ProblemCode.BIDDER_UNKNOWN, path, "index", last=size - 1)
    return value


def _optional(obj: Mapping[str, Any], key: str, default: T, read: Callable[[Any, str], T], path: str = "") -> T:
    if key not in obj or obj[key] is None:
        return default
    return read(obj[key], join_path(path, key))


def _optional_switch(obj: Mapping[str, Any], key: str, default: T) -> bool | T:
    """The switch (true or false) at ``key``; ``default`` when it is left out or null."""
    value = obj.get(key)
    if value is None:
        return default
    if value is True or value is False:
        return value
    raise _fail(ProblemCode.WRONG_TYPE, key, "switch")


def _only_keys(obj: Mapping[str, Any], allowed: set[str] | frozenset[str], path: str, hint: str = "") -> None:
    if allowed.issuperset(obj):  # the usual case, told in one step
        return
    for key in obj:
        if key not in allowed:
            raise _fail(ProblemCode.UNKNOWN_KEY, join_path(path, key), hint, allowed=", ".join(sorted(allowed)))


# Writing ---------------------------------------------------------------------------------------

LISTED = frozenset({"deals"})  # a match file's lists written one item a line


def dumps_match(match: Match, event: Mapping[str, Any] | None = None) -> str:
    """The match file as JSON text, keys in the documented order: a key a line and a deal a line, as the
    samples in ``seeds/`` are written; ``event``: the club event's table it was played at."""
    return dumps_lines(match_to_json(match, event=event), LISTED) + "\n"


DealWriter = Callable[[Deal, HouseRules], dict[str, Any]]


def match_to_json(match: Match, deal_json: DealWriter | None = None,
                  event: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The match as a decoded match file; ``deal_json`` writes each deal when given (it must answer as
    ``deal_to_json`` does: a caller may remember the deals it has written already); ``event`` (name,
    round, table) says the match was a table of a club event's round."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "name": match.name,
        **({"event": dict(event)} if event is not None else {}),
        "sides": [{"name": side.name, "players": list(side.players)} for side in match.sides],
        **({"first_dealer": match.first_dealer} if match.first_dealer is not None else {}),
        "rules": match.rules.to_mapping(),
    }
    if not match.auction or not _auction_implied(match.deals):
        data["auction"] = match.auction  # also when the deals alone would say otherwise
    write = deal_json or deal_to_json
    data["deals"] = [write(deal, match.rules) for deal in match.deals]
    return data


class AuctionFacts(Protocol):
    """What a deal records of its auction, as a ``Deal`` holds it and as a stored deal's row does."""

    @property
    def passed(self) -> bool: ...
    @property
    def bidder(self) -> int | None: ...
    @property
    def bid(self) -> int | None: ...
    @property
    def thrown_in(self) -> bool: ...
    @property
    def out(self) -> bool: ...
    @property
    def forced(self) -> bool: ...


def auction_to_json(deal: AuctionFacts, trump: str | None, texts: tuple[str | None, ...]) -> dict[str, Any]:
    """A deal's entry in the match file up to its sides: ``{"passed": true}`` for a passed deal, else its
    bidder and what else of the auction was recorded (``trump`` as its letter, ``texts`` in the order of
    ``DEAL_TEXT_KEYS``)."""
    if deal.passed:
        return {"passed": True}
    data: dict[str, Any] = {"bidder": deal.bidder}
    if deal.bid is not None:
        data["bid"] = deal.bid
    if trump is not None:
        data["trump"] = trump
    if deal.thrown_in:
        data["thrown_in"] = True
    if deal.out:
        data["out"] = True
    if deal.forced:
        data["forced"] = True
    if texts != _NO_TEXTS:  # a deal that notes none: one comparison
        for key, text in zip(DEAL_TEXT_KEYS, texts, strict=False):
            if text is not None:
                data[key] = text
    return data


def deal_to_json(deal: Deal, rules: HouseRules) -> dict[str, Any]:
    """One deal as the match file writes it; ``entered_under`` only where it differs from ``rules``."""
    data = auction_to_json(deal, None if deal.trump is None else deal.trump.value, _deal_texts(deal))
    if deal.passed:
        return data
    data["sides"] = [_side_to_json(entry) for entry in deal.sides]
    basis = deal.entered_under
    if basis is not None and basis != PricingBasis.of(rules):
        data["entered_under"] = basis_to_json(basis)
        if basis.meld_prices == rules.meld_prices:
            del data["entered_under"]["meld_prices"]
    return data


def basis_to_json(basis: PricingBasis) -> dict[str, Any]:
    """``entered_under`` in full (the table's own meld prices as ``{}`` when there were none)."""
    return {
        "meld_table": basis.meld_table.value,
        "trick_scale": basis.trick_scale.value,
        "last_trick": basis.last_trick,
        "meld_prices": basis.meld_prices.to_json(),
    }


def _side_to_json(entry: SideEntry) -> dict[str, Any]:
    data: dict[str, Any]
    if isinstance(entry, SideTotal):
        data = {"total": entry.total}
    else:
        data = {}
        if entry.meld:
            melds = [_meld_to_json(fact) for fact in entry.meld]
            data["meld"] = melds[0] if len(melds) == 1 else melds
        if entry.tricks is not None:
            data["tricks"] = _tricks_to_json(entry.tricks)
        if entry.last_trick:
            data["last_trick"] = True
    if entry.took_trick is not None:
        data["took_trick"] = entry.took_trick
    return data


def _meld_to_json(fact: MeldFact) -> Any:
    if isinstance(fact, MeldPoints):
        return fact
    if isinstance(fact, MeldSets):
        return {combination.value: n for combination, n in fact.sets}
    data: dict[str, Any] = {"cards": fact.hand.codes()}
    if fact.trump is not None:
        data["trump"] = fact.trump.value
    return data


def _tricks_to_json(fact: TrickFact) -> Any:
    if isinstance(fact, TrickPoints):
        return fact
    if isinstance(fact, TrickCounters):
        return {"counters": fact.counters}
    return {"cards": {rank.value: n for rank, n in fact.by_rank}}

