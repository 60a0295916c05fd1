// The browser twin of the rules core (static/js/rules/) against every shared vector the Python core made
// (tests/vectors/, written by tests/vectors/make.py):  node --test tests/js
// TWIN_MODULE=/path/to/file.mjs runs them against that file instead (the bundle as the app sends it:
// tests/test_bundle.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { KINDS, runKind } from "./run_vectors.mjs";

const rules = await import(process.env.TWIN_MODULE ? pathToFileURL(process.env.TWIN_MODULE).href
  : "../../static/js/rules/index.js");

const load = (kind) => JSON.parse(readFileSync(new URL(`../vectors/${kind}.json`, import.meta.url), "utf8"));

for (const kind of KINDS) {
  test(`${kind}: every vector gives the Python core's answer`, (t) => {
    const report = runKind(kind, load(kind), rules);
    if (report.skipped) t.diagnostic(`${report.skipped} left out: their answer turns on Python's JSON reader`);
    assert.ok(report.count >= 100, `${kind}: only ${report.count} vectors`);
    assert.deepEqual(report.failures.slice(0, 3), [], `${report.failures.length} of ${report.count} ${kind} vectors differ`);
  });
}
