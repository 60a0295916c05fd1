// How house rule values are read: the twin of house_rules.py. The rules themselves (key, label, kind,
// allowed values, default) are RULE_SPECS of declarations.js, made from the Python declaration.
// Rule values are the match file's: "double", "double-small", "one-point", "trick", true …

import { NATURAL_TABLES, RULE_SPECS, SWITCH_WORDS } from "./declarations.js";
import { NO_PRICES, parseMeldPrices } from "./meld_prices.js";
import { isWholeNumber, pythonRepr, shownText, wholeNumberOrNull } from "./numbers.js";
import { ProblemCode, RulesError, joinPath } from "./problems.js";
import { say, told } from "./messages.js";
import { strip } from "./spaces.js";

/** @typedef {Record<string, any>} HouseRules every rule of RULE_SPECS by its key, as the match file writes it */

export { RULE_SPECS };
export const RULE_SPECS_BY_KEY = Object.freeze(Object.fromEntries(RULE_SPECS.map((spec) => [spec.key, spec])));

/** The defaults: each rule's declared default (double deck to 500). @type {HouseRules} */
export const DEFAULT_RULES = Object.freeze(Object.fromEntries(RULE_SPECS.map((spec) =>
  [spec.key, spec.kind === "prices" ? NO_PRICES : spec.default])));

/** Whether two values of one rule are the same (the meld prices compare by content). */
export const sameRuleValue = (a, b) => a === b || (typeof a === "object" && JSON.stringify(a) === JSON.stringify(b));

const choiceValues = (spec) => spec.choices.map(([value]) => value);

function describeAllowed(spec) {
  if (spec.kind === "number") {
    const { minimum, maximum, step } = spec;
    return say(step !== 1 ? "allowed.number_step" : "allowed.number", { minimum, maximum, step });
  }
  return spec.kind === "switch" ? say("allowed.switch") : say("allowed.choice", { choices: choiceValues(spec).join(", ") });
}

function fail(spec, raw) {
  const shown = shownText(typeof raw === "string" ? raw : pythonRepr(raw));
  return new RulesError(told(ProblemCode.BAD_RULE_VALUE, joinPath("rules", spec.key),
    { rule: spec.label, shown, allowed: describeAllowed(spec) }));
}

const switchWord = (word) => (Object.hasOwn(SWITCH_WORDS, word) ? SWITCH_WORDS[word] : null);

/** Turn a value from a file, a form or a command line into the rule's value; `stored`: a value this app
 * stored earlier, read back (see parseMeldPrices). */
export function parseRule(spec, raw, { stored = false } = {}) {
  if (spec.kind === "number") {
    const value = typeof raw === "string" ? wholeNumberOrNull(raw) : raw;
    if (!isWholeNumber(value) || value < spec.minimum || value > spec.maximum
        || (Number(value) - spec.minimum) % spec.step) {
      throw fail(spec, raw);
    }
    return value;
  }
  if (spec.kind === "prices") return parseMeldPrices(raw, { stored });
  if (spec.kind === "switch") {
    if (typeof raw === "boolean") return raw;
    const switched = typeof raw === "string" ? switchWord(strip(raw).toLowerCase()) : null;
    if (switched === null) throw fail(spec, raw);
    return switched;
  }
  const word = typeof raw === "string" ? strip(raw).toLowerCase() : null;
  if (choiceValues(spec).includes(word)) return word;
  if (spec.key === "must_take_trick") {
    // true/false (and on/off) are the switch-like spellings of "trick" and "off".
    let switched = null;
    if (typeof raw === "boolean") switched = raw;
    else if (word !== null) switched = switchWord(word);
    else if (isWholeNumber(raw)) switched = switchWord(String(raw));
    if (switched !== null) return switched ? "trick" : "off";
  }
  throw fail(spec, raw);
}

/** Rules from JSON-style values; a missing key keeps `base` (default: the defaults); `stored`: values this
 * app stored earlier, read back. @returns {HouseRules} */
export function rulesFromMapping(data, base = DEFAULT_RULES, { stored = false } = {}) {
  const values = { ...base };
  for (const [key, raw] of Object.entries(data)) {
    if (!Object.hasOwn(RULE_SPECS_BY_KEY, key)) {
      throw new RulesError(told(ProblemCode.UNKNOWN_RULE, joinPath("rules", key), { key }));
    }
    values[key] = parseRule(RULE_SPECS_BY_KEY[key], raw, { stored });
  }
  return Object.freeze(values);
}

/** The keys of the rules that differ between two sets of rules. */
export function differences(rules, other) {
  return RULE_SPECS.filter((spec) => !sameRuleValue(rules[spec.key], other[spec.key])).map((spec) => spec.key);
}

/** The price list a deck is usually played with. */
export const naturalTable = (deck) => NATURAL_TABLES[deck];
