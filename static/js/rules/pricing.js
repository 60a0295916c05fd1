// Turning one side's recorded facts into points under the house rules in force: the twin of pricing.py.
// A plain number converts only when the rules it was entered under and those in force differ by an exact
// factor; otherwise it is kept as entered and the side is marked (exact: false).

import { basisOfRules } from "./match.js";
import { bestMeld, setsTotal, tableFactor } from "./meld.js";
import { pricedTable, tableOf } from "./meld_prices.js";
import { CARD_POINTS, counterValue, scaleFactor } from "./tricks.js";

/** @typedef {{meld: number, tricks: number|null, tookTrick: boolean, exact: boolean, cardPoints: number|null}} PricedSide */

/** Why the side's meld does not count, or null: below the minimum meld (meld entered apart from tricks),
 * then, in a deal played out, the must-take-a-trick rule. */
export function meldLostBecause(side, rules, played = true) {
  if (side.cardPoints !== null && side.meld < rules.min_meld) return side.meld > 0 ? "below_min_meld" : null;
  const rule = rules.must_take_trick;
  if (!played || rule === "off") return null;
  if (!side.tookTrick) return "no_trick";
  if (rule === "points" && side.tricks === 0) return "no_trick_points";
  return null;
}

/** What the side earned: meld (when it counts) plus trick points; nothing at all when a played deal's card
 * points fall short of the points needed to score. */
export function earned(side, rules, played = true) {
  if (played && side.cardPoints !== null && side.cardPoints < rules.save_points) return 0;
  const meld = meldLostBecause(side, rules, played) === null ? side.meld : 0;
  return meld + (side.tricks ?? 0);
}

/** The rules the deal's plain numbers were entered under. */
export const basisOf = (deal, rules) => deal.enteredUnder ?? basisOfRules(rules);

/** The factor from the meld prices a number was entered under to those of `rules` (null: none fits). */
const meldFactor = (basis, rules) =>
  tableFactor(pricedTable(basis.meld_table, basis.meld_prices), tableOf(rules), rules.deck);

/** `value × factor` when that is a whole number, else `value` kept as entered: [points, exact]. */
export function convert(value, factor) {
  if (value === 0) return [0, true];
  if (factor === null) return [value, false];
  const scaledUp = value * factor.n;
  if (scaledUp % factor.d) return [value, false];
  return [scaledUp / factor.d, true];
}

/** Meld points of one hand's meld under `rules`, and whether they are exact. */
export function priceMeld(fact, deal, rules) {
  if (fact.kind === "points") {
    return convert(fact.points, meldFactor(basisOf(deal, rules), rules));
  }
  if (fact.kind === "cards") {
    const trump = fact.trump ?? deal.trump;
    if (trump === null) return [0, false];
    return [bestMeld(fact.hand, trump, tableOf(rules)).total, true];
  }
  return [setsTotal(fact.sets, tableOf(rules)), true];
}

/** Card points taken (without the last trick) under `rules`, and whether they are exact. */
export function priceCardPoints(fact, deal, rules) {
  if (fact === null) return [0, true];
  if (fact.kind === "points") {
    return convert(fact.points, scaleFactor(basisOf(deal, rules).trick_scale, rules.trick_scale));
  }
  if (fact.kind === "counters") {
    const value = counterValue(rules.trick_scale);
    if (value !== null) return [fact.counters * value, true];
    return [fact.counters * (counterValue(basisOf(deal, rules).trick_scale) ?? 0), fact.counters === 0];
  }
  const points = CARD_POINTS[rules.trick_scale];
  return [fact.byRank.reduce((sum, [rank, n]) => sum + points[rank] * n, 0), true];
}

/** Whether the recorded tricks show that the side took at least one trick. */
export function tookAnyTrick(fact, lastTrick) {
  if (lastTrick) return true;
  if (fact === null) return false;
  if (fact.kind === "points") return fact.points > 0;
  if (fact.kind === "counters") return fact.counters > 0;
  return fact.byRank.some(([, n]) => n > 0);
}

/** Price one side's entry of a deal under `rules`. @returns {PricedSide} */
export function priceSide(entry, deal, rules) {
  if (entry.kind === "total") return priceTotal(entry, deal, rules);
  let meld = 0;
  let exact = true;
  for (const fact of entry.meld) {
    const [points, meldExact] = priceMeld(fact, deal, rules);
    meld += points;
    exact = exact && meldExact;
  }
  const [cardPoints, tricksExact] = priceCardPoints(entry.tricks, deal, rules);
  return {
    meld,
    tricks: cardPoints + (entry.lastTrick ? rules.last_trick : 0),
    tookTrick: entry.tookTrick ?? tookAnyTrick(entry.tricks, entry.lastTrick),
    exact: tricksExact && exact,
    cardPoints,
  };
}

/** A one-number entry converts only when meld, tricks and last trick all scale by one factor. */
function priceTotal(entry, deal, rules) {
  const basis = basisOf(deal, rules);
  const meld = meldFactor(basis, rules);
  const trickFactor = scaleFactor(basis.trick_scale, rules.trick_scale);
  let total = entry.total;
  let exact = entry.total === 0;
  if (meld !== null && trickFactor !== null && meld.n === trickFactor.n && meld.d === trickFactor.d
      && basis.last_trick * meld.n === rules.last_trick * meld.d) {
    [total, exact] = convert(entry.total, meld);
  }
  if (entry.tookTrick === false) return { meld: total, tricks: 0, tookTrick: false, exact, cardPoints: null };
  return { meld: total, tricks: null, tookTrick: true, exact, cardPoints: null };
}
