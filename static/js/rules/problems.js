// Problems as values: a stable code, the path of the place in the match file, a message for a player.
// The twin of scorekeeper/rules/problems.py and errors.py: the same codes (declarations.js), the same paths.

import { BASIC_MESSAGES, PROBLEM_CODES } from "./declarations.js";
import { fill, grouped } from "./fill.js";

export { grouped };

/** What kind of problem: one code per situation, named as the core's ProblemCode members (NOT_JSON for
 * not_json). */
export const ProblemCode = Object.freeze(Object.fromEntries(PROBLEM_CODES.map((code) => [code.toUpperCase(), code])));

/** @typedef {{code: string, path: string, message: string}} Problem */

/** @returns {Problem} */
export function problem(code, path, message) {
  return Object.freeze({ code, path, message });
}

/** The message of `key`, one of the basic messages (cards, meld sets, contradictions: messages.py
 * BASIC_MESSAGES), with its fields filled in; messages.js tells every other. */
export const sayBasic = (key, fields = {}) => fill(BASIC_MESSAGES[key], fields);

/** A problem at `path` that says its code's basic message (or the variant's) with `fields` filled in.
 * @returns {Problem} */
export function toldBasic(code, path, fields = {}, variant = "") {
  return problem(code, path, sayBasic(variant ? `${code}.${variant}` : code, fields));
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
  /** @param {Problem} found @param {string} [text] */
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
    const text = problems.map(([deal, found]) => sayBasic(ProblemCode.CONTRADICTION, { deal, message: found.message }))
      .join("; ");
    super(problem(ProblemCode.CONTRADICTION, problems.length ? `deals[${problems[0][0] - 1}]` : "", text));
    this.name = "ContradictionError";
    this.problems = problems;
  }

  /** Each problem with its path from the top of the match file, e.g. `deals[2].bid`. */
  rooted() {
    return this.problems.map(([number, found]) => problemAt(found, `deals[${number - 1}]`));
  }
}
