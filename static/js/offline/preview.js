// What a deal being entered would score, in words, worked out on this phone: the numbers from the rules core's
// twin (rules/explain.js dealNumbers) on the match with the deal in place, worded as the server's preview words
// them (sheet/deal_preview.py: preview_lines, with messages.py's `preview.…` words from words.js). The deal form
// shows these when the server's preview cannot be had; tests/vectors/previews.json holds both to the same lines.

import { points } from "./sheet.js";
import { tell } from "./words.js";

/** A deal's score with its sign: +24, −50, 0 (sheet/view.py's signed_points). */
const signedPoints = (value) => (value > 0 ? `+${value}` : points(value));
const VERBS = { made: "preview.made", set: "preview.set", thrown_in: "preview.thrown_in" };  // the bidders' head

/** Each side of the twin's `match` as the preview names it: [name, more than one hand] (deal_preview.py's
 * preview_sides: a side of more than one hand, as the twin's sideHands counts them, takes "make").
 * @returns {Array<[string, boolean]>} */
export function previewSides(match, twin) {
  const hands = twin.sideHands(match);
  return match.sides.map((side, index) => [twin.shownSideName(side), hands[index] > 1]);
}

/** The twin's numbers of a deal (`dealNumbers`) in words: a line for each side, and one after them when the deal
 * does not count. @param {Array<[string, boolean]>} sides @returns {string[]} */
export function previewLines(numbers, sides) {
  if (numbers.status === "passed") return [tell("preview.passed")];
  const lines = sides.map(([name, plural], index) => sideLine(numbers, index, name, plural));
  return numbers.after_end ? [...lines, tell("preview.after_end")] : lines;
}

function sideLine(numbers, index, name, plural) {
  const shown = numbers.sides[index];
  const verb = index === numbers.bidder ? VERBS[numbers.status] : undefined;
  const head = verb ? tell(plural ? verb : `${verb}.one`, { side: name }) : name;
  let text = tell("preview.score", { head, score: signedPoints(shown.score) });
  if (shown.total !== null) text = tell("preview.total", { line: text, total: points(shown.total) });
  if (shown.lost !== null) {
    text = tell("preview.lost", { line: text, meld: shown.meld, reason: tell(`preview.lost.${shown.lost}`) });
  }
  return text;
}

/** Deal `number` of the twin's `match` (the match with the deal in place) previewed as the server answers it:
 * `ready` and the lines, or the first contradiction's message when the facts contradict the house rules.
 * @returns {{ready: boolean, lines: string[]}} */
export function previewOf(twin, match, number) {
  try {
    return { ready: true, lines: previewLines(twin.dealNumbers(match, number), previewSides(match, twin)) };
  } catch (error) {
    if (!(error instanceof twin.ContradictionError)) throw error;
    const problems = /** @type {{problems: Array<[number, {message: string}]>}} */ (error).problems;
    return { ready: false, lines: problems.slice(0, 1).map(([, problem]) => problem.message) };
  }
}
