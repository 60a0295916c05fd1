// The house rules, declared once, and how values are read: the twin of house_rules.py.
// Rule values are the match file's: "double", "double-small", "one-point", "trick", true …

import { NO_PRICES, parseMeldPrices } from "./meld_prices.js";
import { ProblemCode, RulesError, joinPath, problem } from "./problems.js";

/** @typedef {{target: number, deck: string, meld_table: string, trick_scale: string, min_bid: number,
 *   last_trick: number, must_take_trick: string, must_win_own_bid: boolean, set_penalty: string,
 *   min_meld: number, save_points: number, going_out: string, deal_limit: number, throw_in_bonus: number,
 *   all_pass: string, meld_prices: Record<string, Array<number|null>>}} HouseRules */

const number = (key, label, minimum, maximum, step = 1) =>
  Object.freeze({ key, label, kind: "number", minimum, maximum, step });
const choice = (key, label, ...choices) => Object.freeze({ key, label, kind: "choice", choices: Object.freeze(choices) });

/** Each rule's key, label and allowed values, in the order the match file writes them. */
export const RULE_SPECS = Object.freeze([
  number("target", "Play to", 100, 5000, 50),
  choice("deck", "Deck", "double", "single"),
  choice("meld_table", "Meld values", "double-small", "double-large", "single-classic"),
  choice("trick_scale", "Trick point scale", "one-point", "ten-point", "classic"),
  number("min_bid", "Minimum opening bid", 10, 600),
  number("last_trick", "Last trick worth", 0, 20),
  choice("must_take_trick", "Defenders must take a trick to keep meld", "trick", "points", "off"),
  Object.freeze({ key: "must_win_own_bid", label: "Must win on your own bid", kind: "switch" }),
  choice("set_penalty", "What a set costs", "bid", "shortfall", "double"),
  number("min_meld", "Meld needed to count", 0, 1000),
  number("save_points", "Card points needed to score", 0, 250),
  choice("going_out", "How a side goes out", "target", "announce"),
  number("deal_limit", "Number of deals", 0, 100),
  number("throw_in_bonus", "Defenders' bonus on a throw-in", 0, 100),
  choice("all_pass", "When everyone passes", "redeal", "forced"),
  Object.freeze({ key: "meld_prices", label: "The table's own meld prices", kind: "prices" }),
]);


export const RULE_SPECS_BY_KEY = Object.freeze(Object.fromEntries(RULE_SPECS.map((spec) => [spec.key, spec])));

/** The defaults: double deck to 500. @type {HouseRules} */
export const DEFAULT_RULES = Object.freeze({
  target: 500, deck: "double", meld_table: "double-small", trick_scale: "one-point", min_bid: 50,
  last_trick: 2, must_take_trick: "trick", must_win_own_bid: true, set_penalty: "bid", min_meld: 0,
  save_points: 0, going_out: "target", deal_limit: 0, throw_in_bonus: 0, all_pass: "redeal", meld_prices: NO_PRICES,
});

/** Whether two values of one rule are the same (the meld prices compare by content). */
export const sameRuleValue = (a, b) => a === b || (typeof a === "object" && JSON.stringify(a) === JSON.stringify(b));

const SWITCH_WORDS = Object.freeze({ true: true, on: true, yes: true, 1: true, false: false, off: false, no: false, 0: false });
const MAX_DIGITS = 9;

function describeAllowed(spec) {
  if (spec.kind === "number") {
    const step = spec.step !== 1 ? ` in steps of ${spec.step}` : "";
    return `a whole number from ${spec.minimum} to ${spec.maximum}${step}`;
  }
  return spec.kind === "switch" ? "on or off" : `one of ${spec.choices.join(", ")}`;
}

/** A decoded JSON value as Python's repr writes it, for messages: None, True, [1, 'AH'], {'k': 2}. */
export function pythonRepr(value) {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const escaped = [...value].map((char) => {
      if (char === "\\" || char === quote) return `\\${char}`;
      const special = { "\n": "\\n", "\r": "\\r", "\t": "\\t" }[char];
      if (special) return special;
      const code = char.codePointAt(0);
      return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, "0")}` : char;
    });
    return quote + escaped.join("") + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`).join(", ")}}`;
  }
  return String(value);
}

function fail(spec, raw) {
  const text = typeof raw === "string" ? raw : pythonRepr(raw);
  const shown = [...text].length <= 20 ? text : `${[...text].slice(0, 20).join("")}…`;
  return new RulesError(problem(ProblemCode.BAD_RULE_VALUE, joinPath("rules", spec.key),
    `${spec.label}: '${shown}' is not allowed; use ${describeAllowed(spec)}`));
}

/** The whole number typed in `text` (ASCII digits, spaces around), or null. */
export function wholeNumberOrNull(text, maxDigits = MAX_DIGITS) {
  const stripped = text.trim();
  if (!/^[0-9]+$/.test(stripped) || stripped.replace(/^0+/, "").length > maxDigits) return null;
  return Number(stripped);
}

const isWhole = (raw) => typeof raw === "number" && Number.isInteger(raw);

/** Turn a value from a file, a form or a command line into the rule's value. */
export function parseRule(spec, raw) {
  if (spec.kind === "number") {
    let value = raw;
    if (typeof raw === "string") value = wholeNumberOrNull(raw);
    if (!isWhole(value) || value < spec.minimum || value > spec.maximum || (value - spec.minimum) % spec.step) {
      throw fail(spec, raw);
    }
    return value;
  }
  if (spec.kind === "prices") return parseMeldPrices(raw);
  if (spec.kind === "switch") {
    if (typeof raw === "boolean") return raw;
    const word = typeof raw === "string" ? raw.trim().toLowerCase() : null;
    if (word !== null && Object.hasOwn(SWITCH_WORDS, word)) return SWITCH_WORDS[word];
    throw fail(spec, raw);
  }
  if (typeof raw === "string" && spec.choices.includes(raw.trim().toLowerCase())) return raw.trim().toLowerCase();
  if (spec.key === "must_take_trick") {
    // true/false (and on/off) are the switch-like spellings of "trick" and "off".
    let word = null;
    if (typeof raw === "boolean") word = String(raw);
    else if (typeof raw === "string") word = raw.trim().toLowerCase();
    else if (isWhole(raw)) word = String(raw);
    if (word !== null && Object.hasOwn(SWITCH_WORDS, word)) return SWITCH_WORDS[word] ? "trick" : "off";
  }
  throw fail(spec, raw);
}

/** Rules from JSON-style values; a missing key keeps `base` (default: the defaults). @returns {HouseRules} */
export function rulesFromMapping(data, base = DEFAULT_RULES) {
  const values = { ...base };
  for (const [key, raw] of Object.entries(data)) {
    if (!Object.hasOwn(RULE_SPECS_BY_KEY, key)) {
      throw new RulesError(problem(ProblemCode.UNKNOWN_RULE, joinPath("rules", key), `'${key}' is not a house rule`));
    }
    values[key] = parseRule(RULE_SPECS_BY_KEY[key], raw);
  }
  return Object.freeze(values);
}

/** The keys of the rules that differ between two sets of rules. */
export function differences(rules, other) {
  return RULE_SPECS.filter((spec) => !sameRuleValue(rules[spec.key], other[spec.key])).map((spec) => spec.key);
}

/** The price list a deck is usually played with. */
export const naturalTable = (deck) => (deck === "single" ? "single-classic" : "double-small");
