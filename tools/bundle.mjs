// The page scripts that import our ES modules (static/*.js with an `import … from "./…"` or
// `export … from "./…"`), each bundled with what it imports by esbuild into static/bundled/, as the app
// sends them (scorekeeper/assets.py). Run after changing any of them: npm run bundle (tests/test_bundle.py says
// when the committed copy is stale).
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const STATIC = fileURLToPath(new URL("../static/", import.meta.url));
const OUT = process.argv[2] ?? join(STATIC, "bundled");  // another folder: to compare with the committed copy
const IMPORTS_OURS = /^\s*(?:import|export)\b[^;]*?\bfrom\s*["']\.{1,2}\//m;

export const entries = readdirSync(STATIC)
  .filter((name) => name.endsWith(".js") && IMPORTS_OURS.test(readFileSync(join(STATIC, name), "utf8")))
  .sort();

if (OUT === join(STATIC, "bundled")) rmSync(OUT, { recursive: true, force: true });  // no bundle of a script gone
await build({
  entryPoints: entries.map((name) => join(STATIC, name)),
  outdir: OUT,
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
});
console.log(`static/bundled/: ${entries.join(", ")}`);
