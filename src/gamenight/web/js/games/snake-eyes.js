// Snake Eyes (home): every player's row of cards #2-#12, the kitty in chips, the dice and the thrower.
import { h, seatTag, letter, bdi } from "../dom.js";
import { dice, chips, numberCard } from "../pictures.js";
import { anim } from "../motion.js";

const CARDS = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12];
const WAYS = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };

/** Chance in 36 that the next throw turns one of `faceUp` down (a 7 never does). */
function hitChance(faceUp) {
  return faceUp.reduce((n, c) => n + WAYS[c], 0);
}

export default {
  title: "Snake Eyes",

  // the end screen's figure for each seat: the cards turned down and the chips held
  standing(view, seat) {
    const p = view.players[seat];
    return `${CARDS.length - p.face_up.length}/${CARDS.length} down · ${p.chips} chips`;
  },

  // `me`: the seat this page plays; its own move is told as what to do, not in the third person
  turn(view, names, me = null) {
    if (view.winner !== null && view.winner !== undefined) return `${names[view.winner]} wins the kitty`;
    if (view.thrower === null || view.thrower === undefined) return "";
    const who = names[view.thrower];
    const you = view.thrower === me;
    if (view.phase === "first-player") return you ? "throw for first player" : `${who} throws for first player`;
    if (view.chances_left) return `${you ? "throw" : `${who} throws`}: ${view.chances_left} chance(s) left after a complete pass`;
    return you ? "throw the dice" : `${who} holds the dice`;
  },

  label(action) {
    if (["throw", "roll", "dice"].includes(action.type)) return "Throw the dice";
    return null;
  },

  render({ view, names, seat: me }) {
    const t = view.last_throw;
    const total = t ? t[0] + t[1] : null;
    const callout = total === 2 ? h("span", { class: "badge good" }, "Snake Eyes!")
      : total === 7 ? h("span", { class: "badge bad" }, "Seven: 2 chips to the kitty") : null;
    const centre = h("section", { class: "felt se-centre", "aria-label": "centre of the table" },
      h("div", { class: "se-dice" }, h("span", anim("roll", "se-dice", `${t}|${view.kitty}|${view.thrower}|${view.players.map((p) => p.face_up.length)}`), dice(t, { size: 64 })),
        h("div", { class: "se-total" }, total ? h("strong", {}, `${total}`) : "no throw yet", " ", callout)),
      h("div", { class: "kitty" }, h("span", { class: "label" }, "Kitty"), h("span", anim("slide", "kitty", view.kitty), chips(view.kitty, { label: "chips in the kitty", max: 20 })),
        h("strong", { class: "num", "data-testid": "kitty", ...anim("beat", "kitty-n", view.kitty) }, String(view.kitty))));

    const info = [];
    if (view.phase === "first-player") {
      const st = view.start_totals || {};
      info.push(h("p", { class: "note" }, "Throwing for high dice to see who throws first: ",
        ...view.contenders.map((s, i) => [i ? ", " : "", bdi(names[s] ?? letter(s)), ` ${st[String(s)] ?? "…"}`])));
    }
    if (view.chances_left) {
      info.push(h("p", { class: "note strong" }, "Complete pass: ", bdi(names[view.thrower]), ` has ${view.chances_left} chance(s) left to throw a face-up number.`));
    }

    const rows = view.players.map((p, s) => {
      const up = new Set(p.face_up);
      const active = view.thrower === s;
      const chance = hitChance(p.face_up);
      return h("li", { class: `se-row${active ? " active" : ""}${view.winner === s ? " winner" : ""}${me === s ? " mine" : ""}`, "aria-current": active ? "true" : null },
        h("div", { class: "se-who" }, seatTag(s, names), active ? h("span", { class: "badge turn" }, view.phase === "first-player" ? "throwing" : "thrower") : null,
          view.winner === s ? h("span", { class: "badge good" }, "winner") : null),
        h("div", { class: "se-cards", role: "group", "aria-label": `${names[s]}'s cards: ${p.face_up.length} face up` },
          ...CARDS.map((c) => h("span", { class: "se-card", ...anim("turn", `se-${s}-${c}`, up.has(c)) }, numberCard(c, up.has(c), { size: 30 })))),
        h("div", { class: "se-purse" }, h("span", { class: "num", ...anim("beat", `se-purse-${s}`, p.chips) }, `${p.chips}`), " chips · ", `${p.face_up.length} up`,
          active && view.phase === "play" ? h("span", { class: "odds", title: "chance the next throw turns a card down" }, ` · next throw hits ${chance}/36`) : null));
    });
    return h("div", { class: "game snake-eyes" }, centre, ...info, h("ol", { class: "se-rows", "aria-label": "players" }, ...rows));
  },
};
