// The table's own meld prices (house rule meld_prices): the twin of meld_prices.py. A listed combination is
// priced by its own groups of 1–4 sets (null: not priced) in place of the meld table's row.

import { COMBINATIONS, combinationFromKey, combinationLabel } from "./combinations.js";
import { MELD_TABLES, addTable } from "./meld.js";
import { ProblemCode, RulesError, joinPath, problem } from "./problems.js";

export const NO_PRICES = Object.freeze({});
const GROUPS = 4;
const MAX_PRICE = 10000;
const isWhole = (raw) => typeof raw === "number" && Number.isInteger(raw);

const pricesFail = (where, message, code) => new RulesError(problem(code, joinPath("rules", joinPath("meld_prices", where)),
  `Meld prices: ${message}`));

/** The table's own meld prices, read as meld_prices.py reads them: each listed combination's four group
 * prices (null: not priced), in the order of COMBINATIONS. */
export function parseMeldPrices(raw) {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw pricesFail("", 'the meld prices must be an object such as {"pinochle": [40, null]}', ProblemCode.WRONG_TYPE);
  }
  const found = {};
  for (const [key, value] of Object.entries(raw)) {
    try {
      combinationFromKey(key);
    } catch (error) {
      throw pricesFail(key, error.problem.message, error.code);
    }
    const label = combinationLabel(key);
    if (!Array.isArray(value) || value.length < 1 || value.length > GROUPS) {
      throw pricesFail(key, `${label}: give the prices of 1 to ${GROUPS} sets as a list, null where not priced`,
        ProblemCode.WRONG_TYPE);
    }
    value.forEach((price, index) => {
      const where = `${key}[${index}]`;
      const sets = index === 0 ? "1 set" : `${index + 1} sets`;
      if (price !== null && !isWhole(price)) {
        throw pricesFail(where, `${label}, ${sets}: the price must be a whole number or null`, ProblemCode.NOT_A_NUMBER);
      }
      if (price !== null && (price < 0 || price > MAX_PRICE)) {
        throw pricesFail(where, `${label}, ${sets}: the price must be from 0 to ${MAX_PRICE.toLocaleString("en-US")}`,
          ProblemCode.OUT_OF_RANGE);
      }
    });
    found[key] = Object.freeze([...value, ...Array(GROUPS - value.length).fill(null)]);
  }
  const listed = COMBINATIONS.filter((combination) => Object.hasOwn(found, combination));
  return listed.length ? Object.freeze(Object.fromEntries(listed.map((c) => [c, found[c]]))) : NO_PRICES;
}

/** The name meld.js prices `table` under with the table's own `prices` over it. Sets that fit no priced group
 * are left over, worth nothing: a row that prices some group but not single sets prices a single set 0; a row
 * that prices nothing leaves the combination off the table. */
export function pricedTable(table, prices) {
  const listed = prices ? Object.keys(prices) : [];
  if (!listed.length) return table;
  const key = `${table} ${JSON.stringify(prices)}`;
  if (Object.hasOwn(MELD_TABLES, key)) return key;
  const groups = { ...MELD_TABLES[table] };
  for (const combination of listed) {
    const own = Object.fromEntries(prices[combination].map((price, i) => [i + 1, price]).filter(([, p]) => p !== null));
    groups[combination] = Object.keys(own).length ? { 1: 0, ...own } : {};
  }
  addTable(key, groups);
  return key;
}

/** The meld table of `rules` with their own meld prices over it, as pricedTable names it. */
export const tableOf = (rules) => pricedTable(rules.meld_table, rules.meld_prices);
