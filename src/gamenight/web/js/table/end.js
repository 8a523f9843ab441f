// The end of a game: the winner and standings, a rematch, and the replay with its own history entry.
import { h, s, mount, letter, seatTag, withNames } from "../dom.js";
import { api, seats, hostTokens } from "../net.js";
import { replayViewer } from "../replay.js";
import { icon } from "../pictures.js";
import { tableId, $, app, names, allNames, banner } from "./page.js";
import { startTimer } from "./timer.js";

export function onFinished(frame) {
  app.finished = frame;
  startTimer(null);
  const n = names();
  const w = frame.winner;
  const over = app.summary?.game === "snake-eyes-casino" ? "The session is over" : "The game is over";
  // a shared win (Shake's tie for the top) names every winner
  const shared = w === null || w === undefined ? app.frame?.view?.winners || [] : [w];
  const title = shared.length ? `${shared.map((k) => n[k] ?? letter(k)).join(" and ")} win${shared.length > 1 ? "" : "s"}!` : over;
  const me = seats.get(tableId);
  const host = hostTokens.get(tableId);
  const panel = $("over");
  mount(panel, h("h2", { class: "winner-line" }, trophy(), " ", ...withNames(title, allNames())),
    standings(frame, n, shared),
    h("div", { class: "buttons" },
      me || host ? h("button", { class: "primary big", id: "rematch", onclick: rematch }, icon("rematch"), "Rematch") : null,
      h("button", { id: "replay-open", onclick: () => openReplay() }, icon("replay"), "Replay the game"),
      h("a", { class: "button", href: "/" }, "Back to the lobby")),
    h("div", { id: "rematch-note", role: "status" }));
  panel.hidden = false;
  if (app.summary?.rematch) offerRematch(app.summary.rematch);
  if (location.hash === REPLAY_HASH && $("replay").hidden) openReplay({ entry: false }); // a reload of the replay
}

/** Final standings, best first: place, seat, the game's own figure (points, cards, money) and the winner marked. */
function standings(frame, n, shared) {
  const returns = frame.returns || [];
  if (!returns.length) return null;
  const last = app.frame?.view;
  // where the returns are only shares of the win (+1, -0.5), the game's own figure says more
  const figure = (s) => (last && app.renderer?.standing ? app.renderer.standing(last, s, returns[s]) : null) ?? `${returns[s] > 0 ? "+" : ""}${returns[s]}`;
  const order = returns.map((r, s) => [r, s]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  let place = 0;
  return h("table", { class: "standings", "aria-label": "final standings" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Place"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Result"))),
    h("tbody", {}, ...order.map(([r, s], i) => {
      if (i === 0 || r !== order[i - 1][0]) place = i + 1;
      const won = shared.includes(s);
      return h("tr", { class: `${won ? "won" : ""}${s === app.seat ? " mine" : ""}`, "data-seat": s },
        h("td", { class: "place" }, ordinal(place)), h("th", { scope: "row" }, seatTag(s, n), won ? h("span", { class: "badge good" }, "winner") : null),
        h("td", { class: "num", "data-testid": `standing-${s}` }, figure(s)));
    })));
}

function trophy() {
  return s("svg", { width: 28, height: 28, viewBox: "0 0 24 24", "aria-hidden": "true" },
    s("path", { d: "M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z", fill: "#E69F00", stroke: "#111", "stroke-width": 1 }));
}

const ordinal = (k) => `${k}${k === 1 ? "st" : k === 2 ? "nd" : k === 3 ? "rd" : "th"}`;

const FOLLOW_S = 8;
let following = null;

/** Someone asked for a rematch: everyone still at the end screen is moved there together after a
 * short count (the same seat, the same token, waits at the new table), unless he chooses to stay. */
export function offerRematch(newId) {
  const over = $("over");
  if (over.querySelector("#rematch-join")) return;
  const go = () => {
    clearInterval(following);
    const me = seats.get(tableId);
    if (me) seats.set(newId, me);
    const host = hostTokens.get(tableId);
    if (host) hostTokens.set(newId, host);
    location.href = `/t/${encodeURIComponent(newId)}`;
  };
  let left = FOLLOW_S;
  const count = h("span", { id: "rematch-count" }, `Moving everyone there in ${left} s. `);
  const stay = h("button", { id: "rematch-stay", onclick: () => { clearInterval(following); count.textContent = "You stay here. "; stay.remove(); } }, "Stay here");
  // said in the panel's live region: a screen-reader player hears that a rematch waits
  const note = h("p", { class: "note strong" }, "A rematch is set up at a new table. ", count,
    h("button", { class: "primary", id: "rematch-join", onclick: go }, "Go to the rematch"), " ", stay);
  (over.querySelector("#rematch-note") || over).append(note);
  clearInterval(following);
  following = setInterval(() => {
    left -= 1;
    if (left <= 0) go();
    else count.textContent = `Moving everyone there in ${left} s. `;
  }, 1000);
}

async function rematch() {
  const me = seats.get(tableId);
  const host = hostTokens.get(tableId);
  try {
    const res = await api(`/api/tables/${encodeURIComponent(tableId)}/rematch`, { method: "POST", token: me?.token || host });
    // every old token works at the same seat of the new table
    if (me) seats.set(res.table_id, me);
    if (host) hostTokens.set(res.table_id, host);
    location.href = `/t/${encodeURIComponent(res.table_id)}`;
  } catch (err) { banner(err.message); }
}

// The replay has its own history entry (#replay): the browser's Back closes it, Forward and a
// reload open it again, instead of Back leaving the table for the page before it.
const REPLAY_HASH = "#replay";
let replayEntry = false; // this page added the #replay entry (else it was loaded with it)
function closeReplay() {
  const inside = $("replay").contains(document.activeElement);
  $("replay").hidden = true;
  $("play").hidden = false;
  if (inside) $("replay-open")?.focus(); // back where the keyboard player opened it, not <body>
}
addEventListener("popstate", () => {
  const wanted = location.hash === REPLAY_HASH;
  if (!wanted && !$("replay").hidden) closeReplay();
  else if (wanted && $("replay").hidden && app.finished) openReplay({ entry: false });
});

async function openReplay({ entry = true } = {}) {
  if (entry && location.hash !== REPLAY_HASH) { history.pushState(null, "", REPLAY_HASH); replayEntry = true; }
  let record = app.finished?.record;
  if (!record) {
    try { record = await api(`/api/tables/${encodeURIComponent(tableId)}/record`, { token: seats.get(tableId)?.token }); } catch (err) { banner(err.message); return; }
  }
  // the server's snapshots of every move when it offers them, else the frames this browser saw
  let frames = app.history;
  try {
    const full = await api(`/api/tables/${encodeURIComponent(tableId)}/replay`, { token: seats.get(tableId)?.token });
    if (Array.isArray(full?.frames) && full.frames.length) frames = full.frames;
  } catch { /* not offered: keep what this browser saw */ }
  const panel = $("replay");
  mount(panel, replayViewer({ record, frames, renderer: app.renderer, names: names(), every: allNames(), seat: typeof app.seat === "number" ? app.seat : null,
    notes: app.summary?.notes || [], close: () => {
      if (location.hash !== REPLAY_HASH) closeReplay();
      else if (replayEntry) history.back(); // popstate closes it
      else { history.replaceState(null, "", location.pathname); closeReplay(); }
    } }));
  panel.hidden = false;
  $("play").hidden = true;
  panel.querySelector("button")?.focus();
}
