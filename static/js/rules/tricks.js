// What captured cards are worth on each trick point scale, and what a deck holds: the twin of tricks.py.

import { RANKS, deckCopies, deckRanks } from "./cards.js";
import { CARD_POINTS, COUNTER_RANKS } from "./declarations.js";
import { ONE, ratio } from "./fractions.js";

export { CARD_POINTS, COUNTER_RANKS };

/** How many cards of one rank the deck holds (8 single, 16 double, no nines there). */
export const cardsOfRank = (deck, rank) => (deckRanks(deck).includes(rank) ? deckCopies(deck) * 4 : 0);

const COUNTERS = { single: 0, double: 0 };
const CARD_POINTS_OF_DECK = { single: {}, double: {} };
for (const deck of ["single", "double"]) {
  COUNTERS[deck] = COUNTER_RANKS.reduce((sum, rank) => sum + cardsOfRank(deck, rank), 0);
  for (const scale of Object.keys(CARD_POINTS)) {
    CARD_POINTS_OF_DECK[deck][scale] = RANKS.reduce((sum, rank) => sum + cardsOfRank(deck, rank) * CARD_POINTS[scale][rank], 0);
  }
}

/** Aces, tens and kings in the deck: 24 single, 48 double. */
export const deckCounters = (deck) => COUNTERS[deck];

/** All card points in the deck, without the last trick: 24/240 single, 48/480 double. */
export const deckCardPoints = (deck, scale) => CARD_POINTS_OF_DECK[deck][scale];

/** Every trick point a deal can give: the deck's card points plus the last trick. */
export const trickTotal = (rules) => deckCardPoints(rules.deck, rules.trick_scale) + rules.last_trick;

/** What one counter is worth when all counters are worth the same; null on the classic scale. */
export function counterValue(scale) {
  const values = new Set(COUNTER_RANKS.map((rank) => CARD_POINTS[scale][rank]));
  return values.size === 1 ? [...values][0] : null;
}

/** The factor that turns card points on `source` into `target`; null when none does. */
export function scaleFactor(source, target) {
  if (source === target) return ONE;
  const found = new Map();
  for (const rank of RANKS) {
    const before = CARD_POINTS[source][rank];
    const after = CARD_POINTS[target][rank];
    if (!before && !after) continue;
    const r = before ? ratio(after, before) : null;
    found.set(r === null ? "none" : `${r.n}/${r.d}`, r);
  }
  return found.size === 1 ? [...found.values()][0] : null;
}
