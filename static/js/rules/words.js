// Filling in the core's templates as messages.py does: `{name}` as is, `{name:,}` grouped by thousands, `{{` a
// brace; and the words that are no problem's (messages.py WORDS: a deal in a few words, the outbox's titles),
// which a page can take without the problems' messages.

import { WORDS } from "./declarations.js";

/** Whole numbers as the Python core writes them with `{:,}`: 1,000. */
export function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `template` with its fields filled in from `fields`. */
export function fill(template, fields = {}) {
  return template.replace(/\{\{|\}\}|\{(\w+)(:,)?\}/g, (found, name, group) => {
    if (name === undefined) return found[0];
    return group ? grouped(fields[name]) : String(fields[name]);
  });
}

/** The words of `key` (`deal.passed`, `change.rules` …) with `fields` filled in. */
export const tell = (key, fields = {}) => fill(WORDS[key], fields);
