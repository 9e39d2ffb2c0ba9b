import { el } from "./ui.js";
export function fairnessPanel(game, fairness) {
    const box = el("section", { id: "fairness", class: "panel fairness", "aria-labelledby": "fairness-title" });
    if (!fairness?.provably_fair || !fairness.commitment) {
        box.append(el("h2", { id: "fairness-title" }, "Fairness"), el("p", { id: "fairness-none" }, "Not provably fair: chosen seed. This game's dice and cards come from a seed " +
            "chosen when it was created (for a test, a replay or a puzzle; or an older or imported game), which " +
            "it never committed to."));
        return box;
    }
    box.append(el("h2", { id: "fairness-title" }, "Provably fair"), el("p", {}, `Every die, stolen card and development card comes from a secret server seed (scheme ${fairness.scheme}). ` +
        "Before anything was drawn the game published its SHA-256, the commitment:"), el("code", { id: "fairness-commitment", class: "hex" }, fairness.commitment));
    if (!fairness.server_seed) {
        box.append(el("p", { class: "meta" }, "The seed is revealed when the game ends: then anyone can recompute every roll, steal and draw."));
        return box;
    }
    const exportPath = `/v1/games/${encodeURIComponent(game)}/export`;
    box.append(el("p", {}, "The server seed, revealed now the game is over:"), el("code", { id: "fairness-seed", class: "hex" }, fairness.server_seed), el("p", { id: "fairness-verify" }, "Verify it: ", el("a", { id: "fairness-export", href: exportPath, download: `catan-${game}.json` }, "download the game's export"), " and run ", el("code", {}, "python3 examples/verify_fair.py export.json"), " (standard Python, written from " +
        "docs/fairness.md alone) or ", el("code", {}, "catan verify export.json"), ". Either checks that the seed is the " +
        "one committed to and that it makes every roll, steal and draw of the log, naming the first that differs."));
    return box;
}
