// Names as a person types them: the twin of clean_name in text.py (NFC, spaces stripped as Python strips
// them, no control characters, line separators, lone surrogates or invisible format characters but the
// joiners); and JSON text read with JSON.parse and load_json's checks.

import { LIMITS } from "./declarations.js";
import { MatchFileError, ProblemCode, joinPath } from "./problems.js";
import { say, told } from "./messages.js";
import { strip } from "./spaces.js";

const BAD = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]|(?![\u200C\u200D\u{E0020}-\u{E007F}])\p{Cf}/u;
const length = (text) => [...text].length; // characters, as Python counts them

function kind(char) {
  if (/\p{Cs}/u.test(char)) return say("character.surrogate");
  if (/\p{Cf}/u.test(char)) return say("character.invisible");
  return say(/[\p{Zl}\p{Zp}]/u.test(char) ? "character.line_separator" : "character.control");
}

/** `text` as a name, at most `maximum` characters; throws a MatchFileError (bad_character, too_long) at `path`. */
export function cleanName(text, path, maximum, what = say("name")) {
  const tooLong = () => new MatchFileError(told(ProblemCode.TOO_LONG, path, { what, maximum }, "name"));
  if (length(text) > 4 * maximum + 64) throw tooLong();
  const bad = BAD.exec(text);
  if (bad !== null) {
    const code = bad[0].codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
    throw new MatchFileError(told(ProblemCode.BAD_CHARACTER, path, { what, kind: kind(bad[0]), code }, "name"));
  }
  const name = strip(text.normalize("NFC"));
  if (length(name) > maximum) throw tooLong();
  return name;
}

const tooDeep = (path) =>
  new MatchFileError(told(ProblemCode.TOO_DEEP, path, { depth: LIMITS.MAX_JSON_DEPTH }));

function checkText(text, path) {
  if (/\p{Cs}/u.test(text)) {
    throw new MatchFileError(told(ProblemCode.BAD_CHARACTER, path, {}, "surrogate"));
  }
}

/** The checks of text.py's load_json on a value JSON.parse decoded: bounded nesting and no unpaired
 * surrogates, walked in the order load_json walks them. (A key given twice, a fraction or an exponent and
 * the exact digits of a very large number are gone once JSON.parse has read the text: the server, which
 * reads every file and form a person sends, refuses those.) */
function checkDecoded(data) {
  const stack = [[data, 0, ""]];
  while (stack.length) {
    const [value, depth, path] = stack.pop();
    if (typeof value === "string") {
      checkText(value, path);
    } else if (value !== null && typeof value === "object") {
      if (depth >= LIMITS.MAX_JSON_DEPTH) throw tooDeep(path);
      for (const [key, item] of Object.entries(value)) {
        if (!Array.isArray(value)) checkText(key, path); // an unreadable key is named by the object that holds it
        stack.push([item, depth + 1, Array.isArray(value) ? `${path}[${key}]` : joinPath(path, key)]);
      }
    }
  }
}

/** JSON text decoded by JSON.parse, then checked as load_json checks it; throws a MatchFileError
 * (not_json, too_deep, bad_character).
 * @param {string} text
 * @returns {unknown} */
export function loadJson(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new MatchFileError(told(ProblemCode.NOT_JSON, "", { reason: error instanceof Error ? error.message : error }, "unplaced"));
  }
  checkDecoded(data);
  return data;
}
