// The one reader of whole numbers, typed as text or decoded from JSON: the twin of numbers.py. Only ASCII
// digits count, spaces around aside (as str.strip() takes them: see spaces.js).

import { LIMITS, SHOWN } from "./declarations.js";
import { ProblemCode, RulesError } from "./problems.js";
import { told } from "./messages.js";
import { strip } from "./spaces.js";

const DIGITS = /^[0-9]+$/;

/** Text a person typed, as a message repeats it: long text cut short (Python counts characters). */
export function shownText(text) {
  const chars = [...text];
  return chars.length <= SHOWN ? text : `${chars.slice(0, SHOWN).join("")}…`;
}

/** The whole number in `text` (spaces around aside): ASCII digits only, at most `maxDigits`; throws a
 * RulesError with a not_a_number problem (out_of_range when there are too many digits) at `path`. */
export function parseWholeNumber(text, path = "", maxDigits = LIMITS.MAX_DIGITS) {
  const stripped = strip(text);
  if (!DIGITS.test(stripped)) {
    throw new RulesError(stripped ? told(ProblemCode.NOT_A_NUMBER, path, { text: shownText(stripped) }, "typed")
      : told(ProblemCode.NOT_A_NUMBER, path, {}, "empty"));
  }
  if (stripped.replace(/^0+/, "").length > maxDigits) {
    const fields = { text: shownText(stripped), digits: maxDigits };
    throw new RulesError(told(ProblemCode.OUT_OF_RANGE, path, fields, "digits"));
  }
  const value = Number(stripped);
  return Number.isSafeInteger(value) ? value : BigInt(stripped);
}

/** parseWholeNumber for a value that is simply ignored when unreadable: null then. */
export function wholeNumberOrNull(text, maxDigits = LIMITS.MAX_DIGITS) {
  try {
    return parseWholeNumber(text, "", maxDigits);
  } catch (error) {
    if (error instanceof RulesError) return null;
    throw error;
  }
}

/** Whether a decoded JSON value is a whole number to the Python core (an int, not a bool; a number too large
 * for a double, as parseWholeNumber reads it, is a BigInt). */
export const isWholeNumber = (value) => (typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint";

const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u; // what str.isprintable() refuses

/** A decoded JSON value as Python's repr writes it, for messages: None, True, 2.5, [1, 'AH'], {'k': 2}. */
export function pythonRepr(value) {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const escaped = [...value].map((char) => {
      if (char === "\\" || char === quote) return `\\${char}`;
      const special = { "\n": "\\n", "\r": "\\r", "\t": "\\t" }[char];
      if (special) return special;
      if (char === " " || !UNPRINTABLE.test(char)) return char;
      const code = char.codePointAt(0);
      const [prefix, width] = code < 0x100 ? ["x", 2] : code < 0x10000 ? ["u", 4] : ["U", 8];
      return `\\${prefix}${code.toString(16).padStart(width, "0")}`;
    });
    return quote + escaped.join("") + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`).join(", ")}}`;
  }
  return String(value);
}
