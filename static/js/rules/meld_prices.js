// The table's own meld prices (house rule meld_prices): the twin of meld_prices.py and price_presets.py. A listed
// combination is priced by its own groups of 1–4 sets (null: not priced) in place of the meld table's row;
// marriages and royal marriages are priced one at a time, so their own prices take the price of one.

import { COMBINATIONS, combinationFromKey, combinationLabel } from "./combinations.js";
import { GROUPS, MAX_PRICE, NPA_DOUBLE_DECK, PRICED_ONE_AT_A_TIME } from "./declarations.js";
import { MELD_TABLES, addTable } from "./meld.js";
import { isWholeNumber } from "./numbers.js";
import { ProblemCode, RulesError, joinPath, problem } from "./problems.js";
import { say } from "./messages.js";

export const NO_PRICES = Object.freeze({});

const pricesFail = (where, message, code) => new RulesError(problem(code, joinPath("rules", joinPath("meld_prices", where)),
  say("prices", { message })));

/** One combination's four group prices, read as _group_prices reads them. */
function groupPrices(key, value, stored) {
  const label = combinationLabel(key);
  if (!Array.isArray(value) || value.length < 1 || value.length > GROUPS) {
    throw pricesFail(key, say("wrong_type.price_list", { combination: label, groups: GROUPS }), ProblemCode.WRONG_TYPE);
  }
  const single = PRICED_ONE_AT_A_TIME.includes(key);
  const prices = value.map((price, index) => {
    const where = `${key}[${index}]`;
    const sets = index === 0 ? say("prices.one_set") : say("prices.sets", { sets: index + 1 });
    const priceFail = (message, code) => pricesFail(where, say("prices.price", { combination: label, sets, message }), code);
    if (price !== null && !isWholeNumber(price)) throw priceFail(say("not_a_number.price"), ProblemCode.NOT_A_NUMBER);
    if (price !== null && (price < 0 || price > MAX_PRICE)) {
      throw priceFail(say("out_of_range.price", { most: MAX_PRICE }), ProblemCode.OUT_OF_RANGE);
    }
    if (price !== null && index && single && !stored) {
      throw priceFail(say(ProblemCode.PRICED_ONE_AT_A_TIME, { combination: label }), ProblemCode.PRICED_ONE_AT_A_TIME);
    }
    return index && single ? null : price;
  });
  return Object.freeze([...prices, ...Array(GROUPS - prices.length).fill(null)]);
}

/** The table's own meld prices, read as MeldPrices.from_json reads them: each listed combination's four group
 * prices (null: not priced), in the order of COMBINATIONS. `stored`: prices this app stored earlier, read back:
 * a group price of a combination priced one at a time (allowed before) is left out, its first number kept. */
export function parseMeldPrices(raw, { stored = false } = {}) {
  if (raw === null || typeof raw !== "object" || Object.getPrototypeOf(raw) !== Object.prototype) {
    throw pricesFail("", say("wrong_type.prices"), ProblemCode.WRONG_TYPE);
  }
  const found = {};
  for (const [key, value] of Object.entries(raw)) {
    try {
      combinationFromKey(key);
    } catch (/** @type {any} */ error) {
      throw pricesFail(key, error.problem.message, error.code);
    }
    found[key] = groupPrices(key, value, stored);
  }
  const listed = COMBINATIONS.filter((combination) => Object.hasOwn(found, combination));
  return listed.length ? Object.freeze(Object.fromEntries(listed.map((c) => [c, found[c]]))) : NO_PRICES;
}

/** The preset `key`'s prices on `table`, as preset_prices works them out: no double pinochle prices pinochle by
 * single sets at the table's price of one; the NPA's prices are scaled by the table's single run over the small
 * table's; anything else is no prices of the table's own. */
export function presetPrices(key, table) {
  const groups = MELD_TABLES[table];
  if (key === "no-double-pinochle") return parseMeldPrices({ pinochle: [groups.pinochle[1]] });
  if (key === "npa") {
    const factor = Math.floor(groups.run[1] / MELD_TABLES["double-small"].run[1]);
    return parseMeldPrices(Object.fromEntries(Object.entries(NPA_DOUBLE_DECK)
      .map(([combination, prices]) => [combination, prices.map((price) => (price === null ? null : price * factor))])));
  }
  return NO_PRICES;
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
