// Gambler: the board with the pieces, the Shaker and its Sweepstakes spaces, money, tickets, IOUs,
// and each decision shown with its odds.
import { h, seatTag, letter, seatColor, fraction } from "../dom.js";
import { dice, die } from "../pictures.js";
import { anim } from "../motion.js";

// A phone draws the track as a tall ring four spaces wide, so every name and amount has room; a
// wider window draws it square. The picture is drawn again when the window crosses the line.
const narrow = matchMedia("(max-width: 600px)");
let redrawLatest = null;
narrow.addEventListener("change", () => redrawLatest?.());

/** Where space i of an n-space track sits on a ring `cols` wide, or null when n cannot close one. */
function ring(n, cols) {
  const rows = n / 2 + 2 - cols;
  if (n % 2 || !Number.isInteger(cols) || rows < 3) return null;
  const at = (i) => {
    if (i < cols) return [1, i + 1];
    if ((i -= cols) < rows - 2) return [i + 2, cols];
    if ((i -= rows - 2) < cols) return [rows, cols - i];
    return [rows - 1 - (i - cols), 1];
  };
  return { cols, rows, at };
}

const KIND_LABEL = { start: "Start", fortune: "Fortune", sweepstakes: "Sweepstakes", lottery: "Lottery", races: "Horse race", daily_double: "Horse race", collect: "Collect", pay: "Pay" };
// Exact chances from gamenight.games.gambler.odds (counts over the 6^6 ordered Shaker throws).
const SWEEP = { high: ["4067/15552", 300], split: ["22127/46656", 150], straight: ["3059/23328", 450], pairs: ["4651/7776", 200] };
const kindOf = (space) => (space.startsWith("high-") ? "high" : space.startsWith("split-") ? "split" : space);
/** Chance both numbers of a lottery ticket show among the Shaker's six dice (inclusion-exclusion). */
export function ticketChance([a, b]) {
  return a === b ? 1 - (5 / 6) ** 6 : 1 - 2 * (5 / 6) ** 6 + (4 / 6) ** 6;
}
const ratio = (p) => { const [a, b] = String(p).split("/").map(Number); return b ? a / b : a; };
const money = (n) => `${n < 0 ? "−" : ""}$${Math.abs(n)}`;

function spaceName(space) {
  if (space.startsWith("high-")) return `High number at ${space.slice(5)}`;
  if (space.startsWith("split-")) return `Split ${space.slice(6).replace("-", " & ")}`;
  return space === "straight" ? "Straight" : "Pairs";
}

export default {
  title: "Gambler",

  // the end screen's figure for each seat: the money held, not a share of the win
  standing(view, seat) { return view.players[seat].out ? `${money(view.players[seat].cash)} (out)` : money(view.players[seat].cash); },

  // off turn a seat may still take an IOU: that offer is no turn of its own
  isMine(view, seat) {
    if (view.winner !== null && view.winner !== undefined) return false;
    if (view.phase === "marker") return view.marker_queue?.[0] === seat;
    if (["turn", "doubles", "claim"].includes(view.phase)) return view.current === seat;
    return undefined;
  },

  turn(view, names, me = null) {
    if (view.winner !== null && view.winner !== undefined) return `${names[view.winner]} wins with ${money(view.players[view.winner].cash)}`;
    if (view.phase === "order") return "Throwing for the first player";
    if (view.phase === "marker" && view.marker_queue?.length) {
      const who = view.marker_queue[0];
      return who === me ? "place a Sweepstakes marker" : `${names[who]} places a Sweepstakes marker`;
    }
    const you = view.current === me;
    if (view.phase === "doubles") return you ? "you rolled doubles: roll again or hold a Sweepstakes" : `${names[view.current]} rolled doubles: roll again or hold a Sweepstakes`;
    const owed = money(view.start_owed ?? 100); // $200 when Start was passed twice this turn
    if (view.phase === "claim") return you ? `claim ${owed} for Start if you like` : `${names[view.current]} may claim ${owed} for Start`;
    return you ? "" : `${names[view.current]}'s turn`;
  },

  label(action, view) {
    const L = {
      roll: "Roll the dice",
      buy_ticket: "Buy a lottery ticket ($10)",
      roll_again: "Roll again for doubles: 1 in 6 (16.7%) to win $500, expected $83",
      sweepstakes: `Hold a Sweepstakes: entry $10 each, you pick first (best: Pairs ${fraction(SWEEP.pairs[0])} to win $200, expected $120)`,
      claim_start: `Claim ${money(view?.start_owed ?? 100)} for passing Start`,
      end_turn: "End the turn",
      take_iou: "Take an IOU: +$200 now, repay $220 (no win while you hold it)",
      repay_iou: "Repay the IOU ($220)",
    };
    if (action.type === "marker") return ""; // placed on the Sweepstakes spaces of the board
    if (["throw", "dice", "die"].includes(action.type)) return "Throw";
    return L[action.type] ?? null;
  },

  // the part of the board a decision of `seat` is made on, brought into view when it comes up
  actOn(view, seat) {
    return view.phase === "marker" && view.marker_queue?.[0] === seat ? ".sweep" : null;
  },

  hint(view) {
    if (view.phase === "marker") return "Pick a Sweepstakes space in the middle of the board: each shows its chance to win. Pairs has the best expected prize.";
    if (view.phase === "doubles") return "Doubles! Roll again (1 in 6 to win $500) or hold a Sweepstakes where you pick the first space.";
    if (view.phase === "turn") return "A lottery ticket wins $50 each time a Lottery finds both its numbers among the Shaker's six dice.";
    return null;
  },

  render({ view, names, seat: me, legal = [], act, redraw }) {
    redrawLatest = redraw || null;
    const placeable = new Set(legal.filter((a) => a.type === "marker").map((a) => a.space));
    const board = view.board;
    const n = board.length;
    const shape = ring(n, narrow.matches ? 4 : n / 4 + 1);
    const at = {};
    view.players.forEach((p, s) => { if (!p.out) (at[p.position] ||= []).push(s); });
    const cells = board.map((sp, i) => {
      const [r, c] = shape ? shape.at(i) : [null, null];
      const amount = sp.amount ? (sp.kind === "pay" ? ` −$${sp.amount}` : ` +$${sp.amount}`) : "";
      return h("li", { class: `space k-${sp.kind}`, style: shape ? `grid-row:${r};grid-column:${c}` : null, "aria-label": `space ${i}: ${sp.name}${amount}${at[i] ? `; pieces: ${at[i].map(letter).join(", ")}` : ""}` },
        h("span", { class: "sp-name" }, sp.name), amount ? h("span", { class: "sp-amt" }, amount) : KIND_LABEL[sp.kind] && KIND_LABEL[sp.kind] !== sp.name ? h("span", { class: "sp-kind" }, KIND_LABEL[sp.kind]) : null,
        h("span", { class: "pieces" }, ...(at[i] || []).map((s) => h("span", { class: "piece", style: `background:${seatColor(s)}`, title: names[s], ...anim("slide", `piece-${s}`, view.players[s].position) }, letter(s)))));
    });

    const spaces = ["high-1", "high-2", "high-3", "high-4", "high-5", "high-6", "split-1-2", "split-2-3", "split-4-5", "split-5-6", "straight", "pairs"];
    const markers = view.markers || {};
    const shaker = view.shaker || [];
    const centre = h("div", { class: "gb-centre", style: shape ? `grid-row:2/${shape.rows};grid-column:2/${shape.cols}` : null },
      h("div", { class: "gb-roll" }, h("span", anim("roll", "gb-dice", `${view.turn}|${view.current}|${view.phase}|${view.last_roll}`), dice(view.last_roll, { size: 40 })), h("span", { class: "muted" }, view.last_roll ? `last roll ${view.last_roll[0] + view.last_roll[1]}` : "no roll yet this turn")),
      h("div", { class: "shaker", "aria-label": `Shaker${shaker.length ? `: ${shaker.join("-")}` : " empty"}${view.shaker_for ? ` (for the ${view.shaker_for})` : ""}` },
        h("div", { class: "label" }, view.shaker_for ? `Shaker (${view.shaker_for})` : "Shaker"),
        h("div", { class: "shaker-dice", ...anim("roll", "gb-shaker", shaker.join()) }, ...[0, 1, 2, 3, 4, 5].map((i) => h("div", { class: "pos" }, die(shaker[i] ?? null, { size: 30 }), h("span", {}, String(i + 1)))))),
      h("ul", { class: "sweep", "aria-label": "Sweepstakes betting spaces" }, ...spaces.map((sp) => {
        const who = markers[sp];
        const [p, prize] = view.odds?.[sp] ? [view.odds[sp].p, view.odds[sp].prize] : SWEEP[kindOf(sp)];
        const words = `${spaceName(sp)}: ${fraction(p)} to win $${prize}`;
        const inner = [h("span", { class: "sw-name" }, sp.replace("split-", "S").replace("high-", "H")), h("span", { class: "sw-prize" }, `$${prize}`),
          placeable.size ? h("span", { class: "sw-p" }, `${(100 * ratio(p)).toFixed(0)}%`) : null,
          who !== undefined ? h("span", { class: "piece", style: `background:${seatColor(who)}` }, letter(who)) : null];
        return h("li", { class: `sw sw-${kindOf(sp)}${who !== undefined ? " taken" : ""}`, title: words },
          placeable.has(sp) ? h("button", { class: "sw-btn", "data-space": sp, "aria-label": `place your marker: ${words}`, onclick: () => act({ type: "marker", space: sp }) }, ...inner) : inner);
      })),
      view.last_card ? h("blockquote", { class: "fortune", "aria-label": "last Fortune card" }, view.last_card) : null,
      Object.keys(view.horse_cards || {}).length ? h("p", { class: "muted" }, "Horse cards: ", Object.entries(view.horse_cards).map(([s, c]) => `${letter(Number(s))} #${c}`).join(", ")) : null);

    const purses = h("ul", { class: "gb-players", "aria-label": "players" }, ...view.players.map((p, s) => h("li", {
      class: `${view.current === s && view.phase !== "over" ? "active" : ""}${p.out ? " out" : ""}${me === s ? " mine" : ""}${view.winner === s ? " winner" : ""}`,
    },
    seatTag(s, names), h("strong", { class: "num cash", "data-testid": `cash-${s}`, ...anim("beat", `cash-${s}`, p.cash) }, money(p.cash)),
    p.iou ? h("span", { class: "badge bad", title: "holds an IOU: cannot win until it is repaid" }, "IOU") : null,
    p.out ? h("span", { class: "badge" }, "out") : null,
    h("span", { class: "tickets" }, ...p.tickets.map((t) => h("span", { class: "ticket", title: `wins $50 in a lottery with chance ${(100 * ticketChance(t)).toFixed(1)}%` }, `${t[0]}-${t[1]}`))),
    h("span", { class: "progress", "aria-label": `${Math.round((100 * Math.max(0, p.cash)) / 1000)}% of the way to $1000` }, h("span", { style: `width:${Math.min(100, Math.max(0, p.cash) / 10)}%;background:${seatColor(s)}` })))));

    return h("div", { class: "game gambler" },
      h("ol", { class: `board${shape ? " ring" : ""}`, style: shape ? `grid-template-columns:repeat(${shape.cols},minmax(0,1fr))` : null, "aria-label": "board" }, ...cells, centre),
      purses, h("p", { class: "muted" }, `Bank ${money(view.bank)} · ${view.tickets_left} lottery tickets left · turn ${view.turn}`));
  },
};
