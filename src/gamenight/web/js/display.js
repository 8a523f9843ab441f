// The casino's game results display (rule 3.4(b)): a read-only screen in large type for the table.
import { h, mount, bdi, letter, seatNamesOf } from "./dom.js";
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
let over = false; // the session ended (finished, or the host cancelled the table)
let status = null;

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
  const ended = over || view.phase === "closed";
  $("disp-what").textContent = ended ? `${what} · ${status === "cancelled" ? "the table was cancelled" : "the session is over"}` : what;
  document.body.classList.toggle("over", ended);
  const shooter = ended ? "" : view.shooter === null || view.shooter === undefined ? (view.dealer_rolls ? "The dealer rolls" : "") : ["Shooter: ", bdi(names[view.shooter] || `Seat ${letter(view.shooter)}`)];
  mount($("disp-shooter"), shooter);
  const rolls = typeof view.rolls === "number" ? view.rolls : results.length; // rolls settled so far
  $("disp-count").textContent = rolls ? `${rolls} roll${rolls === 1 ? "" : "s"} so far` : "";
  // the marks heard match the newest results: a display opened mid-session has not heard the oldest
  const skip = hard.length - results.length;
  mount($("disp-results"), ...results.map((t, i) => h("li", { class: `${t === 7 ? "seven" : ""}${hard[skip + i] ? " hard" : ""}` }, String(t))).reverse());
  mount($("disp-lit"), (view.lit || []).length ? ["Winning: ", ...view.lit.map((w) => h("span", { class: "lit" }, AREAS[w]?.[0] || w))] : []);
}

function onFrame(f) {
  if (f.type === "welcome" || f.type === "seats") { // players sit down after the display is up
    names = seatNamesOf(f.table.seats); // as the table page names them: a bot is "Bot C"
    $("disp-title").textContent = f.table.title || "Snake Eyes";
  } else if (f.type === "finished") {
    over = true;
  } else if (f.type === "state") {
    status = f.status;
    over = over || ["finished", "cancelled", "expired"].includes(f.status);
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

/** Say plainly why there is nothing to show, in place of the results. */
function nothing(title, text) {
  $("disp-title").textContent = title;
  $("disp-total").textContent = "–";
  $("disp-what").textContent = text;
  const c = $("conn");
  c.textContent = "not connected";
  c.className = "conn closed";
}

async function main() {
  let table;
  try { table = await api(`/api/tables/${encodeURIComponent(tableId)}`); } catch (err) {
    nothing("No such table", err.status === 404 ? "There is no table at this address: check the link." : `The table could not be loaded: ${err.message}`);
    return;
  }
  // the results display shows a casino table's rolls; another game has none to show
  if (table.game !== "snake-eyes-casino") {
    nothing(table.title || table.game, "");
    mount($("disp-what"), `This is a ${table.title || table.game} table: the results display is for the Snake Eyes casino. `, h("a", { href: `/t/${encodeURIComponent(tableId)}` }, "Open the table"));
    return;
  }
  new TableSocket(tableId, null, { role: "display", onFrame, onStatus: (st) => { const c = $("conn"); c.textContent = st === "open" ? "live" : st === "reconnecting" ? "reconnecting…" : st; c.className = `conn ${st}`; } });
}
main();
