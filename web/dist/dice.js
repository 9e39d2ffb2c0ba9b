// dice.ts - dice drawn as dice: two SVG faces with their pips, labelled in words for screen
// readers ("Dice: 4 and 2, 6"). A 7 is marked (the robber moves).
import { svg } from "./ui.js";
// Pip positions on a face of side 1, by value.
const PIPS = {
    1: [[0.5, 0.5]],
    2: [[0.27, 0.27], [0.73, 0.73]],
    3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
    4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
    5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
    6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
};
export function diceFaces(dice, label) {
    const root = svg("svg", { viewBox: "0 0 2.3 1", class: "dice", role: "img", "aria-label": label });
    root.append(svg("title", {}, label));
    const total = (dice[0] ?? 0) + (dice[1] ?? 0);
    dice.slice(0, 2).forEach((value, i) => {
        const x = i * 1.3;
        const face = svg("g", { class: total === 7 ? "die seven" : "die", "data-value": String(value) });
        face.append(svg("rect", { x: String(x + 0.03), y: "0.03", width: "0.94", height: "0.94", rx: "0.16", class: "die-face" }));
        for (const [px, py] of PIPS[value] ?? [])
            face.append(svg("circle", { cx: (x + px).toFixed(3), cy: py.toFixed(3), r: "0.085", class: "pip-die" }));
        root.append(face);
    });
    return root;
}
