/*
 * play.ts - plays complete games against a real server as a third-party client would, with
 * the generated types only (catan.ts), and prints what it cost: the test of issue 11's
 * typed client (tests/api/test_http_typed_client.c runs it and judges the figures).
 *
 *   node js/play.js BASE_URL GAMES SEED
 *
 * Each game has four human seats, each played by its own loop, all at once:
 *
 *   GET /v1/games/{id}/actions?after=A&wait=30   (A: the version of the last actions seen)
 *   pick an action; POST it to /moves            (a non-template as it is, a template
 *                                                 completed by the contract's recipe)
 *
 * The long-poll answers once the game is past A and waits for this seat, or is over, or
 * when the wait runs out; so a seat spends about one read per move, and the loop needs no
 * stream, no log and no game view. The first game rolls manual dice (the roll template);
 * odd games use the random board.
 *
 * Prints one JSON line: games, finished, requests, accepted, refused (a refusal that is not
 * a race with another seat: a listed action the server did not take), races (409/412),
 * too_many_requests (429s), rate_limit_limit (the RateLimit-Limit header seen), and the
 * refusals' descriptions, and how often it paused because RateLimit-Remaining ran low
 * (paced). Exits 0 when it could play every game, whatever the figures.
 */
import {
  type Action,
  type CatanClient,
  type Pick,
  bearer,
  catanClient,
  createGame,
  describeGame,
  movable,
  problemText,
  seededPick,
} from "./catan.js";

interface Stats {
  games: number;
  finished: number;
  requests: number;
  accepted: number;
  refused: number;
  races: number;
  too_many_requests: number;
  rate_limit_limit: string | null;
  refusals: string[];
  templates_completed: number;
  forwarded_as_is: number;
  paced: number;
}

const WEIGHTS: Record<Action["type"], number> = {
  build_settlement: 100,
  build_city: 100,
  build_road: 15,
  buy_development_card: 25,
  play_knight: 20,
  play_road_building: 20,
  play_year_of_plenty: 20,
  play_monopoly: 20,
  maritime_trade: 6,
  offer_trade: 3,
  accept_trade: 10,
  decline_trade: 10,
  confirm_trade: 20,
  withdraw_trade: 5,
  end_turn: 12,
  roll: 1,
  discard: 1,
  move_robber: 1,
};

/** An action: a kind by weight among the kinds listed, then one of that kind. */
function chooseAction(actions: readonly Action[], pick: Pick): Action | undefined {
  const kinds = [...new Set(actions.map((a) => a.type))];
  const total = kinds.reduce((sum, kind) => sum + WEIGHTS[kind], 0);
  let n = pick(total);
  let kind = kinds[0];
  for (const k of kinds) {
    if (n < WEIGHTS[k]) {
      kind = k;
      break;
    }
    n -= WEIGHTS[k];
  }
  const ofKind = actions.filter((a) => a.type === kind);
  return ofKind[pick(ofKind.length)];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/*
 * All seats share this process's address, whose limit (RATE_LIMIT_IP, 200/s by default) no
 * answer to a request with a token shows: the process sends at most PROCESS_RATE requests
 * a second, a little under it. Each token's own limit is kept by note() below.
 */
const PROCESS_RATE = 150;
let nextSlot = 0;
async function throttle(): Promise<void> {
  const now = Date.now();
  const at = Math.max(now, nextSlot);
  nextSlot = at + 1000 / PROCESS_RATE;
  if (at > now) await sleep(at - now);
}

/**
 * Count a request, and keep within the rate limit as the answer's headers tell it: when
 * `RateLimit-Remaining` runs low, wait a little for the bucket to refill (a quarter of a
 * second is an eighth of the default per-token burst) rather than be told 429.
 */
async function note(stats: Stats, response: Response): Promise<void> {
  stats.requests++;
  if (response.status === 429) stats.too_many_requests++;
  const limit = response.headers.get("RateLimit-Limit");
  if (limit !== null) stats.rate_limit_limit = limit;
  const remaining = response.headers.get("RateLimit-Remaining");
  if (remaining !== null && Number(remaining) <= 8) {
    stats.paced++;
    await sleep(250);
  }
}

async function playSeat(client: CatanClient, id: string, seat: number, token: string, pick: Pick, stats: Stats) {
  let after = 0;
  for (let step = 0; step < 5000; step++) {
    await throttle();
    const read = await client.GET("/v1/games/{id}/actions", {
      params: { path: { id }, query: { after, wait: 30 } },
      headers: bearer(token),
    });
    await note(stats, read.response);
    if (read.data === undefined) throw new Error(`seat ${seat} actions: ${problemText(read.response.status, read.error)}`);
    const listed = read.data;
    if (process.env["PLAY_TRACE"] !== undefined)
      process.stderr.write(`seat ${seat} after ${after}: v${listed.version} waiting [${listed.waiting_for.join(",")}] ${listed.actions.length} actions\n`);
    if (listed.waiting_for.length === 0) return;
    if (!listed.waiting_for.includes(seat)) {
      after = listed.version;
      continue;
    }
    const action = chooseAction(listed.actions, pick);
    if (action === undefined) throw new Error(`seat ${seat}, waited for at ${listed.version}, has no actions`);
    const body = movable(action, pick);
    if (body === action) stats.forwarded_as_is++;
    else stats.templates_completed++;
    await throttle();
    const made = await client.POST("/v1/games/{id}/moves", {
      params: { path: { id } },
      headers: bearer(token),
      body,
    });
    await note(stats, made.response);
    if (made.data !== undefined) {
      stats.accepted++;
      after = listed.version;
    } else if (made.response.status === 409 || made.response.status === 412) {
      stats.races++;
      after = listed.version - 1;
    } else {
      stats.refused++;
      stats.refusals.push(`${JSON.stringify(body)} at v${listed.version}: ${problemText(made.response.status, made.error)}`);
      after = listed.version - 1;
    }
  }
  throw new Error(`seat ${seat} made 5000 steps without the game ending`);
}

const stats: Stats = {
  games: 0,
  finished: 0,
  requests: 0,
  accepted: 0,
  refused: 0,
  races: 0,
  too_many_requests: 0,
  rate_limit_limit: null,
  refusals: [],
  templates_completed: 0,
  forwarded_as_is: 0,
  paced: 0,
};

async function main(): Promise<number> {
  const [baseUrl, gamesText, seedText] = process.argv.slice(2);
  if (baseUrl === undefined) {
    process.stderr.write("usage: node play.js BASE_URL [GAMES] [SEED]\n");
    return 2;
  }
  const client = catanClient(baseUrl);
  const pick = seededPick(Number(seedText ?? "1"));
  stats.games = Number(gamesText ?? "3");
  for (let g = 0; g < stats.games; g++) {
    const created = await createGame(client, ["Ann", "Bob", "Cy", "Dee"], {
      layout: g % 2 === 1 ? "random" : "beginner",
      dice: g === 0 ? "manual" : "random",
      seed: 1000 + g,
    });
    stats.requests++;
    await Promise.all(
      created.seats.map((s) => (s.token === null ? Promise.resolve() : playSeat(client, created.id, s.seat, s.token, pick, stats))),
    );
    const token = created.seats[0]?.token;
    const final = await client.GET("/v1/games/{id}", {
      params: { path: { id: created.id } },
      headers: token === null || token === undefined ? {} : bearer(token),
    });
    await note(stats, final.response);
    if (final.data === undefined) throw new Error(`game ${created.id}: ${problemText(final.response.status, final.error)}`);
    if (final.data.status === "waiting" || final.data.status === "expired") throw new Error(`game ${created.id} never started (${final.data.status})`);
    process.stderr.write(`${describeGame(final.data)}\n`);
    if (final.data.status === "finished" && final.data.winner !== null) stats.finished++;
  }
  process.stdout.write(`${JSON.stringify(stats)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`play: ${error instanceof Error ? error.message : String(error)}\n`);
    process.stderr.write(`play: so far ${JSON.stringify(stats)}\n`);
    process.exit(1);
  },
);
