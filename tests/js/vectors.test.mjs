// The browser twin of the rules core (static/js/rules/) against every shared vector the Python core made
// (tests/vectors/, written by tests/vectors/make.py):  node --test tests/js
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as rules from "../../static/js/rules/index.js";
import { KINDS, runKind } from "./run_vectors.mjs";

const load = (kind) => JSON.parse(readFileSync(new URL(`../vectors/${kind}.json`, import.meta.url), "utf8"));

for (const kind of KINDS) {
  test(`${kind}: every vector gives the Python core's answer`, () => {
    const report = runKind(kind, load(kind), rules);
    assert.ok(report.count >= 100, `${kind}: only ${report.count} vectors`);
    assert.deepEqual(report.failures.slice(0, 3), [], `${report.failures.length} of ${report.count} ${kind} vectors differ`);
  });
}
