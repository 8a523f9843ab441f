// The casino's game results display (rule 3.4(b)): a read-only screen in large type for the table.
import { h, mount } from "./dom.js";
import { dice } from "./pictures.js";
import { api, TableSocket } from "./net.js";
import { AREAS } from "./games/casino.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);
let names = [];
let lastDice = null;
const hard = []; // whether each shown result was thrown the hard way, as the log says

function draw(view) {
  const results = view.results || [];
  const last = view.entered ? view.entered[0] + view.entered[1] : results[results.length - 1];
  const total = $("disp-total");
  total.textContent = last === undefined ? "–" : String(last);
  total.classList.toggle("seven", last === 7);
  const faces = view.entered || lastDice || (last && hard[hard.length - 1] ? [last / 2, last / 2] : null);
  mount($("disp-dice"), faces ? dice(faces, { size: 90 }) : []);
  $("disp-what").textContent = last === undefined ? "No roll yet"
    : last === 7 ? "Seven" : last === 2 ? "Snake Eyes" : view.entered ? "Entered, being checked" : (hard[hard.length - 1] ? `Hard ${last}` : `Total ${last}`);
  const shooter = view.shooter === null || view.shooter === undefined ? (view.dealer_rolls ? "The dealer rolls" : "") : `Shooter: ${names[view.shooter] || String.fromCharCode(65 + view.shooter)}`;
  $("disp-shooter").textContent = shooter;
  $("disp-count").textContent = `Roll ${view.rolls}`;
  const shownHard = hard.slice(-results.length);
  mount($("disp-results"), ...results.map((t, i) => h("li", { class: `${t === 7 ? "seven" : ""}${shownHard[i] ? " hard" : ""}` }, String(t))).reverse());
  mount($("disp-lit"), (view.lit || []).length ? ["Winning: ", ...view.lit.map((w) => h("span", { class: "lit" }, AREAS[w]?.[0] || w))] : []);
}

function onFrame(f) {
  if (f.type === "welcome" || f.type === "seats") { // players sit down after the display is up
    names = [];
    for (const s of f.table.seats || []) if (typeof s.seat === "number") names[s.seat] = s.name || `Seat ${String.fromCharCode(65 + s.seat)}`;
    $("disp-title").textContent = f.table.title || "Snake Eyes";
  } else if (f.type === "state") {
    for (const line of f.events || []) {
      const m = / rolls (\d+)( hard)?/.exec(line);
      if (m) hard.push(Boolean(m[2]));
      const d = /(\d) \+ (\d) =/.exec(line);
      if (d) lastDice = [Number(d[1]), Number(d[2])];
      else if (m && !(lastDice && lastDice[0] + lastDice[1] === Number(m[1]))) lastDice = null; // a drawn roll: faces unknown
    }
    draw(f.view);
  }
}

async function main() {
  try { await api(`/api/tables/${encodeURIComponent(tableId)}`); } catch (err) { $("disp-what").textContent = `No such table (${err.message})`; return; }
  new TableSocket(tableId, null, { role: "display", onFrame, onStatus: (st) => { const c = $("conn"); c.textContent = st === "open" ? "live" : st === "reconnecting" ? "reconnecting…" : st; c.className = `conn ${st}`; } });
}
main();
