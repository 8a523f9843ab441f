// Rules at the table: a "How to play" panel in the project's own words (web/rules.json, written
// from docs/rules/), with this table's options said in words, and a hint on a player's first move.
import { h, mount, letter } from "../dom.js";
import { icon } from "../pictures.js";
import { $, app } from "./page.js";

let rules = null;

/** `{}` in a phrase takes the option's value; {seat} writes a seat as its letter; a phrase per value picks one. */
function optionWords(phrase, value) {
  if (phrase && typeof phrase === "object") return phrase[String(value)] ?? null;
  if (typeof phrase !== "string") return null;
  if (phrase.includes("{seat}")) return typeof value === "number" ? phrase.replace("{seat}", letter(value)) : null;
  return phrase.replace("{}", typeof value === "number" ? value.toLocaleString("en") : String(value));
}

/** The table's options, each one a sentence; options without words (a custom board) say only that they are set. */
export function tableOptions(game, options) {
  const words = rules?.[game]?.options || {};
  const out = [];
  for (const [key, value] of Object.entries(options || {})) {
    if (value === null || value === undefined) continue;
    if (key === "payouts" || (typeof value === "object" && !Array.isArray(value))) {
      out.push(key === "payouts" ? "house payouts as set for this table (shown on each area)" : `a custom ${key.replaceAll("_", " ")}`);
      continue;
    }
    const said = optionWords(words[key], value);
    if (said) out.push(said);
  }
  return out;
}

/** Load the rules once, then draw the panel for this table's game. */
export async function showRules() {
  const game = app.summary?.game;
  if (!game) return;
  if (!rules) {
    try { rules = await (await fetch("/static/rules.json")).json(); } catch { return; }
  }
  const these = rules[game];
  const panel = $("rules");
  if (!these || !panel) return;
  const opts = tableOptions(game, app.summary.options);
  const open = panel.open;
  mount(panel, h("summary", { "aria-label": "How to play" }, icon("book"), h("span", { class: "rules-word" }, "How to play")),
    h("p", { class: "rules-goal" }, h("strong", {}, "Goal: "), these.goal),
    h("ol", { class: "rules-steps" }, ...these.steps.map((step) => h("li", {}, step))),
    opts.length ? [h("h3", {}, "At this table"), h("ul", { class: "rules-options" }, ...opts.map((o) => h("li", {}, o)))] : null,
    h("p", { class: "muted" }, "Keys: 1–9 press the numbered moves; Space or Enter presses the only one."));
  panel.open = open;
  panel.hidden = false;
}

const FIRST_KEY = (game) => `gamenight:first-move:${game}`;

/** A first-time hint for this game, shown with this seat's first move until he makes one. */
export function firstHint(mine) {
  const game = app.summary?.game;
  if (!mine || !game || localStorage.getItem(FIRST_KEY(game))) return null;
  return h("p", { class: "first-hint", role: "note" },
    h("span", { class: "long" }, "First time at this game? Press the highlighted move (or key 1). “How to play”, by the turn line, explains the rules."),
    h("span", { class: "short" }, "New here? Press the framed move. Rules: top right."));
}

/** The player made a move: no more first-time hint for this game in this browser. */
export function moved() {
  const game = app.summary?.game;
  if (game) localStorage.setItem(FIRST_KEY(game), "yes");
}
