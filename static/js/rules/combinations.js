// The meld combinations and the class each belongs to (declarations.js): the twin of combinations.py.

import { COMBINATIONS, MELD_CLASS } from "./declarations.js";
import { ProblemCode, RulesError, toldBasic } from "./problems.js";

export { COMBINATIONS, MELD_CLASS };

export const combinationLabel = (combination) => combination.replaceAll("_", " ");

/** Whether the deck holds the cards: the dix is a nine, and a double deck has none. */
export const possibleIn = (combination, deck) => combination !== "dix" || deck === "single";

/** Read a combination's key; throw a RulesError (unknown_combination) otherwise. */
export function combinationFromKey(key) {
  if (!COMBINATIONS.includes(key)) {
    throw new RulesError(toldBasic(ProblemCode.UNKNOWN_COMBINATION, "", { key, names: COMBINATIONS.join(", ") }));
  }
  return key;
}
