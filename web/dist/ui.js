// ui.ts - small DOM helpers (no framework; text is always set as text, never parsed as markup), the
// words for resources, seats and problems, and the message banner.
import { ApiProblem } from "./api.js";
/** An HTML element with attributes (null/false values are left out) and children. */
export function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
        if (value === null || value === false)
            continue;
        node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children)
        if (child !== null && child !== undefined && child !== false)
            node.append(child);
    return node;
}
const SVG_NS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, text) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attrs))
        node.setAttribute(name, value);
    if (text !== undefined)
        node.textContent = text;
    return node;
}
/** The CSS class of a seat's colour (style.css: Okabe-Ito, colour-blind safe). */
export function seatClass(seat) {
    return `seat${seat}`;
}
export function handTotal(hand) {
    return hand.brick + hand.lumber + hand.wool + hand.grain + hand.ore;
}
/** What a person should read for a problem the API answered. */
export function describeProblem(p) {
    if (!(p instanceof ApiProblem))
        return `Something went wrong: ${String(p)}`;
    const detail = p.detail && p.detail !== p.title ? `: ${p.detail}` : "";
    const retry = p.retryAfter !== null ? ` Try again in ${p.retryAfter} s.` : "";
    switch (p.status) {
        case 0:
            return "The server cannot be reached. Check your connection; nothing was changed.";
        case 409:
            return p.code === "version_conflict" || p.code === "unknown"
                ? `Another move was made at the same moment (${p.code}). Nothing was changed; the board is up to date again.`
                : `${p.title}${detail} (${p.code}). Nothing was changed.`;
        case 412:
            return `The game moved on before your move arrived (${p.code}). Nothing was changed; the board is up to date again.`;
        case 422:
            return `Not allowed: ${p.detail || p.title} (rule: ${p.code}). Nothing was changed.`;
        case 429:
            return `Too many requests, slow down.${retry || " Try again in a moment."}${p.detail && p.detail !== p.title ? ` The server says: ${p.detail} (${p.code}).` : ""}`;
        case 503:
            return `The server is unavailable right now (${p.code}).${retry || " Try again in a moment."}`;
        case 401:
        case 403:
            return `This link does not allow that (${p.code}${detail}).`;
        case 404:
            return p.code === "trade_not_found" ? `That offer is no longer open (${p.code}). Nothing was changed.`
                : `Not found (${p.code}${detail}). Check the link.`;
        default:
            return `${p.title} (${p.status} ${p.code})${detail}.`;
    }
}
let messageTimer = 0;
/** Show a message in the banner (role="alert": read out by screen readers). */
export function showMessage(text, kind = "error") {
    const box = document.getElementById("message");
    if (!box)
        return;
    box.textContent = text;
    box.className = `message ${kind}`;
    box.hidden = false;
    window.clearTimeout(messageTimer);
    if (kind === "info")
        messageTimer = window.setTimeout(() => (box.hidden = true), 4000);
}
export function clearMessage() {
    const box = document.getElementById("message");
    if (box)
        box.hidden = true;
}
/** A <dialog> with a title and content, shown modally; resolves when it closes. */
export function openDialog(title, body, id = "dialog") {
    document.getElementById(id)?.remove();
    const closeButton = el("button", { type: "button", class: "close" }, "Close");
    const dialog = el("dialog", { id, "aria-labelledby": `${id}-title` }, el("h2", { id: `${id}-title` }, title), ...body, el("div", { class: "dialog-foot" }, closeButton));
    closeButton.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
    return dialog;
}
