// Turning one side's recorded facts into points under the house rules in force: the twin of pricing.py.
// A plain number converts only when the rules it was entered under and those in force differ by an exact
// factor; otherwise it is kept as entered and the side is marked (exact: false).

import { basisOfRules } from "./match.js";
import { bestMeld, setsTotal, tableFactor } from "./meld.js";
import { CARD_POINTS, counterValue, scaleFactor } from "./tricks.js";

/** @typedef {{meld: number, tricks: number|null, tookTrick: boolean, exact: boolean}} PricedSide */

/** Whether the must-take-a-trick rule lets the side keep its meld. */
export function keepsMeld(side, rule) {
  if (rule === "off") return true;
  if (!side.tookTrick) return false;
  return !(rule === "points" && side.tricks === 0);
}

/** Meld plus trick points, or the trick points alone when the side keeps no meld. */
export function earned(side, rule, played = true) {
  const tricks = side.tricks ?? 0;
  if (played && !keepsMeld(side, rule)) return tricks;
  return side.meld + tricks;
}

/** The rules the deal's plain numbers were entered under. */
export const basisOf = (deal, rules) => deal.enteredUnder ?? basisOfRules(rules);

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
    return convert(fact.points, tableFactor(basisOf(deal, rules).meld_table, rules.meld_table, rules.deck));
  }
  if (fact.kind === "cards") {
    const trump = fact.trump ?? deal.trump;
    if (trump === null) return [0, false];
    return [bestMeld(fact.hand, trump, rules.meld_table).total, true];
  }
  return [setsTotal(fact.sets, rules.meld_table), true];
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
  };
}

/** A one-number entry converts only when meld, tricks and last trick all scale by one factor. */
function priceTotal(entry, deal, rules) {
  const basis = basisOf(deal, rules);
  const meldFactor = tableFactor(basis.meld_table, rules.meld_table, rules.deck);
  const trickFactor = scaleFactor(basis.trick_scale, rules.trick_scale);
  let total = entry.total;
  let exact = entry.total === 0;
  if (meldFactor !== null && trickFactor !== null && meldFactor.n === trickFactor.n && meldFactor.d === trickFactor.d
      && basis.last_trick * meldFactor.n === rules.last_trick * meldFactor.d) {
    [total, exact] = convert(entry.total, meldFactor);
  }
  if (entry.tookTrick === false) return { meld: total, tricks: 0, tookTrick: false, exact };
  return { meld: total, tricks: null, tookTrick: true, exact };
}
