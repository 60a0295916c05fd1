// Problems as values: a stable code, the path of the place in the match file, a message for a player.
// The twin of scorekeeper/rules/problems.py and errors.py: the same codes, the same paths.

/** @typedef {{code: string, path: string, message: string}} Problem */

/** What kind of problem: one code per situation, as in the Python core's ProblemCode. */
export const ProblemCode = Object.freeze({
  NOT_JSON: "not_json", TOO_DEEP: "too_deep", WRONG_TYPE: "wrong_type", NOT_A_NUMBER: "not_a_number",
  OUT_OF_RANGE: "out_of_range", TOO_LONG: "too_long", BAD_CHARACTER: "bad_character",
  UNKNOWN_KEY: "unknown_key", MISSING_KEY: "missing_key", WRONG_FORMAT: "wrong_format",
  DUPLICATE_KEY: "duplicate_key",
  NAME_MISSING: "name_missing", DUPLICATE_NAME: "duplicate_name", DUPLICATE_PLAYER: "duplicate_player",
  SIDE_COUNT: "side_count",
  TOO_MANY_PLAYERS: "too_many_players", TOO_MANY_DEALS: "too_many_deals",
  NOT_A_CARD: "not_a_card", NOT_A_SUIT: "not_a_suit", NOT_A_RANK: "not_a_rank",
  CARD_NOT_IN_DECK: "card_not_in_deck", TOO_MANY_COPIES: "too_many_copies",
  UNKNOWN_COMBINATION: "unknown_combination",
  UNKNOWN_RULE: "unknown_rule", BAD_RULE_VALUE: "bad_rule_value",
  BIDDER_MISSING: "bidder_missing", BIDDER_UNKNOWN: "bidder_unknown", BID_MISSING: "bid_missing",
  BID_WITHOUT_BIDDER: "bid_without_bidder", BID_BELOW_MINIMUM: "bid_below_minimum",
  THROWN_IN_WITHOUT_BIDDER: "thrown_in_without_bidder", THROWN_IN_WITHOUT_AUCTION: "thrown_in_without_auction",
  OUT_WITHOUT_BIDDER: "out_without_bidder", FORCED_WITHOUT_BIDDER: "forced_without_bidder",
  BID_BY_NOT_BIDDER: "bid_by_not_bidder", DEALER_UNKNOWN: "dealer_unknown",
  MELD_NEEDS_TRUMP: "meld_needs_trump", IMPOSSIBLE_SETS: "impossible_sets", TRUMP_KINGS_SHORT: "trump_kings_short",
  HANDS_BEYOND_DECK: "hands_beyond_deck", MELDS_BEYOND_DECK: "melds_beyond_deck",
  COUNTERS_BEYOND_DECK: "counters_beyond_deck", COUNTERS_ON_CLASSIC: "counters_on_classic",
  RANK_BEYOND_DECK: "rank_beyond_deck", TRICKS_WITHOUT_TRICK: "tricks_without_trick",
  TRICKS_IN_THROWN_IN: "tricks_in_thrown_in", RANK_TOTAL: "rank_total", COUNTERS_TOTAL: "counters_total",
  LAST_TRICK_COUNT: "last_trick_count", LAST_TRICK_MISSING: "last_trick_missing", TRICK_TOTAL: "trick_total",
  NOT_A_MULTIPLE_OF_TEN: "not_a_multiple_of_ten", CONTRADICTION: "contradiction",
});

/** @returns {Problem} */
export function problem(code, path, message) {
  return Object.freeze({ code, path, message });
}

/** `prefix` followed by `path`: a key after a dot, an index (`[4]`) directly. */
export function joinPath(prefix, path) {
  if (!prefix || !path) return prefix || path;
  return path.startsWith("[") ? prefix + path : `${prefix}.${path}`;
}

/** The same problem with its path rooted at `prefix`. */
export function problemAt(found, prefix) {
  return problem(found.code, joinPath(prefix, found.path), found.message);
}

/** Input the rules do not allow; `problem` says what and where. */
export class RulesError extends Error {
  /** @param {Problem} found */
  constructor(found, text) {
    super(text ?? found.message);
    this.name = "RulesError";
    this.problem = found;
  }

  get code() { return this.problem.code; }
}

/** A match file that is not valid; the problem's path points at the place, e.g. `deals[3].bid`. */
export class MatchFileError extends RulesError {
  constructor(found) {
    super(found, found.path ? `${found.path}: ${found.message}` : found.message);
    this.name = "MatchFileError";
  }
}

/** Recorded facts the house rules say cannot have happened: [deal number from 1, problem] pairs. */
export class ContradictionError extends RulesError {
  /** @param {Array<[number, Problem]>} problems */
  constructor(problems) {
    const text = problems.map(([number, found]) => `deal ${number}: ${found.message}`).join("; ");
    super(problem(ProblemCode.CONTRADICTION, problems.length ? `deals[${problems[0][0] - 1}]` : "", text));
    this.name = "ContradictionError";
    this.problems = problems;
  }

  /** Each problem with its path from the top of the match file, e.g. `deals[2].bid`. */
  rooted() {
    return this.problems.map(([number, found]) => problemAt(found, `deals[${number - 1}]`));
  }
}

/** Whole numbers as the Python core writes them with `{:,}`: 1,000. */
export function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
