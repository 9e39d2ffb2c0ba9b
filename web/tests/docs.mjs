// The API reference at /docs in a real browser (issue 23, item 4): headless Chromium
// (Debian's /usr/bin/chromium, or $CHROMIUM) driven by playwright-core against a real
// catan-server ($CATAN_SERVER, default build/catan-server; `make test-docs` runs this under
// scripts/with-postgres.sh). It checks that
//   - the web client's page at / links to /docs, and following the link opens it;
//   - Redoc renders the contract the server serves (/openapi.json): every operation of
//     every path appears, under its id and with its path;
//   - nothing breaks the page's Content-Security-Policy (DOCS_CSP in api/web.h): no
//     violation event, no "Refused to ..." in the console, no uncaught error;
//   - /redoc and /swagger lead there too.
// A screenshot goes to build/web-test/docs.png (WEB_TEST_OUT). Exits 1 on a failure.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer as netServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");
const out = resolve(process.env.WEB_TEST_OUT ?? join(root, "build", "web-test"));
mkdirSync(out, { recursive: true });
const serverBinary = resolve(process.env.CATAN_SERVER ?? join(root, "build", "catan-server"));
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

async function freePort() {
  return new Promise((ok, fail) => {
    const s = netServer();
    s.on("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

let serverLog = "";
async function startServer() {
  const port = await freePort();
  const child = spawn(serverBinary, [], {
    env: { ...process.env, PORT: String(port), LISTEN: "127.0.0.1", THREADS: "4" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => (serverLog += d));
  child.stderr.on("data", (d) => (serverLog += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base };
    } catch {}
    await sleep(100);
  }
  throw new Error(`catan-server did not start:\n${serverLog}`);
}

const { child, base } = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-dev-shm-usage"],
});
let failed = false;
try {
  const started = Date.now();
  const contract = await (await fetch(`${base}/openapi.json`)).json();
  const operations = [];
  for (const [path, item] of Object.entries(contract.paths))
    for (const method of METHODS) if (item[method]) operations.push({ path, method, id: item[method].operationId });
  assert(operations.length > 40 && operations.every((o) => o.id), `the contract's operations: ${operations.length}, each with an id`);

  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems = [];
  page.on("console", (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  // Violations are reported as events too, also those the console does not show.
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`),
    );
  });

  // The web client's page links to the reference.
  await page.goto(`${base}/`);
  const link = page.locator('a[href="/docs"]');
  assert((await link.count()) >= 1, "the page at / has no link to /docs");
  await link.first().click();
  await page.waitForURL(`${base}/docs`);

  // Redoc renders every operation: its section (id ".../operation/<operationId>") and the
  // path beside its method.
  await page.waitForSelector('[id$="operation/getActions"]', { timeout: 60000 });
  const rendered = await page.evaluate((ops) => {
    const missing = [];
    const text = document.body.textContent ?? "";
    for (const op of ops) {
      const section = document.querySelector(`[id="operation/${op.id}"], [id$="/operation/${op.id}"]`);
      if (!section) missing.push(`${op.method.toUpperCase()} ${op.path} (${op.id}): no section`);
      else if (!(section.textContent ?? "").includes(op.path) && !text.includes(op.path))
        missing.push(`${op.method.toUpperCase()} ${op.path} (${op.id}): path not shown`);
    }
    return { missing, title: document.title, sections: document.querySelectorAll('[id*="operation/"]').length };
  }, operations);
  assert(rendered.missing.length === 0, `not rendered:\n  ${rendered.missing.join("\n  ")}`);
  // The search (Redoc's worker) works under the policy too.
  const search = page.locator('input[placeholder="Search..."]');
  if (await search.count()) {
    await search.fill("import");
    await page.waitForSelector('[role="search"] li, [data-role="search:results"] li, .search-results li, label[role="menuitem"]', { timeout: 15000 }).catch(() => {});
  }
  await page.screenshot({ path: join(out, "docs.png") });
  const violations = await page.evaluate(() => window.__violations);
  assert(violations.length === 0 && problems.length === 0, `the page broke its policy or threw:\n  ${[...violations, ...problems].join("\n  ")}`);
  console.log(`   /docs: ${operations.length} operations of ${Object.keys(contract.paths).length} paths rendered (${rendered.sections} sections), no policy violation, in ${Date.now() - started} ms`);

  // Where people look for it.
  for (const old of ["/redoc", "/swagger"]) {
    const answer = await fetch(`${base}${old}`, { redirect: "manual" });
    assert(answer.status === 301 && answer.headers.get("location") === "/docs", `${old}: ${answer.status} ${answer.headers.get("location")}`);
  }
  console.log("docs: ok");
} catch (error) {
  failed = true;
  console.error(`docs: FAILED: ${error.message}`);
} finally {
  await browser.close();
  child.kill("SIGTERM");
}
process.exit(failed ? 1 : 0);
