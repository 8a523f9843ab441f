// SVG pictures shared by the tables: dice, chips, cards. Each one carries an ARIA label in words.
import { s, seatColor } from "./dom.js";

const PIPS = {
  1: [[2, 2]],
  2: [[1, 1], [3, 3]],
  3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

/** A die showing `face` (1-6, or null for a blank die). */
export function die(face, { size = 48, fill = "#fffdf7", pip = "#1a1a1a", label } = {}) {
  const pips = (PIPS[face] || []).map(([x, y]) => s("circle", { cx: x * 10 - 2 + 2, cy: y * 10, r: 3.6, fill: pip }));
  return s("svg", {
    class: "die", width: size, height: size, viewBox: "0 0 40 40", role: "img",
    "aria-label": label || (face ? `die showing ${face}` : "die not thrown"),
  },
  s("rect", { x: 1, y: 1, width: 38, height: 38, rx: 7, fill, stroke: "#333", "stroke-width": 1.5 }),
  ...pips);
}

/** Two (or more) dice side by side. */
export function dice(faces, opts = {}) {
  const wrap = document.createElement("span");
  wrap.className = "dice";
  const list = faces && faces.length ? faces : [null, null];
  for (const f of list) wrap.append(die(f, opts));
  if (faces && faces.length) wrap.setAttribute("aria-label", `dice ${faces.join(" and ")}, total ${faces.reduce((a, b) => a + b, 0)}`);
  return wrap;
}

const CHIP = { 10: ["#0072B2", "blue"], 5: ["#D55E00", "red"], 1: ["#f4f4f4", "white"] };

/** A count of points as stacks of blue (10), red (5) and white (1) chips, as the box has them. */
export function chips(n, { label = "chips", max = 14 } = {}) {
  const parts = [];
  let left = Math.max(0, n);
  for (const v of [10, 5, 1]) {
    const k = Math.floor(left / v);
    left -= k * v;
    for (let i = 0; i < k; i++) parts.push(v);
  }
  const shown = parts.slice(0, max);
  const w = 14 + shown.length * 12;
  const g = s("svg", { class: "chips", width: w, height: 30, viewBox: `0 0 ${w} 30`, role: "img", "aria-label": `${n} ${label}` });
  shown.forEach((v, i) => {
    const [c] = CHIP[v];
    g.append(s("circle", { cx: 12 + i * 12, cy: 15, r: 11, fill: c, stroke: "#222", "stroke-width": 1.2 }),
      s("circle", { cx: 12 + i * 12, cy: 15, r: 7, fill: "none", stroke: v === 1 ? "#888" : "#fff", "stroke-width": 1.5, "stroke-dasharray": "3 2" }));
  });
  return g;
}

const light = (hex) => parseInt(hex.slice(1, 3), 16) + parseInt(hex.slice(3, 5), 16) + parseInt(hex.slice(5, 7), 16) > 600;

/** One casino chip with its value written on it. */
export function chip(value, { size = 34, color = "#0072B2", label } = {}) {
  return s("svg", { class: "chip", width: size, height: size, viewBox: "0 0 34 34", role: "img", "aria-label": label || `chip of ${value}` },
    s("circle", { cx: 17, cy: 17, r: 16, fill: color, stroke: "#111", "stroke-width": 1.2 }),
    s("circle", { cx: 17, cy: 17, r: 11, fill: "none", stroke: light(color) ? "#555" : "#fff", "stroke-width": 2, "stroke-dasharray": "4 3" }),
    s("text", { x: 17, y: 21.5, "text-anchor": "middle", "font-size": value >= 1000 ? 7.5 : value >= 100 ? 9 : 12, "font-weight": 700, fill: light(color) ? "#111" : "#fff" }, String(value)));
}

/** A Snake Eyes numbered card, face up (number shown) or face down (its back). */
export function numberCard(n, up, { size = 40 } = {}) {
  const h = size * 1.4;
  return s("svg", { class: `ncard ${up ? "up" : "down"}`, width: size, height: h, viewBox: "0 0 40 56", role: "img", "aria-label": `card ${n} face ${up ? "up" : "down"}` },
    s("rect", { x: 1, y: 1, width: 38, height: 54, rx: 5, fill: up ? "#fffdf7" : "#2b4a6b", stroke: "#222", "stroke-width": 1.5 }),
    up ? s("text", { x: 20, y: 36, "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: "#1a1a1a" }, String(n))
      : s("path", { d: "M6 8 L34 48 M34 8 L6 48 M20 6 L20 50 M4 28 L36 28", stroke: "#6e8fb3", "stroke-width": 1.3 }));
}

/** A Shake die: scoring face "10" or a blank. */
export function shakeDie(points, { size = 40 } = {}) {
  const on = points > 0;
  return s("svg", { class: "sdie", width: size, height: size, viewBox: "0 0 40 40", role: "img", "aria-label": on ? "shake die scores 10" : "shake die blank" },
    s("rect", { x: 1, y: 1, width: 38, height: 38, rx: 7, fill: on ? "#fffdf7" : "#555", stroke: "#222", "stroke-width": 1.5 }),
    on ? s("text", { x: 20, y: 27, "text-anchor": "middle", "font-size": 17, "font-weight": 800, fill: "#0072B2" }, "10") : null);
}

/** A Shake colored die for `seat` showing points (10..60) in the seat's colour. */
export function coloredDie(seat, points, { size = 48 } = {}) {
  return s("svg", { class: "cdie", width: size, height: size, viewBox: "0 0 40 40", role: "img", "aria-label": points ? `colored die of seat ${String.fromCharCode(65 + seat)} shows ${points}` : "colored die not rolled" },
    s("rect", { x: 1, y: 1, width: 38, height: 38, rx: 7, fill: seatColor(seat), stroke: "#222", "stroke-width": 1.5 }),
    s("text", { x: 20, y: 26, "text-anchor": "middle", "font-size": 15, "font-weight": 800, fill: "#111", stroke: "#fff", "stroke-width": 0.6, "paint-order": "stroke" }, points ? String(points) : "–"));
}

// Snap's 13 pictures, drawn fresh for this project: each is a few strokes on a 40x40 box.
const ART = {
  elephant: [["path", { d: "M8 24 Q8 10 22 10 Q34 10 34 22 L34 30 L30 30 L30 24 L24 24 L24 30 L20 30 L20 24 Q14 26 14 32 Q14 36 10 34", fill: "#8a8f98" }], ["circle", { cx: 27, cy: 16, r: 1.8, fill: "#111" }], ["path", { d: "M16 12 Q10 16 14 22", fill: "#b7bcc4" }]],
  mouse: [["circle", { cx: 14, cy: 12, r: 5, fill: "#a9a9a9" }], ["circle", { cx: 26, cy: 12, r: 5, fill: "#a9a9a9" }], ["ellipse", { cx: 20, cy: 22, rx: 9, ry: 8, fill: "#bdbdbd" }], ["circle", { cx: 17, cy: 21, r: 1.3, fill: "#111" }], ["circle", { cx: 23, cy: 21, r: 1.3, fill: "#111" }], ["path", { d: "M30 30 l4 -4 M32 33 l5 -1 M29 34 l2 4", stroke: "#D55E00", "stroke-width": 2 }]],
  kite: [["path", { d: "M20 4 L30 16 L20 28 L10 16 Z", fill: "#CC79A7" }], ["path", { d: "M20 28 Q16 32 22 34 Q26 36 20 39", stroke: "#333", fill: "none", "stroke-width": 1.5 }]],
  teapot: [["ellipse", { cx: 19, cy: 24, rx: 11, ry: 9, fill: "#009E73" }], ["path", { d: "M30 22 L37 16 M8 20 Q3 24 8 28", stroke: "#009E73", "stroke-width": 3, fill: "none" }], ["rect", { x: 16, y: 12, width: 6, height: 4, fill: "#005a43" }]],
  anchor: [["circle", { cx: 20, cy: 8, r: 3, fill: "none", stroke: "#0072B2", "stroke-width": 2.5 }], ["path", { d: "M20 11 L20 34 M12 17 L28 17 M8 26 Q10 36 20 34 Q30 36 32 26", stroke: "#0072B2", "stroke-width": 2.5, fill: "none" }]],
  rocket: [["path", { d: "M20 3 Q28 12 26 28 L14 28 Q12 12 20 3 Z", fill: "#d9d9d9", stroke: "#333" }], ["circle", { cx: 20, cy: 15, r: 3, fill: "#56B4E9" }], ["path", { d: "M14 28 L10 34 L16 30 M26 28 L30 34 L24 30", fill: "#D55E00" }], ["path", { d: "M17 30 L20 38 L23 30 Z", fill: "#E69F00" }]],
  cactus: [["path", { d: "M17 36 L17 6 Q20 2 23 6 L23 36 Z M17 20 L11 20 L11 12 M23 16 L29 16 L29 9", fill: "none", stroke: "#009E73", "stroke-width": 4, "stroke-linejoin": "round" }]],
  umbrella: [["path", { d: "M4 20 Q20 0 36 20 Z", fill: "#D55E00" }], ["path", { d: "M20 20 L20 33 Q20 37 16 35", stroke: "#333", "stroke-width": 2, fill: "none" }]],
  owl: [["ellipse", { cx: 20, cy: 22, rx: 12, ry: 14, fill: "#a0522d" }], ["circle", { cx: 15, cy: 18, r: 4.5, fill: "#fff" }], ["circle", { cx: 25, cy: 18, r: 4.5, fill: "#fff" }], ["circle", { cx: 15, cy: 18, r: 2, fill: "#111" }], ["circle", { cx: 25, cy: 18, r: 2, fill: "#111" }], ["path", { d: "M18 24 L20 27 L22 24 Z", fill: "#E69F00" }]],
  bicycle: [["circle", { cx: 10, cy: 26, r: 7, fill: "none", stroke: "#333", "stroke-width": 2 }], ["circle", { cx: 30, cy: 26, r: 7, fill: "none", stroke: "#333", "stroke-width": 2 }], ["path", { d: "M10 26 L17 14 L27 14 L30 26 M17 14 L20 26 L27 14 M15 11 L20 11", stroke: "#0072B2", "stroke-width": 2, fill: "none" }]],
  lantern: [["rect", { x: 12, y: 10, width: 16, height: 22, rx: 3, fill: "#F0E442", stroke: "#333", "stroke-width": 1.5 }], ["path", { d: "M16 10 Q20 2 24 10 M12 32 L28 32", stroke: "#333", "stroke-width": 2, fill: "none" }], ["path", { d: "M20 16 Q24 22 20 27 Q16 22 20 16 Z", fill: "#E69F00" }]],
  fish: [["path", { d: "M6 20 Q18 8 30 20 Q18 32 6 20 Z M30 20 L37 13 L37 27 Z", fill: "#56B4E9", stroke: "#0072B2" }], ["circle", { cx: 12, cy: 18, r: 1.5, fill: "#111" }]],
  crown: [["path", { d: "M6 30 L8 12 L14 20 L20 8 L26 20 L32 12 L34 30 Z", fill: "#E69F00", stroke: "#8a5a00", "stroke-width": 1.5 }]],
};

/** A Snap / Slap card: its picture and its name (the name is the accessible label). */
export function snapCard(name, { size = 64, back = false } = {}) {
  const h = size * 1.4;
  if (back || !name) {
    return s("svg", { class: "scard back", width: size, height: h, viewBox: "0 0 40 56", role: "img", "aria-label": "face-down pack" },
      s("rect", { x: 1, y: 1, width: 38, height: 54, rx: 4, fill: "#7a2e2e", stroke: "#222", "stroke-width": 1.5 }),
      s("rect", { x: 5, y: 5, width: 30, height: 46, rx: 3, fill: "none", stroke: "#e8c2c2", "stroke-width": 1, "stroke-dasharray": "2 2" }));
  }
  const art = (ART[name] || []).map(([tag, a]) => s(tag, a));
  return s("svg", { class: `scard ${name}`, width: size, height: h, viewBox: "0 0 40 56", role: "img", "aria-label": `card: ${name}` },
    s("rect", { x: 1, y: 1, width: 38, height: 54, rx: 4, fill: "#fffdf7", stroke: "#222", "stroke-width": 1.5 }),
    s("g", { transform: "translate(0 2)" }, ...art),
    s("text", { x: 20, y: 51, "text-anchor": "middle", "font-size": 7, "font-weight": 700, fill: "#222" }, name));
}

// Icons drawn as inline SVG in the text's colour: font glyphs such as ⏮ ⏭ ⏱ are empty boxes
// where the system has no font for them (Debian's Chromium among others).
const ICONS = {
  first: "M5 4v12M15 4l-8 6 8 6z",
  prev: "M14 4l-8 6 8 6z",
  next: "M6 4l8 6-8 6z",
  last: "M15 4v12M5 4l8 6-8 6z",
  sound: "M3 8h3l4-4v12l-4-4H3zM13 7q2 3 0 6M15.5 5q4 5 0 10",
  bell: "M10 3q-5 0-5 6v3l-2 3h14l-2-3V9q0-6-5-6zM8 16q2 3 4 0",
  book: "M3 4q4-1 7 1q3-2 7-1v12q-4-1-7 1q-3-2-7-1zM10 5v12",
  timer: "M10 6a6 6 0 1 0 0.01 0M10 9v3l2 1M8 2h4",
  rematch: "M4 10a6 6 0 0 1 10-4.5M16 10a6 6 0 0 1-10 4.5M14 2v4h-4M6 18v-4h4",
  replay: "M3 10a7 7 0 1 0 2-5M3 3v4h4M9 7l4 3-4 3z",
};

/** A small icon (`name` of ICONS), struck through when `off`; decorative: its button has the words. */
export function icon(name, { size = 20, off = false } = {}) {
  return s("svg", { class: `icon icon-${name}${off ? " off" : ""}`, width: size, height: size, viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
    s("path", { d: ICONS[name] || "", fill: "none", stroke: "currentColor", "stroke-width": 1.8, "stroke-linejoin": "round", "stroke-linecap": "round" }),
    off ? s("path", { d: "M3 17L17 3", stroke: "currentColor", "stroke-width": 2 }) : null);
}
