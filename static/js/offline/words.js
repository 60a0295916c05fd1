// The words that are no problem's (messages.py WORDS: a deal in a few words, a deal's pages and the outbox's
// titles), which a page can take without the problems' messages.

import { WORDS } from "../rules/declarations.js";
import { fill } from "../rules/fill.js";

/** The words of `key` (`deal.passed`, `change.rules` …) with `fields` filled in. */
export const tell = (key, fields = {}) => fill(WORDS[key], fields);
