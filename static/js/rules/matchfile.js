// Reading a decoded match file (format pinochle-match/1) into the facts of a match: the twin of
// matchfile.py's reader. Every refusal is a MatchFileError whose problem names the place, e.g.
// `deals[3].sides[1].tricks`, with the core's code.

import { RANKS, cardFromText, hand, rankFromText, suitFromText } from "./cards.js";
import { COMBINATIONS, combinationFromKey } from "./combinations.js";
import { FORMAT, LIMITS, MATCH_FILE_KEYS } from "./declarations.js";
import { DEFAULT_RULES, RULE_SPECS_BY_KEY, parseRule, rulesFromMapping } from "./house_rules.js";
import { PASSED_DEAL, makeDeal, makeMatch } from "./match.js";
import { isWholeNumber } from "./numbers.js";
import { MatchFileError, ProblemCode, RulesError, joinPath, problem, problemAt } from "./problems.js";
import { say, told } from "./messages.js";
import { strip, words } from "./spaces.js";
import { cleanName, loadJson } from "./text.js";

export { FORMAT };
const { match: MATCH_KEYS, side: SIDE_KEYS, deal: DEAL_KEYS, entered_under: BASIS_KEYS } = MATCH_FILE_KEYS;

/** A refusal at `path` that says its code's message (or the variant's: messages.py). */
const fail = (code, path, variant = "", fields = {}) => new MatchFileError(told(code, path, fields, variant));
/** A JSON object, not a list. */
const isObject = (data) => data !== null && typeof data === "object" && Object.getPrototypeOf(data) === Object.prototype;
const has = (obj, key) => Object.hasOwn(obj, key);
const given = (obj, key) => has(obj, key) && obj[key] !== null;

function object(data, path, top = "match") {
  if (!isObject(data)) throw fail(ProblemCode.WRONG_TYPE, path, path ? "object" : top);
  return data;
}

function list(data, path) {
  if (!Array.isArray(data)) throw fail(ProblemCode.WRONG_TYPE, path, "list");
  return data;
}

function text(data, path) {
  if (typeof data !== "string") throw fail(ProblemCode.WRONG_TYPE, path, "text");
  return data;
}

function bool(data, path) {
  if (typeof data !== "boolean") throw fail(ProblemCode.WRONG_TYPE, path, "switch");
  return data;
}

function suit(data, path) {
  const written = text(data, path);
  try {
    return suitFromText(written);
  } catch (error) {
    if (!(error instanceof RulesError)) throw error;
    throw new MatchFileError(problemAt(error.problem, path));
  }
}

function count(data, path, minimum = 0) {
  if (!isWholeNumber(data)) throw fail(ProblemCode.NOT_A_NUMBER, path);
  if (data < minimum) throw fail(ProblemCode.OUT_OF_RANGE, path, "at_least", { minimum });
  if (data > LIMITS.MAX_NUMBER) throw fail(ProblemCode.OUT_OF_RANGE, path, "at_most", { maximum: LIMITS.MAX_NUMBER });
  return data;
}

function index(data, path, size) {
  const value = count(data, path);
  if (value >= size) throw fail(ProblemCode.BIDDER_UNKNOWN, path, "index", { last: size - 1 });
  return value;
}

function optional(obj, key, fallback, read, path = "") {
  return given(obj, key) ? read(obj[key], joinPath(path, key)) : fallback;
}

function onlyKeys(obj, allowed, path, hint = "") {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw fail(ProblemCode.UNKNOWN_KEY, joinPath(path, key), hint, { allowed: [...allowed].sort().join(", ") });
    }
  }
}

/** A file that leaves out `auction` has one unless a played deal has no bidder. */
const auctionImplied = (deals) => !deals.some((deal) => deal.bidder === null && !deal.passed);

/** Read a match file from JSON text, as loads_match does (numbers and nesting as load_json reads them). */
export const loadsMatch = (text) => matchFromJson(loadJson(text));

/** Build a match from a decoded match file. `stored`: facts this app stored earlier, read back (names
 * taken as stored, the limits on names, players and deals not applied again, rule values read as stored). */
export function matchFromJson(data, { stored = false } = {}) {
  const obj = object(data, "");
  onlyKeys(obj, MATCH_KEYS, "");
  if (obj.format !== FORMAT) throw fail(ProblemCode.WRONG_FORMAT, "format", "", { format: FORMAT });
  let name = optional(obj, "name", "", text);
  if (!stored) name = cleanName(name, "name", LIMITS.MAX_MATCH_NAME, say("name.match"));
  const sides = readSides(obj.sides, "sides", stored);
  const rulesData = optional(obj, "rules", {}, object);
  let rules;
  try {
    rules = rulesFromMapping(rulesData, DEFAULT_RULES, { stored });
  } catch (error) {
    if (!(error instanceof RulesError)) throw error;
    throw new MatchFileError(error.problem.path.startsWith("rules") ? error.problem : problemAt(error.problem, "rules"));
  }
  const dealsData = optional(obj, "deals", [], list);
  if (dealsData.length > LIMITS.MAX_DEALS && !stored) {
    throw fail(ProblemCode.TOO_MANY_DEALS, "deals", "file", { most: LIMITS.MAX_DEALS, deals: dealsData.length });
  }
  const deals = dealsData.map((item, i) => dealFromJson(item, sides.length, `deals[${i}]`, rules, { stored }));
  const auction = optional(obj, "auction", auctionImplied(deals), bool);
  const firstDealer = optional(obj, "first_dealer", null, namedPlayer);
  if (firstDealer !== null && sides.every((side) => !side.players.includes(firstDealer))) {
    throw fail(ProblemCode.DEALER_UNKNOWN, "first_dealer", "", { player: firstDealer });
  }
  return makeMatch({ sides, rules, deals, name, auction, firstDealer });
}

/** Read one deal of a match played under `rules`; only the form of the facts is checked here. `stored`: a deal
 * this app stored earlier, its pricing read as stored values. */
export function dealFromJson(data, sideCount, path = "", rules = DEFAULT_RULES, { stored = false } = {}) {
  const obj = object(data, path, "object");
  if (obj.passed === true) {
    onlyKeys(obj, ["passed"], path);
    return PASSED_DEAL;
  }
  onlyKeys(obj, DEAL_KEYS, path);
  if (has(obj, "passed") && obj.passed !== false) {
    throw fail(ProblemCode.WRONG_TYPE, joinPath(path, "passed"), "switch");
  }
  if (!has(obj, "bidder")) {
    throw fail(ProblemCode.MISSING_KEY, joinPath(path, "bidder"), "bidder");
  }
  let bidder = obj.bidder;
  let bid = null;
  if (bidder !== null) {
    bidder = index(bidder, joinPath(path, "bidder"), sideCount);
    if (!given(obj, "bid")) throw fail(ProblemCode.MISSING_KEY, joinPath(path, "bid"), "bid");
    bid = count(obj.bid, joinPath(path, "bid"), 1);
  } else if (given(obj, "bid")) {
    throw fail(ProblemCode.BID_WITHOUT_BIDDER, joinPath(path, "bid"));
  }
  const trump = optional(obj, "trump", null, suit, path);
  const thrownIn = optional(obj, "thrown_in", false, bool, path);
  if (thrownIn && bidder === null) {
    throw fail(ProblemCode.THROWN_IN_WITHOUT_BIDDER, joinPath(path, "thrown_in"));
  }
  const sidesPath = joinPath(path, "sides");
  const sidesData = list(obj.sides, sidesPath);
  if (sidesData.length !== sideCount) {
    throw fail(ProblemCode.SIDE_COUNT, sidesPath, "deal", { sides: sideCount });
  }
  const sides = sidesData.map((item, i) => sideEntry(item, `${sidesPath}[${i}]`, rules.deck));
  const enteredUnder = given(obj, "entered_under")
    ? basis(obj.entered_under, joinPath(path, "entered_under"), rules, stored) : null;
  const out = optional(obj, "out", false, bool, path);
  const forced = optional(obj, "forced", false, bool, path);
  const bidBy = optional(obj, "bid_by", null, namedPlayer, path);
  const dealtBy = optional(obj, "dealt_by", null, namedPlayer, path);
  return makeDeal({ sides, bidder, bid, trump, thrownIn, enteredUnder, bidBy, dealtBy, out, forced });
}

/** `bid_by` or `dealt_by`: a player's name, written as in `sides[].players`. */
const namedPlayer = (data, path) => player(data, path, false);

function sideEntry(data, path, deck) {
  const obj = object(data, path);
  const tookTrick = optional(obj, "took_trick", null, bool, path);
  if (has(obj, "total")) {
    onlyKeys(obj, ["total", "took_trick"], path, "total");
    return Object.freeze({ kind: "total", total: count(obj.total, `${path}.total`), tookTrick });
  }
  onlyKeys(obj, ["meld", "tricks", "last_trick", "took_trick"], path);
  let meld = [];
  if (has(obj, "meld")) {
    if (Array.isArray(obj.meld) && obj.meld.length > LIMITS.MAX_PLAYERS) {
      throw fail(ProblemCode.TOO_MANY_PLAYERS, `${path}.meld`, "meld", { most: LIMITS.MAX_PLAYERS });
    }
    meld = Array.isArray(obj.meld)
      ? obj.meld.map((item, i) => meldFact(item, `${path}.meld[${i}]`, deck))
      : [meldFact(obj.meld, `${path}.meld`, deck)];
  }
  const tricks = given(obj, "tricks") ? trickFact(obj.tricks, `${path}.tricks`) : null;
  const lastTrick = optional(obj, "last_trick", false, bool, path);
  return Object.freeze({ kind: "detail", meld: Object.freeze(meld), tricks, lastTrick, tookTrick });
}

function meldFact(data, path, deck) {
  if (!isObject(data)) return Object.freeze({ kind: "points", points: count(data, path) });
  if (has(data, "cards")) {
    onlyKeys(data, ["cards", "trump"], path);
    const cards = data.cards;
    if (!(typeof cards === "string" || (Array.isArray(cards) && cards.every((c) => typeof c === "string")))) {
      throw fail(ProblemCode.WRONG_TYPE, `${path}.cards`, "cards");
    }
    const counts = new Array(24).fill(0);
    const tokens = typeof cards === "string" ? words(cards) : cards;
    tokens.forEach((token, i) => {
      try {
        counts[cardFromText(token)] += 1;
      } catch (error) {
        if (!(error instanceof RulesError)) throw error;
        throw new MatchFileError(problemAt(error.problem, `${path}.cards[${i}]`));
      }
    });
    return Object.freeze({ kind: "cards", hand: hand(counts, deck), trump: optional(data, "trump", null, suit, path) });
  }
  const sets = [];
  for (const [key, value] of Object.entries(data)) {
    let combination;
    try {
      combination = combinationFromKey(key);
    } catch (error) {
      if (!(error instanceof RulesError)) throw error;
      throw new MatchFileError(problemAt(error.problem, `${path}.${key}`));
    }
    const n = count(value, `${path}.${key}`);
    if (n) sets.push([combination, n]);
  }
  sets.sort((a, b) => COMBINATIONS.indexOf(a[0]) - COMBINATIONS.indexOf(b[0]));
  return Object.freeze({ kind: "sets", sets });
}

function trickFact(data, path) {
  if (!isObject(data)) return Object.freeze({ kind: "points", points: count(data, path) });
  if (has(data, "counters")) {
    onlyKeys(data, ["counters"], path);
    return Object.freeze({ kind: "counters", counters: count(data.counters, `${path}.counters`) });
  }
  if (has(data, "cards")) {
    onlyKeys(data, ["cards"], path);
    const ranks = object(data.cards, `${path}.cards`);
    const byRank = new Map();
    for (const [key, value] of Object.entries(ranks)) {
      let rank;
      try {
        rank = rankFromText(key);
      } catch (error) {
        if (!(error instanceof RulesError)) throw error;
        throw new MatchFileError(problemAt(error.problem, `${path}.cards.${key}`));
      }
      byRank.set(rank, (byRank.get(rank) ?? 0) + count(value, `${path}.cards.${key}`));
    }
    return Object.freeze({ kind: "cards", byRank: RANKS.filter((rank) => byRank.get(rank)).map((rank) => [rank, byRank.get(rank)]) });
  }
  throw fail(ProblemCode.WRONG_TYPE, path, "tricks");
}

/** Case-insensitive as Python's casefold, near enough for names: ß and SS match. */
const folded = (name) => name.toUpperCase().toLowerCase();

function readSides(data, path, stored) {
  const items = list(data, path);
  if (items.length < LIMITS.MIN_SIDES || items.length > LIMITS.MAX_SIDES) {
    throw fail(ProblemCode.SIDE_COUNT, path, "match", { least: LIMITS.MIN_SIDES, most: LIMITS.MAX_SIDES });
  }
  const sides = [];
  items.forEach((item, i) => {
    const sidePath = `${path}[${i}]`;
    const obj = object(item, sidePath);
    onlyKeys(obj, SIDE_KEYS, sidePath);
    let name = text(obj.name, `${sidePath}.name`);
    name = stored ? strip(name) : cleanName(name, `${sidePath}.name`, LIMITS.MAX_SIDE_NAME, say("name.side"));
    if (!name) throw fail(ProblemCode.NAME_MISSING, `${sidePath}.name`, "side");
    const players = optional(obj, "players", [], list, sidePath);
    if (players.length > LIMITS.MAX_PLAYERS && !stored) {
      throw fail(ProblemCode.TOO_MANY_PLAYERS, `${sidePath}.players`, "", { most: LIMITS.MAX_PLAYERS });
    }
    const names = players.map((p, j) => player(p, `${sidePath}.players[${j}]`, stored));
    if (!stored) refuseSeatedTwice(names, sides, `${sidePath}.players`);
    if (!stored && sides.some((other) => folded(other.name) === folded(name))) {
      throw fail(ProblemCode.DUPLICATE_NAME, `${sidePath}.name`);
    }
    sides.push(Object.freeze({ name, players: Object.freeze(names) }));
  });
  return sides;
}

/** One player sits at one place: not twice on a side, not on two sides. */
function refuseSeatedTwice(names, earlier, path) {
  const seen = new Set(earlier.flatMap((side) => side.players.map(folded)));
  names.forEach((name, j) => {
    if (seen.has(folded(name))) throw fail(ProblemCode.DUPLICATE_PLAYER, `${path}[${j}]`, "", { player: name });
    seen.add(folded(name));
  });
}

function player(data, path, stored) {
  const name = text(data, path);
  if (stored) return name;
  const cleaned = cleanName(name, path, LIMITS.MAX_PLAYER_NAME, say("name.player"));
  if (!cleaned) throw fail(ProblemCode.NAME_MISSING, path, "player");
  return cleaned;
}

/** `entered_under`: a key left out means the same as the match's rule. */
function basis(data, path, rules, stored) {
  const obj = object(data, path);
  onlyKeys(obj, BASIS_KEYS, path);
  const values = {};
  for (const key of BASIS_KEYS) {
    try {
      values[key] = has(obj, key) ? parseRule(RULE_SPECS_BY_KEY[key], obj[key], { stored }) : rules[key];
    } catch (error) {
      if (!(error instanceof RulesError)) throw error;
      throw new MatchFileError(problem(error.code, `${path}.${key}`, error.problem.message));
    }
  }
  return Object.freeze(values);
}
