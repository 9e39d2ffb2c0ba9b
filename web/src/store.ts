// store.ts - what this browser keeps (localStorage, never sent anywhere but as a bearer
// header to this origin): the player (POST /v1/players: id, name, token), each game's seat
// link (token) and, for the games it created, the admin token and the invite; the version
// each game was last seen at (the "since your last visit" marks); the seats muted in each
// game's chat; the notification and sound choices.
//
// A browser that refuses storage (private modes) still works: everything then lasts as
// long as the page.
export interface Player {
  id: string;
  name: string;
  token: string;
}

export interface SeatLink {
  seat: number;
  token: string;
  name: string;
}

export interface Created {
  admin: string;
  invite: string | null;
}

export interface Prefs {
  sound: boolean;
  notify: boolean;
}

const memory = new Map<string, string>();

function read<T>(key: string, fallback: T): T {
  let text: string | null = null;
  try {
    text = window.localStorage.getItem(key);
  } catch {
    text = memory.get(key) ?? null;
  }
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown): void {
  const text = JSON.stringify(value);
  try {
    window.localStorage.setItem(key, text);
  } catch {
    memory.set(key, text);
  }
}

export function player(): Player | null {
  return read<Player | null>("catan.player", null);
}

export function setPlayer(value: Player): void {
  write("catan.player", value);
}

export function seatLink(game: string): SeatLink | null {
  return read<Record<string, SeatLink>>("catan.seats", {})[game] ?? null;
}

export function setSeatLink(game: string, link: SeatLink): void {
  const all = read<Record<string, SeatLink>>("catan.seats", {});
  all[game] = link;
  write("catan.seats", all);
}

export function created(game: string): Created | null {
  return read<Record<string, Created>>("catan.created", {})[game] ?? null;
}

export function setCreated(game: string, value: Created): void {
  const all = read<Record<string, Created>>("catan.created", {});
  all[game] = value;
  write("catan.created", all);
}

export function invite(game: string): string | null {
  return read<Record<string, string>>("catan.invites", {})[game] ?? created(game)?.invite ?? null;
}

export function setInvite(game: string, code: string): void {
  const all = read<Record<string, string>>("catan.invites", {});
  all[game] = code;
  write("catan.invites", all);
}

export function seen(game: string): number | null {
  return read<Record<string, number>>("catan.seen", {})[game] ?? null;
}

export function setSeen(game: string, version: number): void {
  const all = read<Record<string, number>>("catan.seen", {});
  all[game] = version;
  write("catan.seen", all);
}

export function muted(game: string): number[] {
  return read<Record<string, number[]>>("catan.muted", {})[game] ?? [];
}

export function setMuted(game: string, seats: number[]): void {
  const all = read<Record<string, number[]>>("catan.muted", {});
  all[game] = seats;
  write("catan.muted", all);
}

export function prefs(): Prefs {
  return { sound: false, notify: false, ...read<Partial<Prefs>>("catan.prefs", {}) };
}

export function setPrefs(value: Prefs): void {
  write("catan.prefs", value);
}
