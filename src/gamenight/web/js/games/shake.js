// Shake: the colored dice, the six Shake dice, the score pad by round, and the crap-out chance.
import { h, seatTag, letter, fraction } from "../dom.js";
import { coloredDie, shakeDie } from "../pictures.js";
import { anim } from "../motion.js";

export default {
  title: "Shake",

  // the end screen's figure for each seat: the total on the score pad, not a share of the win
  standing(view, seat) { return `${view.players[seat].total} points`; },

  turn(view, names, me = null) {
    if (view.winners?.length) return `${view.winners.map((s) => names[s]).join(" and ")} win${view.winners.length > 1 ? "" : "s"}`;
    if (view.phase === "roll") return "Everyone rolls their colored die";
    if (view.phase === "shake") return view.shaker === me ? "shake the case" : `${names[view.shaker]} shakes…`;
    if (view.to_act !== null && view.to_act !== undefined) {
      const you = view.to_act === me;
      if (view.phase === "order") return you ? "choose the All Shake order" : `${names[view.to_act]} chooses the All Shake order`;
      if (you) return view.phase === "shaken" ? "shake again or stop" : "take the points or shake";
      return `${names[view.to_act]} decides`;
    }
    return "";
  },

  label(action, view) {
    const me = view?.to_act;
    if (action.type === "take") {
      const pts = view?.rolled_points?.[me];
      return pts ? `Take ${pts} points` : "Take the points";
    }
    if (action.type === "shake") {
      if (view?.phase === "shaken") return `Shake again (risk ${view.shake_points})`;
      const pts = view?.rolled_points?.[me];
      return pts ? `Shake (give up ${pts})` : "Shake";
    }
    if (action.type === "stop") return `Stop and keep ${view?.shake_points ?? ""}`;
    if (action.type === "order") return `Order ${action.seats.map(letter).join(" → ")}`;
    if (["throw", "roll"].includes(action.type)) return "Shake the case";
    return null;
  },

  hint(view) {
    if (view.phase === "choose" || view.phase === "shaken") {
      return `Chance of crapping out (all six blank) on a shake: ${fraction(view.crap_out_chance)}`;
    }
    return null;
  },

  render({ view, names, seat: me }) {
    const n = view.players.length;
    const round = view.all_shake_round ? "All Shake round" : `Round ${view.round} of ${view.rounds}`;
    const rolled = view.rolled_points || [];
    const order = view.choosing_order || [];
    const colored = h("div", { class: "sh-colored", role: "group", "aria-label": "colored dice" },
      ...Array.from({ length: n }, (_, s) => h("div", { class: `sh-cd${view.to_act === s ? " active" : ""}` },
        h("span", anim("roll", `sh-cd-${s}`, `${view.round}|${rolled.join()}`), coloredDie(s, rolled[s] ?? null, { size: 56 })), seatTag(s, names),
        order.includes(s) ? h("span", { class: "badge" }, `choice ${order.indexOf(s) + 1}`) : null)));
    const faces = view.last_shake || [];
    const shaking = view.shaker !== null && view.shaker !== undefined;
    const crapped = faces.length && faces.every((f) => !f);
    const shake = h("div", { class: "felt sh-shake", "aria-label": "shake case" },
      h("div", { class: "sh-dice", ...anim("roll", "sh-shake", `${view.round}|${view.shaker}|${view.shake_points}|${faces.join()}`) }, ...(faces.length ? faces : [0, 0, 0, 0, 0, 0]).map((f) => shakeDie(faces.length ? f : 0, { size: 46 }))),
      h("div", { class: "sh-hand" },
        shaking ? [seatTag(view.shaker, names), h("span", {}, " has "), h("strong", { class: "num", "data-testid": "in-hand", ...anim("beat", "sh-hand", `${view.shaker}|${view.shake_points}`) }, String(view.shake_points)), h("span", {}, " in hand")]
          : h("span", { class: "muted" }, "Nobody is shaking"),
        crapped ? h("span", { class: "badge bad" }, "Crapped out!") : null));
    const decision = view.phase === "choose" || view.phase === "shaken";
    const risk = h("p", { class: `odds-line${decision ? " strong" : ""}`, "data-testid": "crap-chance" },
      "Chance of crapping out on the next shake: ", h("strong", {}, fraction(view.crap_out_chance)));

    const cols = Array.from({ length: view.rounds }, (_, r) => r + 1);
    const pad = h("table", { class: "pad", "aria-label": "score pad" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), ...cols.map((c) => h("th", { scope: "col", class: c === view.round && !view.all_shake_round ? "now" : null }, String(c))),
        h("th", { scope: "col", title: "All Shake round" }, "AS"), h("th", { scope: "col", class: "total" }, "Total"))),
      h("tbody", {}, ...view.players.map((p, s) => h("tr", { class: `${view.winners?.includes(s) ? "winner" : ""}${me === s ? " mine" : ""}` },
        h("th", { scope: "row" }, seatTag(s, names)),
        ...cols.map((c) => h("td", {}, p.rounds[c - 1] === null || p.rounds[c - 1] === undefined ? "" : String(p.rounds[c - 1]))),
        h("td", {}, p.all_shake === null ? "" : String(p.all_shake)),
        h("td", { class: "total" }, h("span", anim("beat", `sh-total-${s}`, p.total), String(p.total)))))));
    return h("div", { class: "game shake" }, h("h2", { class: "round" }, round), colored, shake, risk, h("div", { class: "scroll-x" }, pad));
  },
};
