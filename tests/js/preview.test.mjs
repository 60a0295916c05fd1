// The phone's wording of a deal being entered (static/js/offline/preview.js) against the server's preview lines
// of every shared preview vector (tests/vectors/previews.json): the twin's numbers, worded on the phone, give the
// server's lines word for word.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as rules from "../../static/js/rules/index.js";
import { previewOf, previewSides } from "../../static/js/offline/preview.js";

const vectors = JSON.parse(readFileSync(new URL("../vectors/previews.json", import.meta.url), "utf8"));

test("every preview vector: the sides named as the server names them", () => {
  const failures = vectors.map((vector, i) => [i, vector.sides, previewSides(rules.matchFromJson(vector.file), rules)])
    .filter(([, want, got]) => JSON.stringify(want) !== JSON.stringify(got));
  assert.deepEqual(failures.slice(0, 3), []);
});

test("every preview vector: the twin's numbers worded on the phone give the server's lines", () => {
  const failures = vectors.map((vector, i) => [i, { ready: vector.ready, lines: vector.lines },
    previewOf(rules, rules.matchFromJson(vector.file), vector.number)])
    .filter(([, want, got]) => JSON.stringify(want) !== JSON.stringify(got));
  assert.ok(vectors.length >= 500 && vectors.filter((vector) => vector.ready).length >= 400);
  assert.deepEqual(failures.slice(0, 3), [], `${failures.length} of ${vectors.length} differ`);
});
