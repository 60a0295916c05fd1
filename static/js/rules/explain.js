// Why a deal scores what it does, side by side: the twin of explain.py. `dealNumbers` gives the numbers a
// deal's preview words (static/js/offline/preview.js words them with the server's words).

import { meldLostBecause, priceMeld, priceSide } from "./pricing.js";
import { THROWN_IN, scoreDeal, scoreMatch } from "./scoring.js";

/** @typedef {{score: number, meld: number|null, lost: string|null}} SideOutcome */
/** @typedef {{score: number, total: number|null, meld: number|null, lost: string|null}} SideNumbers */
/** @typedef {{status: string, bidder: number|null, after_end: boolean, sides: SideNumbers[]}} DealNumbers */

/** A side's meld points, every hand's meld summed; null for a one-number entry. */
export function sideMeld(rules, deal, side) {
  const entry = deal.sides[side];
  if (entry.kind !== "detail") return null;
  return entry.meld.reduce((sum, fact) => sum + priceMeld(fact, deal, rules)[0], 0);
}

/** The deal's score and, for each side, its meld and the reason it was lost (a played deal only).
 * @returns {[import("./scoring.js").DealScore, SideOutcome[]]} */
export function explainDeal(rules, deal) {
  const score = scoreDeal(rules, deal, deal.sides.length);
  const outcomes = deal.sides.map((entry, side) => {
    const meld = sideMeld(rules, deal, side);
    const lost = meld ? meldLostBecause(priceSide(entry, deal, rules), rules, score.status !== THROWN_IN) : null;
    return { score: score.scores[side], meld, lost };
  });
  return [score, outcomes];
}

/** The numbers of deal `number` of `match` (the match with the deal in place) that its preview words; throws a
 * ContradictionError when the match's facts contradict its house rules. @returns {DealNumbers} */
export function dealNumbers(match, number) {
  const line = scoreMatch(match).deals[number - 1];
  const deal = match.deals[number - 1];
  const [score, outcomes] = explainDeal(match.rules, deal);
  const totals = line.totals;
  return { status: score.status, bidder: deal.bidder, after_end: line.after_end,
    sides: outcomes.map((outcome, side) => ({ ...outcome, total: totals ? totals[side] : null })) };
}
