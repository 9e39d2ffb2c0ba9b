// main.ts - the page: the link's fragment says what to show (the fragment never reaches a
// server, so the secrets in it stay in this browser):
//
//   (none)                          your games, a new game, your player link (home.ts)
//   #lobby                          the public games waiting for players (lobby.ts)
//   #player=<player token>          this browser takes your player (your games): kept, then home
//   #game=ID&invite=<code>          a waiting game's invitation (waiting.ts), kept; a started
//                                   game's: a substitute's (substitute.ts), unless this
//                                   browser keeps a seat of the game (then that seat)
//   #game=ID&token=<seat token>     that seat's view; the token is kept and leaves the address
//   #game=ID                        the seat this browser keeps for the game, else a spectator
//   #game=ID&as=spectator           the spectator's view, whatever this browser keeps
//
// A game that waits for players shows its waiting page until it starts, then the game.
import { ApiProblem, getGameOrWaiting, myGames } from "./api.js";
import { GameScreen } from "./game.js";
import { showHome } from "./home.js";
import { showLobby } from "./lobby.js";
import { SubstituteScreen } from "./substitute.js";
import * as signal from "./signal.js";
import * as store from "./store.js";
import { clearMessage, describeProblem, showMessage } from "./ui.js";
import { WaitingScreen } from "./waiting.js";
let screen = null;
async function takePlayer(token) {
    try {
        const answer = await myGames(token);
        store.setPlayer({ id: answer.player, name: answer.name, token });
        showMessage(`Your games are in this browser now, ${answer.name}.`, "info");
    }
    catch (e) {
        showMessage(e instanceof ApiProblem && e.status === 401 ? "This player link does not work (any more): it may have been replaced."
            : describeProblem(e));
    }
    history.replaceState(null, "", "/");
    route();
}
function openGame(game, token, host) {
    const badge = document.getElementById("connection");
    const role = document.getElementById("role");
    badge.hidden = false;
    badge.textContent = "Connecting…";
    badge.className = "connection";
    const link = store.seatLink(game);
    role.textContent = token ? link && link.seat >= 0 ? `You play seat ${link.seat + 1}` : "" : "Watching as a spectator";
    const playing = new GameScreen(game, token, host);
    screen = playing;
    void playing.start();
}
async function showGame(game, token, host, invite) {
    let waiting = false;
    try {
        waiting = (await getGameOrWaiting(game, token)).waiting !== null;
    }
    catch (e) {
        showMessage(describeProblem(e));
    }
    if (!waiting && invite && !store.seatLink(game)) {
        // A started game's invitation: a substitute's, for a seat whose player left.
        document.getElementById("role").textContent = "Invited as a substitute";
        const substitute = new SubstituteScreen(game, invite, host, (seatToken) => {
            screen = null;
            openGame(game, seatToken, host);
        }, () => {
            screen = null;
            openGame(game, null, host);
        });
        screen = substitute;
        substitute.start();
        return;
    }
    if (!waiting) {
        openGame(game, token, host);
        return;
    }
    document.getElementById("role").textContent = "Waiting for players";
    const wait = new WaitingScreen(game, host, () => {
        clearMessage();
        openGame(game, store.seatLink(game)?.token ?? token, host);
    });
    screen = wait;
    wait.start();
}
function route() {
    screen?.stop();
    screen = null;
    signal.reset();
    clearMessage();
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const host = document.getElementById("app");
    const badge = document.getElementById("connection");
    const role = document.getElementById("role");
    badge.hidden = true;
    role.textContent = "";
    const playerToken = params.get("player");
    if (playerToken) {
        void takePlayer(playerToken);
        return;
    }
    const game = params.get("game");
    if (!game) {
        if (params.has("lobby"))
            showLobby(host);
        else
            screen = showHome(host);
        return;
    }
    const invite = params.get("invite");
    if (invite)
        store.setInvite(game, invite);
    let token = params.get("token");
    if (token) {
        const kept = store.seatLink(game);
        if (!kept || kept.token !== token)
            store.setSeatLink(game, { seat: -1, token, name: "" });
        // The secret leaves the address bar (screenshots, shared screens); this browser keeps it.
        history.replaceState(null, "", `#game=${encodeURIComponent(game)}`);
    }
    if (params.get("as") === "spectator")
        token = null;
    else
        token ??= store.seatLink(game)?.token ?? null;
    void showGame(game, token, host, params.get("as") === "spectator" ? null : invite);
}
window.addEventListener("hashchange", route);
route();
