// Building DOM nodes without HTML strings: every text goes in through textContent, so a player's
// name or chat line can never become markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = String(v);
    // through the CSSOM, which a Content-Security-Policy without 'unsafe-inline' still allows
    else if (k === "style") el.style.cssText = String(v);
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

/** The race games: their bots have a reaction level, and no search bot sits at them. */
export const REALTIME = new Set(["snap", "slap-the-elephant"]);

/** Each player seat's name as a table shows it, by seat: a bot without a name is "Bot C". */
export function seatNamesOf(seats) {
  const list = [];
  for (const s of seats || []) {
    if (typeof s.seat !== "number") continue;
    const base = s.name || (s.kind === "bot" ? `Bot ${letter(s.seat)}` : `Seat ${letter(s.seat)}`);
    list[s.seat] = s.kind === "bot" && s.name && !/bot/i.test(s.name) ? `${base} (bot)` : base;
  }
  return list;
}

/** Okabe-Ito colours: told apart by people with any common colour-vision deficiency. */
export const SEAT_COLORS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999"];
export const seatColor = (seat) => SEAT_COLORS[seat % SEAT_COLORS.length];

/** A seat's name badge: coloured dot plus the letter and the name, all as text. */
export function seatTag(seat, names, extra = {}) {
  const name = names?.[seat] ?? letter(seat);
  return h("span", { class: "seat-tag", ...extra },
    h("span", { class: "seat-dot", style: `background:${seatColor(seat)}`, "aria-hidden": "true" }, letter(seat)),
    h("bdi", { class: "seat-name" }, name));
}

// A player's name is isolated from the text around it (<bdi>): a right-to-left name ("سارة",
// "דנה") next to numbers or punctuation would otherwise carry them into its own direction and
// reorder the line ("سارة 975" shown as "975 سارة").

/** A player-supplied name as an isolated node. */
export const bdi = (name, attrs = {}) => h("bdi", attrs, name);

const escapeRe = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` (a turn line, a server's log line) as nodes, each player's name in it isolated. */
export function withNames(text, names) {
  const list = [...new Set((names || []).filter((n) => typeof n === "string" && n))].sort((a, b) => b.length - a.length);
  const line = String(text);
  if (!list.length) return [line];
  const out = [];
  let at = 0;
  for (const m of line.matchAll(new RegExp(list.map(escapeRe).join("|"), "g"))) {
    if (m.index > at) out.push(line.slice(at, m.index));
    out.push(bdi(m[0]));
    at = m.index + m[0].length;
  }
  if (at < line.length) out.push(line.slice(at));
  return out;
}

// The engine writes seats as letters, as the rulebooks do ("C rolls 11; C wins 5 on field"); at a
// table the players have names. A capital A-H standing alone as a word is a seat; text in quotes
// (a Fortune card's own words, "A cab ride...") and the dealer's reason for a void roll are
// left as written.
const SEAT_WORD = /"[^"]*"|^No roll: .*$|(?<![\w#$'&-])([A-H])(?=$|[\s,.;:)'])/g;

/** A log line with each seat letter of `names` (by seat) written as that seat's name. */
export function seatNames(text, names) {
  const line = String(text);
  if (!names?.length) return line;
  return line.replace(SEAT_WORD, (whole, seatLetter) => {
    if (!seatLetter) return whole;
    const name = names[seatLetter.charCodeAt(0) - 65];
    return typeof name === "string" && name ? name : whole;
  });
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
