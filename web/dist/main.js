// main.ts - the page: the link's fragment (#game=ID&token=TOKEN) says what to show: no game
// -> the create screen; a game without a token -> the spectator's view; with a token ->
// that seat's view. The fragment never reaches a server.
import { showCreate } from "./create.js";
import { GameScreen } from "./game.js";
import { clearMessage } from "./ui.js";
let screen = null;
function route() {
    screen?.stop();
    screen = null;
    clearMessage();
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const game = params.get("game");
    const token = params.get("token");
    const host = document.getElementById("app");
    const badge = document.getElementById("connection");
    const role = document.getElementById("role");
    if (!game) {
        badge.hidden = true;
        role.textContent = "";
        showCreate(host);
        return;
    }
    badge.hidden = false;
    badge.textContent = "Connecting…";
    badge.className = "connection";
    role.textContent = token ? "" : "Watching as a spectator";
    screen = new GameScreen(game, token, host);
    void screen.start();
}
window.addEventListener("hashchange", route);
route();
