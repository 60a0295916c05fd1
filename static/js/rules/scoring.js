// From recorded facts to the score sheet: each deal's scores, running totals, the winner.
// The twin of scoring.py; the sheet has the shape of `scorekeeper score FILE --json`.

import { dealProblems } from "./checks.js";
import { withRules } from "./match.js";
import { earned, meldLostBecause, priceMeld, priceSide } from "./pricing.js";
import { ContradictionError } from "./problems.js";
import { trickTotal } from "./tricks.js";

/** A side whose meld did not count: [side, meld, reason] (pricing.js's meldLostBecause).
 * @typedef {[number, number, string]} LostMeld */
/** @typedef {{status: string, scores: number[], made: boolean|null, asEntered: number[], lostMeld: readonly LostMeld[]}} DealScore */
/** @typedef {{number: number, scores: number[]|null, totals: number[]|null, made: boolean|null,
 *   after_end: boolean, as_entered: number[], lost_meld: LostMeld[], status: string, bidder: number|null,
 *   bid: number|null}} DealLine */
/** @typedef {{totals: number[], winner: number|null, ended_at: number|null, rank: number[], deals: DealLine[]}} Sheet */

export const MADE = "made";
export const SET = "set";
export const THROWN_IN = "thrown_in";
export const PASSED = "passed";
export const NO_AUCTION = "no_auction";

const settled = (status, scores, made, asEntered, lostMeld = []) => Object.freeze({
  status, scores: Object.freeze(scores), made, asEntered: Object.freeze(asEntered), lostMeld: Object.freeze(lostMeld) });

/** The sides whose meld did not count, and why (but `skip`, a side whose score does not depend on it).
 * @returns {LostMeld[]} */
function lostMeld(priced, rules, played, skip = null) {
  const lost = [];
  priced.forEach((side, i) => {
    const reason = meldLostBecause(side, rules, played);
    if (reason !== null && side.meld > 0 && i !== skip) lost.push([i, side.meld, reason]);
  });
  return lost;
}

/** Settle one deal: the bidders make it or are set; defenders keep what they earned. @returns {DealScore} */
export function scoreDeal(rules, deal, sideCount) {
  if (deal.passed) return settled(PASSED, new Array(sideCount).fill(0), null, []);
  const priced = deal.sides.map((entry) => priceSide(entry, deal, rules));
  const asEntered = [];
  priced.forEach((side, i) => { if (!side.exact) asEntered.push(i); });
  if (deal.bidder === null) {
    return settled(NO_AUCTION, priced.map((side) => earned(side, rules)), null, asEntered, lostMeld(priced, rules, true));
  }
  const bid = deal.bid || 0;
  if (deal.thrownIn) {
    const penalty = rules.set_penalty === "double" ? -2 * bid : -bid;
    return settled(THROWN_IN, priced.map((side, i) => (i === deal.bidder ? penalty
      : earned(side, rules, false) + rules.throw_in_bonus)), false, asEntered, lostMeld(priced, rules, false, deal.bidder));
  }
  const scores = priced.map((side) => earned(side, rules));
  const made = scores[deal.bidder] >= bid;
  if (!made) scores[deal.bidder] = setScore(rules, bid, scores[deal.bidder]);
  const kept = made || rules.set_penalty === "shortfall"; // otherwise the bid is the bidders' score anyway
  return settled(made ? MADE : SET, scores, made, asEntered, lostMeld(priced, rules, true, kept ? null : deal.bidder));
}

/** What bidders who earned `earned` on a bid of `bid` score when set. */
export function setScore(rules, bid, earnedPoints) {
  if (rules.set_penalty === "shortfall") return earnedPoints - bid;
  if (rules.set_penalty === "double") return -2 * bid;
  return -bid;
}

/** A deal worked out under some rules: what contradicts them, or else its score. */
export function evaluateDeal(rules, deal, sides, auction) {
  const problems = dealProblems(rules, deal, sides, auction);
  return Object.freeze({ problems: Object.freeze(problems), score: problems.length ? null : scoreDeal(rules, deal, sides.length) });
}

// Each deal's outcome, with the rules, sides and auction it was worked out under. Deals, rules and sides
// are frozen, so the sheet is recomputed from the facts every time but a deal is only worked out again
// when it or its context changes (as the core's OutcomeMemo does).
const OUTCOMES = new WeakMap();

function outcomeOf(match, deal) {
  const known = OUTCOMES.get(deal);
  if (known !== undefined && known.rules === match.rules && known.sides === match.sides && known.auction === match.auction) {
    return known.outcome;
  }
  const outcome = evaluateDeal(match.rules, deal, match.sides, match.auction);
  OUTCOMES.set(deal, { rules: match.rules, sides: match.sides, auction: match.auction, outcome });
  return outcome;
}

/** Recompute the whole sheet from the facts; throw a ContradictionError for facts the rules refuse.
 * @returns {Sheet} */
export function scoreMatch(match) {
  const problems = [];
  const results = match.deals.map((deal, i) => {
    const outcome = outcomeOf(match, deal);
    for (const each of outcome.problems) problems.push([i + 1, each]);
    return outcome.score;
  });
  if (problems.length) throw new ContradictionError(problems);
  return sheet(match, results);
}

function sheet(match, results) {
  const rules = match.rules;
  let totals = match.sides.map(() => 0);
  let winner = null;
  let endedAt = null;
  let played = 0;
  const announce = rules.going_out === "announce" && match.auction;
  const lines = match.deals.map((deal, i) => {
    const result = results[i];
    const line = { number: i + 1, scores: null, totals: null, made: result.made, after_end: winner !== null,
      as_entered: result.asEntered, lost_meld: [], status: result.status, bidder: deal.bidder, bid: deal.bid };
    if (line.after_end) return line;
    line.lost_meld = result.lostMeld;
    totals = totals.map((total, side) => total + result.scores[side]);
    played += deal.passed ? 0 : 1;
    if (Math.max(...totals) >= rules.target) winner = winnerOf(rules, deal, result, totals, announce);
    if (winner === null && rules.deal_limit && played >= rules.deal_limit) {
      winner = highest(totals.map((_, side) => side), totals); // a tie at the top plays on
    }
    endedAt = winner !== null ? i + 1 : null;
    line.scores = result.scores;
    line.totals = totals;
    return line;
  });
  const rank = totals.map((_, i) => i).sort((a, b) =>
    Number(a !== winner) - Number(b !== winner) || totals[b] - totals[a] || a - b);
  return { totals, winner, ended_at: endedAt, rank, deals: lines };
}

/** Who wins on this deal by the target, if anyone (`announce`: only by bidding out). */
function winnerOf(rules, deal, result, totals, announce) {
  if (deal.passed) return null;
  const reached = totals.map((_, i) => i).filter((i) => totals[i] >= rules.target);
  if (!reached.length) return null;
  if (deal.bidder === null) return highest(reached, totals);
  if (announce) return deal.out && result.made && reached.includes(deal.bidder) ? deal.bidder : null;
  if (result.made && reached.includes(deal.bidder)) return deal.bidder;
  if (rules.must_win_own_bid) return null;
  return highest(reached.filter((i) => i !== deal.bidder), totals);
}

/** The candidate with the highest total; null when there are none or the top is tied. */
function highest(candidates, totals) {
  if (!candidates.length) return null;
  const best = Math.max(...candidates.map((i) => totals[i]));
  const leaders = candidates.filter((i) => totals[i] === best);
  return leaders.length === 1 ? leaders[0] : null;
}

const sameList = (a, b) => (a === null || b === null ? a === b : a.length === b.length && a.every((x, i) => x === b[i]));

/** The sheet under `rules` beside the current one, the deals whose scores change and those whose bid
 * flips between made and set; throws a ContradictionError for rules that recorded facts contradict. */
export function previewRules(match, rules) {
  const before = scoreMatch(match);
  const after = scoreMatch(withRules(match, rules));
  const changed = before.deals.filter((old, i) => !sameList(old.scores, after.deals[i].scores)).map((old) => old.number);
  const flipped = before.deals
    .filter((old, i) => old.made !== null && after.deals[i].made !== null && old.made !== after.deals[i].made)
    .map((old) => old.number);
  return { before, after, changed, flipped };
}

/** The bidding side's meld points, when the deal records them apart from its tricks. */
export function bidderMeld(rules, deal) {
  if (deal.bidder === null || !(deal.bidder >= 0 && deal.bidder < deal.sides.length)) return null;
  const entry = deal.sides[deal.bidder];
  if (entry.kind !== "detail") return null;
  return entry.meld.reduce((sum, fact) => sum + priceMeld(fact, deal, rules)[0], 0);
}

/** The throw-in test: the bid cannot be made even by taking every trick point. */
export const isDead = (rules, bid, meld) => bid > meld + trickTotal(rules);

/** Whether the deal's contract was dead once meld was shown (bid > meld + all trick points). */
export function deadContract(rules, deal) {
  const meld = bidderMeld(rules, deal);
  return deal.bid !== null && meld !== null && isDead(rules, deal.bid, meld);
}
