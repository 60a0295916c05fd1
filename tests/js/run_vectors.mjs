// Runs shared vectors through the browser twin and lists every difference from the Python core's answer.
// Used by node (vectors.test.mjs) and, unchanged, inside Chromium (tests/e2e/test_rules_twin.py): it takes
// the twin's module (static/js/rules/index.js) as an argument and imports nothing itself.

export const KINDS = ["meld", "matches", "rule_changes", "match_files", "readings", "dealers", "messages", "previews"];

/** JSON text with object keys sorted, so that two answers compare whatever order their keys came in. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What the twin answers, in the vectors' shape: a result, the contradictions, or the problem refused. */
function outcome(rules, work) {
  try {
    return { result: work() };
  } catch (error) {
    if (error instanceof rules.ContradictionError) {
      return { contradictions: error.rooted().map((p) => [p.code, p.path, p.message]) };
    }
    if (error instanceof rules.RulesError) return { error: [error.problem.code, error.problem.path, error.problem.message] };
    return { crash: String(error && error.stack || error) };
  }
}

const expected = (vector) => {
  const { result, contradictions, error } = vector;
  if (result !== undefined) return { result };
  return contradictions !== undefined ? { contradictions } : { error };
};

function compare(failures, label, want, got) {
  const a = canonical(want);
  const b = canonical(got);
  if (a !== b) failures.push({ case: label, want: a.slice(0, 400), got: b.slice(0, 400) });
}

/** The vector's meld table, with the table's own prices over it when it gives some. */
const tableOf = (rules, vector) => (vector.prices ? rules.pricedTable(vector.table, rules.parseMeldPrices(vector.prices))
  : vector.table);

function meld(rules, vectors, failures) {
  let count = 0;
  vectors.prices.forEach(([combination, sets, table, price], i) => {
    count += 1;
    compare(failures, `prices[${i}]`, price, rules.price(combination, sets, table));
  });
  vectors.hands.forEach((vector, i) => {
    count += 1;
    const got = outcome(rules, () => rules.bestMelds(rules.handFromText(vector.hand, vector.deck), vector.trump, tableOf(rules, vector)));
    compare(failures, `hands[${i}]`, { result: vector.melds }, got);
  });
  vectors.sets.forEach((vector, i) => {
    count += 1;
    compare(failures, `sets[${i}]`, { result: vector.meld }, outcome(rules, () => rules.priceSets(vector.sets, tableOf(rules, vector))));
  });
  vectors.presets.forEach(([key, table, prices], i) => {
    count += 1;
    compare(failures, `presets[${i}]`, prices, rules.presetPrices(key, table));
  });
  return count;
}

/** The twin's answer to one vector of a match kind. */
function matchAnswer(rules, kind, vector) {
  if (kind === "previews") return outcome(rules, () => rules.dealNumbers(rules.matchFromJson(vector.file), vector.number));
  if (kind === "rule_changes") {
    return outcome(rules, () => rules.previewRules(rules.matchFromJson(vector.file), rules.rulesFromMapping(vector.rules)));
  }
  return outcome(rules, () => rules.scoreMatch(rules.matchFromJson(vector.file, { stored: vector.stored === true })));
}

/** The twin's answer to one reading: a typed number, a card list, rule values or a match file's JSON text. */
function reading(rules, vector) {
  if (vector.read === "whole_number") return outcome(rules, () => rules.parseWholeNumber(vector.text));
  if (vector.read === "hand") return outcome(rules, () => rules.handCodes(rules.handFromText(vector.text, vector.deck)));
  if (vector.read === "rules") {
    return outcome(rules, () => rules.rulesFromMapping(vector.data, rules.DEFAULT_RULES, { stored: vector.stored === true }));
  }
  return outcome(rules, () => rules.scoreMatch(rules.loadsMatch(vector.text)));
}

/** A message template filled in, or the problems of a new deal in a match. */
function message(rules, vector) {
  if (vector.say !== undefined) return outcome(rules, () => rules.say(vector.say, vector.fields));
  if (vector.sentence !== undefined) return outcome(rules, () => rules.sentence(vector.sentence));
  return outcome(rules, () => {
    const match = rules.matchFromJson(vector.match);
    const deal = rules.dealFromJson(vector.deal, match.sides.length, "", match.rules);
    return rules.checkNewDeal(match, deal).map((p) => [p.code, p.path, p.message]);
  });
}

/** Run one kind of vectors; `rules` is the twin's module. A match file's text whose answer turns on what
 * only Python's JSON reader tells apart (marked `"reader": "python"` by make.py: a float written 500.0, a key
 * given twice, Python's own message for broken JSON …) is left out and counted as `skipped`: the twin reads
 * JSON with JSON.parse, and only the server reads the text a person sends.
 * @returns {{count: number, skipped: number, failures: object[]}} */
export function runKind(kind, vectors, rules) {
  const failures = [];
  if (kind === "messages") {
    vectors.forEach((vector, i) => compare(failures, `${kind}[${i}]`, expected(vector), message(rules, vector)));
    return { count: vectors.length, skipped: 0, failures };
  }
  if (kind === "meld") return { count: meld(rules, vectors, failures), skipped: 0, failures };
  if (kind === "dealers") {
    vectors.forEach((vector, i) => compare(failures, `${kind}[${i}]`,
      { seats: vector.seats, hands: vector.hands, dealer: vector.dealer },
      { seats: rules.seatOrder(vector.file.sides), hands: rules.sideHands(rules.matchFromJson(vector.file)),
        dealer: rules.nextDealer(vector.file) }));
    return { count: vectors.length, skipped: 0, failures };
  }
  if (kind === "readings") {
    const read = vectors.filter((vector) => vector.reader !== "python");
    vectors.forEach((vector, i) => {
      if (vector.reader !== "python") compare(failures, `${kind}[${i}]`, expected(vector), reading(rules, vector));
    });
    return { count: read.length, skipped: vectors.length - read.length, failures };
  }
  vectors.forEach((vector, i) => compare(failures, `${kind}[${i}]`, expected(vector), matchAnswer(rules, kind, vector)));
  return { count: vectors.length, skipped: 0, failures };
}
