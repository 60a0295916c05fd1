// Every page script at the top of static/, as esbuild makes it into static/bundled/, which the app sends in its
// place (scorekeeper/assets.py). A script that imports our ES modules (an `import … from "./…"` or
// `export … from "./…"`) is bundled with what it imports; any other is minified alone, as it is: a classic
// script keeps its top-level names (the page's scripts share one global scope). Run after changing any of them:
// npm run bundle (tests/test_bundle.py says when the committed copy is stale).
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const STATIC = fileURLToPath(new URL("../static/", import.meta.url));
const OUT = process.argv[2] ?? join(STATIC, "bundled");  // another folder: to compare with the committed copy
const IMPORTS_OURS = /^\s*(?:import|export)\b[^;]*?\bfrom\s*["']\.{1,2}\//m;

const scripts = readdirSync(STATIC).filter((name) => name.endsWith(".js")).sort();
const entries = scripts.filter((name) => IMPORTS_OURS.test(readFileSync(join(STATIC, name), "utf8")));
const alone = scripts.filter((name) => !entries.includes(name));

const common = { outdir: OUT, target: "es2022", minify: true, legalComments: "none", charset: "utf8",
  logLevel: "warning" };
if (OUT === join(STATIC, "bundled")) rmSync(OUT, { recursive: true, force: true });  // no bundle of a script gone
await build({ ...common, entryPoints: entries.map((name) => join(STATIC, name)), bundle: true, format: "esm" });
await build({ ...common, entryPoints: alone.map((name) => join(STATIC, name)) });
console.log(`static/bundled/: ${entries.join(", ")} bundled; ${alone.join(", ")} minified`);
