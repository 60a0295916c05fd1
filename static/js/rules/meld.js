// Meld: the best combinations a hand shows, priced on one of the three meld tables: the twin of meld.py.
// A card serves one meld within a class but may serve again in another, so each class is counted alone.

import { SUITS, cardIndex, copiesOf, deckCopies } from "./cards.js";
import { COMBINATIONS, MELD_CLASS, combinationLabel } from "./combinations.js";
import { MELD_TABLES as DECLARED_TABLES } from "./declarations.js";
import { ProblemCode, RulesError, toldBasic } from "./problems.js";
import { ONE, ratio, sameRatio } from "./fractions.js";

/** @typedef {{name: string, sets: number, points: number, class: number, on_table?: false}} MeldLine */
/** @typedef {{trump: string|null, total: number, classes: Record<string, number>, melds: MeldLine[]}} MeldResult */

/** For each table, each combination's price of a group of 1–4 sets (declarations.js); a missing group is not
 * priced. Tables with a table's own prices over them join under their own names (addTable). */
export const MELD_TABLES = { ...DECLARED_TABLES };

/** Best price of n = 0..most sets as a split into priced groups (null: no split exists). */
function bestPrices(groups, most) {
  const best = [0];
  for (let n = 1; n <= most; n += 1) {
    let top = null;
    for (const [group, price] of Object.entries(groups)) {
      const before = Number(group) <= n ? best[n - Number(group)] : null;
      if (before !== null && (top === null || price + before > top)) top = price + before;
    }
    best.push(top);
  }
  return best;
}

const PRECOMPUTED_SETS = 16;
const PRICES = {}; // table → combination → best price of 0..PRECOMPUTED_SETS sets
const LINES = {}; // table → combination → the frozen line of 0..PRECOMPUTED_SETS sets

/** Price on `groups` (combination → group → price) under the name `table` (meld_prices.js names them). */
export function addTable(table, groups) {
  MELD_TABLES[table] = groups;
  PRICES[table] = {};
  LINES[table] = {};
  for (const combination of COMBINATIONS) {
    PRICES[table][combination] = bestPrices(groups[combination], PRECOMPUTED_SETS);
    LINES[table][combination] = [];
    for (let n = 0; n <= PRECOMPUTED_SETS; n += 1) LINES[table][combination].push(makeLine(combination, n, table));
  }
}
for (const [table, groups] of Object.entries(MELD_TABLES)) addTable(table, groups);

/** What `sets` sets of `combination` are worth on `table`; null if it cannot price them. */
export function price(combination, sets, table) {
  if (sets < 0) {
    throw new RulesError(toldBasic(ProblemCode.OUT_OF_RANGE, "", { combination: combinationLabel(combination), sets },
      "sets"));
  }
  const prices = PRICES[table]?.[combination];
  if (prices !== undefined && sets < prices.length) return prices[sets];
  return bestPrices(MELD_TABLES[table][combination], sets)[sets];
}

/** @returns {MeldLine} */
function makeLine(combination, sets, table) {
  const points = price(combination, sets, table);
  const made = { name: combination, sets, points: points ?? 0, class: MELD_CLASS[combination] };
  if (points === null) made.on_table = false;
  return Object.freeze(made);
}

function line(combination, sets, table) {
  return sets <= PRECOMPUTED_SETS ? LINES[table][combination][sets] : makeLine(combination, sets, table);
}

/** @returns {MeldResult} */
function result(trump, lines) {
  const classes = { 1: 0, 2: 0, 3: 0 };
  let total = 0;
  for (const found of lines) {
    classes[found.class] += found.points;
    total += found.points;
  }
  return { trump, total, classes, melds: lines };
}

const KINGS = SUITS.map((suit) => cardIndex(suit, "K"));
const QUEENS = SUITS.map((suit) => cardIndex(suit, "Q"));
const AROUND = [["aces_around", "A"], ["kings_around", "K"], ["queens_around", "Q"], ["jacks_around", "J"]]
  .map(([combination, rank]) => [combination, SUITS.map((suit) => cardIndex(suit, rank))]);
const PINOCHLE_CARDS = [cardIndex("S", "Q"), cardIndex("D", "J")];
const fewest = (counts, indexes) => Math.min(...indexes.map((index) => counts[index]));

/** Classes 2 and 3, which do not depend on trump. */
function otherClasses(counts, table) {
  const lines = [];
  const pinochles = fewest(counts, PINOCHLE_CARDS);
  if (pinochles) lines.push(line("pinochle", pinochles, table));
  for (const [combination, indexes] of AROUND) {
    const sets = fewest(counts, indexes);
    if (sets) lines.push(line(combination, sets, table));
  }
  return lines;
}

/** Runs and royal marriages from `pairs` trump K-Q pairs, `mostRuns` of them complete: the highest
 * value wins, the most runs among equal values. */
function trumpSplit(mostRuns, pairs, table) {
  /** @type {[MeldLine[], number]} */
  let best = [[], 0];
  for (let runs = 0; runs <= Math.min(mostRuns, pairs); runs += 1) {
    const lines = [];
    if (runs) lines.push(line("run", runs, table));
    if (pairs - runs) lines.push(line("royal_marriage", pairs - runs, table));
    const value = lines.reduce((sum, found) => sum + found.points, 0);
    if (value >= best[1]) best = [lines, value];
  }
  return best;
}

/** Class 1 for one trump; `marriages` holds the K-Q pairs of each suit. @returns {[MeldLine[], number]} */
function trumpClass(counts, trump, marriages, deck, table) {
  const offset = SUITS.indexOf(trump) * 6;
  const pairs = marriages[SUITS.indexOf(trump)];
  const [lines, value] = trumpSplit(Math.min(...counts.slice(offset, offset + 5)), pairs, table);
  const found = [...lines];
  let total = value;
  const plain = marriages.reduce((sum, n) => sum + n, 0) - pairs;
  if (plain) {
    const married = line("marriage", plain, table);
    found.push(married);
    total += married.points;
  }
  const nines = deck === "single" ? counts[offset + 5] : 0;
  if (nines) {
    const dix = line("dix", nines, table);
    found.push(dix);
    total += dix.points;
  }
  return [found, total];
}

const marriagesOf = (counts) => KINGS.map((king, i) => Math.min(counts[king], counts[QUEENS[i]]));

const REMEMBERED = new WeakMap(); // hand → "trump table" → its best meld: checks and pricing both ask

/** The best meld of a hand with `trump`, priced on `table`. @returns {MeldResult} */
export function bestMeld(held, trump, table) {
  let known = REMEMBERED.get(held);
  if (known === undefined) {
    known = new Map();
    REMEMBERED.set(held, known);
  }
  const key = trump + table;
  let found = known.get(key);
  if (found === undefined) {
    const [trumpLines] = trumpClass(held.counts, trump, marriagesOf(held.counts), held.deck, table);
    found = Object.freeze(result(trump, Object.freeze([...trumpLines, ...otherClasses(held.counts, table)])));
    known.set(key, found);
  }
  return found;
}

/** The best meld for each of the four trumps, highest total first (ties in suit order). */
export function meldAllTrumps(held, table) {
  const marriages = marriagesOf(held.counts);
  const others = otherClasses(held.counts, table);
  return SUITS
    .map((trump) => {
      const [lines, value] = trumpClass(held.counts, trump, marriages, held.deck, table);
      return /** @type {[number, MeldResult]} */ ([value, result(trump, [...lines, ...others])]);
    })
    .sort((a, b) => b[0] - a[0])
    .map(([, found]) => found);
}

/** The best meld for `trump`; with no trump named (null), one per trump, best first. */
export function bestMelds(held, trump, table) {
  return trump === null ? meldAllTrumps(held, table) : [bestMeld(held, trump, table)];
}

/** Price counted sets (e.g. {run: 1, pinochle: 1}) as the holding of one hand. */
export function priceSets(sets, table, trump = null) {
  const lines = [];
  for (const combination of COMBINATIONS) {
    const n = sets[combination] ?? 0;
    if (n < 0) price(combination, n, table);
    if (n) lines.push(line(combination, n, table));
  }
  return result(trump, lines);
}

/** The points of counted sets, as [combination, sets] pairs with each combination once: `priceSets(…).total`. */
export function setsTotal(pairs, table) {
  let total = 0;
  for (const [combination, n] of pairs) {
    if (n < 0) price(combination, n, table);
    if (n) total += line(combination, n, table).points;
  }
  return total;
}

/** The most sets of `combination` one hand can hold from `deck`. */
export function maxSets(combination, deck) {
  if (combination === "dix") return copiesOf(deck, cardIndex("S", "9"));
  if (combination === "marriage") return 3 * deckCopies(deck);
  return deckCopies(deck);
}

const FACTORS = new Map();

/** The factor that turns every price on `source` into the price on `target` for `deck`, or null when
 * no single factor fits every combination and number of sets the deck allows. */
export function tableFactor(source, target, deck) {
  const key = `${source} ${target} ${deck}`;
  if (!FACTORS.has(key)) FACTORS.set(key, findFactor(source, target, deck));
  return FACTORS.get(key);
}

function findFactor(source, target, deck) {
  let factor = null;
  for (const combination of COMBINATIONS) {
    for (let sets = 1; sets <= maxSets(combination, deck); sets += 1) {
      const before = price(combination, sets, source) ?? 0;
      const after = price(combination, sets, target) ?? 0;
      if (before === 0) {
        if (after !== 0) return null;
        continue;
      }
      const found = ratio(after, before);
      if (factor === null) factor = found;
      else if (!sameRatio(found, factor)) return null;
    }
  }
  return factor ?? ONE;
}
