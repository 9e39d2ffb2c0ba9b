// The web client's browser tests: headless Chromium (Debian's /usr/bin/chromium, or
// $CHROMIUM) driven by playwright-core, against a real catan-server ($CATAN_SERVER, default
// build/catan-server) on a real PostgreSQL ($DATABASE_URL: `make test-web` runs this under
// scripts/with-postgres.sh). Every step is a click or a key press on the page; the API is
// called directly only to set a scene up or to check the truth behind the page.
//
//   node web/tests/run.mjs [CASE...]     all cases, or those named
//
// Screenshots go to build/web-test/ (WEB_TEST_OUT). Prints each case's time; exits 1 when
// one fails.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as netServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");
const out = resolve(process.env.WEB_TEST_OUT ?? join(root, "build", "web-test"));
mkdirSync(out, { recursive: true });
const serverBinary = resolve(process.env.CATAN_SERVER ?? join(root, "build", "catan-server"));
const axeSource = readFileSync(join(here, "..", "node_modules", "axe-core", "axe.min.js"), "utf8");

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

// ---- the server under test ----
let serverLog = "";
async function startServer(env) {
  const port = await freePort();
  const child = spawn(serverBinary, [], {
    env: { ...process.env, PORT: String(port), LISTEN: "127.0.0.1", ALL_BOT_GAMES: "1", CREATE_RATE_IP: "0", PLAYER_RATE_IP: "0", THREADS: "8", ...env },
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

// ---- the API, for scenes and truth ----
async function api(base, method, path, token, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

async function createGame(base, players, options) {
  const r = await api(base, "POST", "/v1/games", null, { players, options });
  assert(r.status === 201, `create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const seatUrl = (base, id, token) => `${base}/#game=${id}${token ? `&token=${token}` : ""}`;

// ---- page helpers ----
/** What a page must never do: break the Content-Security-Policy, or throw. (Failed loads
 * are expected: refused moves, blocked routes.) */
const pageErrors = [];
function watch(page) {
  page.on("console", (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) pageErrors.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  return page;
}

async function version(page) {
  return Number(await page.locator(".game").getAttribute("data-version"));
}

/** Wait until the page shows a version other than `before`, or a message. */
async function settle(page, before, timeout = 15000) {
  await page.waitForFunction(([v]) => {
    const game = document.querySelector(".game");
    const message = document.getElementById("message");
    return (game && Number(game.getAttribute("data-version")) !== v && !game.hasAttribute("aria-busy")) || (message && !message.hidden);
  }, [before], { timeout });
}

async function axeScan(page, what) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help, target: v.nodes[0]?.target }));
  });
  const bad = result.filter((v) => v.impact === "serious" || v.impact === "critical");
  for (const v of result) console.log(`   axe ${what}: ${v.impact} ${v.id} (${v.nodes}) ${v.help} ${JSON.stringify(v.target)}`);
  assert(bad.length === 0, `axe on ${what}: ${bad.map((v) => `${v.impact} ${v.id}`).join(", ")}`);
}

/** One step of a simple player, by clicks only: true when it did something. */
async function playStep(page, state) {
  const dialog = page.locator("dialog[open]");
  if (await dialog.count()) {
    const submit = dialog.locator("#discard-submit");
    if (await submit.count()) {
      const total = Number((await dialog.locator("h2").textContent()).match(/Discard (\d+)/)[1]);
      let left = total;
      for (const input of await dialog.locator("input[type=number]").all()) {
        const max = Number(await input.getAttribute("max"));
        const take = Math.min(max, left);
        await input.fill(String(take));
        left -= take;
      }
      await submit.click();
      return "discard";
    }
    const choice = dialog.locator(".choices button").first();
    if (await choice.count()) {
      await choice.click();
      return "choice";
    }
    await dialog.locator("button.close").click();
    return "close";
  }
  const click = async (locator, what) => {
    if (await locator.count()) {
      try {
        await locator.first().click({ timeout: 3000 });
      } catch (e) {
        // Replaced while being clicked (the game moved on): look again.
        return null;
      }
      return what;
    }
    return null;
  };
  // The first settlement is placed with the keyboard: Tab to a highlighted intersection
  // (here: focus it) and press Enter.
  const press = async (locator) => {
    if (!(await locator.count())) return null;
    await locator.first().focus();
    await page.keyboard.press("Enter");
    state.keyboard = true;
    return "build";
  };
  const actions = page.locator("#actions");
  // Offers made to this seat are declined: a bot's offer to a person waits for the answer
  // (offer_wait_s), and bots answer each other at machine speed (the trade cases take offers).
  return (state.declineOffers !== false ? await click(page.locator("#trades .trade").getByRole("button", { name: "Decline" }), "decline") : null) ??
    (await click(actions.getByRole("button", { name: /^Discard/ }), "discard-open")) ??
    (await click(actions.getByRole("button", { name: "Roll the dice" }), "roll")) ??
    (await click(page.locator(".targets [data-hex-target]"), "robber")) ??
    (state.keyboard ? await click(page.locator(".targets [data-node]"), "build") : await press(page.locator(".targets [data-node]"))) ??
    (state.roads < 2 ? await click(page.locator(".targets [data-edge]"), "road") : null) ??
    (await click(actions.getByRole("button", { name: "Buy a development card" }), "buy")) ??
    (await click(actions.getByRole("button", { name: "End turn" }), "end"));
}

// ---- the cases ----
const cases = {};

cases.create_and_play_against_bots = async ({ browser, base }) => {
  const page = watch(await browser.newPage({ viewport: { width: 1280, height: 900 } }));
  await page.goto(base + "/");
  await page.screenshot({ path: join(out, "create.png") });
  await axeScan(page, "the create screen");
  await page.getByLabel("Number of seats").selectOption("4");
  await page.getByLabel("Name of seat 1").fill("Tess");
  for (const seat of [2, 3, 4]) await page.getByLabel(`Who plays seat ${seat}`).selectOption("bot");
  await page.getByRole("button", { name: "Create the game" }).click();
  await page.locator("#seat-links").waitFor();
  await page.screenshot({ path: join(out, "links.png") });
  assert(await page.locator("#seat-links li").count() === 1, "one private link (three bots)");
  const link = await page.locator("#link-0").inputValue();
  assert(/#game=[^&]+&token=st_/.test(link), `seat link ${link}`);
  const spectator = await page.locator("#link-spectator").inputValue();
  assert(!spectator.includes("token"), "the spectator link has no token");
  await page.locator("#seat-links a.open").click();
  await page.locator(".game[data-version]").waitFor();
  let steps = 0;
  const state = { roads: 0, turn: -1, keyboard: false };
  let shotDiscard = false;
  const started = Date.now();
  while (!(await page.locator("#winner").isVisible())) {
    if (Date.now() - started > 120000)
      throw new Error(`the game did not end within 120 s: ${await page.locator("#status").textContent()} | ${await page.locator("#actions").textContent()}`);
    const turn = await page.locator(".game").getAttribute("data-turn");
    if (turn !== state.turn) state.roads = 0, state.turn = turn;
    const before = await version(page);
    if (!shotDiscard && await page.locator("#discard-submit").count()) {
      await page.screenshot({ path: join(out, "discard.png") });
      shotDiscard = true;
    }
    const did = await playStep(page, state);
    if (did === "road") state.roads++;
    if (did && did !== "close") {
      steps++;
      await settle(page, before).catch(() => {});
      const message = page.locator("#message");
      if (await message.isVisible()) throw new Error(`a click was refused: ${await message.textContent()}`);
      if (steps === 12) await page.screenshot({ path: join(out, "game.png") });
    } else {
      await settle(page, before, 5000).catch(() => {});
    }
  }
  const winner = await page.locator("#winner-title").textContent();
  await page.screenshot({ path: join(out, "winner.png") });
  const id = new URLSearchParams(link.split("#")[1]).get("game");
  const truth = await api(base, "GET", `/v1/games/${id}`);
  assert(truth.body.winner !== null, "the server has a winner");
  assert(winner.includes(truth.body.players[truth.body.winner].name) || /^You won/.test(winner), `winner screen ${winner}`);
  await axeScan(page, "the game screen");
  // Every line is numbered in full: 100 and more too, never clipped to "00.".
  const numbers = await page.locator("#log-list li").evaluateAll((items) => items.map((li) => {
    const v = li.querySelector(".v");
    return { version: li.getAttribute("data-version"), shown: v?.textContent, whole: v ? v.scrollWidth <= v.clientWidth : false };
  }));
  assert(numbers.length > 100 && numbers.every((n) => n.shown === n.version && n.whole),
    `log numbers: ${JSON.stringify(numbers.filter((n) => n.shown !== n.version || !n.whole).slice(0, 3))}`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(out, "phone.png"), fullPage: false });
  const box = await page.locator("#board").boundingBox();
  assert(box.width <= 390 && box.width > 300, `the board fits a phone: ${box.width}px`);
  console.log(`   ${steps} clicks; ${winner}; version ${truth.body.version}`);
  await page.close();
};

cases.domestic_trade_with_counter_offer = async ({ browser, base }) => {
  const game = await createGame(base, [{ name: "Ann" }, { name: "Bob" }, { name: "Cy", bot: true }],
    { layout: "beginner", start: "fixed", dice: "manual", first_seat: 0 });
  const [ann, bob] = game.seats;
  const a = watch(await (await browser.newContext()).newPage());
  const b = watch(await (await browser.newContext()).newPage());
  await a.goto(seatUrl(base, game.id, ann.token));
  await b.goto(seatUrl(base, game.id, bob.token));
  await a.locator(".game[data-version]").waitFor();
  await b.locator(".game[data-version]").waitFor();
  // Ann rolls 2 + 3 at the table.
  await a.getByLabel("First die").selectOption("2");
  await a.getByLabel("Second die").selectOption("3");
  let before = await version(a);
  await a.getByRole("button", { name: "Roll these dice" }).click();
  await settle(a, before);
  const hands = async () => [(await api(base, "GET", `/v1/games/${game.id}`, ann.token)).body.you.resources,
    (await api(base, "GET", `/v1/games/${game.id}`, bob.token)).body.you.resources];
  const [annHand, bobHand] = await hands();
  const give = Object.keys(annHand).find((r) => annHand[r] > 0);
  const want = Object.keys(bobHand).find((r) => bobHand[r] > 0 && r !== give);
  assert(give && want, `hands allow a trade: ${JSON.stringify([annHand, bobHand])}`);
  // Ann offers 1 give for 1 want to Bob only.
  await a.locator("#offer-give-" + give).fill("1");
  await a.locator("#offer-want-" + want).fill("1");
  await a.locator("#offer-to-2").uncheck();
  before = await version(a);
  await a.getByRole("button", { name: "Offer", exact: true }).click();
  await settle(a, before);
  // Bob sees it and counters: the same cards the other way round is what the form proposes.
  await b.locator(".trade").first().waitFor();
  await b.getByRole("button", { name: "Counter-offer…" }).click();
  await b.screenshot({ path: join(out, "counter-offer.png") });
  before = await version(b);
  await b.getByRole("button", { name: "Send counter-offer" }).click();
  await settle(b, before);
  // Ann confirms the counter-offer.
  const confirm = a.locator(".trade", { hasText: "Counter-offer" }).getByRole("button", { name: "Confirm" });
  await confirm.waitFor({ timeout: 10000 });
  await a.screenshot({ path: join(out, "trade.png") });
  before = await version(a);
  await confirm.click();
  await settle(a, before);
  const [annAfter, bobAfter] = await hands();
  assert(annAfter[give] === annHand[give] - 1 && annAfter[want] === annHand[want] + 1, `Ann's hand ${JSON.stringify([annHand, annAfter])}`);
  assert(bobAfter[give] === bobHand[give] + 1 && bobAfter[want] === bobHand[want] - 1, `Bob's hand ${JSON.stringify([bobHand, bobAfter])}`);
  await b.locator("#log-list li", { hasText: "traded" }).first().waitFor({ timeout: 5000 });
  await a.context().close();
  await b.context().close();
};

/** A bot's offer waits for the people it was made to: Ann takes one by a click while Cy
 * (played through the API) declines it, and Robo completes the exchange with Ann at once,
 * long before its wait (ten minutes) would be over. Ann rolls and ends her turns by clicks. */
cases.person_takes_a_bots_offer = async ({ browser, base }) => {
  const game = await createGame(base, [{ name: "Ann" }, { name: "Robo", bot: true }, { name: "Cy" }],
    { layout: "beginner", start: "fixed", dice: "manual", first_seat: 0, seed: 2208, offer_wait_s: 600 });
  const [ann, , cy] = game.seats;
  const page = watch(await browser.newPage({ viewport: { width: 1280, height: 900 } }));
  await page.goto(seatUrl(base, game.id, ann.token));
  await page.locator(".game[data-version]").waitFor();
  const totals = [6, 8, 5, 9, 4, 10, 3, 11];
  let rolls = 0, declined = 0;
  const move = async (token, body) => {
    const r = await api(base, "POST", `/v1/games/${game.id}/moves`, token, body);
    assert(r.status === 201, `${body.type}: ${r.status} ${JSON.stringify(r.body)}`);
  };
  const started = Date.now();
  for (;;) {
    if (Date.now() - started > 90000) throw new Error("Robo made no offer Ann could take within 90 s");
    const truth = (await api(base, "GET", `/v1/games/${game.id}`, cy.token)).body;
    assert(truth.status !== "finished", "the game ended without an offer of Robo that Ann could take");
    const offer = truth.trades.find((t) => t.from === 1 && t.counter_to === null && t.to.includes(0) &&
      !t.accepted.includes(0) && !t.declined.includes(0));
    if (offer) {
      if (!offer.declined.includes(2)) {
        const r = await api(base, "POST", `/v1/games/${game.id}/trades/${offer.id}/decline`, cy.token);
        assert(r.status === 200, `Cy declines: ${r.status}`);
      }
      const item = page.locator(`#trades .trade[data-trade="${offer.id}"]`);
      await item.waitFor();
      await page.waitForFunction((v) => Number(document.querySelector(".game")?.getAttribute("data-version")) >= v, truth.version);
      const accept = item.getByRole("button", { name: "Accept" });
      if (!(await accept.count())) {
        // Ann lacks the card Robo asks for: she says no, and Robo plays on at once.
        await item.getByRole("button", { name: "Decline" }).click();
        declined++;
        await page.waitForFunction((id) => !document.querySelector(`#trades .trade[data-trade="${id}"] button`), offer.id, { timeout: 10000 });
        continue;
      }
      assert((await api(base, "GET", `/v1/games/${game.id}`, cy.token)).body.version === truth.version + (offer.declined.includes(2) ? 0 : 1),
        "Robo waits for Ann's answer");
      await page.screenshot({ path: join(out, "bot-offer.png") });
      const clicked = Date.now();
      await accept.click();
      const line = page.locator("#log-list li", { hasText: "Robo traded" });
      await line.first().waitFor({ timeout: 10000 });
      const log = (await api(base, "GET", `/v1/games/${game.id}/moves?after=${truth.version}&limit=100`)).body;
      const done = log.events.find((e) => e.type === "trade_completed" && e.trade === offer.id);
      assert(done && done.seat === 1 && done.with === 0 && done.origin === "bot", `Robo traded with Ann: ${JSON.stringify(done)}`);
      await page.screenshot({ path: join(out, "bot-offer-taken.png") });
      console.log(`   Robo's offer ${offer.id} taken by a click, completed ${Date.now() - clicked} ms later (${declined} offers declined first)`);
      await page.close();
      return;
    }
    const seat = truth.turn.seat;
    if (truth.phase === "discard") {
      // A 7 of Robo's: the people discard through the API (the scene, not the point here).
      for (const owed of truth.pending.discards) {
        if (owed.seat === 1) continue;
        const token = owed.seat === 0 ? ann.token : cy.token;
        const hand = (await api(base, "GET", `/v1/games/${game.id}`, token)).body.you.resources;
        const drop = {};
        let left = owed.count;
        for (const [r, n] of Object.entries(hand).sort((a, b) => b[1] - a[1])) {
          const take = Math.min(n, left);
          if (take) drop[r] = take;
          left -= take;
        }
        await move(token, { type: "discard", resources: drop });
      }
    } else if (seat === 2) {
      const total = totals[rolls++ % totals.length];
      await move(cy.token, truth.phase === "roll" ? { type: "roll", dice: [total - (total >> 1), total >> 1] } : { type: "end_turn" });
    } else if (seat === 0) {
      const before = await version(page);
      if (truth.phase === "roll") {
        const total = totals[rolls++ % totals.length];
        await page.getByLabel("First die").selectOption(String(total - (total >> 1)));
        await page.getByLabel("Second die").selectOption(String(total >> 1));
        await page.getByRole("button", { name: "Roll these dice" }).click();
      } else {
        await page.locator("#actions").getByRole("button", { name: "End turn" }).click();
      }
      await settle(page, before);
    } else {
      await api(base, "GET", `/v1/games/${game.id}/moves?after=${truth.version}&wait=5&limit=1`);
    }
  }
};

cases.spectator_sees_no_hand = async ({ browser, base }) => {
  const game = await createGame(base, [{ name: "Ann" }, { name: "Bob", bot: true }, { name: "Cy", bot: true }],
    { layout: "beginner", start: "fixed", first_seat: 0 });
  const page = watch(await browser.newPage());
  const authorized = [];
  page.on("request", (r) => { if (r.headers().authorization) authorized.push(r.url()); });
  await page.goto(seatUrl(base, game.id, null));
  await page.locator(".game[data-version]").waitFor();
  await page.locator("#log-list li").first().waitFor();
  assert(await page.getByText("Watching as a spectator").isVisible(), "says it is a spectator");
  assert(!(await page.locator("#you").isVisible()), "no hand panel");
  assert(!(await page.locator("#actions").isVisible()), "no actions panel");
  assert((await page.locator(".hand, [data-resource]").count()) === 0, "no cards shown");
  assert(authorized.length === 0, `a spectator sends no token: ${authorized}`);
  await page.screenshot({ path: join(out, "spectator.png") });
  await axeScan(page, "the spectator view");
  await page.close();
};

cases.network_drop_reconnects_and_catches_up = async ({ browser, base }) => {
  const game = await createGame(base, [{ name: "Ann" }, { name: "Bob" }, { name: "Cy", bot: true }],
    { layout: "beginner", start: "fixed", dice: "manual", first_seat: 0 });
  const [ann, bob] = game.seats;
  const context = await browser.newContext();
  const page = watch(await context.newPage());
  const streams = [];
  page.on("request", (r) => { if (r.url().endsWith("/stream")) streams.push(r.headers()["last-event-id"] ?? null); });
  await page.goto(seatUrl(base, game.id, bob.token));
  await page.locator(".connection.up").waitFor();
  const seen = await version(page);
  // The network goes: the page cannot reach the server while Ann plays on another device.
  await context.route("**/v1/**", (route) => route.abort("internetdisconnected"));
  await context.setOffline(true);
  await page.locator(".connection.down").waitFor({ timeout: 10000 });
  await page.screenshot({ path: join(out, "connection-down.png") });
  const r1 = await api(base, "POST", `/v1/games/${game.id}/moves`, ann.token, { type: "roll", dice: [2, 3] });
  assert(r1.status === 201, `roll ${r1.status}`);
  const r2 = await api(base, "POST", `/v1/games/${game.id}/moves`, ann.token, { type: "end_turn" });
  assert(r2.status === 201, `end turn ${r2.status} ${JSON.stringify(r2.body)}`);
  await sleep(3000);
  await context.setOffline(false);
  await context.unroute("**/v1/**");
  await page.locator(".connection.up").waitFor({ timeout: 15000 });
  const truth = (await api(base, "GET", `/v1/games/${game.id}`, bob.token)).body;
  await page.waitForFunction((v) => Number(document.querySelector(".game")?.getAttribute("data-version")) === v, truth.version, { timeout: 10000 });
  const versions = await page.locator("#log-list li").evaluateAll((items) => items.map((li) => Number(li.getAttribute("data-version"))));
  assert(versions.length === truth.version && versions.every((v, i) => v === i + 1),
    `the log has every event once: ${versions.length} of ${truth.version} (${versions.join(",")})`);
  assert(await page.getByRole("button", { name: "Roll these dice" }).isVisible(), "Bob may roll now");
  assert(streams[0] === null && streams.length >= 2 && streams.at(-1) === String(seen),
    `the stream was resumed with Last-Event-ID ${seen}: ${JSON.stringify(streams)}`);
  await context.close();
};

/** Nothing on the page is wider than a 390 px phone: the page does not scroll sideways and
 * the fairness panel's text (64 hex digits) stays inside it. */
async function assertFitsPhone(page, what) {
  const widths = await page.evaluate(() => {
    const panel = document.getElementById("fairness");
    const right = Math.max(0, ...[...(panel?.querySelectorAll("*") ?? [])].map((e) => e.getBoundingClientRect().right));
    return { page: document.documentElement.scrollWidth, panel: panel ? panel.scrollWidth - panel.clientWidth : -1, right };
  });
  assert(widths.page <= 390 && widths.panel === 0 && widths.right <= 390, `${what} overflows a 390 px phone: ${JSON.stringify(widths)}`);
}

/** Issue 26, item 5: the page shows a game's commitment from the start (the waiting page
 * too), and after the end the revealed server seed with the export link and how to verify
 * it, which the Python checker accepts; a game with a chosen seed says it is not provably
 * fair. All at 390 px without overflow. */
cases.provably_fair_panel = async ({ browser, base }) => {
  const page = watch(await browser.newPage({ viewport: { width: 390, height: 844 } }));
  // A waiting game commits already.
  const waiting = await createGame(base, [{ name: "Ann" }, { open: true }, { name: "Cy", bot: true }], { layout: "beginner" });
  const waitingView = (await api(base, "GET", `/v1/games/${waiting.id}`)).body;
  assert(waitingView.status === "waiting" && /^[0-9a-f]{64}$/.test(waitingView.fairness?.commitment ?? ""), `a waiting game commits: ${JSON.stringify(waitingView.fairness)}`);
  await page.goto(`${base}/#game=${waiting.id}`);
  await page.locator("#waiting #fairness-commitment").waitFor();
  assert((await page.locator("#fairness-commitment").textContent()) === waitingView.fairness.commitment, "the waiting page shows the commitment");
  await assertFitsPhone(page, "the waiting page");

  const game = await createGame(base, [{ name: "Ann" }, { name: "Bob", bot: true }, { name: "Cy", bot: true }],
    { layout: "beginner", start: "fixed", first_seat: 0 });
  const ann = game.seats[0];
  const before = (await api(base, "GET", `/v1/games/${game.id}`, ann.token)).body;
  assert(before.fairness?.provably_fair === true && before.fairness.server_seed === null, `fair, seed hidden: ${JSON.stringify(before.fairness)}`);
  await page.goto(seatUrl(base, game.id, ann.token));
  await page.locator(".game[data-version]").waitFor();
  const panel = page.locator("#fairness");
  await panel.waitFor();
  assert((await page.locator("#fairness-title").textContent()) === "Provably fair", "the panel's title");
  assert((await page.locator("#fairness-commitment").textContent()) === before.fairness.commitment, "the commitment is the view's");
  assert((await page.locator("#fairness-seed").count()) === 0 && (await panel.textContent()).includes("revealed when the game ends"),
    "no seed before the end, and when it comes");
  assert((await panel.textContent()).includes("catan-fair-1"), "the scheme is named");
  await assertFitsPhone(page, "the game page");
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(out, "fairness-phone.png") });

  // Ann goes on holiday: the bots finish the game.
  const away = await api(base, "POST", `/v1/games/${game.id}/seats/0/away`, ann.token);
  assert(away.status === 200 || away.status === 201, `away: ${away.status} ${JSON.stringify(away.body)}`);
  await page.locator("#winner").waitFor({ state: "visible", timeout: 180000 });
  const after = (await api(base, "GET", `/v1/games/${game.id}`)).body;
  assert(after.status === "finished" && /^[0-9a-f]{64}$/.test(after.fairness.server_seed ?? ""), `the seed is revealed: ${JSON.stringify(after.fairness)}`);
  await page.locator("#fairness-seed").waitFor({ timeout: 15000 });
  assert((await page.locator("#fairness-seed").textContent()) === after.fairness.server_seed, "the page shows the revealed seed");
  assert((await page.locator("#fairness-commitment").textContent()) === before.fairness.commitment, "and still the commitment");
  const verify = await page.locator("#fairness-verify").textContent();
  assert(verify.includes("python3 examples/verify_fair.py export.json") && verify.includes("catan verify"), `how to verify: ${verify}`);
  const href = await page.locator("#fairness-export").getAttribute("href");
  assert(href === `/v1/games/${game.id}/export`, `the export link: ${href}`);
  await assertFitsPhone(page, "the finished game page");
  await page.locator("#fairness").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(out, "fairness-revealed-phone.png") });
  // The link's export is what the checker accepts.
  const exported = await (await fetch(base + href)).text();
  const file = join(out, "fairness-export.json");
  writeFileSync(file, exported);
  const checked = spawnSync("python3", [join(root, "examples", "verify_fair.py"), file], { encoding: "utf8" });
  assert(checked.status === 0 && /^commitment matches; \d+ rolls, \d+ steals, \d+ draws: all match/.test(checked.stdout),
    `verify_fair.py on the page's export: ${checked.status} ${checked.stdout}${checked.stderr}`);
  console.log(`   ${checked.stdout.trim()}`);

  // A chosen seed: not provably fair, and the page says so.
  const chosen = await createGame(base, [{ name: "Ann" }, { name: "Bob", bot: true }, { name: "Cy", bot: true }],
    { layout: "beginner", start: "fixed", first_seat: 0, seed: 26 });
  await page.goto(seatUrl(base, chosen.id, chosen.seats[0].token));
  await page.locator("#fairness-none").waitFor();
  assert(/Not provably fair: chosen seed/.test(await page.locator("#fairness-none").textContent()), "a chosen seed is labelled");
  assert((await page.locator("#fairness-commitment").count()) === 0, "and shows no commitment");
  await assertFitsPhone(page, "a chosen seed's page");
  await page.close();
};

/** Ann trades with the bank and withdraws an offer by clicks, then buys development cards
 * until she holds one she may play, and plays it by clicks: the kind of card that comes
 * first is fixed by `seed`. Returns the move played. */
async function bankAndDevelopmentCardScene(browser, base, seed) {
  // Three seats at one table; Bob and Cy play through the API (roll, end the turn), Ann
  // through the page. No 7 is rolled, so nobody discards and the robber only moves by a knight.
  // The seed fixes the order of the development cards, so the scene is the same every run.
  const game = await createGame(base, [{ name: "Ann" }, { name: "Bob" }, { name: "Cy" }],
    { layout: "beginner", start: "fixed", dice: "manual", first_seat: 0, seed });
  const tokens = game.seats.map((s) => s.token);
  const page = watch(await browser.newPage({ viewport: { width: 1280, height: 900 } }));
  await page.goto(seatUrl(base, game.id, tokens[0]));
  await page.locator(".game[data-version]").waitFor();
  const rolls = [[3, 3], [4, 4], [2, 3], [4, 5], [1, 3], [5, 5], [1, 2], [5, 6], [1, 1], [6, 6]];
  let next = 0;
  // The scene is set at machine speed: past a token's rate, wait as the server says.
  const call = async (method, path, token, body) => {
    await sleep(25); // below a token's rate, leaving room for the page's own requests
    for (;;) {
      const r = await api(base, method, path, token, body);
      if (r.status !== 429) return r;
      await sleep(1000 * (r.body.retry_after ?? 1));
    }
  };
  const actionsOf = async () => (await call("GET", `/v1/games/${game.id}/actions`, tokens[0])).body.actions;
  const annView = async () => (await call("GET", `/v1/games/${game.id}`, tokens[0])).body;
  const move = async (seat, body) => {
    const r = await call("POST", `/v1/games/${game.id}/moves`, tokens[seat], body);
    assert(r.status === 201, `seat ${seat} ${body.type}: ${r.status} ${JSON.stringify(r.body)}`);
  };
  const caughtUp = async () => {
    const v = (await annView()).version;
    await page.waitForFunction((want) => {
      const g = document.querySelector(".game");
      return g && Number(g.getAttribute("data-version")) === want && !g.hasAttribute("aria-busy");
    }, v, { timeout: 10000 });
  };
  const roll = (seat) => move(seat, { type: "roll", dice: rolls[next++ % rolls.length] });
  const othersPlay = async () => {
    for (const seat of [1, 2]) {
      await roll(seat);
      await move(seat, { type: "end_turn" });
    }
  };
  const cardTotal = (hand) => Object.values(hand).reduce((s, n) => s + n, 0);

  // 1. A trade with the bank, chosen in the form: Ann rolls until the bank would trade.
  let turns = 0;
  await roll(0);
  while (!(await actionsOf()).some((a) => a.type === "maritime_trade")) {
    assert(++turns < 40, "Ann never could trade with the bank");
    await move(0, { type: "end_turn" });
    await othersPlay();
    await roll(0);
  }
  await caughtUp();
  const single = (await actionsOf()).filter((a) => a.type === "maritime_trade" && cardTotal(a.get) === 1);
  const offer = single[0];
  const give = Object.keys(offer.give).find((r) => offer.give[r]);
  const get = Object.keys(offer.get).find((r) => offer.get[r]);
  const rate = Math.min(...single.filter((a) => a.give[give]).map((a) => a.rate));
  const handBefore = (await annView()).you.resources;
  await page.locator("#maritime-give").selectOption(give);
  await page.locator("#maritime-get").selectOption(get);
  let before = await version(page);
  await page.getByRole("button", { name: "Trade with the bank" }).click();
  await settle(page, before);
  const handAfter = (await annView()).you.resources;
  assert(handAfter[give] === handBefore[give] - rate && handAfter[get] === handBefore[get] + 1,
    `bank trade of ${rate} ${give} for 1 ${get}: ${JSON.stringify([handBefore, handAfter])}`);
  await page.screenshot({ path: join(out, `bank-trade-${seed}.png`) });

  // 2. An offer made in the form, then withdrawn with its button.
  const mine = Object.keys(handAfter).find((r) => handAfter[r] > 0);
  const other = Object.keys(handAfter).find((r) => r !== mine);
  await page.locator("#offer-give-" + mine).fill("1");
  await page.locator("#offer-want-" + other).fill("1");
  before = await version(page);
  await page.getByRole("button", { name: "Offer", exact: true }).click();
  await settle(page, before);
  assert((await annView()).trades.length === 1, "the offer is open");
  const withdraw = page.locator(".trade").getByRole("button", { name: "Withdraw" });
  await withdraw.waitFor({ timeout: 5000 });
  before = await version(page);
  await withdraw.click();
  await settle(page, before);
  assert((await annView()).trades.length === 0, "the offer is withdrawn");
  await page.locator(".trade").first().waitFor({ state: "detached", timeout: 5000 });

  // 3. A development card bought by a click, then played by clicks on a later turn (a
  // victory point card cannot be played: Ann then buys another).
  const playable = (actions) => actions.find((a) => /^play_(knight|monopoly|year_of_plenty|road_building)$/.test(a.type));
  let play = null;
  for (turns = 0; !play; turns++) {
    assert(turns < 60, `Ann never held a development card she could play: ${JSON.stringify((await annView()).you)}`);
    // Ann's settlements yield no wool on this board: the bank supplies what she lacks.
    const hand = (await annView()).you.resources;
    for (const lack of ["ore", "wool", "grain"].filter((r) => hand[r] === 0)) {
      const trade = (await actionsOf()).find((a) => a.type === "maritime_trade" && a.get[lack] === 1 &&
        !["ore", "wool", "grain"].some((r) => a.give[r]));
      if (trade) await move(0, { type: "maritime_trade", give: trade.give, get: trade.get });
    }
    if ((await actionsOf()).some((a) => a.type === "buy_development_card")) {
      await caughtUp();
      const count = (await annView()).players[0].development_card_count;
      before = await version(page);
      await page.getByRole("button", { name: "Buy a development card" }).click();
      await settle(page, before);
      const message = page.locator("#message");
      assert(!(await message.isVisible()), `the purchase was refused: ${await message.textContent()}`);
      assert((await annView()).players[0].development_card_count === count + 1, "the card is bought");
    }
    await move(0, { type: "end_turn" });
    await othersPlay();
    play = playable(await actionsOf());
    if (!play) {
      await roll(0);
      play = playable(await actionsOf());
    }
  }
  await caughtUp();
  const held = (await annView()).players[0].development_card_count;
  before = await version(page);
  if (play.type === "play_knight") {
    await page.getByRole("button", { name: "Play a knight" }).click();
    await page.locator(".targets [data-hex-target]").first().click();
    // The knight may ask whom to rob: one click more.
    await page.waitForFunction(([v]) => {
      const g = document.querySelector(".game");
      return (g && Number(g.getAttribute("data-version")) !== v) || document.querySelector("dialog[open] .choices button");
    }, [before], { timeout: 15000 });
    if (await version(page) === before)
      await page.locator("dialog[open] .choices button").first().click();
  } else if (play.type === "play_road_building") {
    await page.getByRole("button", { name: "Play Road Building" }).click();
    // A vertical path's target has a bounding box of zero width, which Playwright takes for
    // invisible (a pointer hits its stroke all the same): click those it can see.
    await page.locator(".targets [data-edge] >> visible=true").first().click();
    await page.locator(".targets [data-edge] >> visible=true").first().click();
  } else {
    await page.getByRole("button", { name: play.type === "play_monopoly" ? "Play Monopoly…" : "Play Year of Plenty…" }).click();
    await page.locator("dialog[open] .choices button").first().click();
  }
  await settle(page, before);
  await caughtUp();
  const after = await annView();
  assert(after.players[0].development_card_count === held - 1, `${play.type}: one card fewer (${held} then ${after.players[0].development_card_count})`);
  if (play.type === "play_knight") assert(after.players[0].knights_played === 1, "the knight counts");
  await page.locator("#log-list li", { hasText: /played|Played/ }).first().waitFor({ timeout: 5000 });
  await page.screenshot({ path: join(out, `development-card-${seed}.png`) });
  console.log(`   seed ${seed}: bank ${rate}:1 ${give} for ${get}; ${play.type} after ${turns} turns`);
  await page.close();
  return play.type;
}

cases.bank_trade_withdrawn_offer_and_every_development_card = async ({ browser, base }) => {
  // Seeds whose first playable card is, in turn, each of the four kinds (found by trying).
  const played = [];
  for (const seed of [7, 3, 28, 37]) played.push(await bankAndDevelopmentCardScene(browser, base, seed));
  assert(new Set(played).size === 4, `each kind of card was played once by clicks: ${played}`);
};

cases.stale_click_shows_the_refusal = async ({ browser, base }) => {
  const game = await createGame(base, [{ name: "Ann" }, { name: "Bob" }, { name: "Cy", bot: true }],
    { layout: "beginner", start: "fixed", dice: "manual", first_seat: 0, turn_timeout_s: 3600 });
  const [ann] = game.seats;
  const context = await browser.newContext();
  // This page hears nothing of moves made elsewhere until it acts.
  await context.route("**/stream", (route) => route.abort());
  const page = watch(await context.newPage());
  await page.goto(seatUrl(base, game.id, ann.token));
  const roll = page.getByRole("button", { name: "Roll these dice" });
  await roll.waitFor();
  // An hour from the last event: "59 min 59 s", or "1 h 0 min 00 s" within half a second of it.
  const clockText = await page.locator("#deadline").textContent();
  assert(/Time left for this move: (59 min|1 h 0 min 00 s)/.test(clockText), `the move's deadline is shown: ${clockText}`);
  // Ann rolls on another device; the page's button is now stale.
  const r = await api(base, "POST", `/v1/games/${game.id}/moves`, ann.token, { type: "roll", dice: [4, 4] });
  assert(r.status === 201, `roll ${r.status}`);
  const before = await version(page);
  await roll.click();
  await settle(page, before);
  const message = page.locator("#message");
  await message.waitFor();
  const text = await message.textContent();
  assert(/Not allowed: .+\(rule: [a-z_]+\)/.test(text), `the server's refusal is shown: ${text}`);
  const truth = (await api(base, "GET", `/v1/games/${game.id}`, ann.token)).body;
  await page.waitForFunction((v) => Number(document.querySelector(".game")?.getAttribute("data-version")) === v, truth.version);
  assert((await page.locator("#status-line").textContent()).includes("4 + 4 = 8"), "the page shows the roll that was made");
  assert(!(await roll.isVisible()), "the stale button is gone");
  await page.screenshot({ path: join(out, "refused.png") });
  await context.close();
};

cases.api_problems_are_shown_and_change_nothing = async ({ browser, base }) => {
  const game = await createGame(base, [{ name: "Ann" }, { name: "Bob", bot: true }, { name: "Cy", bot: true }],
    { layout: "beginner", start: "fixed", dice: "manual", first_seat: 0 });
  const page = watch(await browser.newPage());
  await page.goto(seatUrl(base, game.id, game.seats[0].token));
  const roll = page.getByRole("button", { name: "Roll these dice" });
  await roll.waitFor();
  const before = await version(page);
  const problems = [
    [409, "version_conflict", null, /Another move was made at the same moment \(version_conflict\)/],
    [412, "precondition_failed", null, /The game moved on before your move arrived \(precondition_failed\)/],
    [429, "rate_limited", "7", /Too many requests, slow down\. Try again in 7 s\./],
    [503, "database_unavailable", "2", /The server is unavailable right now \(database_unavailable\)\. Try again in 2 s\./],
  ];
  for (const [status, code, retry, expected] of problems) {
    await page.route("**/moves", (route) => route.fulfill({
      status, contentType: "application/problem+json", headers: retry ? { "Retry-After": retry } : {},
      body: JSON.stringify({ type: `urn:catan:problem:${code}`, title: code, status, detail: `a ${status}`, code, version: before }),
    }));
    await roll.click();
    await page.locator("#message").waitFor();
    const text = await page.locator("#message").textContent();
    assert(expected.test(text), `${status}: ${text}`);
    await page.unroute("**/moves");
    await page.evaluate(() => { document.getElementById("message").hidden = true; });
  }
  await page.screenshot({ path: join(out, "problem.png") });
  const truth = (await api(base, "GET", `/v1/games/${game.id}`, game.seats[0].token)).body;
  assert(truth.version === before && await version(page) === before, "nothing changed");
  assert(await roll.isVisible(), "the roll is still offered");
  await page.close();
};

cases.second_origin_uses_cors = async ({ browser, base }) => {
  const page2 = await new Promise((ok) => {
    const s = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end("<!doctype html><title>third party</title><p>A page of another origin.</p>");
    });
    s.listen(0, "127.0.0.1", () => ok(s));
  });
  const origin = `http://127.0.0.1:${page2.address().port}`;
  const page = watch(await browser.newPage());
  await page.goto(origin + "/");
  const logBefore = serverLog.length;
  const result = await page.evaluate(async (api) => {
    const created = await fetch(`${api}/v1/games`, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ players: [{ name: "Ann" }, { name: "Bob", bot: true }, { name: "Cy", bot: true }] }) });
    const game = await created.json();
    const view = await fetch(`${api}/v1/games/${game.id}`, { headers: { Authorization: `Bearer ${game.seats[0].token}` } });
    const body = await view.json();
    return { created: created.status, get: view.status, etag: view.headers.get("ETag"), you: body.you?.seat };
  }, base);
  page2.close();
  assert(result.created === 201 && result.get === 200 && result.you === 0, `cross-origin calls: ${JSON.stringify(result)}`);
  assert(result.etag, "the ETag header is readable cross-origin");
  await sleep(200);
  const log = serverLog.slice(logBefore);
  assert(/"method":"OPTIONS"/.test(log), "the browser sent a preflight");
  await page.close();
};


// ---- the players' journey (issue 22) ----

/** A browser context for one person: a desk (1280x800), a tablet (768x1024) or a phone
 * (390x844, touch). Each has its own storage, as different people's browsers do. */
async function person(browser, device) {
  const options = device === "phone" ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }
    : device === "tablet" ? { viewport: { width: 768, height: 1024 } } : { viewport: { width: 1280, height: 800 } };
  const context = await browser.newContext(options);
  const page = watch(await context.newPage());
  page.on("dialog", (d) => void d.accept());
  return { context, page, touch: device === "phone" };
}

/** One click, or one tap on a touch screen; null when the element went away meanwhile. */
async function press(who, locator, what) {
  if (!(await locator.count())) return null;
  try {
    if (who.touch) await locator.first().tap({ timeout: 3000 });
    else await locator.first().click({ timeout: 3000 });
  } catch {
    return null;
  }
  return what;
}

/** One step of a simple player by clicks (taps on a phone: a placement is chosen, then
 * confirmed). Declines an offer made to it, rolls (picking dice in a manual-dice game), discards, moves the robber,
 * builds what it can (on a small screen it first says what it builds), buys a card, ends
 * the turn. Returns what it did, or null. */
async function humanStep(who, state) {
  const page = who.page;
  const dialog = page.locator("dialog[open]");
  if (await dialog.count()) return playStep(page, state);
  const actions = page.locator("#actions");
  const dice = actions.getByRole("button", { name: "Roll these dice" });
  if (await dice.count()) {
    await page.getByLabel("First die").selectOption(String(1 + Math.floor(Math.random() * 6)));
    await page.getByLabel("Second die").selectOption(String(1 + Math.floor(Math.random() * 6)));
  }
  // An offer made to this person is answered first (declined): a bot's offer waits for the
  // people it asked (offer_wait_s), as a person at the table would not let it.
  return (await press(who, page.locator("#confirm-move"), "confirm")) ??
    (await press(who, page.locator("#trades .trade").getByRole("button", { name: "Decline" }), "decline")) ??
    (await press(who, actions.getByRole("button", { name: /^Discard/ }), "discard-open")) ??
    (await press(who, dice, "roll")) ??
    (await press(who, actions.getByRole("button", { name: "Roll the dice" }), "roll")) ??
    (await press(who, page.locator(".targets [data-hex-target]"), "robber")) ??
    (await press(who, page.locator(".targets [data-node]"), "build")) ??
    (state.roads < 2 ? await press(who, page.locator(".targets [data-edge]"), "road") : null) ??
    (await press(who, page.locator("#build-city"), "choose")) ??
    (await press(who, page.locator("#build-settlement"), "choose")) ??
    (state.roads < 2 ? await press(who, page.locator("#build-road"), "choose") : null) ??
    (await press(who, actions.getByRole("button", { name: "Buy a development card" }), "buy")) ??
    (await press(who, actions.getByRole("button", { name: "End turn" }), "end"));
}

/** The figures of a finished game computed here from its export (the stored log), written
 * apart from the server's game/statistics.c: what the end-of-game screen must show. */
function figuresOf(exported) {
  const seats = exported.players.length;
  const hand = () => ({ brick: 0, lumber: 0, wool: 0, grain: 0, ore: 0 });
  const flows = ["gained", "spent", "stolen", "robbed", "monopolized", "discarded", "traded_in", "traded_out"];
  const f = Array.from({ length: seats }, () => Object.fromEntries(flows.map((k) => [k, hand()])));
  const add = (to, counts, times = 1) => { for (const [r, n] of Object.entries(counts ?? {})) to[r] += times * (n ?? 0); };
  const cost = { road: { brick: 1, lumber: 1 }, settlement: { brick: 1, lumber: 1, wool: 1, grain: 1 }, city: { grain: 2, ore: 3 },
    card: { wool: 1, grain: 1, ore: 1 } };
  const histogram = Array(11).fill(0);
  const settlements = Array(seats).fill(0), cities = Array(seats).fill(0), cards = Array(seats).fill(0);
  let longest = null, largest = null;
  for (const e of exported.events) {
    switch (e.type) {
      case "resources_produced": e.gains.forEach((g, s) => add(f[s].gained, g)); break;
      case "year_of_plenty_played": add(f[e.seat].gained, e.resources); break;
      case "monopoly_played": e.taken.forEach((n, s) => { f[s].monopolized[e.resource] += n; f[e.seat].gained[e.resource] += n; }); break;
      case "dice_rolled": histogram[e.total - 2]++; break;
      case "settlement_built": settlements[e.seat]++; if (!e.free) add(f[e.seat].spent, cost.settlement); break;
      case "road_built": if (!e.free) add(f[e.seat].spent, cost.road); break;
      case "city_built": cities[e.seat]++; settlements[e.seat]--; add(f[e.seat].spent, cost.city); break;
      case "development_card_bought": add(f[e.seat].spent, cost.card); if (e.card === "victory_point") cards[e.seat]++; break;
      case "discarded": add(f[e.seat].discarded, e.resources); break;
      case "resource_stolen": f[e.seat].stolen[e.resource]++; f[e.victim].robbed[e.resource]++; break;
      case "maritime_traded": add(f[e.seat].traded_out, e.give); add(f[e.seat].traded_in, e.get); break;
      case "trade_completed":
        add(f[e.seat].traded_out, e.give); add(f[e.seat].traded_in, e.get);
        add(f[e.with].traded_out, e.get); add(f[e.with].traded_in, e.give); break;
      case "longest_road_changed": longest = e.seat; break;
      case "largest_army_changed": largest = e.seat; break;
    }
  }
  const total = (h) => Object.values(h).reduce((a, b) => a + b, 0);
  return {
    histogram,
    seats: f.map((flow, s) => {
      const points = { settlements: settlements[s], cities: 2 * cities[s], victory_point_cards: cards[s],
        longest_road: longest === s ? 2 : 0, largest_army: largest === s ? 2 : 0 };
      points.total = Object.values(points).reduce((a, b) => a + b, 0);
      return { points, flows: Object.fromEntries(flows.map((k) => [k, total(flow[k])])) };
    }),
  };
}

/** The end-of-game screen of `page` equals the figures computed from the export. */
async function checkEndScreen(page, base, id) {
  // The bots finish the game on the server first (slower on a loaded machine); the page
  // then has 20 s to show the end screen.
  const until = Date.now() + 180000;
  while ((await api(base, "GET", `/v1/games/${id}`)).body.status !== "finished") {
    assert(Date.now() < until, "the bots did not finish the game in 180 s");
    await sleep(250);
  }
  await page.locator("#winner .summary").waitFor({ timeout: 20000 });
  const exported = (await api(base, "GET", `/v1/games/${id}/export`)).body;
  assert(exported.finished, "the export of the finished game is the whole log");
  const want = figuresOf(exported);
  const shown = await page.evaluate(() => {
    const cells = {};
    for (const td of document.querySelectorAll("#winner td[data-seat]")) {
      const key = `${td.getAttribute("data-seat")}:${td.getAttribute("data-flow") ?? "points." + td.getAttribute("data-points")}`;
      cells[key] = Number(td.textContent);
    }
    const histogram = [...document.querySelectorAll("#winner .histogram li")].map((li) => Number(li.querySelector(".count").textContent));
    return { cells, histogram };
  });
  assert(JSON.stringify(shown.histogram) === JSON.stringify(want.histogram), `dice histogram ${shown.histogram} vs ${want.histogram}`);
  want.seats.forEach((seat, s) => {
    for (const [flow, n] of Object.entries(seat.flows))
      assert(shown.cells[`${s}:${flow}`] === n, `seat ${s} ${flow}: shown ${shown.cells[`${s}:${flow}`]}, the log says ${n}`);
    for (const [source, n] of Object.entries(seat.points))
      assert(shown.cells[`${s}:points.${source}`] === n, `seat ${s} points from ${source}: shown ${shown.cells[`${s}:points.${source}`]}, the log says ${n}`);
  });
  return want;
}

/** Nothing a player wrote runs: the page holds the text, and no element it would make. */
async function assertOnlyText(page, texts) {
  const found = await page.evaluate((wanted) => ({
    pwned: window.__pwned ?? null,
    injected: document.querySelectorAll("#chat-list img, #chat-list svg, .players img, .players svg:not(.dice), #waiting img").length,
    text: document.body.innerText,
    present: wanted.map((t) => document.body.innerText.includes(t)),
  }), texts);
  assert(found.pwned === null, "a player's text ran as script");
  assert(found.injected === 0, `a player's text made ${found.injected} elements`);
  assert(found.present.every(Boolean), `the text is shown as written: ${JSON.stringify(texts)} in ${JSON.stringify(found.present)}`);
}

/** The short journey (make test-web; `journey_to_the_end` is the long one): Ann creates a
 * game with two open seats and a bot on her desk; Bob (a phone) and Cy (a tablet) open the
 * invitation and join with names that are markup; the game starts on all three pages; they
 * talk (markup too, and a mute); each plays two turns by clicks; the three go on holiday
 * from their seat panels and the bots finish; every page's end-of-game screen equals the
 * figures of the exported log. Then Ann finds the game in her games, takes her player to
 * another browser, and Cy replaces his leaked seat link. */
async function journey({ browser, base }, toTheEnd) {
  const started = Date.now();
  // Markup as names and as messages: each kind both ways.
  const xssName = "<img src=x onerror=window.__pwned=1>", xssName2 = "<svg onload=window.__pwned=1>";
  const xssText = "<svg onload=window.__pwned=1>hi</svg>", xssText2 = "<img src=x onerror=window.__pwned=1> hello";
  const ann = await person(browser, "desk"), bob = await person(browser, "phone"), cy = await person(browser, "tablet");
  await ann.context.grantPermissions(["notifications"]);

  // 1. Ann creates the game with two open seats and a bot.
  await ann.page.goto(base + "/");
  await ann.page.getByLabel("Name of seat 1").fill("Ann");
  await ann.page.getByLabel("Who plays seat 2").selectOption("invite");
  await ann.page.getByLabel("Who plays seat 3").selectOption("invite");
  await ann.page.getByLabel("Who plays seat 4").selectOption("bot");
  await ann.page.getByLabel("Board").selectOption("beginner");
  await ann.page.getByLabel("Start").selectOption("fixed");
  if (toTheEnd) await ann.page.getByLabel("Dice").selectOption("manual");
  await ann.page.getByRole("button", { name: "Create the game" }).click();
  await ann.page.locator("#waiting").waitFor();
  const invite = await ann.page.locator("#invite-link").inputValue();
  assert(/#game=[0-9a-f]{16}&invite=iv_/.test(invite), `invitation ${invite}`);
  const id = new URLSearchParams(invite.split("#")[1]).get("game");
  assert((await ann.page.locator("#waiting-seats li.open").count()) === 2, "two open seats wait");
  await ann.page.screenshot({ path: join(out, "journey-waiting-1280.png") });

  // 2. Bob opens the invitation on his phone: the waiting game, who invites, Join.
  await bob.page.goto(invite);
  await bob.page.locator("#join-form").waitFor();
  const title = await bob.page.locator("#waiting-title").textContent();
  assert(title === "Ann invites you to a game of Catan", `waiting page: ${title}`);
  await bob.page.screenshot({ path: join(out, "journey-invite-390.png") });
  await axeScan(bob.page, "the invitation on a phone");
  await bob.page.locator("#join-name").fill(xssName);
  await press(bob, bob.page.locator("#join-button"), "join");
  await bob.page.locator("#waiting-you").waitFor();
  await assertOnlyText(bob.page, [xssName]);
  // 3. Cy joins on his tablet: that takes the last seat, and every page moves on to the game.
  await cy.page.goto(invite);
  await cy.page.locator("#join-name").fill(xssName2);
  await cy.page.locator("#join-button").click();
  for (const who of [ann, bob, cy]) await who.page.locator(".game[data-version]").waitFor({ timeout: 15000 });
  const seats = (await api(base, "GET", `/v1/games/${id}/seats`)).body.seats;
  assert(seats.map((s) => s.name).join("|") === `Ann|${xssName}|${xssName2}|Bot 4`, `the seats: ${seats.map((s) => s.name)}`);

  // 4. Table talk crosses between them; markup stays text; Ann mutes Bob for herself.
  const say = async (who, text) => {
    await who.page.locator("#chat-text").fill(text);
    await press(who, who.page.locator("#chat-send"), "send");
  };
  await say(ann, "Hello from Ann");
  await say(bob, xssText);
  await say(cy, xssText2);
  for (const who of [ann, bob, cy]) {
    await who.page.locator("#chat-list li", { hasText: "Hello from Ann" }).waitFor({ timeout: 10000 });
    await who.page.locator("#chat-list li", { hasText: "hi</svg>" }).waitFor({ timeout: 10000 });
    await who.page.locator("#chat-list li", { hasText: "> hello" }).waitFor({ timeout: 10000 });
    await assertOnlyText(who.page, [xssName, xssName2, xssText, xssText2, "Hello from Ann"]);
  }
  await ann.page.locator("button.mute[data-seat='1']").click();
  await say(bob, "Bob again");
  await cy.page.locator("#chat-list li", { hasText: "Bob again" }).waitFor({ timeout: 10000 });
  await ann.page.locator("button.mute[data-seat='1']", { hasText: "2 hidden" }).waitFor({ timeout: 10000 });
  assert((await ann.page.locator("#chat-list li[data-seat='1']").count()) === 0, "Ann muted Bob: none of his messages shows for her");
  assert((await cy.page.locator("#chat-list li[data-seat='1']").count()) === 2, "muting is Ann's own: Cy still reads Bob");
  // Asking for notifications is a click (never on load); the browser says yes here.
  await ann.page.locator("#notify-button").click();
  await ann.page.locator("#seat-status", { hasText: "will notify you" }).waitFor();
  // This server has no SMTP_URL: the page says so, from the server's answer.
  await ann.page.locator("#mail-state", { hasText: /sends no mail|mail_disabled/ }).waitFor({ timeout: 10000 });

  // 5. They play by clicks: two turns each (the long form: to the end).
  // A bot's offer waits for the people it asked: each answers it by a click (humanStep
  // declines; person_takes_a_bots_offer takes one), and the bot moves on at once.
  const people = [ann, bob, cy];
  const state = people.map(() => ({ roads: 0, turn: -1, keyboard: true, ends: 0 }));
  let shots = 0, clicks = 0, mineSeen = 0;
  const limit = toTheEnd ? 600000 : 90000;
  for (;;) {
    if (Date.now() - started > limit) throw new Error(`the journey did not ${toTheEnd ? "end" : "get through two turns each"} in ${limit / 1000} s`);
    if (await ann.page.locator("#winner").isVisible()) break;
    if (!toTheEnd && state.every((s) => s.ends >= 2)) break;
    let acted = false;
    for (let i = 0; i < people.length; i++) {
      const who = people[i], page = who.page;
      const turn = await page.locator(".game").getAttribute("data-turn");
      if (turn !== state[i].turn) state[i].roads = 0, state[i].turn = turn;
      if ((await page.title()).startsWith("●")) {
        mineSeen++;
        const icon = await page.locator('link[rel="icon"]').getAttribute("href");
        assert(icon === "/web/icon-turn.svg", `the favicon says it is ${i}'s move: ${icon}`);
      }
      const before = await version(page);
      const did = await humanStep(who, state[i]);
      if (!did) continue;
      acted = true;
      clicks++;
      if (did === "road") state[i].roads++;
      if (did === "end") state[i].ends++;
      // On a phone a tapped place only waits for its confirmation: nothing to settle.
      const chose = did === "choose" || (who.touch && (did === "build" || did === "road" || did === "robber"));
      if (!chose && did !== "close" && did !== "discard-open") await settle(page, before).catch(() => {});
      const message = page.locator("#message");
      if (await message.isVisible()) {
        const text = await message.textContent();
        if (!/Another move was made|moved on before/.test(text)) throw new Error(`a click was refused: ${text}`);
        await page.evaluate(() => { document.getElementById("message").hidden = true; });
      }
      if (shots < 2 && did === "roll") {
        await bob.page.screenshot({ path: join(out, `journey-game-390-${shots}.png`) });
        await ann.page.screenshot({ path: join(out, `journey-game-1280-${shots}.png`) });
        shots++;
      }
    }
    if (!acted) await sleep(150);
  }
  assert(mineSeen > 0, "the title said whose move it was");
  console.log(`   ${clicks} clicks and taps by three people in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // 6. The short form: the three go on holiday from their seat panels; the bots finish.
  if (!toTheEnd) {
    for (const who of people) {
      if (await who.page.locator("#winner").isVisible()) break;
      await press(who, who.page.locator("#holiday-start"), "away");
      await who.page.locator("#holiday-end").waitFor({ timeout: 10000 }).catch(() => {});
    }
  }
  let figures = null;
  for (const who of people) figures = await checkEndScreen(who.page, base, id);
  await bob.page.screenshot({ path: join(out, "journey-end-390.png"), fullPage: true });
  await ann.page.screenshot({ path: join(out, "journey-end-1280.png"), fullPage: true });
  await axeScan(bob.page, "the end of the game on a phone");
  console.log(`   end screen = the export's figures: points ${figures.seats.map((s) => s.points.total).join(", ")}; ` +
    `histogram ${figures.histogram.join(" ")}`);

  // 7. Ann's games: the finished game is there; her player link takes them to another browser.
  await ann.page.goto(base + "/#");
  await ann.page.locator(`#my-games-list li[data-game="${id}"]`).waitFor({ timeout: 10000 });
  const playerLink = await ann.page.locator("#player-link").inputValue();
  assert(/#player=pt_/.test(playerLink), `player link ${playerLink}`);
  const other = await person(browser, "phone");
  await other.page.goto(playerLink);
  await other.page.locator(`#my-games-list li[data-game="${id}"]`).waitFor({ timeout: 10000 });
  assert(!(await other.page.evaluate(() => location.href)).includes("pt_"), "the player token leaves the address bar");
  await press(other, other.page.locator(`#my-games-list li[data-game="${id}"] a`), "open");
  await other.page.locator("#you h2", { hasText: "Ann" }).waitFor({ timeout: 10000 });
  await other.context.close();

  // 8. Cy's seat link leaked: he replaces it; the old one is refused at once.
  const oldToken = await cy.page.evaluate((g) => JSON.parse(localStorage.getItem("catan.seats"))[g].token, id);
  assert(/^st_/.test(oldToken), "Cy's browser keeps his seat link");
  const oldLink = seatUrl(base, id, oldToken);
  await cy.page.locator("#replace-seat-link").click();
  await cy.page.locator("#seat-status", { hasText: "new link" }).waitFor({ timeout: 10000 });
  const thief = await person(browser, "desk");
  await thief.page.goto(oldLink);
  await thief.page.locator("#message", { hasText: "unknown_token" }).waitFor({ timeout: 10000 });
  await thief.context.close();
  for (const who of people) await who.context.close();
}

cases.journey_invite_join_talk_play_and_finish = (env) => journey(env, false);

/** The long journey: the same three people play to the end by clicks (manual dice). */
const longCases = {};
longCases.journey_to_the_end = (env) => journey(env, true);

/** A phone (390x844, touch): every target is at least 24x24 CSS px and none overlaps
 * another; a placement tapped is only marked and confirmed before the server is asked (and
 * can be cancelled); no page overflows sideways and every player row holds on two lines at
 * 390, 768 and 1280 px, the awards whole. */
cases.phone_targets_confirm_and_rows = async ({ browser, base }) => {
  const game = await createGame(base, [{ name: "Phil" }, { name: "Robo", bot: true }, { name: "Rita", bot: true }],
    { layout: "beginner", start: "draft", first_seat: 0 });
  const phone = await person(browser, "phone");
  const page = phone.page;
  await page.goto(seatUrl(base, game.id, game.seats[0].token));
  await page.locator(".targets [data-node]").first().waitFor();
  const measure = () => page.evaluate(() => {
    const small = [];
    for (const node of document.querySelectorAll("button, a, input, select, [role=button], label[for]")) {
      const r = node.getBoundingClientRect();
      if (!r.width || !r.height || node.closest("[hidden]") || getComputedStyle(node).visibility === "hidden") continue;
      if (node.tagName === "LABEL" && node.querySelector("input")) continue;
      if (r.width < 24 || r.height < 24) small.push(`${node.tagName}#${node.id}.${node.getAttribute("class")} ${node.textContent.slice(0, 30)} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
    }
    const discs = [...document.querySelectorAll(".targets [role=button]")].map((t) => t.querySelector("circle") ?? t)
      .map((c) => c.getBoundingClientRect()).map((r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2, r: Math.min(r.width, r.height) / 2 }));
    let overlaps = 0;
    for (let i = 0; i < discs.length; i++)
      for (let k = 0; k < i; k++)
        if (Math.hypot(discs[i].x - discs[k].x, discs[i].y - discs[k].y) < discs[i].r + discs[k].r - 0.5) overlaps++;
    return { small, targets: discs.length, overlaps, smallest: Math.min(...discs.map((d) => 2 * d.r)) };
  });
  let m = await measure();
  assert(m.targets >= 50 && m.small.length === 0 && m.overlaps === 0,
    `settlement targets on a phone: ${m.targets}, smallest ${m.smallest.toFixed(1)} px, ${m.overlaps} overlapping, too small: ${m.small.join("; ")}`);
  console.log(`   ${m.targets} settlement targets, the smallest ${m.smallest.toFixed(1)} px across, none overlapping`);
  await page.screenshot({ path: join(out, "phone-targets-390.png") });
  // A tap only marks the place: nothing is asked or drawn before the confirmation.
  const before = await version(page);
  const node = await page.locator(".targets [data-node]").nth(20).getAttribute("data-node");
  await page.locator(`.targets [data-node="${node}"]`).tap();
  await page.locator("#confirm").waitFor();
  assert(await page.locator(`.mark.chosen[data-mark-node="${node}"]`).count() === 1, "the chosen place is marked");
  assert((await page.locator("[data-building]").count()) === 0 && (await version(page)) === before, "nothing is built before the confirmation");
  await page.screenshot({ path: join(out, "phone-confirm-390.png") });
  await page.locator("#cancel-move").tap();
  await page.locator("#confirm").waitFor({ state: "detached" });
  assert((await api(base, "GET", `/v1/games/${game.id}`)).body.version === before, "a cancelled placement asked nothing");
  await page.locator(`.targets [data-node="${node}"]`).tap();
  await page.locator("#confirm-move").tap();
  await page.locator(`[data-building="${node}"]`).waitFor({ timeout: 10000 });
  // The road's targets: discs as large, none overlapping.
  await page.locator(".targets [data-edge]").first().waitFor();
  m = await measure();
  assert(m.small.length === 0 && m.overlaps === 0, `road targets: smallest ${m.smallest.toFixed(1)} px, ${m.overlaps} overlapping, ${m.small.join("; ")}`);
  await axeScan(page, "the game on a phone");
  await phone.context.close();

  // Rows and overflow at three widths, on a game the bots played to the end (awards held).
  const bots = await createGame(base, [{ name: "Annabelle", bot: true }, { name: "Bob", bot: true }, { name: "Cy", bot: true }, { name: "Dee", bot: true }],
    { layout: "beginner", start: "fixed" });
  const until = Date.now() + 30000;
  while ((await api(base, "GET", `/v1/games/${bots.id}`)).body.status !== "finished") {
    assert(Date.now() < until, "the bots did not finish");
    await sleep(200);
  }
  // Besides the game as the bots ended it, the widest row a seat can show: both awards and
  // two-digit figures on the longest name (the view rewritten on its way to the page).
  const widest = (view) => {
    Object.assign(view.players[0], { resource_count: 19, development_card_count: 5, knights_played: 14, longest_road_length: 15, victory_points: 10 });
    return { ...view, largest_army: 0, longest_road: 0 };
  };
  // And the widest rows of a game in play (issue 28's marks): the seat to move is in its
  // quiet hours now with days left before its deadline; a seat whose player left (the bot
  // holds it) and one in its quiet hours show the longest bank.
  const hhmm = (t) => new Date(t).toISOString().slice(11, 16);
  const widestLive = (view) => {
    const v = widest(view);
    const quiet = { timezone: "UTC", from: hhmm(Date.now() - 3600e3), to: hhmm(Date.now() + 3600e3) };
    for (const p of v.players) Object.assign(p, { time_bank_s: 863999, quiet_hours: quiet, bot: false });
    Object.assign(v.players[1], { name: "Bernadette", bot: true, resource_count: 19, development_card_count: 5, victory_points: 9 });
    Object.assign(v.players[2], { name: "Clementine", resource_count: 19, development_card_count: 5, victory_points: 9 });
    return { ...v, status: "playing", phase: "main", winner: null, turn: { ...v.turn, seat: 0 }, pending: { ...v.pending, seats: [0] },
      deadline: new Date(Date.now() + 9.5 * 86400e3).toISOString() };
  };
  widestLive.live = true;
  const cases = [[390, "phone", null], [768, "tablet", null], [1280, "desk", null], [390, "phone", widest], [768, "tablet", widest],
    [390, "phone", widestLive], [768, "tablet", widestLive]];
  for (const [width, device, rewrite] of cases) {
    const who = await person(browser, device);
    if (rewrite) {
      await who.page.route((url) => url.pathname === `/v1/games/${bots.id}`, async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, json: rewrite(await response.json()) });
      });
    }
    if (rewrite?.live) {
      await who.page.route((url) => url.pathname === `/v1/games/${bots.id}/seats`, async (route) => {
        const response = await route.fetch();
        const seats = await response.json();
        seats.seats[1].needs_substitute = true;
        await route.fulfill({ response, json: seats });
      });
    }
    await who.page.goto(seatUrl(base, bots.id, null));
    await who.page.locator(".game[data-version] .player").first().waitFor();
    if (rewrite?.live) {
      const row = (seat) => who.page.locator(`.player[data-seat="${seat}"]`);
      for (const [seat, mark] of [[0, ".tag.quiet:not([hidden])"], [0, ".tag.to-move .due"], [1, ".tag.left"], [1, ".bank"],
        [2, ".tag.quiet:not([hidden])"], [2, ".bank"]])
        await row(seat).locator(mark).waitFor({ timeout: 15000 });
      assert(await row(1).locator(".tag", { hasText: /^bot$/ }).count() === 0, "a seat held for a substitute is marked left, not bot");
      assert(await row(1).locator(".tag.quiet").count() === 0, "the quiet hours of a seat whose player left are not shown");
      assert(/^9d (11|12)h$/.test(await row(0).locator(".tag.to-move .due").textContent()), "the deadline in days and hours");
      assert(await row(2).locator(".bank").textContent() === "bank 9d 23h", "the bank in days and hours");
    } else {
      await who.page.locator("#winner .summary").waitFor({ timeout: 15000 });
    }
    const layout = await who.page.evaluate(() => {
      const lines = [...document.querySelectorAll(".player")].map((row) => {
        const tops = [];
        const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          if (!t.textContent.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(t);
          for (const r of range.getClientRects()) if (!tops.some((y) => Math.abs(y - r.top) < 8)) tops.push(r.top);
        }
        return tops.length;
      });
      const cut = [...document.querySelectorAll(".player .award, .player .who, .player .tag, .player .bank")].filter((e) => e.scrollWidth > e.clientWidth + 1)
        .map((e) => e.textContent);
      const panel = document.querySelector("#players").getBoundingClientRect();
      const outside = [...document.querySelectorAll(".player .award, .player .points, .player .tag, .player .bank")]
        .filter((e) => e.getBoundingClientRect().right > panel.right + 1).map((e) => e.textContent);
      return { lines, cut, outside, awards: document.querySelectorAll(".player .award").length,
        overflow: document.documentElement.scrollWidth - window.innerWidth };
    });
    const shot = `${width}${rewrite ? rewrite.live ? "-widest-live" : "-widest" : ""}`;
    await who.page.screenshot({ path: join(out, `rows-${shot}.png`), fullPage: true });
    await who.page.locator("#players").screenshot({ path: join(out, `rows-${shot}-players.png`) });
    if (!rewrite?.live) await who.page.locator("#winner").screenshot({ path: join(out, `end-${shot}.png`) });
    assert(layout.overflow <= 0, `${shot} px: the page is ${layout.overflow} px wider than the screen`);
    assert(layout.lines.every((n) => n <= 2), `${shot} px: player rows take ${layout.lines.join(", ")} lines`);
    assert(layout.cut.length === 0 && layout.outside.length === 0, `${shot} px: cut ${layout.cut}, outside ${layout.outside}`);
    assert(layout.awards >= 1, `${shot} px: the ${rewrite?.live ? "" : "finished "}game shows its awards`);
    if (rewrite) assert(layout.awards === 2, `${shot} px: the seat holding both awards shows both`);
    await who.context.close();
  }
};


/** Issue 28 at the table: Ann leaves her seat by clicks (a confirmation first), the bot holds
 * it and every row marks it "left"; the admin (the browser that created the game) and then
 * Ann make a substitute's invitation by clicks, Ann's replacing the admin's; Zed opens the
 * replaced link in a fresh browser and is refused in the problem's words, then opens Ann's,
 * takes the seat by name and plays its turn by clicks; Ann's old link stops; a used link
 * shows the game to a spectator, saying why. */
cases.substitute_takes_a_seat = async ({ browser, base }) => {
  const game = await createGame(base, [{ name: "Ann" }, { name: "Bob" }, { name: "Cy", bot: true }],
    { layout: "beginner", start: "fixed", dice: "manual", first_seat: 1, offer_wait_s: 0 });
  const [ann, bob] = game.seats;
  const seats = async () => (await api(base, "GET", `/v1/games/${game.id}/seats`)).body.seats;
  const annP = await person(browser, "desk");
  await annP.page.goto(seatUrl(base, game.id, ann.token));
  await annP.page.locator(".game[data-version]").waitFor();
  assert(!(await annP.page.locator(".player .bank").count()), "no bank shown in a game without one");
  // The admin's browser: the one that created the game keeps its admin token.
  const admin = await person(browser, "desk");
  await admin.context.addInitScript(([id, token]) => {
    if (!localStorage.getItem("catan.created")) localStorage.setItem("catan.created", JSON.stringify({ [id]: { admin: token, invite: null } }));
  }, [game.id, game.admin_token]);
  await admin.page.goto(`${base}/#game=${game.id}`);
  await admin.page.locator(".game[data-version]").waitFor();
  assert(!(await admin.page.locator("#admin-substitutes").count()), "no seat needs a substitute yet");

  // Ann leaves (person() accepts the confirmation).
  await annP.page.getByRole("button", { name: "Leave the game" }).click();
  await annP.page.locator("#invite-substitute").waitFor({ timeout: 20000 });
  assert((await seats())[0].needs_substitute === true, "the server has Ann's seat needing a substitute");
  await annP.page.locator('.player[data-seat="0"] .tag.left').waitFor({ timeout: 20000 });
  await admin.page.locator('.player[data-seat="0"] .tag.left').waitFor({ timeout: 20000 });
  await annP.page.screenshot({ path: join(out, "substitute-left.png") });

  // The admin invites a substitute, then Ann does (hers replaces the admin's).
  await admin.page.locator("#admin-invite-0").click({ timeout: 20000 });
  const adminLink = await admin.page.locator("#substitute-link-0").inputValue({ timeout: 20000 });
  assert(new RegExp(`#game=${game.id}&invite=iv_`).test(adminLink), `the admin's invitation: ${adminLink}`);
  await admin.page.locator("#table-panel").screenshot({ path: join(out, "substitute-admin.png") });
  await annP.page.getByRole("button", { name: "Invite a substitute" }).click();
  const link = await annP.page.locator("#substitute-link").inputValue({ timeout: 20000 });
  assert(link !== adminLink && /&invite=iv_/.test(link), `Ann's invitation: ${link}`);
  await annP.page.locator("#table-panel").screenshot({ path: join(out, "substitute-invite.png") });
  assert((await seats())[0].substitute_invited === true, "an invitation is out");

  // Zed, in a fresh browser: the replaced link is refused in the server's words.
  const zed = await person(browser, "phone");
  await zed.page.goto(adminLink);
  const title = zed.page.locator("#substitute-title");
  await title.waitFor({ timeout: 20000 });
  assert((await title.textContent()) === "Take Ann's seat", `the substitute's page: ${await title.textContent()}`);
  await zed.page.screenshot({ path: join(out, "substitute-take-390.png") });
  await axeScan(zed.page, "the substitute's page");
  await zed.page.locator("#substitute-name").fill("Zed");
  await zed.page.getByRole("button", { name: "Take the seat" }).tap();
  await zed.page.locator("#substitute-status", { hasText: "wrong_invite" }).waitFor({ timeout: 20000 }).catch(async (e) => {
    throw new Error(`${e.message}\nthe page says: ${await zed.page.locator("#app").textContent()} | ${await zed.page.locator("#message").textContent()}`);
  });
  assert((await seats())[0].needs_substitute === true, "a refused invitation changed nothing");
  // Ann's link takes the seat: the page becomes the seat's.
  await zed.page.goto(link);
  await zed.page.locator("#substitute-name").waitFor({ timeout: 20000 });
  await zed.page.locator("#substitute-name").fill("Zed");
  await zed.page.getByRole("button", { name: "Take the seat" }).tap();
  await zed.page.locator("#role", { hasText: "You play Zed (seat 1)" }).waitFor({ timeout: 30000 }).catch(async (e) => {
    throw new Error(`${e.message}\nthe page says: ${await zed.page.locator("#role").textContent()} | ${await zed.page.locator("#message").textContent()} | ${(await zed.page.locator("#app").textContent()).slice(0, 300)}`);
  });
  assert(!zed.page.url().includes("invite="), `the spent invitation left the address: ${zed.page.url()}`);
  const after = await seats();
  assert(after[0].needs_substitute === false && after[0].name === "Zed", `the seat is Zed's: ${JSON.stringify(after[0])}`);
  assert((await api(base, "GET", `/v1/games/${game.id}`, ann.token)).status === 401, "Ann's old link stopped");
  const kept = await zed.page.evaluate((id) => JSON.parse(localStorage.getItem("catan.seats"))[id], game.id);
  assert(kept && kept.seat === 0 && /^st_/.test(kept.token), `Zed's browser keeps the seat: ${JSON.stringify(kept)}`);
  assert((await api(base, "GET", `/v1/games/${game.id}`, kept.token)).body.you?.seat === 0, "the kept token is the seat's");

  // Bob plays his turn (the API); Cy is a bot; then Zed plays seat 1's turn by taps.
  const truthBefore = (await api(base, "GET", `/v1/games/${game.id}`)).body;
  assert(truthBefore.turn.seat === 1, `Bob is to move: ${JSON.stringify(truthBefore.turn)}`);
  let r = await api(base, "POST", `/v1/games/${game.id}/moves`, bob.token, { type: "roll", dice: [2, 3] });
  assert(r.status === 201, `Bob rolls: ${r.status} ${JSON.stringify(r.body)}`);
  r = await api(base, "POST", `/v1/games/${game.id}/moves`, bob.token, { type: "end_turn" });
  assert(r.status === 201, `Bob ends: ${r.status} ${JSON.stringify(r.body)}`);
  const roll = zed.page.getByRole("button", { name: "Roll these dice" });
  await roll.waitFor({ timeout: 30000 });
  let before = await version(zed.page);
  await roll.tap();
  await settle(zed.page, before, 20000);
  const end = zed.page.locator("#actions").getByRole("button", { name: "End turn" });
  await end.waitFor({ timeout: 20000 });
  before = await version(zed.page);
  await end.tap();
  await settle(zed.page, before, 20000);
  const log = (await api(base, "GET", `/v1/games/${game.id}/moves?after=${truthBefore.version}&limit=100`)).body.events;
  const zedMoves = log.filter((e) => e.seat === 0 && e.origin === "player").map((e) => e.type);
  assert(zedMoves.includes("dice_rolled") && zedMoves.includes("turn_ended"),
    `Zed rolled and ended seat 1's turn: ${JSON.stringify(log.filter((e) => e.seat === 0).map((e) => [e.type, e.origin]))}`);
  await zed.page.screenshot({ path: join(out, "substitute-plays-390.png") });

  // The used link, opened again elsewhere: the game for a spectator, and why.
  const late = await person(browser, "desk");
  await late.page.goto(link);
  await late.page.locator("#message", { hasText: "no seat of this game needs a substitute" }).waitFor({ timeout: 20000 });
  await late.page.locator("#role", { hasText: "Watching as a spectator" }).waitFor({ timeout: 20000 });
  for (const who of [annP, admin, zed, late]) await who.context.close();

  // A rated game has no substitutes: its seats' pages offer no leaving.
  const players = [];
  for (const name of ["Ria", "Sam", "Tim"]) players.push((await api(base, "POST", "/v1/players", null, { name })).body);
  const rated = await api(base, "POST", "/v1/games", players[0].token,
    { players: players.map((p) => ({ name: p.name, player: p.id })), options: { rated: true, layout: "beginner", start: "fixed" } });
  assert(rated.status === 201, `a rated game: ${rated.status} ${JSON.stringify(rated.body)} ${JSON.stringify(players)}`);
  const ria = await person(browser, "desk");
  await ria.page.goto(seatUrl(base, rated.body.id, rated.body.seats[0].token));
  await ria.page.locator(".game[data-version] .player").first().waitFor();
  await ria.page.locator("#seat-panel").waitFor();
  assert(await ria.page.locator("#leave-game").count() === 0, "no Leave the game in a rated game");
  await ria.context.close();
};

/** Issue 28's clocks: a game with a time bank shows each seat's bank in its row and the
 * time left for the move in the row of the seat to move; Ann sets her quiet hours by clicks
 * (the time zone this browser's by default), the server has them, Bob's page marks her
 * quiet now; she clears them by a click. */
cases.quiet_hours_and_bank = async ({ browser, base }) => {
  const game = await createGame(base, [{ name: "Ann" }, { name: "Bob" }, { name: "Cy", bot: true }],
    { layout: "beginner", start: "fixed", dice: "manual", first_seat: 0, turn_timeout_s: 3600, time_bank_s: 90000 });
  const [ann, bob] = game.seats;
  const zone = "Europe/Berlin";
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: zone });
  const page = watch(await context.newPage());
  await page.goto(seatUrl(base, game.id, ann.token));
  await page.locator(".game[data-version]").waitFor();
  const truth = (await api(base, "GET", `/v1/games/${game.id}`)).body;
  assert(truth.players.every((p) => p.time_bank_s === 90000), `the banks: ${JSON.stringify(truth.players.map((p) => p.time_bank_s))}`);
  for (const seat of [1, 2])
    await page.locator(`.player[data-seat="${seat}"] .bank`, { hasText: "bank 1d 1h" }).waitFor({ timeout: 20000 });
  // Ann is to move: her row counts down to the deadline, her bank counted in.
  const due = page.locator('.player[data-seat="0"] .tag.to-move .due');
  await due.waitFor({ timeout: 20000 });
  const left = (Date.parse(truth.deadline) - Date.now()) / 1000;
  assert(/^1d [12]h$/.test(await due.textContent()) && left > 86400, `the time left for Ann's move: ${await due.textContent()} (${left} s by the server)`);
  assert(/time bank of 1 d 1 h counted in/.test(await due.getAttribute("title")), `the deadline's words: ${await due.getAttribute("title")}`);
  assert(!(await page.locator('.player[data-seat="1"] .due').count()), "only the seat to move has a deadline in its row");
  assert(!(await page.locator('.player[data-seat="0"] .bank').count()), "the seat to move shows its deadline, not its bank");
  assert(await page.locator("#bank-mine", { hasText: "1 d 1 h left" }).count() === 1, "Ann's own bank in her panel");
  // Quiet hours around the present moment, in Berlin.
  assert((await page.locator("#quiet-zone").inputValue()) === zone, "the browser's time zone is the default");
  const local = (t) => new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(t);
  const from = local(Date.now() - 3600e3), to = local(Date.now() + 3600e3);
  await page.locator("#quiet-from").fill(from);
  await page.locator("#quiet-to").fill(to);
  await page.getByRole("button", { name: "Set quiet hours" }).click();
  await page.locator("#quiet-status", { hasText: "Quiet hours set" }).waitFor({ timeout: 20000 });
  let quiet = (await api(base, "GET", `/v1/games/${game.id}`)).body.players[0].quiet_hours;
  assert(JSON.stringify(quiet) === JSON.stringify({ timezone: zone, from, to }), `the server has Ann's quiet hours: ${JSON.stringify(quiet)}`);
  await page.locator('.player[data-seat="0"] .tag.quiet:not([hidden])').waitFor({ timeout: 20000 });
  await page.locator("#quiet-now", { hasText: "it is stopped now" }).waitFor({ timeout: 20000 });
  await page.locator("#table-panel").screenshot({ path: join(out, "quiet-hours-panel.png") });
  await page.locator("#players").screenshot({ path: join(out, "quiet-hours-players.png") });
  const bobP = await person(browser, "phone");
  await bobP.page.goto(seatUrl(base, game.id, bob.token));
  await bobP.page.locator('.player[data-seat="0"] .tag.quiet:not([hidden])').waitFor({ timeout: 20000 });
  assert(!(await bobP.page.locator('.player[data-seat="1"] .tag.quiet:not([hidden])').count()), "Bob has no quiet hours");
  await bobP.page.locator("#players").screenshot({ path: join(out, "quiet-hours-players-390.png") });
  // Ann clears them.
  await page.getByRole("button", { name: "Clear quiet hours" }).click();
  await page.locator("#quiet-status", { hasText: "Quiet hours cleared" }).waitFor({ timeout: 20000 });
  quiet = (await api(base, "GET", `/v1/games/${game.id}`)).body.players[0].quiet_hours;
  assert(quiet === null, `the server cleared them: ${JSON.stringify(quiet)}`);
  await page.locator('.player[data-seat="0"] .tag.quiet').waitFor({ state: "detached", timeout: 20000 });
  await page.locator("#quiet-now", { hasText: "No quiet hours" }).waitFor({ timeout: 20000 });
  await context.close();
  await bobP.context.close();
};

/** What happened, in words and on the board: the log names places by the server's names
 * (GET .../board) and cards in the edition's words, numbers every line in full; the board
 * marks the last move and, on a later visit, the moves since the last one; the dice are
 * drawn; the building costs are on the table; the table talk's limit is shown as the server
 * answers it. */
cases.log_marks_dice_costs_and_chat_limit = async ({ browser, base }) => {
  const game = await createGame(base, [{ name: "Ann" }, { name: "Bob" }, { name: "Cy" }],
    { layout: "beginner", start: "fixed", dice: "manual", first_seat: 0, edition: "2025" });
  const [ann, bob, cy] = game.seats;
  const board = (await api(base, "GET", `/v1/games/${game.id}/board`)).body;
  const desk = await person(browser, "desk");
  const page = desk.page;
  await page.goto(seatUrl(base, game.id, ann.token));
  await page.locator("#log-list li").first().waitFor();
  // The preset opening's settlements, named as the server names them.
  const log = (await api(base, "GET", `/v1/games/${game.id}/moves?after=0&limit=500`)).body.events;
  const first = log.find((e) => e.type === "settlement_built");
  const line = page.locator(`#log-list li[data-version="${first.version}"]`);
  await line.waitFor();
  const text = await line.textContent();
  assert(text.includes(board.nodes[first.node].name), `the log names the place: ${text}`);
  assert(text.startsWith(String(first.version)), `the line is numbered: ${text}`);
  assert(await page.locator("#you", { hasText: "wood" }).count() && await page.locator("#you", { hasText: "wheat" }).count(), "2025 words in the hand");
  assert(await page.locator("#costs", { hasText: "Road: 1 brick and 1 wood" }).count(), "the building costs, in the edition's words");
  assert(await page.locator(".mark.last").count() === 1, "the last move is marked");
  // Ann rolls at the table: the dice are drawn as dice.
  await page.getByLabel("First die").selectOption("3");
  await page.getByLabel("Second die").selectOption("5");
  let before = await version(page);
  await page.getByRole("button", { name: "Roll these dice" }).click();
  await settle(page, before);
  await page.locator("#status svg.dice .die[data-value='3']").waitFor();
  assert(await page.locator("#status svg.dice .die[data-value='5']").count() === 1, "both dice are drawn");
  await page.locator("#log-list li", { hasText: "rolled 3 + 5 = 8" }).waitFor();
  // Ann leaves; Bob and Cy play on (each rolls a 7 and moves the robber); when she comes
  // back, Cy's robber is the last move and Bob's a move since her last visit.
  await api(base, "POST", `/v1/games/${game.id}/moves`, ann.token, { type: "end_turn" });
  await page.waitForFunction(() => document.querySelector("#actions")?.textContent.includes("Nothing to do"), null, { timeout: 10000 })
    .catch(() => {});
  await page.goto("about:blank");
  const robber = async (seat, token, dice, not) => {
    const r = await api(base, "POST", `/v1/games/${game.id}/moves`, token, { type: "roll", dice });
    assert(r.status === 201, `seat ${seat} rolls: ${r.status}`);
    const move = (await api(base, "GET", `/v1/games/${game.id}/actions`, token)).body.actions.find((a) => a.type === "move_robber" && a.hex !== not);
    const m = await api(base, "POST", `/v1/games/${game.id}/moves`, token, move);
    assert(m.status === 201, `seat ${seat} moves the robber: ${m.status} ${JSON.stringify(m.body)}`);
    return move.hex;
  };
  const bobHex = await robber(1, bob.token, [3, 4], -1);
  await api(base, "POST", `/v1/games/${game.id}/moves`, bob.token, { type: "end_turn" });
  const cyHex = await robber(2, cy.token, [1, 6], bobHex);
  await page.goto(`${base}/#game=${game.id}`);
  await page.locator(`.mark.last[data-mark-hex="${cyHex}"]`).waitFor({ timeout: 10000 });
  assert(await page.locator(`.mark.recent[data-mark-hex="${bobHex}"]`).count() === 1, "Bob's robber is marked as a move since Ann's last visit");
  assert(await page.locator("#board-legend", { hasText: "since your last visit" }).count() === 1, "the legend says what the marks are");
  await page.locator(`#log-list li`, { hasText: `moved the robber to ${board.hexes[cyHex].name}` }).waitFor();
  await page.screenshot({ path: join(out, "marks-since-last-visit.png") });
  // Ann says too much: the server's limit (10 a minute), shown as it answers.
  for (let i = 0; i < 10; i++) {
    const r = await api(base, "POST", `/v1/games/${game.id}/messages`, ann.token, { text: `message ${i}` });
    assert(r.status === 201, `message ${i}: ${r.status}`);
  }
  await page.locator("#chat-text").fill("one more");
  await page.locator("#chat-send").click();
  await page.locator("#chat-status", { hasText: /Not sent: .*Try again in \d+ s\./ }).waitFor({ timeout: 10000 });
  assert(!(await page.locator("#chat-list li", { hasText: "one more" }).count()), "a refused message is not shown");
  // Whose move: the title and the favicon say it when it is Ann's.
  assert((await page.title()) === "Catan", `not Ann's move: ${await page.title()}`);
  await desk.context.close();
};

// ---- main ----
const chosen = process.argv.slice(2);
const names = chosen.length ? chosen : Object.keys(cases);
Object.assign(cases, longCases);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const { child, base } = await startServer({});
let failed = 0;
const total = Date.now();
try {
  for (const name of names) {
    assert(cases[name], `no case ${name}`);
    const started = Date.now();
    try {
      pageErrors.length = 0;
      await cases[name]({ browser, base });
      assert(pageErrors.length === 0, `the page reported: ${pageErrors.join("; ")}`);
      console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name} (${((Date.now() - started) / 1000).toFixed(1)} s): ${e.stack ?? e}`);
    }
  }
} finally {
  await browser.close();
  child.kill("SIGTERM");
}
console.log(`web tests: ${names.length - failed} of ${names.length} passed in ${((Date.now() - total) / 1000).toFixed(1)} s; screenshots in ${out}`);
if (failed) {
  console.log(serverLog.split("\n").filter((l) => /error|fatal/i.test(l)).slice(-20).join("\n"));
  process.exit(1);
}
