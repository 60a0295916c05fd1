"""The shared vectors: answers of the Python rules core that its browser twin (static/js/rules/) must give too.

    .venv/bin/python tests/vectors/make.py          # rewrite the files in tests/vectors/
    .venv/bin/python tests/vectors/make.py --check  # exit 1 when a checked-in file is stale

Every case comes from seeded random hands and matches run through the core; nothing here is written by
hand. Four files, one per kind: ``meld.json`` (prices and best meld of hands), ``matches.json`` (match
files and their sheets or contradictions), ``rule_changes.json`` (a house-rule change previewed on a
match) and ``match_files.json`` (damaged match files and the problem the reader names).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
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
from scorekeeper.rules.combinations import Combination
from scorekeeper.rules.house_rules import RULE_SPECS, TrickScale
from scorekeeper.rules.meld import MELD_TABLES, best_melds, price, price_sets
from scorekeeper.rules.meld_prices import NO_PRICES, MeldPrices
from scorekeeper.rules.scoring import Sheet
from scorekeeper.rules.tricks import CARD_POINTS

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
    return {"prices": prices, "hands": hands, "sets": sets}


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
        own[combination.value] = [
            None if rng.random() < 0.25 else rng.choice([base.get(size, 0) or rng.randint(0, 400), rng.randint(0, 400)])
            for size in range(1, rng.randint(1, 4) + 1)
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
    return sheet.to_json()


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
    return {"before": preview.before.to_json(), "after": preview.after.to_json(),
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
    return cases


BAD_PRICES: list[Json] = [None, True, -1, 0, 10_001, 2.5, "", "40", [], [1, 2, 3, 4, 5], [None], {"run": 1}, {}]


def damage_prices(rng: random.Random, data: Json) -> Json:
    """One change to the table's own meld prices: a price, a group list, a combination or the whole value."""
    data = copy.deepcopy(data)
    own = data["rules"]["meld_prices"]
    way = rng.randrange(4)
    combination = rng.choice(list(own))
    if way == 0:
        own[combination][rng.randrange(len(own[combination]))] = rng.choice(BAD_PRICES)
    elif way == 1:
        own[combination] = rng.choice(BAD_PRICES)
    elif way == 2:
        own[rng.choice(["ace_around", "Run", "double_pinochle", "", "pinochle "])] = [10]
    else:
        data["rules"]["meld_prices"] = rng.choice(BAD_PRICES)
    return data


# Writing --------------------------------------------------------------------------------------

KINDS: dict[str, Callable[[random.Random], Json]] = {
    "meld.json": meld_vectors,
    "matches.json": match_vectors,
    "rule_changes.json": rule_change_vectors,
    "match_files.json": match_file_vectors,
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
