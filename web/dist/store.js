const memory = new Map();
function read(key, fallback) {
    let text = null;
    try {
        text = window.localStorage.getItem(key);
    }
    catch {
        text = memory.get(key) ?? null;
    }
    if (text === null)
        return fallback;
    try {
        return JSON.parse(text);
    }
    catch {
        return fallback;
    }
}
function write(key, value) {
    const text = JSON.stringify(value);
    try {
        window.localStorage.setItem(key, text);
    }
    catch {
        memory.set(key, text);
    }
}
export function player() {
    return read("catan.player", null);
}
export function setPlayer(value) {
    write("catan.player", value);
}
export function seatLink(game) {
    return read("catan.seats", {})[game] ?? null;
}
export function setSeatLink(game, link) {
    const all = read("catan.seats", {});
    all[game] = link;
    write("catan.seats", all);
}
export function created(game) {
    return read("catan.created", {})[game] ?? null;
}
export function setCreated(game, value) {
    const all = read("catan.created", {});
    all[game] = value;
    write("catan.created", all);
}
export function invite(game) {
    return read("catan.invites", {})[game] ?? created(game)?.invite ?? null;
}
export function setInvite(game, code) {
    const all = read("catan.invites", {});
    all[game] = code;
    write("catan.invites", all);
}
export function seen(game) {
    return read("catan.seen", {})[game] ?? null;
}
export function setSeen(game, version) {
    const all = read("catan.seen", {});
    all[game] = version;
    write("catan.seen", all);
}
export function muted(game) {
    return read("catan.muted", {})[game] ?? [];
}
export function setMuted(game, seats) {
    const all = read("catan.muted", {});
    all[game] = seats;
    write("catan.muted", all);
}
export function prefs() {
    return { sound: false, notify: false, ...read("catan.prefs", {}) };
}
export function setPrefs(value) {
    write("catan.prefs", value);
}
