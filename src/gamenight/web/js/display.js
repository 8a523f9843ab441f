// The casino's game results display (rule 3.4(b)): a read-only screen in large type for the table.
import { h, mount, bdi } from "./dom.js";
import { dice } from "./pictures.js";
import { api, TableSocket } from "./net.js";
import { AREAS } from "./games/casino.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);
let names = [];
let entered = null; // the faces the dealer entered, not settled yet (a void drops them)
let rolled = null; // the faces of the last settled roll, when the log told them
const hard = []; // whether each shown result was thrown the hard way, as the log says
let heard = 0; // log lines read so far

function draw(view) {
  const results = view.results || [];
  const last = view.entered ? view.entered[0] + view.entered[1] : results[results.length - 1];
  const total = $("disp-total");
  total.textContent = last === undefined ? "–" : String(last);
  total.classList.toggle("seven", last === 7);
  const faces = view.entered || (rolled && rolled[0] + rolled[1] === last ? rolled : null) || (last && hard[hard.length - 1] ? [last / 2, last / 2] : null);
  mount($("disp-dice"), faces ? dice(faces, { size: 90 }) : []);
  const what = last === undefined ? "No roll yet"
    : last === 7 ? "Seven" : last === 2 ? "Snake Eyes" : view.entered ? "Entered, being checked" : (hard[hard.length - 1] ? `Hard ${last}` : `Total ${last}`);
  // as the table says: once the session is over no wager is in play
  $("disp-what").textContent = view.phase === "closed" ? `${what} · the session is over` : what;
  const shooter = view.shooter === null || view.shooter === undefined ? (view.dealer_rolls ? "The dealer rolls" : "") : ["Shooter: ", bdi(names[view.shooter] || String.fromCharCode(65 + view.shooter))];
  mount($("disp-shooter"), shooter);
  $("disp-count").textContent = `Roll ${view.rolls}`;
  // the marks heard match the newest results: a display opened mid-session has not heard the oldest
  const skip = hard.length - results.length;
  mount($("disp-results"), ...results.map((t, i) => h("li", { class: `${t === 7 ? "seven" : ""}${hard[skip + i] ? " hard" : ""}` }, String(t))).reverse());
  mount($("disp-lit"), (view.lit || []).length ? ["Winning: ", ...view.lit.map((w) => h("span", { class: "lit" }, AREAS[w]?.[0] || w))] : []);
}

function onFrame(f) {
  if (f.type === "welcome" || f.type === "seats") { // players sit down after the display is up
    names = [];
    for (const s of f.table.seats || []) if (typeof s.seat === "number") names[s.seat] = s.name || `Seat ${String.fromCharCode(65 + s.seat)}`;
    $("disp-title").textContent = f.table.title || "Snake Eyes";
  } else if (f.type === "state") {
    // a reconnect sends the last lines again: read only those not heard yet
    let lines = f.events || [];
    if (typeof f.event_count === "number") {
      lines = lines.slice(Math.max(0, heard - (f.event_count - lines.length)));
      heard = Math.max(heard, f.event_count);
    }
    for (const line of lines) {
      const m = / rolls (\d+)( hard)?/.exec(line);
      if (m) hard.push(Boolean(m[2]));
      const d = /(\d) \+ (\d) =/.exec(line);
      if (d) entered = [Number(d[1]), Number(d[2])];
      if (m) { // settled: the entered faces if they make this total, else unknown (a drawn roll)
        rolled = entered && entered[0] + entered[1] === Number(m[1]) ? entered : null;
        entered = null;
      }
    }
    hard.splice(0, Math.max(0, hard.length - 100)); // more than the results shown, no more
    draw(f.view);
  }
}

async function main() {
  try { await api(`/api/tables/${encodeURIComponent(tableId)}`); } catch (err) { $("disp-what").textContent = `No such table (${err.message})`; return; }
  new TableSocket(tableId, null, { role: "display", onFrame, onStatus: (st) => { const c = $("conn"); c.textContent = st === "open" ? "live" : st === "reconnecting" ? "reconnecting…" : st; c.className = `conn ${st}`; } });
}
main();
