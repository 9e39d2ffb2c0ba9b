// board.ts - the board as SVG, from GET .../board geometry and the game view.
//
// Coordinates: the board projection GET .../board gives (pointy-top hexes of circumradius 1,
// y growing southward, origin at the centre of the middle hex; the server's renderer uses
// the same): nodes, hex centres and harbor anchors are drawn at their px, py, and the
// viewBox is the projection's bounding box (with room for the harbor discs), so the
// drawing scales to any width (phone or desktop).
//
// Targets (legal places for the move being chosen) are drawn last, on top, as focusable
// buttons (role="button", tabindex 0, a label in words: the place's published name) that
// call `pick` on click, Enter or Space. A path's target is its line with a disc at its
// middle, so every target is a disc: at least 24 CSS px across where the board is drawn
// small (phones: `large` targets, 0.36 of a hex's radius, and a board never narrower than
// 340 px), never overlapping its neighbours (two corners are 1 apart, two path middles
// 0.87). Marks (drawn under the targets) show the place of the last move and, fading with
// age, of the moves since the player's last visit, and the place chosen on a touch screen
// before it is confirmed. Colours are never the only cue: seats also differ by the text of
// their labels, terrain by its name, and 6 and 8 are bold as well as red.
import type { Board, GameView } from "./api.js";
import { seatClass, svg } from "./ui.js";

export type TargetKind = "node" | "edge" | "hex";

/** Legal places, by kind: id -> what clicking it does, in words. */
export interface Targets {
  node: Map<number, string>;
  edge: Map<number, string>;
  hex: Map<number, string>;
}

export function noTargets(): Targets {
  return { node: new Map(), edge: new Map(), hex: new Map() };
}

/** A place to mark: the last move ("last"), a move since the last visit ("recent", with its
 * age 0..1, 1 the oldest), or the place chosen and not yet confirmed ("chosen"). */
export interface Mark {
  kind: TargetKind;
  id: number;
  what: "last" | "recent" | "chosen";
  age?: number;
}

export interface DrawOptions {
  large: boolean; /* big targets (a narrow screen or a touch screen) */
  marks: Mark[];
}

export interface Point {
  x: number;
  y: number;
}

export interface Geometry {
  nodes: Map<number, Point>;
  hexes: Map<number, Point>;
  harbors: { type: string; at: Point; nodes: number[]; facing: number; name: string }[];
  viewBox: string;
}

export function geometry(board: Board): Geometry {
  const nodes = new Map<number, Point>();
  for (const n of board.nodes) nodes.set(n.id, { x: n.px, y: n.py });
  const hexes = new Map<number, Point>();
  for (const h of board.hexes) hexes.set(h.id, { x: h.px, y: h.py });
  const harbors = board.harbors.map((h) => ({ type: h.type, nodes: h.nodes, at: { x: h.px, y: h.py }, facing: h.facing, name: h.name }));
  const p = board.projection;
  // The bounding box holds hex centres' outlines and harbor anchors; leave room for the
  // harbor discs drawn around the anchors.
  const pad = 0.5;
  const viewBox = [p.min_x - pad, p.min_y - pad, p.max_x - p.min_x + 2 * pad, p.max_y - p.min_y + 2 * pad]
    .map((v) => v.toFixed(3)).join(" ");
  return { nodes, hexes, harbors, viewBox };
}

const TERRAIN_LABEL: Record<string, string> = {
  forest: "Forest", pasture: "Pasture", fields: "Fields", hills: "Hills", mountains: "Mountains", desert: "Desert",
};

export function pips(n: number): number {
  return 6 - Math.abs(7 - n);
}

function fixed(v: number): string {
  return v.toFixed(3);
}

function hexPoints(c: Point): string {
  const points: string[] = [];
  for (let i = 0; i < 6; i++) {
    const angle = Math.PI / 180 * (60 * i - 90);
    points.push(`${fixed(c.x + 0.97 * Math.cos(angle))},${fixed(c.y + 0.97 * Math.sin(angle))}`);
  }
  return points.join(" ");
}

function target(node: SVGElement, label: string, pick: (e: Event) => void): void {
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  node.classList.add("target");
  node.append(svg("title", {}, label));
  node.addEventListener("click", pick);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      pick(e);
    }
  });
}

/** Draw the board into `root` (an <svg>), replacing what was there. */
export function drawBoard(root: SVGSVGElement, board: Board, geo: Geometry, view: GameView, targets: Targets,
  pick: (kind: TargetKind, id: number, e: Event) => void, options: DrawOptions = { large: false, marks: [] }): void {
  const focused = document.activeElement instanceof SVGElement ? document.activeElement.getAttribute("data-key") : null;
  root.replaceChildren();
  root.setAttribute("viewBox", geo.viewBox);
  // A group, not an image: it holds the targets, which are buttons.
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", "The board");
  const names = new Map(view.players.map((p) => [p.seat, p.name]));

  const sea = svg("g", { class: "harbors" });
  for (const h of geo.harbors) {
    const g = svg("g", { class: "harbor" });
    for (const n of h.nodes) {
      const p = geo.nodes.get(n)!;
      g.append(svg("line", { x1: fixed(p.x), y1: fixed(p.y), x2: fixed(h.at.x), y2: fixed(h.at.y), class: "pier" }));
    }
    g.append(svg("circle", { cx: fixed(h.at.x), cy: fixed(h.at.y), r: "0.36", class: "harbor-disc" }));
    if (h.type === "3:1") {
      g.append(svg("text", { x: fixed(h.at.x), y: fixed(h.at.y + 0.06), class: "harbor-text" }, "3:1"));
    } else {
      g.append(svg("text", { x: fixed(h.at.x), y: fixed(h.at.y - 0.03), class: "harbor-text" }, "2:1"));
      g.append(svg("text", { x: fixed(h.at.x), y: fixed(h.at.y + 0.14), class: "harbor-text" }, h.type));
    }
    g.append(svg("title", {}, h.type === "3:1" ? `${h.name}: any 3 for 1` : `${h.name}: 2 ${h.type} for 1`));
    sea.append(g);
  }
  root.append(sea);

  const land = svg("g", { class: "hexes" });
  for (const h of board.hexes) {
    const c = geo.hexes.get(h.id)!;
    const g = svg("g", { class: `hex terrain-${h.terrain}`, "data-hex": String(h.id) });
    g.append(svg("polygon", { points: hexPoints(c), class: "hex-shape" }));
    g.append(svg("text", { x: fixed(c.x), y: fixed(c.y - 0.5), class: "terrain-text" }, TERRAIN_LABEL[h.terrain] ?? h.terrain));
    if (h.number !== null && h.number !== undefined) {
      const hot = h.number === 6 || h.number === 8;
      g.append(svg("circle", { cx: fixed(c.x), cy: fixed(c.y), r: "0.3", class: "token" }));
      g.append(svg("text", { x: fixed(c.x), y: fixed(c.y + 0.06), class: hot ? "token-text hot" : "token-text" }, String(h.number)));
      const count = pips(h.number);
      for (let i = 0; i < count; i++) {
        const dx = (i - (count - 1) / 2) * 0.07;
        g.append(svg("circle", { cx: fixed(c.x + dx), cy: fixed(c.y + 0.18), r: "0.025", class: hot ? "pip hot" : "pip" }));
      }
    }
    g.append(svg("title", {}, `${TERRAIN_LABEL[h.terrain] ?? h.terrain}${h.number ? " " + h.number : ""}: ${h.name}`));
    land.append(g);
  }
  root.append(land);

  const robber = geo.hexes.get(view.robber);
  if (robber) {
    const g = svg("g", { class: "robber" });
    g.append(svg("ellipse", { cx: fixed(robber.x + 0.45), cy: fixed(robber.y + 0.1), rx: "0.14", ry: "0.26" }));
    g.append(svg("circle", { cx: fixed(robber.x + 0.45), cy: fixed(robber.y - 0.2), r: "0.11" }));
    g.append(svg("title", {}, "The robber"));
    root.append(g);
  }

  const pieces = svg("g", { class: "pieces" });
  for (const road of view.roads) {
    const e = board.edges.find((x) => x.id === road.edge);
    if (!e) continue;
    const a = geo.nodes.get(e.nodes[0])!, b = geo.nodes.get(e.nodes[1])!;
    const line = svg("line", { x1: fixed(a.x + (b.x - a.x) * 0.15), y1: fixed(a.y + (b.y - a.y) * 0.15),
      x2: fixed(b.x - (b.x - a.x) * 0.15), y2: fixed(b.y - (b.y - a.y) * 0.15), class: `road ${seatClass(road.seat)}`,
      "data-road": String(road.edge) });
    line.append(svg("title", {}, `Road of ${names.get(road.seat) ?? "seat " + road.seat}`));
    pieces.append(line);
  }
  for (const b of view.buildings) {
    const p = geo.nodes.get(b.node)!;
    const s = b.kind === "city" ? 0.2 : 0.14;
    const shape = b.kind === "city"
      ? `${p.x - s},${p.y + s} ${p.x - s},${p.y - s * 0.2} ${p.x},${p.y - s * 0.2} ${p.x},${p.y - s} ${p.x + s * 0.5},${p.y - s * 1.4} ${p.x + s},${p.y - s} ${p.x + s},${p.y + s}`
      : `${p.x - s},${p.y + s} ${p.x - s},${p.y - s * 0.3} ${p.x},${p.y - s} ${p.x + s},${p.y - s * 0.3} ${p.x + s},${p.y + s}`;
    const poly = svg("polygon", { points: shape.split(" ").map((xy) => xy.split(",").map((v) => fixed(Number(v))).join(",")).join(" "),
      class: `building ${b.kind} ${seatClass(b.seat)}`, "data-building": String(b.node) });
    poly.append(svg("title", {}, `${b.kind === "city" ? "City" : "Settlement"} of ${names.get(b.seat) ?? "seat " + b.seat}`));
    pieces.append(poly);
  }
  root.append(pieces);

  const marks = svg("g", { class: "marks", "aria-hidden": "true" });
  for (const mark of options.marks) {
    const cls = `mark ${mark.what}${mark.what === "recent" ? ` age${Math.min(4, Math.floor((mark.age ?? 0) * 5))}` : ""}`;
    if (mark.kind === "node") {
      const p = geo.nodes.get(mark.id);
      if (p) marks.append(svg("circle", { cx: fixed(p.x), cy: fixed(p.y), r: "0.3", class: cls, "data-mark-node": String(mark.id) }));
    } else if (mark.kind === "edge") {
      const e = board.edges.find((x) => x.id === mark.id);
      const a = e && geo.nodes.get(e.nodes[0]), b = e && geo.nodes.get(e.nodes[1]);
      if (a && b) marks.append(svg("line", { x1: fixed(a.x), y1: fixed(a.y), x2: fixed(b.x), y2: fixed(b.y), class: cls, "data-mark-edge": String(mark.id) }));
    } else {
      const c = geo.hexes.get(mark.id);
      if (c) marks.append(svg("circle", { cx: fixed(c.x), cy: fixed(c.y), r: "0.78", class: cls, "data-mark-hex": String(mark.id) }));
    }
  }
  root.append(marks);

  const layer = svg("g", { class: "targets" });
  for (const kind of ["hex", "edge", "node"] as const) {
    for (const [id, label] of targets[kind]) {
      let node: SVGElement;
      const radius = options.large ? "0.36" : "0.2";
      if (kind === "node") {
        const p = geo.nodes.get(id)!;
        node = svg("circle", { cx: fixed(p.x), cy: fixed(p.y), r: radius, "data-node": String(id) });
      } else if (kind === "edge") {
        const e = board.edges.find((x) => x.id === id)!;
        const a = geo.nodes.get(e.nodes[0])!, b = geo.nodes.get(e.nodes[1])!;
        node = svg("g", { "data-edge": String(id), class: "edge-target" });
        node.append(svg("line", { x1: fixed(a.x + (b.x - a.x) * 0.2), y1: fixed(a.y + (b.y - a.y) * 0.2),
          x2: fixed(b.x - (b.x - a.x) * 0.2), y2: fixed(b.y - (b.y - a.y) * 0.2) }));
        node.append(svg("circle", { cx: fixed((a.x + b.x) / 2), cy: fixed((a.y + b.y) / 2), r: options.large ? "0.34" : "0.2" }));
      } else {
        const c = geo.hexes.get(id)!;
        node = svg("circle", { cx: fixed(c.x), cy: fixed(c.y), r: "0.55", "data-hex-target": String(id) });
      }
      node.setAttribute("data-key", `${kind}-${id}`);
      target(node, label, (e) => pick(kind, id, e));
      layer.append(node);
    }
  }
  root.append(layer);
  if (focused) {
    const again = root.querySelector(`[data-key="${focused}"]`);
    if (again instanceof SVGElement) again.focus();
  }
}
