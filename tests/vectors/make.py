"""The shared vectors: answers of the Python rules core that its browser twin (static/js/rules/) must give too.

    .venv/bin/python tests/vectors/make.py          # rewrite the files in tests/vectors/
    .venv/bin/python tests/vectors/make.py --check  # exit 1 when a checked-in file is stale

Every case comes from seeded random hands and matches run through the core; nothing here is written by
hand. One file per kind: ``meld.json`` (prices and best meld of hands), ``matches.json`` (match
files and their sheets or contradictions), ``rule_changes.json`` (a house-rule change previewed on a
match), ``match_files.json`` (damaged match files and the problem the reader names, and stored ones read
back), ``readings.json`` (typed numbers, card lists, rule values and JSON text with odd numbers and
spaces, as each core reads them), ``dealers.json`` (match files, their seats and who deals next),
``messages.json`` (every message template filled in, and said as a sentence, and the problems of new deals under
the checks of the contract and its players; the words that are no problem's are filled in by the same code) and
``previews.json`` (a deal of a match previewed as it is entered: the numbers the core works out, and the lines
the server words them in, which the phone's wording of the twin's numbers must give too).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import string
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.rules import (
    ContradictionError,
    Deck,
    Hand,
    HouseRules,
    Match,
    MeldTableName,
    RulesError,
    Suit,
    deal_from_json,
    match_from_json,
    match_to_json,
    preview_rules,
    score_match,
)
from scorekeeper.rules.cards import ALL_CARDS, Rank
from scorekeeper.rules.checks import check_new_deal
from scorekeeper.rules.combinations import Combination
from scorekeeper.rules.explain import deal_numbers
from scorekeeper.rules.house_rules import RULE_SPECS, TrickScale
from scorekeeper.rules.matchfile import loads_match
from scorekeeper.rules.meld import MELD_TABLES, best_melds, price, price_sets
from scorekeeper.rules.meld_prices import NO_PRICES, MeldPrices
from scorekeeper.rules.messages import MESSAGES, say, sentence
from scorekeeper.rules.numbers import parse_whole_number
from scorekeeper.rules.price_presets import PRICE_PRESETS, preset_prices
from scorekeeper.rules.rotation import next_dealer, seat_order, side_hands
from scorekeeper.rules.scoring import Sheet
from scorekeeper.rules.tricks import CARD_POINTS
from scorekeeper.sheet.deal_preview import preview, preview_sides

FOLDER = Path(__file__).resolve().parent
SEED = 20261201
PRICES_SEED = 20261212  # the cases with a table's own meld prices, drawn apart so the others stay as they were
Json = Any


# Meld -----------------------------------------------------------------------------------------

def deck_cards(deck: Deck) -> list[str]:
    return [card.code for card in ALL_CARDS for _ in range(deck.copies_of(card))]


def random_hand(rng: random.Random, deck: Deck) -> list[str]:
    """A dealt hand, or (one time in three) a hand drawn from few ranks and suits, rich in meld."""
    cards = deck_cards(deck)
    size = 12 if deck is Deck.SINGLE else 20
    if rng.random() < 0.35:
        suits = rng.sample("SHDC", rng.randint(1, 4))
        ranks = rng.sample([r.label for r in deck.ranks], rng.randint(2, len(deck.ranks)))
        cards = [c for c in cards if (c[-1] in suits and c[:-1] in ranks) or c in ("QS", "JD")]
    rng.shuffle(cards)
    return cards[:rng.randint(min(max(1, size - 6), len(cards)), min(size + 4, len(cards)))]


def meld_vectors(rng: random.Random) -> Json:
    prices = [
        [combination.value, sets, table.value, price(combination, sets, table)]
        for table in MeldTableName for combination in Combination for sets in range(0, 21)
    ]
    hands = []
    for _ in range(900):
        deck = rng.choice(list(Deck))
        table = rng.choice(list(MeldTableName))
        trump = rng.choice([None, *Suit])
        codes = random_hand(rng, deck)
        hand = Hand.from_text(codes, deck)
        results = best_melds(hand, trump, table)
        hands.append({
            "deck": deck.value, "table": table.value, "trump": trump.value if trump else None,
            "hand": " ".join(codes), "melds": [result.to_json() for result in results],
        })
    sets = []
    for _ in range(150):
        table = rng.choice(list(MeldTableName))
        counted = {c: rng.randint(0, 5) for c in rng.sample(list(Combination), rng.randint(1, 5))}
        result = price_sets(counted, table)
        sets.append({"sets": {c.value: n for c, n in counted.items()}, "table": table.value,
                     "meld": result.to_json()})
    priced = random.Random(PRICES_SEED)
    for _ in range(300):
        deck, table, own = priced.choice(list(Deck)), priced.choice(list(MeldTableName)), random_prices(priced)
        trump = priced.choice([None, *Suit])
        codes = random_hand(priced, deck)
        results = best_melds(Hand.from_text(codes, deck), trump, table, own)
        hands.append({
            "deck": deck.value, "table": table.value, "prices": own.to_json(), "trump": trump.value if trump else None,
            "hand": " ".join(codes), "melds": [result.to_json() for result in results],
        })
    for _ in range(100):
        table, own = priced.choice(list(MeldTableName)), random_prices(priced)
        counted = {c: priced.randint(0, 5) for c in priced.sample(list(Combination), priced.randint(1, 5))}
        sets.append({"sets": {c.value: n for c, n in counted.items()}, "table": table.value, "prices": own.to_json(),
                     "meld": price_sets(counted, table, prices=own).to_json()})
    presets = [[key, table.value, preset_prices(key, table).to_json()]
               for key, _ in PRICE_PRESETS for table in MeldTableName]
    return {"prices": prices, "hands": hands, "sets": sets, "presets": presets}


def random_prices(rng: random.Random) -> MeldPrices:
    """A table's own meld prices: one to three combinations, each with 1 to 4 groups, some not priced; now and
    then no double pinochle, or the NPA's run and pinochle."""
    way = rng.random()
    if way < 0.15:
        return MeldPrices.from_json({"pinochle": [rng.choice([4, 40]), None]})
    if way < 0.3:
        return MeldPrices.from_json({"run": [25, 150, 225, 300], "pinochle": [15, 30, 60, 90]})
    own: dict[str, list[int | None]] = {}
    for combination in rng.sample(list(Combination), rng.randint(1, 3)):
        base = MELD_TABLES[rng.choice(list(MeldTableName))][combination]
        groups = 1 if combination.priced_one_at_a_time else rng.randint(1, 4)  # marriages: the price of one
        own[combination.value] = [
            None if rng.random() < 0.25 else rng.choice([base.get(size, 0) or rng.randint(0, 400), rng.randint(0, 400)])
            for size in range(1, groups + 1)
        ]
    return MeldPrices.from_json(own)


# Matches --------------------------------------------------------------------------------------

SIDE_NAMES = ["We", "They", "North", "East", "South", "West", "Ann & Bob", "Zoë", "Les Bleus", "Cy"]
PLAYER_NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def random_rules(rng: random.Random, own_prices: bool = False) -> HouseRules:
    """Every rule at a random allowed value (one time in four a preset's natural pairing); the table's own meld
    prices half the time when ``own_prices``."""
    values: dict[str, Any] = {}
    for spec in RULE_SPECS:
        if spec.key == "meld_prices":
            values[spec.key] = random_prices(rng) if own_prices and rng.random() < 0.5 else NO_PRICES
        elif spec.key in LATER_RULES:
            values[spec.key] = later_rule(rng, spec)
        elif spec.kind == "number":
            steps = (spec.maximum - spec.minimum) // spec.step
            if spec.key == "target":
                anywhere = spec.minimum + spec.step * rng.randint(0, steps)
                values[spec.key] = rng.choice([100, 150, 250, 500, 1000, 1500, 2000, anywhere])
            elif spec.key == "min_bid":
                values[spec.key] = rng.choice([10, 20, 50, 100, 250, rng.randint(spec.minimum, spec.maximum)])
            else:
                values[spec.key] = spec.minimum + spec.step * rng.randint(0, steps)
        elif spec.kind == "switch":
            values[spec.key] = rng.random() < 0.5
        else:
            values[spec.key] = rng.choice(spec.choices)[0]
    rules = HouseRules(**values)
    if rng.random() < 0.25:
        natural = MeldTableName.natural_for(rules.deck)
        rules = HouseRules(**{**values, "meld_table": natural})
    return rules


LATER_RULES = {spec.key for spec in RULE_SPECS[8:]}
LIKELY = {"min_meld": [10, 20, 100], "save_points": [10, 20, 100], "deal_limit": [2, 4, 10], "throw_in_bonus": [10, 20]}


def later_rule(rng: random.Random, spec: Any) -> Any:
    """A rule beyond the eight: its default most of the time, else a likely or any allowed value."""
    if rng.random() < 0.6:
        return spec.default
    if spec.kind != "number":
        return rng.choice(spec.choices)[0]
    return rng.choice([*LIKELY[spec.key], rng.randint(spec.minimum, spec.maximum)])


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total])]


def deal_hands(rng: random.Random, deck: Deck, count: int) -> list[list[str]]:
    cards = deck_cards(deck)
    rng.shuffle(cards)
    size = len(cards) // max(count, 4)
    return [cards[i * size:(i + 1) * size] for i in range(count)]


def random_tricks(rng: random.Random, rules: HouseRules, sides: int) -> list[Json]:
    """Trick facts of every side that add up to the deck, in a random form each."""
    deck, scale = rules.deck, rules.trick_scale
    by_rank = {rank: split(rng, deck.copies * 4 if rank in deck.ranks else 0, sides) for rank in Rank}
    if rng.random() < 0.2:  # the first side takes tricks worth no points: only queens, jacks and nines
        for rank in (Rank.ACE, Rank.TEN, Rank.KING):
            by_rank[rank][1] += by_rank[rank][0]
            by_rank[rank][0] = 0
    forms = []
    for i in range(sides):
        taken = {rank: by_rank[rank][i] for rank in Rank}
        form = rng.choice(["points", "counters", "cards", "none"] if sum(taken.values()) == 0 else
                          ["points", "counters", "cards"])
        if form == "counters" and scale is TrickScale.CLASSIC:
            form = "cards"  # the classic scale prices each counter rank differently
        if form == "points":
            forms.append(sum(CARD_POINTS[scale][rank] * n for rank, n in taken.items()))
        elif form == "counters":
            forms.append({"counters": taken[Rank.ACE] + taken[Rank.TEN] + taken[Rank.KING]})
        elif form == "cards":
            keys = {Rank.TEN: rng.choice(["T", "10"])}
            cards = {keys.get(rank, rank.value): n for rank, n in taken.items() if n or rng.random() < .1}
            forms.append({"cards": cards})
        else:
            forms.append(None)
    return forms


def random_meld(rng: random.Random, rules: HouseRules, hand: list[str], trump: str | None) -> Json:
    form = rng.choice(["number", "sets", "cards", "cards"])
    if form == "number":
        return rng.choice([0, rng.randint(0, 40), rng.randint(0, 400)])
    if form == "sets":
        deck = rules.deck
        chosen = rng.sample([c for c in Combination if c.possible_in(deck)], rng.randint(0, 3))
        return {c.value: rng.choice([0, 1, 1, 1, 2]) for c in chosen}
    meld: dict[str, Any] = {"cards": hand if rng.random() < 0.7 else " ".join(c.lower() for c in hand)}
    if trump is None or rng.random() < 0.2:
        meld["trump"] = rng.choice("SHDC")
    return meld


def random_deal(rng: random.Random, rules: HouseRules, sides: int, auction: bool) -> Json:
    if auction and rng.random() < 0.05:
        return {"passed": True}
    deal: dict[str, Any] = {"bidder": rng.randrange(sides) if auction else None}
    trump = rng.choice([None, "S", "H", "D", "C", "S", "H"])
    if auction:
        deal["bid"] = rules.min_bid + rng.choice([0, 0, 5, 10, 20, 50, rng.randint(0, 300)])
    if trump is not None:
        deal["trump"] = trump
    thrown_in = auction and rng.random() < 0.08
    if thrown_in:
        deal["thrown_in"] = True
    if auction and rng.random() < 0.15:
        deal["out"] = True
    if auction and rng.random() < 0.05:
        deal["forced"] = True
    hands = deal_hands(rng, rules.deck, sides * 2)
    entries = []
    tricks = random_tricks(rng, rules, sides)
    last = rng.randrange(sides)
    quick = rng.random() < 0.25
    for i in range(sides):
        if quick or rng.random() < 0.1:
            entry: dict[str, Any] = {"total": rng.choice([0, rng.randint(0, 60), rng.randint(0, 600)])}
            if rng.random() < 0.2:
                entry["took_trick"] = rng.random() < 0.5
        else:
            entry = {}
            melds = [random_meld(rng, rules, hands[2 * i + j], trump) for j in range(rng.choice([1, 1, 1, 2]))]
            if rng.random() < 0.9:
                entry["meld"] = melds[0] if len(melds) == 1 and rng.random() < 0.8 else melds
            if not thrown_in:
                if tricks[i] is not None:
                    entry["tricks"] = tricks[i]
                if i == last:
                    entry["last_trick"] = True
                if rng.random() < 0.1:
                    entry["took_trick"] = rng.random() < 0.7
        entries.append(entry)
    deal["sides"] = entries
    return deal


def contradict(rng: random.Random, deal: Json, rules: HouseRules, sides: int) -> None:
    """Spoil a deal so that the house rules say it cannot have happened."""
    if deal.get("passed"):
        return
    entry = rng.choice(deal["sides"])
    way = rng.randrange(9)
    if way == 0 and deal.get("bid") is not None:
        deal["bid"] = max(1, rules.min_bid - rng.randint(1, 10))
    elif way == 1:
        entry.clear()
        entry.update({"tricks": {"counters": rng.randint(25, 60)}, "last_trick": True})
    elif way == 2:
        for side in deal["sides"]:
            if "total" not in side:
                side["last_trick"] = True
    elif way == 3:
        entry.clear()
        entry.update({"meld": {"run": rng.randint(2, 5), "royal_marriage": rng.randint(0, 4),
                               "aces_around": rng.randint(0, 5)}})
    elif way == 4:
        entry.clear()
        entry.update({"meld": {"cards": ["9S", "9S", "AS", "AS", "AS", "AS", "AS"]}})
    elif way == 5:
        entry.clear()
        entry.update({"tricks": rng.randint(1, 30), "took_trick": False})
    elif way == 6:
        deal["thrown_in"] = deal.get("bidder") is not None or rng.random() < 0.5
        entry.clear()
        entry.update({"tricks": {"cards": {"A": rng.randint(1, 20), "Q": rng.randint(0, 20)}}})
    elif way == 7:
        entry.clear()
        entry.update({"meld": [{"pinochle": 3}, {"pinochle": 2}, {"cards": ["QS", "JD", "QS", "JD"], "trump": "S"}]})
    else:
        for side in deal["sides"]:
            if "tricks" in side:
                side["tricks"] = 7
                break


def sheet_json(sheet: Sheet) -> Json:
    """The sheet as the API answers it, with each line's meld lost (the sheet's rows print the reason)."""
    data = sheet.to_json()
    for line, shown in zip(sheet.deals, data["deals"]):
        shown["lost_meld"] = [[lost.side, lost.meld, lost.reason.value] for lost in line.lost_meld]
    return data


def problems_json(error: ContradictionError) -> Json:
    return [[p.code.value, p.path, p.message] for p in error.rooted()]


def outcome(work: Callable[[], Json]) -> Json:
    """What the core answers: a result, the contradictions, or the first problem it refuses."""
    try:
        return {"result": work()}
    except ContradictionError as error:
        return {"contradictions": problems_json(error)}
    except RulesError as error:
        return {"error": [error.problem.code.value, error.problem.path, error.problem.message]}


def random_match(rng: random.Random, spoil: float, most: int = 30, own_prices: bool = False) -> tuple[Match, Json]:
    """A match file of up to ``most`` deals, with a house-rule change mid-match now and then (more often, and
    with the table's own meld prices, when ``own_prices``)."""
    sides = rng.choice([2, 2, 3, 4])
    names = rng.sample(SIDE_NAMES, sides)
    auction = rng.random() < 0.85
    data: dict[str, Any] = {
        "format": "pinochle-match/1", "name": rng.choice(["", "Friday", "At the lake house"]),
        "sides": seat_players(rng, names),
        "rules": random_rules(rng, own_prices).to_mapping(), "auction": auction,
    }
    match = match_from_json(data)
    for _ in range(rng.choice([1, 2, 4, 8, 12, rng.randint(1, most)])):
        if rng.random() < (0.2 if own_prices else 0.06):
            changed = random_rules(rng, own_prices)
            if rng.random() < 0.8:  # a change of deck mostly makes the earlier deals contradict it
                changed = dataclasses.replace(changed, deck=match.rules.deck)
            match = match.with_rules(changed)  # earlier deals keep the prices they were entered under
        deal = random_deal(rng, match.rules, sides, auction)
        name_players(rng, deal, data["sides"])
        if rng.random() < spoil:
            contradict(rng, deal, match.rules, sides)
            if rng.random() < 0.2:
                misname_players(rng, deal, data["sides"])
        try:
            match = match.with_deals((*match.deals, deal_from_json(deal, sides, rules=match.rules)))
        except RulesError:
            continue
    return match, vary(rng, match_to_json(match))


def seat_players(rng: random.Random, names: list[str]) -> list[Json]:
    """Sides with up to two players each, no player on two sides."""
    pool = rng.sample(PLAYER_NAMES, len(PLAYER_NAMES))
    sides = []
    for name in names:
        count = rng.randint(0, 2)
        sides.append({"name": name, "players": pool[:count]})
        pool = pool[count:]
    return sides


def name_players(rng: random.Random, deal: Json, sides: list[Json]) -> None:
    """Now and then, who dealt and who won the auction, as the players' names."""
    if deal.get("passed"):
        return
    everyone = [player for side in sides for player in side["players"]]
    if everyone and rng.random() < 0.4:
        deal["dealt_by"] = rng.choice(everyone)
    bidding = sides[deal["bidder"]]["players"] if deal.get("bidder") is not None else []
    if bidding and rng.random() < 0.4:
        deal["bid_by"] = rng.choice(bidding)


def misname_players(rng: random.Random, deal: Json, sides: list[Json]) -> None:
    """A bidder who is not on the bidding side, or a dealer who is not at the table."""
    if deal.get("passed"):
        return
    others = [p for i, side in enumerate(sides) if i != deal.get("bidder") for p in side["players"]]
    if rng.random() < 0.5:
        deal["bid_by"] = rng.choice([*others, "Zed"])
    else:
        deal["dealt_by"] = "Zed"


def vary(rng: random.Random, data: Json) -> Json:
    """Other spellings the reader accepts: rule values as text, cards as one string, no auction key."""
    if rng.random() < 0.3:
        rules = data["rules"]
        key = rng.choice(list(rules))
        value = rules[key]
        if isinstance(value, bool):
            rules[key] = rng.choice(["on", "off", "yes", "no", "true", "false", "1", "0"]) if value else rng.choice(
                ["off", "no", "false", "0", " OFF "])
        elif isinstance(value, dict):
            pass  # the table's own meld prices have one spelling
        elif isinstance(value, int):
            rules[key] = f" {value} "
        elif key == "must_take_trick" and value in ("trick", "off"):
            rules[key] = value == "trick" if rng.random() < 0.5 else ("on" if value == "trick" else "off")
        else:
            rules[key] = value.upper()
    if rng.random() < 0.2:
        data.pop("auction", None)
    return data


def match_vectors(rng: random.Random) -> Json:
    cases = []
    for _ in range(650):
        _, file = random_match(rng, spoil=rng.choice([0.0, 0.0, 0.0, 0.03, 0.2]))
        cases.append({"file": file, **outcome(lambda f=file: sheet_json(score_match(match_from_json(f))))})
    priced = random.Random(PRICES_SEED + 1)
    for _ in range(200):
        _, file = random_match(priced, spoil=priced.choice([0.0, 0.0, 0.2]), own_prices=True)
        cases.append({"file": file, **outcome(lambda f=file: sheet_json(score_match(match_from_json(f))))})
    return cases


def rule_change_vectors(rng: random.Random) -> Json:
    cases = []
    while len(cases) < 400:
        match, file = random_match(rng, spoil=0.0, most=20)
        try:
            score_match(match)
        except ContradictionError:
            continue
        rules = _nudged(rng, match.rules)
        change = rules.to_mapping()

        cases.append({"file": file, "rules": change, **outcome(
            lambda f=file, c=change: _preview_json(preview_rules(match_from_json(f), HouseRules.from_mapping(c))))})
    priced = random.Random(PRICES_SEED + 2)
    while len(cases) < 550:
        match, file = random_match(priced, spoil=0.0, most=20, own_prices=True)
        try:
            score_match(match)
        except ContradictionError:
            continue
        own = NO_PRICES if match.rules.meld_prices and priced.random() < 0.3 else random_prices(priced)
        change = HouseRules.from_mapping({"meld_prices": own}, base=match.rules).to_mapping()
        cases.append({"file": file, "rules": change, **outcome(
            lambda f=file, c=change: _preview_json(preview_rules(match_from_json(f), HouseRules.from_mapping(c))))})
    return cases


def _preview_json(preview: Any) -> Json:
    return {"before": sheet_json(preview.before), "after": sheet_json(preview.after),
            "changed": list(preview.changed), "flipped": list(preview.flipped)}


def rule_values(rules: HouseRules) -> dict[str, Any]:
    """Every house rule by name, in the order of the fields."""
    return {field.name: getattr(rules, field.name) for field in dataclasses.fields(rules)}


def _nudged(rng: random.Random, rules: HouseRules) -> HouseRules:
    """Another set of house rules: all new, or one to three rules changed."""
    if rng.random() < 0.4:
        return random_rules(rng)
    values = rule_values(rules)
    fresh = rule_values(random_rules(rng))
    for key in rng.sample([key for key in values if key != "meld_prices"], rng.randint(1, 3)):
        values[key] = fresh[key]
    return HouseRules(**values)


# Damaged match files --------------------------------------------------------------------------

BAD_VALUES: list[Json] = [None, True, False, -1, 0, 1, 3, 7, 100_001, 2.5, "", "x", "10", "AH", "QS JD", "S",
                          [], [1], ["AH", 3], {}, {"counters": 3}, {"cards": {"Z": 1}}, {"run": -1},
                          {"bogus": 1}, "Ann\tBob", "x" * 90, "\u0007", "ﬁve", "on", "double", "classic"]


def paths_of(data: Json, path: list[Any]) -> list[list[Any]]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths_of(value, [*path, key])
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += paths_of(value, [*path, i])
    return found


def damage(rng: random.Random, data: Json) -> Json:
    """One change to a valid match file: a value replaced, a key removed or added, a list cut."""
    data = copy.deepcopy(data)
    target = rng.choice(paths_of(data, [])[1:])
    parent = data
    for step in target[:-1]:
        parent = parent[step]
    last = target[-1]
    way = rng.randrange(5)
    if way == 0 and isinstance(parent, dict):
        del parent[last]
    elif way == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "took_trick", "trump", "bid", "meld", "total", "passed", "entered_under",
                                 "bid_by", "dealt_by", "out", "forced"])] = \
            rng.choice(BAD_VALUES)
    elif way == 2 and isinstance(parent, list) and len(parent) > 1:
        parent.pop(last)
    else:
        parent[last] = copy.deepcopy(rng.choice(BAD_VALUES))
    return data


def seat_twice(rng: random.Random, data: Json) -> Json:
    """One player seated twice: on another side, or again on the same side, in other capitals."""
    data = copy.deepcopy(data)
    seated = [(i, name) for i, side in enumerate(data["sides"]) for name in side["players"]]
    if seated:
        i, name = rng.choice(seated)
        side = rng.choice(data["sides"])
        side["players"] = [*side["players"], rng.choice([name, name.upper(), name.lower()])][-2:]
    return data


def match_file_vectors(rng: random.Random) -> Json:
    cases = []
    for _ in range(700):
        _, file = random_match(rng, spoil=0.0, most=4)
        damaged = seat_twice(rng, file) if rng.random() < 0.05 else damage(rng, file)
        if rng.random() < 0.3:
            damaged = damage(rng, damaged)
        cases.append({"file": damaged, **outcome(lambda f=damaged: sheet_json(score_match(match_from_json(f))))})
    priced = random.Random(PRICES_SEED + 3)
    while len(cases) < 850:
        _, file = random_match(priced, spoil=0.0, most=4, own_prices=True)
        if "meld_prices" not in file["rules"]:
            continue
        damaged = damage_prices(priced, file) if priced.random() < 0.7 else damage(priced, file)
        cases.append({"file": damaged, **outcome(lambda f=damaged: sheet_json(score_match(match_from_json(f))))})
    stored = random.Random(PRICES_SEED + 4)
    while len(cases) < 950:
        _, file = random_match(stored, spoil=0.0, most=6, own_prices=True)
        grouped = marriages_in_groups(stored, file)
        cases.append({"file": grouped, "stored": True, **outcome(
            lambda f=grouped: sheet_json(score_match(match_from_json(f, stored=True))))})
    for edge in [*invisible_names(), five_hands(), *first_dealers()]:
        cases.append({"file": edge, **outcome(lambda f=edge: sheet_json(score_match(match_from_json(f))))})
    return cases


def marriages_in_groups(rng: random.Random, data: Json) -> Json:
    """A match as an older version stored it: marriages or royal marriages with a group price, in its rules or in
    the pricing a deal was entered under (read back, only the price of one counts)."""
    data = copy.deepcopy(data)
    deals = [deal for deal in data["deals"] if "entered_under" in deal]
    for own in [data["rules"].setdefault("meld_prices", {}),
                *(deal["entered_under"].setdefault("meld_prices", {}) for deal in deals if rng.random() < 0.5)]:
        for combination in rng.sample(["marriage", "royal_marriage"], rng.randint(1, 2)):
            own[combination] = [rng.choice([None, 2, 20, 30]), *(rng.choice([None, 10, 100, 300])
                                                                 for _ in range(rng.randint(1, 3)))]
    return data


# Names holding characters that cannot be seen: refused, but for the joiners emoji are written with.
INVISIBLE = ["\u200b", "We\u202e", "\ufeffThey", "Ann\u00adBob", "Cy\u2066", "\U0001f468\u200d\U0001f469"]


def invisible_names() -> list[Json]:
    """A side, and a player, named with each of ``INVISIBLE``."""
    files = []
    for text in INVISIBLE:
        for sides in ([{"name": text, "players": []}, {"name": "They", "players": []}],
                      [{"name": "We", "players": ["Ann", text]}, {"name": "They", "players": []}]):
            files.append({"format": "pinochle-match/1", "name": "Names", "sides": sides, "rules": {}, "deals": []})
    return files


def five_hands() -> Json:
    """A side showing the meld of more hands than a side has players."""
    deal = {"bidder": 0, "bid": 50, "sides": [{"meld": [4, 0, 0, 0, 0], "tricks": 25, "last_trick": True},
                                              {"meld": 0, "tricks": 23}]}
    return {"format": "pinochle-match/1", "name": "Hands", "sides": [{"name": "We", "players": []},
                                                                     {"name": "They", "players": []}],
            "rules": {}, "deals": [deal]}


def first_dealers() -> list[Json]:
    """A match whose first deal is dealt by a named player, one of the players or not, or by nobody named."""
    sides = [{"name": "We", "players": ["Ann", "Bob"]}, {"name": "They", "players": ["Cy", "Di"]}]
    return [{"format": "pinochle-match/1", "name": "Dealer", "sides": sides, "first_dealer": dealer, "rules": {},
             "deals": []} for dealer in ("Di", "Eve", "", None, 3)]


BAD_PRICES: list[Json] = [None, True, -1, 0, 10_001, 2.5, "", "40", [], [1, 2, 3, 4, 5], [None], {"run": 1}, {}]


def damage_prices(rng: random.Random, data: Json) -> Json:
    """One change to the table's own meld prices: a price, a group list, a combination or the whole value."""
    data = copy.deepcopy(data)
    own = data["rules"]["meld_prices"]
    way = rng.randrange(5)
    combination = rng.choice(list(own))
    if way == 4:  # marriages are priced one at a time: a group price is refused
        own[rng.choice(["marriage", "royal_marriage"])] = [rng.choice([2, 20, None]), rng.choice([10, 100, 0])]
    elif way == 0:
        own[combination][rng.randrange(len(own[combination]))] = rng.choice(BAD_PRICES)
    elif way == 1:
        own[combination] = rng.choice(BAD_PRICES)
    elif way == 2:
        own[rng.choice(["ace_around", "Run", "double_pinochle", "", "pinochle "])] = [10]
    else:
        data["rules"]["meld_prices"] = rng.choice(BAD_PRICES)
    return data


# Readings: numbers and spaces ------------------------------------------------------------------

# Characters one language or another takes for a space: Python strips U+001C–U+001F and U+0085 but not U+FEFF
# (JavaScript's trim() the other way round); U+200B and U+180E are spaces to neither.
ODD_SPACES = ["", " ", "\t", "\n", "\u001c", "\u001f", "\u0085", "\u00a0", "\u180e", "\u200b", "\u2028", "\u3000",
              "\ufeff"]
TYPED_NUMBERS = ["500", "0500", "000000000012", "1234567890", "500.0", "5e2", "60.0", "+5", "-5", "5 0", "1_000",
                 "٥", "５", "²", "0x10", "", "fifty"]
CARD_LISTS = [["AS", "KS", "QS"], ["10h", "qs", "jd"], ["T♦", "A♦"], ["9S", "9S", "9S"], ["AX", "KS"], ["AS"]]
RULE_TEXTS = {"target": ["500", "1500", "500.0", "5e2"], "deck": ["single", "DOUBLE"], "must_win_own_bid": ["on", "no"],
              "must_take_trick": ["trick", "off", "yes"], "trick_scale": ["classic"]}
JSON_NUMBERS = ["60", "60.0", "6e1", "6E+1", "60.5", "-0", "-0.0", "1e400", "-1e400", "NaN", "Infinity", "-Infinity",
                "12345678901234567890", "1" * 101, "0.00001", "1e16", "123456789.125", "true", "null", '"60"', "[60]"]
NUMBER_PLACES = ["rules.target", "rules.min_bid", "rules.last_trick", "rules.must_take_trick", "rules.must_win_own_bid",
                 "deals[0].bid", "deals[0].bidder", "deals[0].sides[0].total", "deals[1].sides[0].meld",
                 "deals[1].sides[1].tricks", "deals[1].sides[1].meld.run", "rules.meld_prices.run[1]"]
BROKEN_JSON = ['{"a": 1,}', "[1,]", '{"a" 1}', "[1 2]", '"abc', '{"a": "x\ny"}', '{"a": "\\q"}', '{"a": "\\u12"}',
               "", "   ", "01", "1.", "-", "nul", '{"a": 1}x', "\ufeff{}", '{"a": "\\ud800"}', '{"é": 1, "a": }']


def base_match() -> Json:
    """A small valid match file: a quick deal and one with meld and tricks apart."""
    return {"format": "pinochle-match/1", "name": "Cabin", "sides": [{"name": "We", "players": ["Ann"]},
                                                                    {"name": "They", "players": []}],
            "rules": {"target": 500, "min_bid": 50, "last_trick": 2, "must_take_trick": "trick",
                      "must_win_own_bid": True, "meld_prices": {"run": [15, 150]}},
            "deals": [{"bidder": 0, "bid": 60, "sides": [{"total": 67}, {"total": 20}]},
                      {"bidder": 1, "bid": 50, "trump": "H", "sides": [
                          {"meld": 4, "tricks": 20, "last_trick": True},
                          {"meld": {"run": 1, "pinochle": 1}, "tricks": 28}]}]}


def with_raw(data: Json, place: str, raw: str) -> str:
    """``data`` as JSON text with the value at ``place`` (``deals[0].bid``) written as ``raw``."""
    data = copy.deepcopy(data)
    steps = [int(step) if step.isdigit() else step for step in place.replace("[", ".").replace("]", "").split(".")]
    parent = data
    for step in steps[:-1]:
        parent = parent[step]
        if isinstance(parent, int):  # a meld given as a number becomes sets where a place inside it is asked for
            parent = {}
    parent[steps[-1]] = "@@"
    return json.dumps(data, ensure_ascii=False).replace('"@@"', raw)


def match_text_case(text: str) -> Json:
    """A match file's text read and scored; marked ``"reader": "python"`` where the answer turns on what only
    Python's JSON reader tells apart (the twin reads with JSON.parse, so its runner leaves those out)."""
    marked = {} if read_alike(text) else {"reader": "python"}
    return {"read": "match_text", "text": text, **marked,
            **outcome(lambda: sheet_json(score_match(loads_match(text))))}


def read_alike(text: str) -> bool:
    """Whether every JSON reader decodes ``text`` to what Python's does: standard JSON (no BOM, NaN or
    Infinity, which Python's messages and positions would describe), no key given twice, no number with a
    fraction or an exponent (500.0 is no whole number to Python) and no whole number a double cannot hold."""
    alike = not text.startswith("\ufeff")

    def odd(*_: object) -> None:
        nonlocal alike
        alike = False

    def pairs(items: list[tuple[str, Json]]) -> Json:
        if len({key for key, _ in items}) < len(items):
            odd()
        return dict(items)

    def whole(digits: str) -> int:
        if abs(int(digits)) > 2 ** 53:
            odd()
        return int(digits)

    try:
        json.loads(text, parse_float=odd, parse_constant=odd, parse_int=whole, object_pairs_hook=pairs)
    except ValueError:
        return False
    return alike


# Objects given a key twice, at the top and deep inside: refused, naming the first key repeated.
REPEATED_KEYS = [("deals[0]", '{"bidder": 0, "bid": 60, "bid": 70, "sides": [{"total": 67}, {"total": 20}]}'),
                 ("rules", '{"target": 500, "min_bid": 50, "target": 1000}'),
                 ("deals[1].sides[1].meld", '{"run": 1, "pinochle": 1, "run": 1}'),
                 ("sides[0]", '{"name": "We", "players": [], "players": ["Ann"], "name": "Us"}'),
                 ("rules", '{"a\\"b": 1, "a\\"b": 2}')]


def reading_vectors(rng: random.Random) -> Json:
    cases: list[Json] = []
    for number in TYPED_NUMBERS:
        around = [("", ""), *((rng.choice(ODD_SPACES), rng.choice(ODD_SPACES)) for _ in range(4))]
        for before, after in dict.fromkeys(around):
            text = before + number + after
            cases.append({"read": "whole_number", "text": text, **outcome(lambda t=text: parse_whole_number(t))})
    for cards in CARD_LISTS:
        for space in ODD_SPACES:
            deck = rng.choice(list(Deck))
            text = rng.choice(ODD_SPACES) + (space + rng.choice(["", ","])).join(cards) + rng.choice(ODD_SPACES)
            cases.append({"read": "hand", "text": text, "deck": deck.value,
                          **outcome(lambda t=text, d=deck: Hand.from_text(t, d).codes())})
    for key, values in RULE_TEXTS.items():
        for value in values:
            for space in rng.sample(ODD_SPACES, 4):
                data = {key: space + value + rng.choice(ODD_SPACES)}
                cases.append({"read": "rules", "data": data,
                              **outcome(lambda d=data: HouseRules.from_mapping(d).to_mapping(complete=True))})
    for place in NUMBER_PLACES:
        for raw in JSON_NUMBERS:
            cases.append(match_text_case(with_raw(base_match(), place, raw)))
    for space in ODD_SPACES:
        for place, raw in [("deals[1].sides[0].meld", '{"cards": "AH@10H@KH@QH@JH", "trump": "H"}'),
                           ("sides[1].name", '"@They@"'), ("sides[0].players[0]", '"@"'), ("rules.deck", '"@single"')]:
            cases.append(match_text_case(with_raw(base_match(), place, raw.replace("@", json.dumps(space)[1:-1]))))
    cases += [match_text_case(text) for text in BROKEN_JSON]
    cases += [match_text_case(with_raw(base_match(), place, raw)) for place, raw in REPEATED_KEYS]
    for own in [{"marriage": [30]}, {"marriage": [30, None, None, None]}, {"royal_marriage": [40, 100]},
                {"marriage": [None, 50]}, {"marriage": [20, 0, None]}, {"royal_marriage": [None]}]:
        for stored in (False, True):
            data = {"meld_prices": own}
            cases.append({"read": "rules", "data": data, "stored": stored, **outcome(
                lambda d=data, s=stored: HouseRules.from_mapping(d, stored=s).to_mapping(complete=True))})
    return cases


# Dealers: the seats and who deals next -----------------------------------------------------------

def dealer_case(data: Json) -> Json:
    """A match file with its seats, the hands each side plays and the next deal's dealer."""
    match = match_from_json(data)
    return {"file": data, "seats": seat_order(match.sides), "hands": list(side_hands(match)),
            "dealer": next_dealer(match)}


def dealer_vectors(rng: random.Random) -> Json:
    """Matches of two to four sides, with an auction or none, their sides naming no, one or two players (some
    naming a first dealer, their deals now and then naming who dealt, some passed), each with its seats, the
    hands each side plays and the next deal's dealer."""
    cases: list[Json] = [dealer_case(data) for data in (first_dealers()[0], first_dealers()[3])]  # "Di", none
    while len(cases) < 300:
        match, data = random_match(rng, spoil=0.0, most=rng.choice([3, 8, 20]))
        players = [player for side in match.sides for player in side.players]
        if players and rng.random() < 0.4:
            data["first_dealer"] = rng.choice(players)
        cases.append(dealer_case(data))
    return cases


# Messages -------------------------------------------------------------------------------------

FIELD_TEXTS = ["Ann", "Zoë & Ünal", "{side}", "$&", "$1 a}b{", "", "7"]  # text the filling must not read again


def field_value(rng: random.Random, spec: str) -> Json:
    """A value for a template's field: a whole number (past a thousand now and then), or text for a plain one."""
    number = rng.choice([rng.randint(0, 99), rng.randint(1000, 2_000_000)])
    return number if spec == "," or rng.random() < 0.5 else rng.choice(FIELD_TEXTS)


def drawn_deal(rng: random.Random) -> Json:
    """A new deal's facts in the match file form, any of them possibly at odds with the contract or the players."""
    deal: Json = {"bidder": rng.choice([None, 0, 1]), "bid": rng.choice([None, 20, 50, 60]),
                  "sides": [{"total": rng.randint(0, 60)}, {"total": rng.randint(0, 60)}]}
    if deal["bidder"] is None and rng.random() < 0.8:
        deal["bid"] = None
    for flag in ("out", "forced", "thrown_in"):
        if rng.random() < 0.25:
            deal[flag] = True
    for key, names in (("bid_by", ["Ann", "Bob", "Cy"]), ("dealt_by", ["Ann", "Bob", "Di"])):
        if rng.random() < 0.5:
            deal[key] = rng.choice(names)
    return {key: value for key, value in deal.items() if value is not None or key == "bidder"}


def message_vectors(rng: random.Random) -> Json:
    cases: list[Json] = []
    for key, template in MESSAGES.items():
        fields = [(name, spec) for _, name, spec, _ in string.Formatter().parse(template) if name]
        for _ in range(2 if fields else 1):
            values = {name: field_value(rng, spec or "") for name, spec in fields}
            said = say(key, **values)
            cases.append({"say": key, "fields": values, "result": said})
            cases.append({"sentence": said, "result": sentence(said)})
    for _ in range(120):
        data = base_match() | {"auction": rng.random() < 0.5,
                               "rules": {"min_bid": 50, "going_out": "announce", "all_pass": "forced"}}
        data["sides"][1]["players"] = ["Bob"]
        deal = drawn_deal(rng)
        cases.append({"match": data, "deal": deal, **outcome(lambda m=data, d=deal: new_deal_problems(m, d))})
    return cases


def new_deal_problems(data: Json, deal_data: Json) -> Json:
    match = match_from_json(data)
    deal = deal_from_json(deal_data, len(match.sides), "", match.rules)
    return [[problem.code.value, problem.path, problem.message] for problem in check_new_deal(match, deal)]


# Previews: a deal as it is entered ----------------------------------------------------------------

def preview_case(data: Json, number: int) -> Json:
    """Deal ``number`` of the match file ``data`` previewed: the core's numbers (or the contradictions), the sides
    as the preview names them, and the server's lines and whether they score the deal."""
    match = match_from_json(data)
    sides = preview_sides(match)
    shown = preview(match, number, sides, ())
    return {"file": data, "number": number, "sides": [[side.name, side.plural] for side in sides],
            **outcome(lambda: deal_numbers(match, number).to_json()), "ready": shown.ready, "lines": list(shown.lines)}


def preview_vectors(rng: random.Random) -> Json:
    """Deals of matches of two to four sides under random house rules (with and without an auction), drawn so
    that every kind is there many times: made, set, thrown in, passed, no auction, meld lost for each reason,
    played after the match was decided, two to four sides, and facts that contradict the rules."""
    cases: list[Json] = []
    seen: dict[tuple[Any, ...], int] = {}
    for _ in range(100_000):  # a bound, should the kinds ever be too few to give 700 cases
        if len(cases) == 700:
            return cases
        match, data = random_match(rng, spoil=rng.choice([0.0, 0.0, 0.1]), most=rng.choice([4, 12, 20]),
                                   own_prices=rng.random() < 0.2)
        for number in rng.sample(range(1, len(match.deals) + 1), len(match.deals)):
            kind = preview_kind(match, number)
            if seen.get(kind, 0) < (3 if kind[0] == "contradiction" else 12):
                seen[kind] = seen.get(kind, 0) + 1
                cases.append(preview_case(data, number))
                break
    raise SystemExit(f"only {len(cases)} preview cases of 700 could be drawn: too few kinds")


def preview_kind(match: Match, number: int) -> tuple[Any, ...]:
    """What a preview case shows, to draw each kind often: its outcome, the reasons meld was lost, whether it
    counts, and the number of sides (or the contradiction's code)."""
    try:
        numbers = deal_numbers(match, number)
    except ContradictionError as error:
        return ("contradiction", error.problems[0][1].code.value)
    lost = tuple(sorted({side.lost.value for side in numbers.sides if side.lost is not None}))
    return (numbers.status, lost, numbers.after_end, len(match.sides))


# Writing --------------------------------------------------------------------------------------

KINDS: dict[str, Callable[[random.Random], Json]] = {
    "meld.json": meld_vectors,
    "matches.json": match_vectors,
    "rule_changes.json": rule_change_vectors,
    "match_files.json": match_file_vectors,
    "readings.json": reading_vectors,
    "dealers.json": dealer_vectors,
    "messages.json": message_vectors,
    "previews.json": preview_vectors,
}


def make() -> dict[str, str]:
    """Every vector file's text, by file name."""
    texts = {}
    for index, (name, build) in enumerate(KINDS.items()):
        cases = build(random.Random(SEED + index))
        texts[name] = json.dumps(cases, ensure_ascii=False, separators=(",", ":")) + "\n"
    return texts


def stale(texts: dict[str, str]) -> list[str]:
    """The names of checked-in files that differ from ``texts``."""
    return [name for name, text in texts.items()
            if not (FOLDER / name).exists() or (FOLDER / name).read_text(encoding="utf-8") != text]


def main(argv: list[str]) -> int:
    texts = make()
    if "--check" in argv:
        names = stale(texts)
        for name in names:
            print(f"tests/vectors/{name} is stale: run .venv/bin/python tests/vectors/make.py and commit it",
                  file=sys.stderr)
        if not names:
            print(f"tests/vectors: the {len(texts)} files are what the core makes today")
        return 1 if names else 0
    for name, text in texts.items():
        (FOLDER / name).write_text(text, encoding="utf-8")
        print(f"tests/vectors/{name}: {len(json.loads(text)) if name != 'meld.json' else 'prices, hands, sets'}"
              f" ({len(text.encode()) // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
