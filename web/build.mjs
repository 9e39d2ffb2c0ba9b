// Build the web client: node build.mjs [OUT_DIR] (default: dist).
//
//  1. src/schema.d.ts from ../openapi/openapi.yaml with openapi-typescript (the contract's
//     types: a contract change that breaks the client breaks step 2);
//  2. tsc --strict (tsconfig.json) compiles src/*.ts into OUT_DIR, one ES module each;
//  3. the static files (src/index.html, src/style.css, src/icon.svg, src/icon-turn.svg) and the ES module of
//     openapi-fetch (as openapi-fetch.js) are copied next to them;
//  4. the page is checked for what the server's Content-Security-Policy would block:
//     inline scripts, inline styles, style attributes, event-handler attributes.
//
// The output is a pure function of the sources and the pinned tools (no dates, no paths),
// so `make test-web` can compare a fresh build with the committed web/dist byte for byte.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const final = resolve(process.argv[2] ?? join(here, "dist"));
// Built beside, then put in place: a failed build leaves the previous one whole.
const out = `${final}.tmp`;
const bin = join(here, "node_modules", ".bin");

function run(tool, args) {
  try {
    execFileSync(join(bin, tool), args, { cwd: here, stdio: ["ignore", "inherit", "inherit"] });
  } catch {
    console.error(`web/build.mjs: ${tool} failed`);
    process.exit(1);
  }
}

run("openapi-typescript", ["../openapi/openapi.yaml", "--output", "src/schema.d.ts", "--default-non-nullable=false"]);
// The generated file's header names no path or date, but normalise line ends to be sure.
const schema = join(here, "src", "schema.d.ts");
writeFileSync(schema, readFileSync(schema, "utf8").replace(/\r\n/g, "\n"));

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
run("tsc", ["-p", "tsconfig.json", "--outDir", out]);

for (const file of ["index.html", "style.css", "icon.svg", "icon-turn.svg"]) copyFileSync(join(here, "src", file), join(out, file));
const fetchModule = readFileSync(join(here, "node_modules", "openapi-fetch", "dist", "index.mjs"), "utf8")
  .replace(/\n\/\/# sourceMappingURL=.*\n?$/, "\n");
writeFileSync(join(out, "openapi-fetch.js"), fetchModule.endsWith("\n") ? fetchModule : fetchModule + "\n");

// What the Content-Security-Policy of api/web.h would refuse.
const page = readFileSync(join(out, "index.html"), "utf8");
const problems = [];
for (const match of page.matchAll(/<script\b[^>]*>/gi)) if (!/\bsrc=/.test(match[0])) problems.push("inline <script>");
if (/<style\b/i.test(page)) problems.push("inline <style>");
if (/\sstyle=/i.test(page)) problems.push("style attribute");
if (/\son[a-z]+=/i.test(page)) problems.push("event-handler attribute");
for (const file of readdirSync(out).filter((f) => f.endsWith(".js"))) {
  const text = readFileSync(join(out, file), "utf8");
  if (/\.style\.|setAttribute\(\s*["']style["']|innerHTML/.test(text) && file !== "openapi-fetch.js")
    problems.push(`${file}: sets inline styles or innerHTML`);
  if (/\beval\(|new Function\(/.test(text)) problems.push(`${file}: eval`);
}
if (problems.length) {
  console.error("web/build.mjs: blocked by the Content-Security-Policy: " + problems.join(", "));
  process.exit(1);
}
rmSync(final, { recursive: true, force: true });
renameSync(out, final);
