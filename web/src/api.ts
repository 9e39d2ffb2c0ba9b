// api.ts - every call the client makes, through openapi-fetch typed by the contract
// (schema.d.ts, generated from openapi/openapi.yaml), and the problems they may answer.
//
// Nothing here changes what the page shows: callers render only what the server answered.
// A refused call becomes an ApiProblem carrying the problem+json body's status, code, title
// and detail (and Retry-After), which ui.ts turns into a sentence.
import createClient from "./openapi-fetch.js";
import type { components, paths } from "./schema.js";

export type Schemas = components["schemas"];
// The answers' types are taken from the calls below (what openapi-fetch infers from the
// contract for each operation's 2xx body), so they are exactly what arrives.
export type GameView = Awaited<ReturnType<typeof getGame>>;
export type Board = Awaited<ReturnType<typeof getBoard>>;
export type Actions = Awaited<ReturnType<typeof getActions>>;
export type Action = Actions["actions"][number];
export type Move = Schemas["Move"];
export type LogEntry = Schemas["LogEntry"];
export type Trade = Schemas["Trade"];
export type Resource = Schemas["Resource"];
export type Hand = Schemas["Hand"];
export type CreateGameRequest = Schemas["CreateGameRequest"];
export type WaitingGame = Schemas["WaitingGame"] | Schemas["ExpiredGame"];
export type GameSeats = Schemas["GameSeats"];
export type Summary = Schemas["GameSummary"];
export type TableMessage = Schemas["TableMessage"];
export type MyGame = Schemas["MyGame"];
export type Edition = Schemas["ViewOptions"]["edition"];
export type QuietHours = Schemas["QuietHours"];

export const RESOURCES: readonly Resource[] = ["brick", "lumber", "wool", "grain", "ore"];

/** A refused or failed call: status 0 when the network failed (no answer at all). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly retryAfter: number | null,
  ) {
    super(`${status} ${code}: ${detail}`);
  }
}

const client = createClient<paths>({ baseUrl: location.origin });

function bearer(token: string | null): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

async function problemOf(response: Response, body: unknown): Promise<ApiProblem> {
  const retry = response.headers.get("Retry-After");
  const retryAfter = retry !== null && /^\d+$/.test(retry) ? Number(retry) : null;
  if (body && typeof body === "object") {
    const p = body as Partial<Schemas["Problem"]>;
    return new ApiProblem(response.status, String(p.code ?? "unknown"), String(p.title ?? response.statusText),
      String(p.detail ?? p.title ?? ""), retryAfter);
  }
  return new ApiProblem(response.status, "unknown", response.statusText, `the server answered ${response.status}`,
    retryAfter);
}

/** The data of a successful answer, or throws its ApiProblem. */
async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch (e) {
    throw new ApiProblem(0, "network", "No connection", "the server cannot be reached", null);
  }
  if (!answer.response.ok || answer.data === undefined) throw await problemOf(answer.response, answer.error);
  return answer.data;
}

export function createGame(body: CreateGameRequest) {
  return unwrap(client.POST("/v1/games", { body }));
}

/** The newest version of each game this page was answered, by any read or move: sent back
 *  as `min_version`, so a read through another server is never older (the page's own
 *  writes and reads stay in order behind a load balancer). */
const known = new Map<string, number>();

function remember<T>(id: string, answer: T): T {
  const version = (answer as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version > (known.get(id) ?? 0)) known.set(id, version);
  return answer;
}

function minVersion(id: string): { min_version?: number } {
  const version = known.get(id);
  return version === undefined ? {} : { min_version: version };
}

/** The game view; a game that still waits for players (its seats only) is refused as the
 *  other game routes refuse it, so the caller deals with one shape. */
export async function getGame(id: string, token: string | null): Promise<Schemas["Game"]> {
  const view = remember(id, await unwrap(client.GET("/v1/games/{id}", {
    params: { path: { id }, query: minVersion(id) }, headers: bearer(token),
  })));
  if (view.status === "waiting" || view.status === "expired") {
    throw new ApiProblem(409, "game_not_started", "Not started",
      view.status === "expired" ? "the game expired waiting for players" : "the game waits for players to join", null);
  }
  return view;
}

/** The game view, or the waiting game (its seats and options) while seats are open. */
export async function getGameOrWaiting(id: string, token: string | null):
  Promise<{ game: Schemas["Game"]; waiting: null } | { game: null; waiting: WaitingGame }> {
  const view = remember(id, await unwrap(client.GET("/v1/games/{id}", {
    params: { path: { id }, query: minVersion(id) }, headers: bearer(token),
  })));
  return view.status === "waiting" || view.status === "expired" ? { game: null, waiting: view } : { game: view, waiting: null };
}

export function getSeats(id: string) {
  return unwrap(client.GET("/v1/games/{id}/seats", { params: { path: { id } } }));
}

export function joinGame(id: string, invite: string, name: string, playerToken: string | null) {
  return unwrap(client.POST("/v1/games/{id}/join", { params: { path: { id } }, body: { invite, name }, headers: bearer(playerToken) }));
}

/** The admin gives an open seat to a bot (before the start). */
export function seatBot(id: string, adminToken: string, seat: number, name: string) {
  return unwrap(client.POST("/v1/games/{id}/seats/{seat}/bot", {
    params: { path: { id, seat } }, body: { name }, headers: bearer(adminToken),
  }));
}

export function listLobby() {
  return unwrap(client.GET("/v1/games", { params: { query: { status: "waiting", limit: 50 } } }));
}

export function createPlayer(name: string) {
  return unwrap(client.POST("/v1/players", { body: { name } }));
}

export function myGames(playerToken: string) {
  return unwrap(client.GET("/v1/players/me/games", { params: { query: { limit: 100 } }, headers: bearer(playerToken) }));
}

export function replacePlayerToken(playerToken: string) {
  return unwrap(client.POST("/v1/players/me/token", { headers: bearer(playerToken) }));
}

export function replaceSeatToken(id: string, token: string, seat: number) {
  return unwrap(client.POST("/v1/games/{id}/seats/{seat}/token", { params: { path: { id, seat } }, headers: bearer(token) }));
}

/** A rematch of a finished game (issue 28): the same seats, made once (201, then 200). */
export function rematch(id: string, token: string) {
  return unwrap(client.POST("/v1/games/{id}/rematch", { params: { path: { id } }, headers: bearer(token) }));
}

export function getSummary(id: string) {
  return unwrap(client.GET("/v1/games/{id}/summary", { params: { path: { id } } }));
}

export function postMessage(id: string, token: string, text: string) {
  return unwrap(client.POST("/v1/games/{id}/messages", { params: { path: { id } }, body: { text }, headers: bearer(token) }));
}

export function getMail(id: string, token: string) {
  return unwrap(client.GET("/v1/games/{id}/mail", { params: { path: { id } }, headers: bearer(token) }));
}

export function registerMail(id: string, token: string, address: string) {
  return unwrap(client.POST("/v1/games/{id}/mail", { params: { path: { id } }, body: { address }, headers: bearer(token) }));
}

export async function deleteMail(id: string, token: string): Promise<void> {
  let answer: { response: Response; error?: unknown };
  try {
    answer = await client.DELETE("/v1/games/{id}/mail", { params: { path: { id } }, headers: bearer(token) });
  } catch {
    throw new ApiProblem(0, "network", "No connection", "the server cannot be reached", null);
  }
  if (!answer.response.ok) throw await problemOf(answer.response, answer.error);
}

export function setAway(id: string, token: string, seat: number, away: boolean) {
  const options = { params: { path: { id, seat } }, headers: bearer(token) };
  return unwrap(away ? client.POST("/v1/games/{id}/seats/{seat}/away", options)
    : client.DELETE("/v1/games/{id}/seats/{seat}/away", options));
}

/** The seat's player leaves (issue 28): the bot holds the seat until a substitute takes it. */
export function releaseSeat(id: string, token: string, seat: number) {
  return unwrap(client.POST("/v1/games/{id}/seats/{seat}/release", { params: { path: { id, seat } }, headers: bearer(token) }));
}

/** A fresh invite for the substitute of a seat whose player left (the admin's or the seat's token). */
export function inviteSubstitute(id: string, token: string, seat: number) {
  return unwrap(client.POST("/v1/games/{id}/seats/{seat}/substitute", { params: { path: { id, seat } }, headers: bearer(token) }));
}

/** The seat's quiet hours (its clock stops then), or none with `hours` null. */
export function setQuietHours(id: string, token: string, seat: number, hours: Schemas["QuietHoursInput"] | null) {
  const options = { params: { path: { id, seat } }, headers: bearer(token) };
  return unwrap(hours ? client.PUT("/v1/games/{id}/seats/{seat}/quiet_hours", { ...options, body: hours })
    : client.DELETE("/v1/games/{id}/seats/{seat}/quiet_hours", options));
}

/** The board's geometry as JSON (the same path also serves pictures, by Accept). */
export async function getBoard(id: string) {
  const board = await unwrap(client.GET("/v1/games/{id}/board", {
    params: { path: { id } },
    headers: { Accept: "application/json" },
    parseAs: "json",
  }));
  if (typeof board !== "object") throw new ApiProblem(0, "not_json", "Unexpected answer", "the board came back as a picture", null);
  return board;
}

export function getActions(id: string, token: string | null) {
  return unwrap(client.GET("/v1/games/{id}/actions", { params: { path: { id }, query: minVersion(id) }, headers: bearer(token) }))
    .then((actions) => remember(id, actions));
}

export function getLog(id: string, token: string | null, after: number) {
  return unwrap(client.GET("/v1/games/{id}/moves", {
    params: { path: { id }, query: { after, limit: 500 } },
    headers: bearer(token),
  }));
}

export function postMove(id: string, token: string, move: Move) {
  return unwrap(client.POST("/v1/games/{id}/moves", { params: { path: { id } }, body: move, headers: bearer(token) }))
    .then((answer) => remember(id, answer));
}

/** The move body a listed (non-template) action stands for. */
export function moveOf(action: Action): Move | null {
  switch (action.type) {
    case "build_settlement":
      return { type: action.type, node: action.node };
    case "build_road":
      return { type: action.type, edge: action.edge };
    case "build_city":
      return { type: action.type, node: action.node };
    case "roll":
      return action.template ? null : { type: action.type };
    case "move_robber":
      return { type: action.type, hex: action.hex, victim: action.victim };
    case "buy_development_card":
      return { type: action.type };
    case "play_knight":
      return { type: action.type, hex: action.hex, victim: action.victim };
    case "play_road_building":
      return { type: action.type, edges: action.edges };
    case "play_year_of_plenty":
      return { type: action.type, resources: action.resources };
    case "play_monopoly":
      return { type: action.type, resource: action.resource };
    case "maritime_trade":
      return { type: action.type, give: action.give, get: action.get };
    case "end_turn":
      return { type: action.type };
    case "accept_trade":
      return { type: action.type, trade: action.trade };
    case "decline_trade":
      return { type: action.type, trade: action.trade };
    case "confirm_trade":
      return action.with === undefined ? { type: action.type, trade: action.trade }
        : { type: action.type, trade: action.trade, with: action.with };
    case "withdraw_trade":
      return { type: action.type, trade: action.trade };
    case "discard":
    case "offer_trade":
      return null;
  }
}
