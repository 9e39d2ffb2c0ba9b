/*
 * catan.ts - a typed client of the Catan service, written as a third-party developer would:
 * openapi-fetch over the types openapi-typescript generates (default flags) from
 * openapi/openapi.yaml, with no casts and no `any` (make lint refuses both), so that every
 * schema that generates a loose or wrong type fails to compile here.
 *
 * What it shows about the contract:
 *   - a created game, a game view and the legal actions read with exact types (no
 *     `X & Record<string, never>`, no `unknown`);
 *   - every action that is not a template is a Move as it is: `movable` returns it
 *     unchanged, and only the compiler checks that this holds;
 *   - every template is completed by the recipe of the contract (`Action`): `type`, the
 *     template's `to` and `counter_to`, and the choice, from what the template carries
 *     (`hand`, `count`).
 *
 * The generated types are written to build/openapi/client/catan-api.d.ts by make; this
 * file is compiled beside them (openapi/openapi.mk).
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./catan-api.js";

export type Schemas = components["schemas"];
export type Action = Schemas["Action"];
export type Move = Schemas["Move"];
export type Actions = Schemas["Actions"];
export type Hand = Schemas["Hand"];
export type ResourceCounts = Schemas["ResourceCountsInput"];
export type Resource = Schemas["Resource"];
export type CatanClient = ReturnType<typeof createClient<paths>>;

export const RESOURCES: readonly Resource[] = ["brick", "lumber", "wool", "grain", "ore"];

/** A client for the server at `baseUrl` (e.g. the contract's `http://localhost:8080`). */
export function catanClient(baseUrl: string): CatanClient {
  return createClient<paths>({ baseUrl });
}

/** The bearer header of a token. */
export function bearer(token: string): { Authorization: string } {
  return { Authorization: `Bearer ${token}` };
}

/** A source of choices: an integer in [0, n). */
export type Pick = (n: number) => number;

/** A seeded generator (xorshift32), so that a failing game can be played again. */
export function seededPick(seed: number): Pick {
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
export function drawCards(hand: Hand, count: number, pick: Pick): ResourceCounts {
  const left: Record<Resource, number> = { ...hand };
  const taken: ResourceCounts = {};
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

/**
 * The move body for an action: a non-template action as it is (the compiler checks that it
 * is a Move), a template completed by the contract's recipe.
 */
export function movable(action: Action, pick: Pick): Move {
  switch (action.type) {
    case "discard":
      return { type: "discard", resources: drawCards(action.hand, action.count, pick) };
    case "offer_trade": {
      const give = drawCards(action.hand, 1 + pick(2), pick);
      const others = RESOURCES.filter((r) => give[r] === undefined);
      const wanted = others[pick(others.length)] ?? "ore";
      const want: ResourceCounts = { [wanted]: 1 };
      const body: Move = { type: "offer_trade", give, want };
      if (action.to !== undefined) body.to = action.to;
      if (action.counter_to !== undefined) body.counter_to = action.counter_to;
      return body;
    }
    case "roll":
      if (action.template === true) return { type: "roll", dice: [1 + pick(6), 1 + pick(6)] };
      return action;
    default:
      return action;
  }
}

/** A problem's one-line summary, or the status when the body is not one. */
export function problemText(status: number, error: Schemas["Problem"] | undefined): string {
  return error === undefined ? `HTTP ${status}` : `${status} ${error.code}: ${error.detail ?? error.title}`;
}

/** Create a game of human seats named `names`; every field of `options` may be left out. */
export async function createGame(
  client: CatanClient,
  names: readonly string[],
  options: Schemas["GameOptionsInput"],
): Promise<Schemas["CreatedGame"]> {
  const players: Schemas["PlayerInput"][] = names.map((name) => ({ name }));
  const { data, error, response } = await client.POST("/v1/games", { body: { players, options } });
  if (data === undefined) throw new Error(`create a game: ${problemText(response.status, error)}`);
  return data;
}

/** A line about a game as a seat sees it: every member read is required by the contract. */
export function describeGame(game: Schemas["Game"]): string {
  const id: string = game.id;
  const deadline: number = game.options.turn_timeout_s;
  const onTimeout: "default" | "bot" | "skip" = game.options.on_timeout;
  const points = game.players.map((p) => `${p.name}:${p.victory_points}`).join(" ");
  const winner = game.winner === null ? "none" : String(game.winner);
  return `game ${id} v${game.version} ${game.status} winner=${winner} [${points}] timeout=${deadline}/${onTimeout}`;
}
