// Snap and Slap the Elephant: every player's pack and face-up pile, the centre, a big call button,
// keys (space, s, e, m) and the order in which the server received each race's calls.
import { h, seatTag, letter } from "../dom.js";
import { snapCard } from "../pictures.js";

const CALLS = {
  snap: { text: "SNAP!", keys: "space or S" },
  slap: { text: "Slap the elephant", keys: "space or E" },
  snap_fingers: { text: "Snap fingers (mouse)", keys: "M" },
};
const RESULT = { good: "first, takes the cards", false: "false call, pays a penalty", "too late": "too late" };
const KEYS = { " ": ["snap", "slap"], s: ["snap"], e: ["slap"], m: ["snap_fingers"], f: ["flip"], enter: ["flip"] };

export function raceList(race, names) {
  if (!race) return null;
  const arrivals = race.arrivals || race.order || race.calls || [];
  if (!arrivals.length) return null;
  return h("section", { class: "race", "aria-label": "order of the last race", "data-testid": "race" },
    h("h3", {}, race.move !== undefined ? `Last race: calls on move ${race.move}, in the order the table heard them` : "Last race"),
    h("ol", {}, ...arrivals.map((a, i) => {
      const seat = typeof a === "number" ? a : a.seat;
      const call = CALLS[a.type]?.text.replace("!", "") || a.type || "";
      const what = typeof a === "object" ? [call, RESULT[a.result] || a.result].filter(Boolean).join(": ") : "";
      const ms = typeof a === "object" && (a.ms ?? a.after_ms) !== undefined ? ` +${Math.round(a.ms ?? a.after_ms)} ms` : "";
      return h("li", { class: i === 0 ? "first" : null }, h("strong", {}, `${i + 1}. `), seatTag(seat, names), what ? ` ${what}` : "", ms);
    })));
}

/** The picture of a pair showing in Snap (tops that match), or null: told in words, not by colour. */
export function pairShowing(view) {
  if (view.game === "slap-the-elephant") return null;
  for (const m of view.matches || []) {
    const seat = Array.isArray(m) ? m[0] : m;
    const pile = seat === null || seat === undefined ? view.center : view.players[seat]?.face_up;
    if (pile?.length) return pile[pile.length - 1];
  }
  return null;
}

export default {
  title: "Snap",

  // the end screen's figure for each seat: the cards held (what the flip limit counts), not a
  // share of the win
  standing(view, seat) {
    const p = view.players[seat];
    const held = p.pack + (p.face_up?.length || 0);
    return `${held} card${held === 1 ? "" : "s"}`;
  },

  turn(view, names, me = null) {
    const won = view.winner !== null && view.winner !== undefined;
    // a game stopped by max_flips is won by the most cards held, or drawn (docs/rules/snap.md)
    if (view.truncated) return `The flip limit is reached: ${won ? `${names[view.winner]} holds the most cards and wins` : "a draw"}`;
    if (won) return `${names[view.winner]} holds every card and wins`;
    if (view.phase === "deal") return "Dealing…";
    if (view.turn === null || view.turn === undefined) return "";
    // the turn line is a live region: a screen reader hears the pair a sighted player sees lit
    const pair = pairShowing(view);
    const call = pair ? `Pair showing (${pair}): call SNAP! · ` : "";
    return `${call}${view.turn === me ? "turn up a card" : `${names[view.turn]} turns up a card`}`;
  },

  label(action) {
    if (action.type === "flip") return "Turn up a card (F)";
    if (CALLS[action.type]) return "";
    return null;
  },

  isMine(view, seat) {
    return view.turn === seat && view.winner === null;
  },

  onKey(key, { legal, act }) {
    const want = KEYS[key.toLowerCase()] || [];
    const a = legal.find((x) => want.includes(x.type));
    if (a) { act(a); return true; }
    return false;
  },

  render(ctx) {
    const { view, names, seat: me, legal, act } = ctx;
    const slap = view.game === "slap-the-elephant";
    const players = h("ul", { class: "sn-players", "aria-label": "players' piles" }, ...view.players.map((p, s) => {
      const top = p.face_up.length ? p.face_up[p.face_up.length - 1] : null;
      const matched = (view.matches || []).some((m) => (Array.isArray(m) ? m.includes(s) : m === s));
      return h("li", { class: `sn-seat${view.turn === s ? " active" : ""}${view.out?.[s] ? " out" : ""}${me === s ? " mine" : ""}${matched ? " match" : ""}` },
        h("div", {}, seatTag(s, names), view.turn === s ? h("span", { class: "badge turn" }, "to flip") : null, view.out?.[s] ? h("span", { class: "badge" }, "out") : null,
          matched ? h("span", { class: "badge bad" }, "pair showing") : null),
        h("div", { class: "sn-piles" },
          h("div", { class: "pile" }, snapCard(null, { size: 44, back: true }), h("span", { class: "count", "data-testid": `pack-${s}` }, `${p.pack}`)),
          slap ? null : h("div", { class: "pile" }, top ? snapCard(top, { size: 60 }) : h("div", { class: "empty-pile" }, "no card"), h("span", { class: "count" }, `${p.face_up.length} up`))));
    }));
    const center = view.center || [];
    const centreTop = center.length ? center[center.length - 1] : null;
    const centre = h("section", { class: "felt sn-centre", "aria-label": "centre of the table" },
      h("div", { class: "label" }, slap ? "Centre pile" : "Penalty cards in the centre",
        !slap && (view.matches || []).some((m) => m === null || (Array.isArray(m) && m.includes(null))) ? h("span", { class: "badge bad" }, "pair showing") : null),
      h("div", { class: "fan" }, ...(slap ? (centreTop ? [snapCard(centreTop, { size: 90 })] : []) : center.map((c) => snapCard(c, { size: 50 })))),
      h("div", { class: "muted" }, `${center.length} card${center.length === 1 ? "" : "s"}${view.shuffling ? ` · ${view.shuffling} being reshuffled` : ""}`));

    const calls = legal.filter((a) => CALLS[a.type]);
    const callButtons = h("div", { class: "calls" }, ...(calls.length ? calls : (slap ? [{ type: "slap" }, { type: "snap_fingers" }] : [{ type: "snap" }]).map((a) => ({ ...a, disabled: true })))
      .map((a) => h("button", {
        class: `call call-${a.type}`, "data-call": a.type, disabled: a.disabled || me === null || me === undefined ? true : null,
        "aria-keyshortcuts": a.type === "snap" ? "Space S" : a.type === "slap" ? "Space E" : "M",
        onclick: () => act({ type: a.type }),
      }, h("span", { class: "call-text" }, CALLS[a.type].text), h("span", { class: "call-keys" }, CALLS[a.type].keys))));
    return h("div", { class: `game snap${slap ? " slap" : ""}` }, centre, callButtons, raceList(ctx.race, names), players);
  },
};
