// The rules core's twin in the browser: the same answers as scorekeeper/rules/, kept equal by the
// shared vectors in tests/vectors/ and reading the core's declarations (declarations.js, generated).
// Import what a page needs from here.

export { ContradictionError, MatchFileError, ProblemCode, RulesError } from "./problems.js";
export { say, sentence } from "./messages.js";
export { handFromText, handCodes } from "./cards.js";
export { DEFAULT_RULES, RULE_SPECS, rulesFromMapping } from "./house_rules.js";
export { bestMeld, bestMelds, meldAllTrumps, price, priceSets } from "./meld.js";
export { parseMeldPrices, presetPrices, pricedTable, tableOf } from "./meld_prices.js";
export { dealFromJson, loadsMatch, matchFromJson } from "./matchfile.js";
export { loadJson } from "./text.js";
export { shownSideName, withDeals, withRules } from "./match.js";
export { checkMatch, checkNewDeal, dealProblems } from "./checks.js";
export { parseWholeNumber, wholeNumberOrNull } from "./numbers.js";
export { previewRules, scoreDeal, scoreMatch } from "./scoring.js";
export { dealNumbers, explainDeal, sideMeld } from "./explain.js";
export { nextDealer, seatOrder, sideHands } from "./rotation.js";
