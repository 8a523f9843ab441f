// Building DOM nodes without HTML strings: every text goes in through textContent, so a player's
// name or chat line can never become markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = String(v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** An HTML element: h("button", {class: "big", onclick}, "Throw"). Strings become text nodes. */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace everything inside `el` with `children`. */
export function mount(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** Seat letter: 0 -> "A". */
export const letter = (seat) => String.fromCharCode(65 + seat);

/** Okabe-Ito colours: told apart by people with any common colour-vision deficiency. */
export const SEAT_COLORS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999"];
export const seatColor = (seat) => SEAT_COLORS[seat % SEAT_COLORS.length];

/** A seat's name badge: coloured dot plus the letter and the name, all as text. */
export function seatTag(seat, names, extra = {}) {
  const name = names?.[seat] ?? letter(seat);
  return h("span", { class: "seat-tag", ...extra },
    h("span", { class: "seat-dot", style: `background:${seatColor(seat)}`, "aria-hidden": "true" }, letter(seat)),
    h("span", { class: "seat-name" }, name));
}

export function fraction(p) {
  // "11/36" or a number -> "11/36 (30.6%)"
  if (typeof p === "string" && p.includes("/")) {
    const [a, b] = p.split("/").map(Number);
    return `${p} (${((100 * a) / b).toFixed(1)}%)`;
  }
  return `${(100 * Number(p)).toFixed(1)}%`;
}

export function pct(p) {
  if (typeof p === "string" && p.includes("/")) {
    const [a, b] = p.split("/").map(Number);
    return `${((100 * a) / b).toFixed(1)}%`;
  }
  return `${(100 * Number(p)).toFixed(1)}%`;
}
