// JSON text read as the Python core reads it: the twin of text.py's load_json (json.loads, its C scanner's
// messages and positions, bounded nesting and whole numbers, no unpaired surrogates). A number written with a
// fraction or an exponent (500.0, 5e2) is kept apart as a JsonFloat, which no reader takes for a whole number.

import { LIMITS } from "./declarations.js";
import { MatchFileError, ProblemCode, joinPath } from "./problems.js";
import { told } from "./messages.js";

/** A JSON number written with a fraction or an exponent, or NaN or ±Infinity: a float to the Python core,
 * so never a whole number, whatever its value. `repr` writes it as Python does: 500.0, 1e+16, inf. */
export class JsonFloat {
  constructor(value) {
    this.value = value;
    Object.freeze(this);
  }

  get repr() {
    const x = this.value;
    if (Number.isNaN(x)) return "nan";
    if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
    if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
    const [mantissa, exponent] = Math.abs(x).toExponential().split("e"); // the shortest digits that read back
    const digits = mantissa.replace(".", "");
    const e = Number(exponent);
    const sign = x < 0 ? "-" : "";
    if (e < -4 || e >= 16) {
      const shown = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
      return `${sign}${shown}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
    }
    if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
    return `${sign}${digits.slice(0, e + 1).padEnd(e + 1, "0")}.${digits.slice(e + 1) || "0"}`;
  }
}

const notJson = (message, text, position) => {
  const before = [...text.slice(0, position)]; // Python counts characters, not UTF-16 units
  const line = before.filter((char) => char === "\n").length + 1;
  const column = before.length - before.lastIndexOf("\n");
  return new MatchFileError(told(ProblemCode.NOT_JSON, "", { reason: message, line, column }));
};
const tooDeep = (path) =>
  new MatchFileError(told(ProblemCode.TOO_DEEP, path, { depth: LIMITS.MAX_JSON_DEPTH }));

const SKIP = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
/** @type {Array<[string, null|boolean|JsonFloat]>} */
const CONSTANTS = [["null", null], ["true", true], ["false", false], ["NaN", new JsonFloat(NaN)],
  ["Infinity", new JsonFloat(Infinity)], ["-Infinity", new JsonFloat(-Infinity)]];
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const RECURSION_LIMIT = 900; // where Python's reader gives up (a RecursionError: too_deep at the top)

/** Reads JSON text as Python's json.loads does (its C scanner, with its messages and positions). */
class JsonReader {
  constructor(text) {
    this.text = text;
  }

  skip(at) {
    SKIP.lastIndex = at;
    SKIP.exec(this.text);
    return SKIP.lastIndex;
  }

  fail(message, at) {
    return notJson(message, this.text, at);
  }

  /** The value at `at` and the position after it. */
  value(at, depth) {
    const { text } = this;
    if (at >= text.length) throw this.fail("Expecting value", at);
    const char = text[at];
    if (char === '"') return this.string(at + 1);
    if (char === "{" || char === "[") {
      if (depth > RECURSION_LIMIT) throw tooDeep("");
      return char === "{" ? this.object(at + 1, depth + 1) : this.array(at + 1, depth + 1);
    }
    for (const [word, constant] of CONSTANTS) {
      if (text.startsWith(word, at)) return [constant, at + word.length];
    }
    return this.number(at);
  }

  number(at) {
    NUMBER.lastIndex = at;
    const found = NUMBER.exec(this.text);
    if (found === null) throw this.fail("Expecting value", at);
    const written = found[0];
    const end = at + written.length;
    if (found[1] !== undefined || found[2] !== undefined) return [new JsonFloat(Number(written)), end];
    if (written.replace("-", "").length > LIMITS.MAX_JSON_DIGITS) {
      throw new MatchFileError(told(ProblemCode.OUT_OF_RANGE, "",
        { digits: LIMITS.MAX_JSON_DIGITS, start: written.slice(0, 12) }, "json_digits"));
    }
    const value = Number(written);
    return [Number.isSafeInteger(value) ? value : BigInt(written), end]; // a whole number keeps every digit
  }

  string(start) {
    const { text } = this;
    let read = "";
    let at = start;
    for (;;) {
      let next = at;
      while (next < text.length && text[next] !== '"' && text[next] !== "\\") {
        if (text.charCodeAt(next) <= 0x1f) throw this.fail("Invalid control character at", next);
        next += 1;
      }
      if (next >= text.length) throw this.fail("Unterminated string starting at", start - 1);
      read += text.slice(at, next);
      if (text[next] === '"') return [read, next + 1];
      next += 1;
      if (next === text.length) throw this.fail("Unterminated string starting at", start - 1);
      if (text[next] !== "u") {
        if (!Object.hasOwn(ESCAPES, text[next])) throw this.fail("Invalid \\escape", next - 1);
        read += ESCAPES[text[next]];
        at = next + 1;
      } else {
        const hex = text.slice(next + 1, next + 5);
        if (next + 5 >= text.length) throw this.fail("Invalid \\uXXXX escape", next);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw this.fail("Invalid \\uXXXX escape", next);
        read += String.fromCharCode(parseInt(hex, 16)); // two halves of a pair written apart join as one
        at = next + 5;
      }
    }
  }

  object(start, depth) {
    const found = {};
    const keys = [];
    let at = this.skip(start);
    if (this.text[at] === "}") return [found, at + 1];
    for (;;) {
      if (this.text[at] !== '"') throw this.fail("Expecting property name enclosed in double quotes", at);
      const [key, afterKey] = this.string(at + 1);
      at = this.skip(afterKey);
      if (this.text[at] !== ":") throw this.fail("Expecting ':' delimiter", at);
      const [item, afterItem] = this.value(this.skip(at + 1), depth);
      Object.defineProperty(found, key, { value: item, enumerable: true, writable: true, configurable: true });
      keys.push(key);
      at = this.skip(afterItem);
      if (this.text[at] === "}") {
        if (keys.length > Object.keys(found).length) {
          REPEATED.set(found, keys.find((key) => keys.indexOf(key) !== keys.lastIndexOf(key)));
        }
        return [found, at + 1];
      }
      if (this.text[at] !== ",") throw this.fail("Expecting ',' delimiter", at);
      at = this.skip(at + 1);
    }
  }

  array(start, depth) {
    const found = [];
    let at = this.skip(start);
    if (this.text[at] === "]") return [found, at + 1];
    for (;;) {
      const [item, afterItem] = this.value(at, depth);
      found.push(item);
      at = this.skip(afterItem);
      if (this.text[at] === "]") return [found, at + 1];
      if (this.text[at] !== ",") throw this.fail("Expecting ',' delimiter", at);
      at = this.skip(at + 1);
    }
  }
}

const REPEATED = new WeakMap(); // a decoded object given a key twice → the first of its keys given more than once

const isContainer = (value) => Array.isArray(value) || (value !== null && Object.getPrototypeOf(value) === Object.prototype);

/** Depth, keys given twice and unpaired surrogates, walked in the order text.py walks them. */
function checkDecoded(data) {
  const stack = [[data, 0, ""]];
  while (stack.length) {
    const [value, depth, path] = stack.pop();
    if (typeof value === "string") {
      checkText(value, path);
    } else if (isContainer(value)) {
      if (depth >= LIMITS.MAX_JSON_DEPTH) throw tooDeep(path);
      if (Array.isArray(value)) {
        value.forEach((item, i) => stack.push([item, depth + 1, `${path}[${i}]`]));
      } else {
        if (REPEATED.has(value)) {
          const key = REPEATED.get(value);
          throw new MatchFileError(told(ProblemCode.DUPLICATE_KEY, joinPath(path, key), { key: JSON.stringify(key) }));
        }
        for (const [key, item] of Object.entries(value)) {
          checkText(key, path); // an unreadable key is named by the object that holds it
          stack.push([item, depth + 1, joinPath(path, key)]);
        }
      }
    }
  }
}

function checkText(text, path) {
  if (/\p{Cs}/u.test(text)) {
    throw new MatchFileError(told(ProblemCode.BAD_CHARACTER, path, {}, "surrogate"));
  }
}

/** Decode JSON text as load_json does: bounded nesting and whole numbers, no unpaired surrogates; throws a
 * MatchFileError (not_json, too_deep, out_of_range, bad_character, duplicate_key). */
export function loadJson(text) {
  const reader = new JsonReader(text);
  if (text.startsWith("\ufeff")) throw reader.fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
  const [data, end] = reader.value(reader.skip(0), 0);
  const rest = reader.skip(end);
  if (rest !== text.length) throw reader.fail("Extra data", rest);
  checkDecoded(data);
  return data;
}
