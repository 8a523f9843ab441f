// Snap and Slap the Elephant: every player's pack and face-up pile, the centre, a big call button,
// keys (space, s, e, m) and the order in which the server received each race's calls.
import { h, seatTag, letter } from "../dom.js";
import { snapCard } from "../pictures.js";
import { anim } from "../motion.js";

// The call buttons are made once and kept from frame to frame (only their state changes): a
// button rebuilt at every frame could be replaced between a player's press and release, and
// the click would land on a button no longer in the page.
// Kept per `act` (the live table's is one function for the page's life; a replay's draws get
// their own), so a replay never takes the table's buttons away.
const kept = new WeakMap(); // act -> (call type -> its button)
function callButton(type, act) {
  if (!kept.has(act)) kept.set(act, new Map());
  const mine = kept.get(act);
  let b = mine.get(type);
  if (!b) {
    b = h("button", { class: `call call-${type}`, "data-call": type, "aria-keyshortcuts": type === "snap" ? "Space S" : type === "slap" ? "Space E" : "M",
      onclick: () => act({ type }) }, h("span", { class: "call-text" }, CALLS[type].text), h("span", { class: "call-keys" }, CALLS[type].keys));
    mine.set(type, b);
  }
  return b;
}

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
  paced: false, // a race: every frame is drawn the moment it comes

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
          matched ? h("span", { class: "badge bad" }, h("span", { class: "long" }, "pair showing"), h("span", { class: "short" }, "pair")) : null),
        h("div", { class: "sn-piles" },
          h("div", { class: "pile" }, snapCard(null, { size: 44, back: true }), h("span", { class: "count", "data-testid": `pack-${s}` }, `${p.pack}`)),
          slap ? null : h("div", { class: "pile" }, top ? h("span", anim("turn", `up-${s}`, p.face_up.length), snapCard(top, { size: 60 })) : h("div", { class: "empty-pile" }, "no card"), h("span", { class: "count" }, `${p.face_up.length} up`))));
    }));
    const center = view.center || [];
    const centreTop = center.length ? center[center.length - 1] : null;
    const centre = h("section", { class: "felt sn-centre", "aria-label": "centre of the table" },
      h("div", { class: "label" }, slap ? "Centre pile" : "Penalty cards in the centre",
        !slap && (view.matches || []).some((m) => m === null || (Array.isArray(m) && m.includes(null))) ? h("span", { class: "badge bad" }, "pair showing") : null),
      h("div", { class: "fan", ...anim("turn", "centre", center.length) }, ...(slap ? (centreTop ? [snapCard(centreTop, { size: 90 })] : []) : center.map((c) => snapCard(c, { size: 50 })))),
      h("div", { class: "muted" }, `${center.length} card${center.length === 1 ? "" : "s"}${view.shuffling ? ` · ${view.shuffling} being reshuffled` : ""}`));

    const open = new Set(legal.filter((a) => CALLS[a.type]).map((a) => a.type));
    const types = slap ? ["slap", "snap_fingers"] : ["snap"];
    const buttons = types.map((type) => {
      const b = callButton(type, act);
      b.disabled = !open.has(type) || me === null || me === undefined;
      return b;
    });
    const calls = h("div", { class: "calls" }, ...buttons);
    return h("div", { class: `game snap${slap ? " slap" : ""}` }, centre, calls, raceList(ctx.race, names), players);
  },
};
