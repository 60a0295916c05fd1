// Names as a person types them: the twin of clean_name in text.py (NFC, spaces stripped as Python strips
// them, no control characters, line separators, lone surrogates or invisible format characters but the
// joiners); and JSON text read with JSON.parse and load_json's checks.

import { LIMITS } from "./declarations.js";
import { MatchFileError, ProblemCode, joinPath, problem } from "./problems.js";
import { strip } from "./spaces.js";

const BAD = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]|(?![\u200C\u200D\u{E0020}-\u{E007F}])\p{Cf}/u;
const length = (text) => [...text].length; // characters, as Python counts them

function kind(char) {
  if (/\p{Cs}/u.test(char)) return "unpaired surrogate";
  if (/\p{Cf}/u.test(char)) return "invisible character";
  return /[\p{Zl}\p{Zp}]/u.test(char) ? "line separator" : "control character";
}

/** `text` as a name, at most `maximum` characters; throws a MatchFileError (bad_character, too_long) at `path`. */
export function cleanName(text, path, maximum, what = "a name") {
  const tooLong = () => new MatchFileError(problem(ProblemCode.TOO_LONG, path, `${what} has at most ${maximum} characters`));
  if (length(text) > 4 * maximum + 64) throw tooLong();
  const bad = BAD.exec(text);
  if (bad !== null) {
    const code = bad[0].codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
    throw new MatchFileError(problem(ProblemCode.BAD_CHARACTER, path, `${what} cannot hold the ${kind(bad[0])} U+${code}`));
  }
  const name = strip(text.normalize("NFC"));
  if (length(name) > maximum) throw tooLong();
  return name;
}

const tooDeep = (path) =>
  new MatchFileError(problem(ProblemCode.TOO_DEEP, path, `lists and objects nested more than ${LIMITS.MAX_JSON_DEPTH} deep`));

function checkText(text, path) {
  if (/\p{Cs}/u.test(text)) {
    throw new MatchFileError(problem(ProblemCode.BAD_CHARACTER, path,
      "text holds half of a surrogate pair (such as \\ud800), which is no character"));
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
    throw new MatchFileError(problem(ProblemCode.NOT_JSON, "", `not valid JSON: ${error instanceof Error ? error.message : error}`));
  }
  checkDecoded(data);
  return data;
}
