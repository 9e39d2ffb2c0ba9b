/*
 * play.ts - a whole game played against a real server through the client that
 * @hey-api/openapi-ts generates from openapi/openapi.yaml with its DEFAULT flags (issue 23,
 * item 5): its SDK functions (createGame, getActions, makeMove, getGame) and its types, no
 * cast, no `any` (make lint refuses both, as for openapi/client). make generates the
 * client into <build>/openapi/generators/hey/gen, copies this file beside it, compiles
 * both with tsc --strict and runs the JavaScript from tests/api/test_http_generated_client.c.
 *
 *   node js/play.js BASE_URL GAMES SEED
 *
 * Each game has three human seats, each played by its own loop, all at once, as a bot
 * author would write it from the contract (issue 23, item 6):
 *
 *   actions = GET /v1/games/{id}/actions?after=V&wait=30   only when it holds none
 *   POST one of them to /moves                              -> MoveResult
 *   actions = MoveResult.actions (the mover is due again), or none: V = MoveResult.version
 *
 * so the seat makes one request per move, plus one wait per turn of others. Prints one
 * JSON line: games, finished, requests, moves (accepted), waits (GET .../actions),
 * stalls (waits that answered after more than 5 s although the seat was due: the loop of
 * issue 23 that waited 60 s), refused (a listed action refused: 422), races (409/412),
 * violations (answers a validating proxy flagged with sl-violations), and the refusals'
 * descriptions. Exits 0 when it could play every game.
 */
import { createClient, createConfig } from "./gen/client";
import { createGame, getActions, getGame, makeMove } from "./gen/sdk.gen";
import type { Action, Actions, Hand, Move, Resource, ResourceCountsInput } from "./gen/types.gen";

const RESOURCES: readonly Resource[] = ["brick", "lumber", "wool", "grain", "ore"];

type Pick = (n: number) => number;

/** A seeded generator (xorshift32), so that a failing game can be played again. */
function seededPick(seed: number): Pick {
  let state = seed >>> 0 || 1;
  return (n: number): number => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}

/** `count` cards drawn at random from `hand`. */
function drawCards(hand: Hand, count: number, pick: Pick): ResourceCountsInput {
  const left: Record<Resource, number> = { ...hand };
  const taken: ResourceCountsInput = {};
  for (let i = 0; i < count; i++) {
    const total = RESOURCES.reduce((sum, r) => sum + left[r], 0);
    if (total === 0) break;
    let n = pick(total);
    for (const r of RESOURCES) {
      if (n < left[r]) {
        left[r]--;
        taken[r] = (taken[r] ?? 0) + 1;
        break;
      }
      n -= left[r];
    }
  }
  return taken;
}

/** The move body of an action: a template completed by the contract's recipe, any other
 * action as it is (the compiler checks that it is a Move). Offers are never made. */
function movable(action: Action, pick: Pick): Move {
  switch (action.type) {
    case "discard":
      return { type: "discard", resources: drawCards(action.hand, action.count, pick) };
    case "roll":
      if (action.template === true) return { type: "roll", dice: [1 + pick(6), 1 + pick(6)] };
      return action;
    case "offer_trade":
      throw new Error("this player makes no offers"); // never chosen: see choose()
    default:
      return action;
  }
}

const WEIGHTS: Partial<Record<Action["type"], number>> = {
  build_settlement: 100,
  build_city: 100,
  build_road: 15,
  buy_development_card: 25,
  play_knight: 20,
  play_road_building: 20,
  play_year_of_plenty: 20,
  play_monopoly: 20,
  maritime_trade: 6,
  decline_trade: 10,
  end_turn: 12,
  roll: 1,
  discard: 1,
  move_robber: 1,
};

/** An action: a kind by weight among the kinds listed (no offers), then one of that kind. */
function choose(actions: readonly Action[], pick: Pick): Action | undefined {
  const listed = actions.filter((a) => (WEIGHTS[a.type] ?? 0) > 0);
  const kinds = [...new Set(listed.map((a) => a.type))];
  const total = kinds.reduce((sum, kind) => sum + (WEIGHTS[kind] ?? 0), 0);
  let n = pick(total);
  let kind = kinds[0];
  for (const k of kinds) {
    const weight = WEIGHTS[k] ?? 0;
    if (n < weight) {
      kind = k;
      break;
    }
    n -= weight;
  }
  const ofKind = listed.filter((a) => a.type === kind);
  return ofKind[pick(ofKind.length)];
}

interface Stats {
  games: number;
  finished: number;
  requests: number;
  moves: number;
  waits: number;
  stalls: number;
  refused: number;
  races: number;
  violations: number;
  refusals: string[];
}

const stats: Stats = {
  games: 0,
  finished: 0,
  requests: 0,
  moves: 0,
  waits: 0,
  stalls: 0,
  refused: 0,
  races: 0,
  violations: 0,
  refusals: [],
};

type Client = ReturnType<typeof createClient>;

/** The status of an answer (0 when the request failed before one came); counts it, and
 * a contract violation that a validating proxy in front of the server flagged on it. */
function statusOf(result: { response?: Response }): number {
  return result.response?.status ?? 0;
}

function note(result: { response?: Response }): void {
  stats.requests++;
  if (result.response?.headers.get("sl-violations")) stats.violations++;
}

function problemText(status: number, error: unknown): string {
  return `HTTP ${status} ${JSON.stringify(error)}`;
}

async function playSeat(client: Client, id: string, seat: number, token: string, pick: Pick): Promise<void> {
  const headers = { Authorization: `Bearer ${token}` };
  let held: Actions | undefined;
  let after = 0;
  for (let step = 0; step < 5000; step++) {
    if (held === undefined) {
      const started = Date.now();
      const read = await getActions({ client, path: { id }, query: { after, wait: 30 }, headers });
      note(read);
      stats.waits++;
      if (read.data === undefined) throw new Error(`seat ${seat} actions: ${problemText(statusOf(read), read.error)}`);
      if (read.data.waiting_for.includes(seat) && read.data.version === after && Date.now() - started > 5000) stats.stalls++;
      held = read.data;
    }
    const now: Actions = held;
    held = undefined;
    if (now.waiting_for.length === 0) return;
    if (!now.waiting_for.includes(seat)) {
      after = now.version;
      continue;
    }
    const action = choose(now.actions, pick);
    if (action === undefined) throw new Error(`seat ${seat}, waited for at ${now.version}, has no actions`);
    const made = await makeMove({ client, path: { id }, body: movable(action, pick), headers });
    note(made);
    if (made.data !== undefined) {
      stats.moves++;
      after = made.data.version;
      held = made.data.actions;
    } else if ([409, 412, 422].includes(statusOf(made))) {
      // Another seat moved first (a discard, an answer): read again from before.
      if (statusOf(made) === 422) {
        stats.refused++;
        stats.refusals.push(`${JSON.stringify(action)} at v${now.version}: ${problemText(statusOf(made), made.error)}`);
      } else {
        stats.races++;
      }
      after = now.version;
    } else {
      throw new Error(`seat ${seat} move: ${problemText(statusOf(made), made.error)}`);
    }
  }
  throw new Error(`seat ${seat} made 5000 steps without the game ending`);
}

async function main(): Promise<number> {
  const [baseUrl, gamesText, seedText] = process.argv.slice(2);
  if (baseUrl === undefined) {
    process.stderr.write("usage: node play.js BASE_URL [GAMES] [SEED]\n");
    return 2;
  }
  const client = createClient(createConfig({ baseUrl }));
  const pick = seededPick(Number(seedText ?? "1"));
  stats.games = Number(gamesText ?? "1");
  for (let g = 0; g < stats.games; g++) {
    const created = await createGame({
      client,
      body: { players: [{ name: "Ann" }, { name: "Bob" }, { name: "Cy" }], options: { layout: "beginner", seed: 2000 + g } },
    });
    note(created);
    if (created.data === undefined) throw new Error(`create: ${problemText(statusOf(created), created.error)}`);
    const game = created.data;
    await Promise.all(
      game.seats.map((s) => (s.token === null ? Promise.resolve() : playSeat(client, game.id, s.seat, s.token, pick))),
    );
    const final = await getGame({ client, path: { id: game.id } });
    note(final);
    if (final.data === undefined) throw new Error(`game ${game.id}: ${problemText(statusOf(final), final.error)}`);
    const view = final.data;
    if (view.status === "waiting" || view.status === "expired") throw new Error(`game ${game.id} never started (${view.status})`);
    if (view.status === "finished" && view.winner !== null) stats.finished++;
    process.stderr.write(`game ${game.id} v${view.version} ${view.status} winner=${String(view.winner)}\n`);
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
