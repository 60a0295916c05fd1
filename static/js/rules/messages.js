// What a problem says to a player: the twin of messages.py, filling in the core's templates (declarations.js)
// in the same way (fill.js).

import { BASIC_MESSAGES, MESSAGES } from "./declarations.js";
import { problem } from "./problems.js";
import { fill } from "./fill.js";

const TEMPLATES = Object.freeze({ ...BASIC_MESSAGES, ...MESSAGES });

/** The message of `key` (a problem code, or a code and its variant: `impossible_sets.hand`) with its fields filled
 * in as the core's messages.py fills them (the words that are no problem's: static/js/offline/words.js). */
export const say = (key, fields = {}) => fill(TEMPLATES[key], fields);

/** A problem at `path` that says its code's message (or the variant's) with `fields` filled in. */
export function told(code, path, fields = {}, variant = "") {
  return problem(code, path, say(variant ? `${code}.${variant}` : code, fields));
}

/** A message as a sentence, as forms and pages show one: a capital first letter and a full stop (messages.py's
 * sentence). */
export function sentence(text) {
  const trimmed = text.trim();
  return trimmed.slice(0, 1).toUpperCase() + trimmed.slice(1) + (/[.?!]$/.test(trimmed) ? "" : ".");
}
