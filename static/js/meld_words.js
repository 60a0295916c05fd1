// The words of the meld calculator and the card faces that the server also draws (messages.py MELD_WORDS),
// which these pages' scripts take without the problems' messages or the offline pages' words.
import { MELD_WORDS } from "./rules/declarations.js";
import { fill } from "./rules/fill.js";

/** The words of `key` (`calculator.use`, `faces.kept` …) with `fields` filled in. */
export const meldWords = (key, fields = {}) => fill(MELD_WORDS[key], fields);
