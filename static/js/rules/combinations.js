// The meld combinations and the class each belongs to: the twin of combinations.py.

import { ProblemCode, RulesError, problem } from "./problems.js";

/** The combinations in the core's order; the value is the key in a match file. */
export const COMBINATIONS = Object.freeze([
  "run", "royal_marriage", "marriage", "dix", "pinochle",
  "aces_around", "kings_around", "queens_around", "jacks_around",
]);

/** The meld class of each combination: 1 trump and marriages, 2 pinochle, 3 around. */
export const MELD_CLASS = Object.freeze({
  run: 1, royal_marriage: 1, marriage: 1, dix: 1, pinochle: 2,
  aces_around: 3, kings_around: 3, queens_around: 3, jacks_around: 3,
});

export const combinationLabel = (combination) => combination.replaceAll("_", " ");

/** Whether the deck holds the cards: the dix is a nine, and a double deck has none. */
export const possibleIn = (combination, deck) => combination !== "dix" || deck === "single";

/** Read a combination's key; throw a RulesError (unknown_combination) otherwise. */
export function combinationFromKey(key) {
  if (!COMBINATIONS.includes(key)) {
    throw new RulesError(problem(ProblemCode.UNKNOWN_COMBINATION, "",
      `'${key}' is not a meld combination (use ${COMBINATIONS.join(", ")})`));
  }
  return key;
}
