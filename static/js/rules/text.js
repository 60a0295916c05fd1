// Names as a person types them: the twin of clean_name in text.py (NFC, spaces stripped as Python strips
// them, no control characters, line separators, lone surrogates or invisible format characters but the joiners).

import { MatchFileError, ProblemCode, problem } from "./problems.js";
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
