// Names as a person types them: the twin of clean_name in text.py (NFC, spaces stripped as Python strips
// them, no control characters, line separators, lone surrogates or invisible format characters but the joiners).

import { MatchFileError, ProblemCode } from "./problems.js";
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
