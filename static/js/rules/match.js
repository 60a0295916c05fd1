// The recorded facts of a match: sides, house rules and what happened in each deal: the twin of match.py.
// Nothing here is a score; scoring.js derives the sheet from these facts.

import { PLACEHOLDER_SIDE_NAMES } from "./declarations.js";

/** @typedef {{meld_table: string, trick_scale: string, last_trick: number,
 *   meld_prices: Record<string, Array<number|null>>}} PricingBasis */
/** @typedef {{kind: "points", points: number} | {kind: "sets", sets: Array<[string, number]>}
 *   | {kind: "cards", hand: import("./cards.js").Hand, trump: string|null}} MeldFact */
/** @typedef {{kind: "points", points: number} | {kind: "counters", counters: number}
 *   | {kind: "cards", byRank: Array<[string, number]>}} TrickFact */
/** @typedef {{kind: "total", total: number, tookTrick: boolean|null}
 *   | {kind: "detail", meld: MeldFact[], tricks: TrickFact|null, lastTrick: boolean, tookTrick: boolean|null}} SideEntry */
/** @typedef {{passed: boolean, sides: readonly SideEntry[], bidder: number|null, bid: number|null, trump: string|null,
 *   thrownIn: boolean, enteredUnder: PricingBasis|null, bidBy: string|null, dealtBy: string|null,
 *   out: boolean, forced: boolean}} Deal */
/** @typedef {{name: string, players: string[]}} SideInfo */
/** @typedef {{sides: readonly SideInfo[], rules: import("./house_rules.js").HouseRules, deals: readonly Deal[],
 *   name: string, auction: boolean, firstDealer: number|null}} Match */

/** A side's name as pages show it (match.py's shown_side_name): its own name, or its players' ("Ann & Bob")
 * when the name is empty or still a preset's placeholder ("We", "They" …). @param {SideInfo} side */
export function shownSideName(side) {
  const players = side.players || [];
  return players.length && (!side.name || PLACEHOLDER_SIDE_NAMES.includes(side.name)) ? players.join(" & ") : side.name;
}

/** The house rules that plain numbers of a deal were entered under. @returns {PricingBasis} */
export function basisOfRules(rules) {
  let basis = BASES.get(rules);
  if (basis === undefined) {
    basis = Object.freeze({ meld_table: rules.meld_table, trick_scale: rules.trick_scale, last_trick: rules.last_trick,
      meld_prices: rules.meld_prices });
    BASES.set(rules, basis);
  }
  return basis;
}

const BASES = new WeakMap(); // rules → their basis, made once

export const sameBasis = (a, b) =>
  a.meld_table === b.meld_table && a.trick_scale === b.trick_scale && a.last_trick === b.last_trick
  && (a.meld_prices === b.meld_prices || JSON.stringify(a.meld_prices) === JSON.stringify(b.meld_prices));

/** A deal, every fact named. @returns {Readonly<Deal>} */
export function makeDeal({ sides = [], bidder = null, bid = null, trump = null, thrownIn = false, passed = false,
  enteredUnder = null, bidBy = null, dealtBy = null, out = false, forced = false } = {}) {
  return Object.freeze({ sides: Object.freeze(sides), bidder, bid, trump, thrownIn, passed, enteredUnder, bidBy, dealtBy,
    out, forced });
}

export const PASSED_DEAL = makeDeal({ passed: true });

/** This deal with `enteredUnder` made explicit (the rules it was entered under). */
export function pinned(deal, rules) {
  if (deal.enteredUnder !== null || deal.passed) return deal;
  return makeDeal({ ...deal, enteredUnder: basisOfRules(rules) });
}

/** @returns {Readonly<Match>} */
export function makeMatch({ sides, rules, deals = [], name = "", auction = true, firstDealer = null }) {
  return Object.freeze({ sides: Object.freeze(sides), rules, deals: Object.freeze(deals), name, auction, firstDealer });
}

/** The same facts under other house rules; plain numbers stay priced as entered. */
export function withRules(match, rules) {
  return makeMatch({ ...match, rules, deals: match.deals.map((deal) => pinned(deal, match.rules)) });
}

export function withDeals(match, deals) {
  return makeMatch({ ...match, deals });
}
