// Snake Eyes casino table: the layout with every wager area, chips by click or tap, the shooter,
// the results display, and the dealer's controls when this browser holds the dealer's seat.
import { h, s as svgEl, letter, seatColor, bdi } from "../dom.js";
import { die, chip } from "../pictures.js";
import { anim } from "../motion.js";

export const AREAS = {
  num5: ["5", "5 before 7"], num6: ["6", "6 before 7"], num8: ["8", "8 before 7"],
  field: ["Field", "one roll: 2 3 4 9 10 11 12"],
  hard4: ["Hard 4", "2+2 before easy 4 or 7"], hard6: ["Hard 6", "3+3 before easy 6 or 7"],
  hard8: ["Hard 8", "4+4 before easy 8 or 7"], hard10: ["Hard 10", "5+5 before easy 10 or 7"],
  hardway_combo: ["Hardway Combo", "next 4 6 8 10 or 7 comes hard"],
  any7: ["Any 7", "one roll"], ce_combo: ["C & E", "one roll: 2 3 11 12"],
  craps2: ["Craps 2", "one roll: snake eyes"], craps3: ["Craps 3", "one roll"],
  craps12: ["Craps 12", "one roll"], eleven: ["11 in 1 Roll", "one roll"],
};
const ROWS = [["num5", "num6", "num8"], ["field"], ["hard4", "hard6", "hard8", "hard10", "hardway_combo"], ["any7", "ce_combo", "craps2", "craps3", "craps12", "eleven"]];
const FIELD = { "option-1": "2 pays 3:1, 12 pays 2:1", "option-2": "2 and 12 pay 2:1", "option-3": "2 pays 3:1, 12 pays 1:1" };
const CHIP_COLORS = ["#f4f4f4", "#D55E00", "#009E73", "#111111", "#CC79A7", "#E69F00"];

// What this browser has picked in the chip rack; survives redraws.
const rack = { amount: null, takeDown: false };

function chipValues(min, max) {
  const vals = [];
  for (const v of [1, 5, 10, 25, 100, 500, 1000, 5000]) if (v >= min && v <= max) vals.push(v);
  if (!vals.includes(min)) vals.unshift(min);
  return vals.slice(0, 6);
}

function pays(view, area) {
  const p = view.payouts?.[area];
  if (area === "field") return FIELD[p] ? `pays 1:1; ${FIELD[p]}` : p;
  return p ? `pays ${p.replace(":", " to ")}` : "";
}

export default {
  title: "Snake Eyes casino",

  // the end screen's figure for each seat: the chips in hand, with any wager handed back, and
  // what the session won or lost him (his result)
  standing(view, seat, result) {
    const back = view.phase === "closed" ? view.layout.reduce((n, w) => n + (w.seat === seat ? w.amount : 0), 0) : 0;
    const net = typeof result === "number" ? ` (${result > 0 ? "+" : ""}${result})` : "";
    return `${view.bankrolls[seat] + back} chips${net}`;
  },

  turn(view, names, me = null) {
    if (view.phase === "closed") return "The session is over";
    if (view.phase === "offer") return view.offered_to === me ? "take or decline the dice" : `The dice are offered to ${names[view.offered_to]}`;
    if (view.phase === "betting") return `Place your wagers · ${view.shooter === me ? "you shoot" : `${names[view.shooter]} shoots`}`;
    if (view.phase === "rolling") return view.dealer_rolls ? "The dealer rolls" : view.shooter === me ? "roll the dice" : `${names[view.shooter]} rolls…`;
    if (view.phase === "entered") return "The dealer checks the entered result";
    return "";
  },

  hint(view, { dealer = false, due = false } = {}) {
    if (dealer) return due ? "Read the two dice off the table, enter them below, check the lit areas, then settle." : "Nothing to enter until the shooter rolls.";
    if (view.phase === "offer" || view.phase === "betting") return "To wager: pick a chip, then tap an area of the layout. “Take down” then an area takes your chips back.";
    return null;
  },

  label(action) {
    const named = { accept: "Take the dice", decline: "Decline the dice", roll: "Roll the dice", done: "Done betting", give_up: "Give up the dice", settle: "Settle the layout" };
    if (named[action.type]) return named[action.type];
    if (action.type === "wager" || action.type === "remove" || action.type === "reduce") return ""; // the layout handles these
    return null;
  },

  render(ctx) {
    const { view, names, seat: me, legal, act } = ctx;
    const canBet = legal.some((a) => a.type === "wager");
    const mineRemovable = new Set(legal.filter((a) => a.type === "remove").map((a) => a.area));
    const values = chipValues(view.table_min, view.table_max);
    if (!values.includes(rack.amount)) rack.amount = values[0];
    const lit = new Set(view.lit || []);
    // When the session ends, the wagers still standing go back to their players (the engine's
    // results count them so): none is drawn in play, each bankroll holds its own again.
    const closed = view.phase === "closed";
    const returned = closed ? view.layout : [];
    const back = (s) => returned.reduce((n, w) => n + (w.seat === s ? w.amount : 0), 0);
    const byArea = {};
    for (const w of closed ? [] : view.layout) (byArea[w.area] ||= []).push(w);

    const area = (id) => {
      const [name, what] = AREAS[id];
      const stacks = (byArea[id] || []).map((w) => h("span", { class: `stack${w.seat === me ? " mine" : ""}`, ...anim("slide", `stack-${id}-${w.seat}`, w.amount), title: `\u2068${names[w.seat]}\u2069: ${w.amount}` },
        svgEl("svg", { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" }, svgEl("circle", { cx: 7, cy: 7, r: 6, fill: seatColor(w.seat), stroke: "#111" })),
        `${letter(w.seat)} ${w.amount}`));
      const mine = (byArea[id] || []).find((w) => w.seat === me);
      const label = `${name}, ${pays(view, id)}${mine ? `, your wager ${mine.amount}` : ""}${lit.has(id) ? ", wins this roll" : ""}`;
      const clickable = rack.takeDown ? mineRemovable.has(id) : canBet;
      return h("button", {
        class: `area a-${id}${lit.has(id) ? " lit" : ""}${mine ? " has-mine" : ""}`, "data-area": id, "aria-label": label,
        disabled: clickable ? null : true,
        onclick: () => rack.takeDown ? act({ type: "remove", area: id }) : act({ type: "wager", area: id, amount: rack.amount }),
      }, h("span", { class: "a-name" }, name), h("span", { class: "a-what" }, what), h("span", { class: "a-pays" }, pays(view, id)),
      h("span", { class: "a-chips" }, ...stacks),
      // a lit area says so in words as well as in yellow (its accessible name says it already)
      lit.has(id) ? h("span", { class: "a-lit" }, "wins this roll") : null);
    };
    const layout = h("section", { class: "layout felt", "aria-label": "wager layout" },
      ...ROWS.map((row, i) => h("div", { class: `lrow r${i}` }, ...row.map(area))));

    const chipRack = me === null || me === undefined || closed ? null : h("div", { class: "rack", role: "radiogroup", "aria-label": "chip to place" },
      h("span", { class: "label" }, "Chip:"),
      ...values.map((v, i) => h("button", {
        class: `rack-chip${!rack.takeDown && rack.amount === v ? " sel" : ""}`, role: "radio", "aria-checked": String(!rack.takeDown && rack.amount === v),
        "aria-label": `chip of ${v}`, "data-chip": v, onclick: () => { rack.amount = v; rack.takeDown = false; ctx.redraw(); },
      }, chip(v, { size: 38, color: CHIP_COLORS[i % CHIP_COLORS.length] }))),
      h("button", { class: `rack-off${rack.takeDown ? " sel" : ""}`, role: "radio", "aria-checked": String(rack.takeDown), "data-chip": "off",
        onclick: () => { rack.takeDown = !rack.takeDown; ctx.redraw(); } }, "Take down"),
      h("span", { class: "muted" }, ` limits ${view.table_min}–${view.table_max}`));

    const results = view.results || [];
    const top = h("section", { class: "cas-top" }, tableDice(view),
      h("div", { class: "cas-who" },
        h("div", {}, "Shooter: ", h("strong", {}, view.shooter === null || view.shooter === undefined ? (view.dealer_rolls ? "the dealer" : "none") : bdi(names[view.shooter]))),
        bankLine(view.bank)),
      h("ol", { class: "results", "aria-label": "last results, newest first" }, ...results.slice(-12).reverse().map((t, i) => h("li", { class: `${t === 7 ? "seven" : ""}${i === 0 ? " newest" : ""}` }, String(t)))));

    const purses = h("ul", { class: "purses", "aria-label": "bankrolls" }, ...view.bankrolls.map((b, s) => h("li", { class: s === me ? "mine" : "" },
      h("span", { class: "seat-dot", style: `background:${seatColor(s)}`, "aria-hidden": "true" }, letter(s)), " ", bdi(names[s]), " ", h("strong", { class: "num", "data-testid": `bankroll-${s}`, ...anim("beat", `bankroll-${s}`, b + back(s)) }, String(b + back(s))))));

    const pending = Object.entries(view.pending_wins || {});
    const over = closed ? h("p", { class: "note strong", "data-testid": "returned" }, returned.length
      ? ["The session is over. Wagers still standing go back to their players: ",
        ...returned.map((w, i) => [i ? ", " : "", bdi(names[w.seat]), ` ${w.amount} on ${/^\d/.test(AREAS[w.area]?.[0]) ? "the " : ""}${AREAS[w.area]?.[0] || w.area}`]), "."]
      : "The session is over. No wager was left standing.") : null;
    return h("div", { class: "game casino" }, top, over, chipRack, layout, purses,
      pending.length ? h("p", { class: "note strong" }, "To be paid: ", pending.map(([who, n], i) => [i ? ", " : "", bdi(names[who.charCodeAt(0) - 65] ?? who), ` ${n}`])) : null,
      ctx.dealer ? dealerPanel(ctx) : null);
  },
};

const HARD = new Set([4, 6, 8, 10]);

/** Every die on the table: the shooter's two show the roll (or the result entered), the rest wait. */
function tableDice(view) {
  const faces = view.entered || view.last_dice || null;
  const pair = view.active_pair || [0, 1];
  const total = faces ? faces[0] + faces[1] : null;
  const hard = faces && faces[0] === faces[1] && HARD.has(total);
  const row = h("div", { class: "cas-dice-row", role: "img", "aria-label": faces ? `the shooter's dice show ${faces[0]} and ${faces[1]}, total ${total}${hard ? ", the hard way" : ""}` : "no roll yet",
    ...anim("roll", "cas-dice", `${view.rolls}|${faces}`) },
  ...Array.from({ length: view.dice || 2 }, (_, i) => {
    const k = pair.indexOf(i);
    return k >= 0 ? die(faces ? faces[k] : null, { size: 50, label: `active die ${k + 1}` })
      : die(null, { size: 30, fill: "#d8d2c4", label: "a die not in play" });
  }));
  const said = view.entered ? "entered, not settled" : view.rolls ? `roll ${view.rolls}` : "no roll yet";
  return h("div", { class: "cas-dice" }, row,
    h("div", {}, h("div", { class: "big-total", "data-testid": "last-total" }, total === null ? "" : String(total)),
      hard ? h("span", { class: "badge hard", "data-testid": "hard" }, `Hard ${total}`) : null,
      h("div", { class: "muted" }, said)));
}

/** The bank is the house's purse: its figure is what the house has won (or lost) this session. */
function bankLine(bank) {
  const words = bank === 0 ? "even" : bank > 0 ? `up ${bank}` : `down ${-bank}`;
  const why = bank > 0 ? "the players have lost this much to the house" : bank < 0 ? "the players are this much ahead of the house" : "nobody is ahead yet";
  return h("div", { class: "bank", title: why }, "House: ", h("strong", { "data-testid": "bank" }, words), h("small", { class: "muted" }, ` (${why})`));
}

/** The dealer's controls: enter the dice read off the table, amend, void, settle. */
const faces = [null, null];
function alertPick() {
  const m = document.getElementById("dealer-msg");
  if (m) m.textContent = "Pick a face for each die first.";
} // the dealer's picks survive redraws until entered

function dealerPanel({ view, act, dealerLegal = [] }) {
  const pick = (i) => h("div", { class: "dealer-die", role: "group", "aria-label": `die ${i + 1}` }, // toggle buttons, not radios
    ...[1, 2, 3, 4, 5, 6].map((f) => h("button", { class: `face${faces[i] === f ? " sel" : ""}`, "aria-pressed": String(faces[i] === f), "aria-label": `die ${i + 1} shows ${f}`, "data-face": `${i}-${f}`,
      onclick: (e) => { faces[i] = f; for (const b of e.currentTarget.parentNode.children) { b.classList.toggle("sel", b === e.currentTarget); b.setAttribute("aria-pressed", String(b === e.currentTarget)); } } }, String(f))));
  const ready = () => faces[0] && faces[1];
  const types = new Set(dealerLegal.map((a) => a.type));
  const entering = view.phase === "rolling" || view.phase === "entered";
  return h("section", { class: "dealer", "aria-label": "dealer controls" },
    h("h3", {}, "Dealer"),
    entering ? [pick(0), pick(1)] : h("p", { class: "muted" }, "Waiting for the shooter to roll."),
    h("div", { class: "buttons" },
      view.phase === "rolling" ? h("button", { class: "primary", onclick: () => ready() ? act({ type: "dice", faces: [...faces] }) : alertPick() }, "Enter the dice") : null,
      view.phase === "entered" ? h("button", { onclick: () => ready() ? act({ type: "amend", faces: [...faces] }) : alertPick() }, "Amend the result") : null,
      view.phase === "entered" || types.has("settle") ? h("button", { class: "primary", onclick: () => { faces[0] = faces[1] = null; act({ type: "settle" }); } }, "Settle") : null,
      entering ? h("button", { onclick: () => act({ type: "void", reason: "No roll called by the dealer" }) }, "No roll (void)") : null),
    h("p", { class: "form-msg", id: "dealer-msg", role: "status" }));
}
