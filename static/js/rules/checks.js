// Recorded facts that contradict the house rules, reported deal by deal: the twin of checks.py.
// Paths are relative to the deal (`bid`, `sides[1].tricks`), codes are the core's.

import { RANKS, SUITS, cardIndex, cardText, copiesOf, deckCopies, deckLabel, handFromCards, numberWord, rankLabel }
  from "./cards.js";
import { COMBINATIONS, MELD_CLASS, combinationLabel } from "./combinations.js";
import { LIMITS } from "./declarations.js";
import { maxSets, bestMeld } from "./meld.js";
import { tableOf } from "./meld_prices.js";
import { basisOf, tookAnyTrick } from "./pricing.js";
import { ProblemCode as Code, RulesError, problem } from "./problems.js";
import { say, told } from "./messages.js";
import { CARD_POINTS, COUNTER_RANKS, cardsOfRank, counterValue, deckCardPoints, deckCounters } from "./tricks.js";

const { MAX_DEALS } = LIMITS;

/** Every contradiction in the match as [deal number from 1, problem with its path within the deal]. */
export function checkMatch(match) {
  const found = [];
  match.deals.forEach((deal, i) => {
    for (const each of dealProblems(match.rules, deal, match.sides, match.auction)) found.push([i + 1, each]);
  });
  return found;
}

/** The contradictions of one deal about to be recorded in `match`, and a deal beyond the most a match holds. */
export function checkNewDeal(match, deal) {
  if (match.deals.length >= MAX_DEALS) {
    return [told(Code.TOO_MANY_DEALS, "", { deals: match.deals.length })];
  }
  return dealProblems(match.rules, deal, match.sides, match.auction);
}

/** What in this deal cannot have happened under `rules`; paths are relative to the deal. */
export function dealProblems(rules, deal, sides, auction = true) {
  if (deal.passed) return [];
  const found = [...contractProblems(rules, deal, sides, auction), ...playerProblems(deal, sides)];
  if (deal.sides.length !== sides.length) {
    return [...found, told(Code.SIDE_COUNT, "sides", { deal_sides: deal.sides.length, match_sides: sides.length })];
  }
  return [...found, ...meldProblems(rules, deal, sides), ...trickProblems(rules, deal, sides)];
}

function contractProblems(rules, deal, sides, auction) {
  if (deal.bidder === null) {
    if (auction) return [told(Code.BIDDER_MISSING, "bidder")];
    if (deal.out) return [told(Code.OUT_WITHOUT_BIDDER, "out")];
    if (deal.forced) return [told(Code.FORCED_WITHOUT_BIDDER, "forced")];
    if (deal.thrownIn) return [told(Code.THROWN_IN_WITHOUT_AUCTION, "thrown_in")];
    return [];
  }
  if (!(deal.bidder >= 0 && deal.bidder < sides.length)) {
    return [told(Code.BIDDER_UNKNOWN, "bidder", { bidder: deal.bidder })];
  }
  if (deal.bid === null) return [told(Code.BID_MISSING, "bid")];
  if (deal.bid < rules.min_bid) return [told(Code.BID_BELOW_MINIMUM, "bid", { bid: deal.bid, minimum: rules.min_bid })];
  return [];
}

/** `bid_by` plays on the bidding side; `dealt_by` plays in the match. */
function playerProblems(deal, sides) {
  const found = [];
  if (deal.bidBy !== null) {
    const bidding = deal.bidder !== null && deal.bidder >= 0 && deal.bidder < sides.length ? sides[deal.bidder].players : [];
    if (!bidding.includes(deal.bidBy)) {
      found.push(told(Code.BID_BY_NOT_BIDDER, "bid_by", { player: deal.bidBy }));
    }
  }
  if (deal.dealtBy !== null && sides.every((side) => !side.players.includes(deal.dealtBy))) {
    found.push(told(Code.DEALER_UNKNOWN, "dealt_by", { player: deal.dealtBy }));
  }
  return found;
}

const sidePath = (index, key) => `sides[${index}].${key}`;

/** Where a side's meld fact is: `meld` when it is the only one, as the match file writes it. */
const meldPath = (side, index, entry) => sidePath(side, entry.meld.length === 1 ? "meld" : `meld[${index}]`);

/** Adds counts into a Map, keeping the order in which keys first came (as Python's Counter does). */
function addCounts(into, pairs) {
  for (const [key, n] of pairs) into.set(key, (into.get(key) ?? 0) + n);
}

function meldProblems(rules, deal, sides) {
  const found = [];
  const deck = rules.deck;
  const cardTotals = new Map();
  const setTotals = new Map();
  const needed = new Map(); // the fewest copies of each card that all the hands hold
  for (let side = 0; side < deal.sides.length; side += 1) {
    const entry = deal.sides[side];
    if (entry.kind !== "detail") continue;
    const info = sides[side];
    for (let index = 0; index < entry.meld.length; index += 1) {
      const fact = entry.meld[index];
      if (fact.kind === "cards") {
        const trump = fact.trump ?? deal.trump;
        const tooMany = copiesProblem(fact.hand, deck);
        if (tooMany !== null) {
          found.push(problem(tooMany.code, meldPath(side, index, entry),
            say("side", { side: info.name, message: tooMany.message })));
        } else if (trump === null) {
          found.push(told(Code.MELD_NEEDS_TRUMP, meldPath(side, index, entry), { side: info.name }));
        } else {
          const counts = fact.hand.counts;
          for (let i = 0; i < 24; i += 1) if (counts[i]) cardTotals.set(i, (cardTotals.get(i) ?? 0) + counts[i]);
          for (const each of bestMeld(fact.hand, trump, tableOf(rules)).melds) {
            setTotals.set(each.name, (setTotals.get(each.name) ?? 0) + each.sets);
          }
        }
      } else if (fact.kind === "sets") {
        for (const [code, fields] of impossibleSets(fact.sets, deck)) {
          found.push(told(code, meldPath(side, index, entry), { side: info.name, ...fields }, "hand"));
        }
        addCounts(setTotals, fact.sets);
        addCounts(needed, cardsNeeded(fact.sets, deal.trump));
      }
    }
  }
  for (const [index, n] of cardTotals) {
    const copies = copiesOf(deck, index);
    if (n > copies) {
      found.push(told(Code.HANDS_BEYOND_DECK, "",
        { held: numberWord(n), card: cardText(index), deck: deckLabel(deck), copies: numberWord(copies) }));
    }
  }
  if (!found.length) {
    for (const [code, fields] of impossibleSets([...setTotals], deck)) found.push(told(code, "", fields, "deal"));
  }
  if (!found.length) {
    addCounts(needed, cardTotals);
    for (const [index, n] of [...needed].sort((a, b) => a[0] - b[0])) {
      const copies = copiesOf(deck, index);
      if (n > copies) {
        found.push(told(Code.MELDS_BEYOND_DECK, "",
          { needed: numberWord(n), card: cardText(index), deck: deckLabel(deck), copies: numberWord(copies) }));
      }
    }
  }
  return found;
}

const COPIES = { single: [], double: [] }; // for each deck, how many copies of each card (by index)
for (const deck of Object.keys(COPIES)) for (let index = 0; index < 24; index += 1) COPIES[deck].push(copiesOf(deck, index));

/** Why `held` cannot come from `deck` (more copies of a card than it holds), or null. */
function copiesProblem(held, deck) {
  const copies = COPIES[deck];
  let fits = true;
  for (let index = 0; index < 24; index += 1) if (held.counts[index] > copies[index]) fits = false;
  if (fits) return null;
  const cards = [];
  held.counts.forEach((n, index) => { for (let i = 0; i < n; i += 1) cards.push(index); });
  try {
    handFromCards(cards, deck);
  } catch (error) {
    if (error instanceof RulesError) return error;
    throw error;
  }
  return null;
}

const AROUND_RANKS = Object.freeze({ aces_around: "A", kings_around: "K", queens_around: "Q", jacks_around: "J" });
const TRUMP_RANKS = Object.freeze({ run: ["A", "T", "K", "Q", "J"], royal_marriage: ["K", "Q"], dix: ["9"] });

/** The cards (by index) that one set of `combination` takes, when they are known. */
function cardsOfSet(combination, trump) {
  if (Object.hasOwn(AROUND_RANKS, combination)) return SUITS.map((suit) => cardIndex(suit, AROUND_RANKS[combination]));
  if (combination === "pinochle") return [cardIndex("S", "Q"), cardIndex("D", "J")];
  if (trump === null || combination === "marriage") return [];
  return TRUMP_RANKS[combination].map((rank) => cardIndex(trump, rank));
}

/** The fewest copies of each card (by index) that one hand holding `sets` must have: a card serves
 * once within a class, so it is needed as often as the class that uses it most. */
function cardsNeeded(sets, trump) {
  const trumpClass = new Map(); // runs and royal marriages share the trump K and Q
  const needed = new Map(); // in classes 2 and 3 no two combinations share a card
  for (const [combination, n] of sets) {
    for (const index of cardsOfSet(combination, trump)) {
      if (MELD_CLASS[combination] === 1) trumpClass.set(index, (trumpClass.get(index) ?? 0) + n);
      else if (n > (needed.get(index) ?? 0)) needed.set(index, n);
    }
  }
  for (const [index, n] of trumpClass) needed.set(index, Math.max(needed.get(index) ?? 0, n));
  return [...needed];
}

/** Sets that need more copies of a card than the deck holds: each code and its message's fields.
 * @param {Array<[string, number]>} sets */
function impossibleSets(sets, deck) {
  const found = [];
  for (const [combination, n] of sets) {
    const limit = maxSets(combination, deck);
    if (n > limit) {
      found.push([Code.IMPOSSIBLE_SETS,
        { sets: n, combination: combinationLabel(combination), deck: deckLabel(deck), limit }]);
    }
  }
  const count = (key) => sets.reduce((sum, [combination, n]) => sum + (combination === key ? n : 0), 0);
  const trumpPairs = count("run") + count("royal_marriage");
  if (trumpPairs > deckCopies(deck) && !found.length) {
    found.push([Code.TRUMP_KINGS_SHORT, { kings: trumpPairs, deck: deckLabel(deck), copies: deckCopies(deck) }]);
  }
  return found;
}

function trickProblems(rules, deal, sides) {
  const found = [];
  const details = [];
  deal.sides.forEach((entry, side) => { if (entry.kind === "detail") details.push([side, sides[side], entry]); });
  for (const [side, info, entry] of details) {
    for (const [code, fields] of sideTrickProblems(rules, deal, entry)) {
      found.push(told(code, sidePath(side, "tricks"), { side: info.name, ...fields }));
    }
    if (entry.tookTrick === false && tookAnyTrick(entry.tricks, entry.lastTrick)) {
      found.push(told(Code.TRICKS_WITHOUT_TRICK, sidePath(side, "took_trick"), { side: info.name }));
    }
    if (deal.thrownIn && tookAnyTrick(entry.tricks, entry.lastTrick)) {
      const key = tookAnyTrick(entry.tricks, false) ? "tricks" : "last_trick";
      found.push(told(Code.TRICKS_IN_THROWN_IN, sidePath(side, key), { side: info.name }));
    }
  }
  if (found.length || deal.thrownIn || !details.length) return found;
  found.push(...takenProblems(rules.deck, details.map(([, , entry]) => entry.tricks)));
  const claims = details.filter(([, , entry]) => entry.lastTrick).map(([side]) => side);
  if (claims.length > 1) {
    found.push(told(Code.LAST_TRICK_COUNT, sidePath(claims[claims.length - 1], "last_trick"),
      { sides: numberWord(claims.length) }));
  }
  const basis = basisOf(deal, rules);
  const points = details.map(([, , entry]) => enteredCardPoints(rules, deal, entry));
  if (points.includes(null)) return found;
  const taken = points.reduce((sum, p) => sum + p, 0);
  const holds = deckCardPoints(rules.deck, basis.trick_scale);
  const complete = details.length === deal.sides.length && details.some(([, , entry]) => entry.tricks !== null);
  if (taken > holds || (complete && taken !== holds)) {
    found.push(told(Code.TRICK_TOTAL, sidePath(details[details.length - 1][0], "tricks"),
      { taken, deck: deckLabel(rules.deck), holds, scale: basis.trick_scale }));
  }
  if (complete && !claims.length) found.push(told(Code.LAST_TRICK_MISSING, sidePath(details[0][0], "last_trick")));
  return found;
}

/** Cards of a rank, or counters, that the sides took together beyond what the deck holds. */
function takenProblems(deck, taken) {
  const byRank = new Map();
  let counters = 0;
  for (const tricks of taken) {
    if (tricks === null) continue;
    if (tricks.kind === "cards") {
      addCounts(byRank, tricks.byRank);
      for (const [rank, n] of tricks.byRank) if (COUNTER_RANKS.includes(rank)) counters += n;
    } else if (tricks.kind === "counters") {
      counters += tricks.counters;
    }
  }
  const found = [];
  if (byRank.size) {
    for (const rank of RANKS) {
      const n = byRank.get(rank) ?? 0;
      if (n > cardsOfRank(deck, rank)) {
        found.push(told(Code.RANK_TOTAL, "",
          { taken: n, rank: rankLabel(rank), deck: deckLabel(deck), held: cardsOfRank(deck, rank) }));
      }
    }
  }
  if (!found.length && counters > deckCounters(deck)) {
    found.push(told(Code.COUNTERS_TOTAL, "", { counters, deck: deckLabel(deck), held: deckCounters(deck) }));
  }
  return found;
}

/** A side's tricks beyond its deck: each code and its message's fields (but the side's name). */
function sideTrickProblems(rules, deal, entry) {
  const deck = rules.deck;
  const tricks = entry.tricks;
  if (tricks === null) return [];
  if (tricks.kind === "counters") {
    const found = [];
    if (tricks.counters > deckCounters(deck)) {
      found.push([Code.COUNTERS_BEYOND_DECK,
        { counters: tricks.counters, deck: deckLabel(deck), held: deckCounters(deck) }]);
    }
    if (counterValue(rules.trick_scale) === null && counterValue(basisOf(deal, rules).trick_scale) === null) {
      found.push([Code.COUNTERS_ON_CLASSIC, {}]);
    }
    return found;
  }
  if (tricks.kind === "cards") {
    return tricks.byRank
      .filter(([rank, n]) => n > cardsOfRank(deck, rank))
      .map(([rank, n]) => [Code.RANK_BEYOND_DECK,
        { taken: n, rank: rankLabel(rank), deck: deckLabel(deck), held: cardsOfRank(deck, rank) }]);
  }
  return [];
}

/** A side's card points on the scale the deal was entered under (null: cannot tell). */
function enteredCardPoints(rules, deal, entry) {
  const scale = basisOf(deal, rules).trick_scale;
  const tricks = entry.tricks;
  if (tricks === null) return 0;
  if (tricks.kind === "counters") {
    const value = counterValue(scale);
    return value === null ? null : tricks.counters * value;
  }
  if (tricks.kind === "cards") return tricks.byRank.reduce((sum, [rank, n]) => sum + CARD_POINTS[scale][rank] * n, 0);
  return tricks.points;
}
