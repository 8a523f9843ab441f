// Table manners: your seat link (take your seat back from any device), the host's controls
// (free a seat, give it to a bot, cancel, list in the lobby), and "away" seats a bot plays.
import { h, letter, REALTIME } from "../dom.js";
import { api, seats, hostTokens } from "../net.js";
import { tableId, $, app, page, banner } from "./page.js";

const path = (what) => `/api/tables/${encodeURIComponent(tableId)}/${what}`;

// A seat link (#seat=<token>, and #host=<token> for the host) opened on another device: keep
// the tokens as this browser's, then take them out of the address bar. The part after # never
// leaves the browser, so no server log or proxy sees the token.
(function readSeatLink() {
  const got = new URLSearchParams(location.hash.slice(1));
  const token = got.get("seat"), host = got.get("host");
  if (!token && !host) return;
  if (token) seats.set(tableId, { seat: null, token, name: "" }); // the welcome frame says which
  if (host) hostTokens.set(tableId, host);
  history.replaceState(null, "", location.pathname + location.search);
})();

/** The welcome frame names the seat a seat link's token holds: keep it with the token. */
export function learnSeat(seat) {
  const me = seats.get(tableId);
  if (me && me.seat !== seat && seat !== null && seat !== undefined) seats.set(tableId, { ...me, seat });
}

export const isHost = () => Boolean(hostTokens.get(tableId));

/** Your own link to this seat: open it on a phone or another browser to play from there. */
export function seatLinkBox() {
  const me = seats.get(tableId);
  if (!me?.token) return null;
  const host = hostTokens.get(tableId);
  const link = `${location.origin}/t/${encodeURIComponent(tableId)}#seat=${me.token}${host ? `&host=${host}` : ""}`;
  const box = h("input", { class: "link", id: "seat-link", readonly: true, value: link, "aria-label": "your seat link", onfocus: (e) => e.target.select() });
  const copy = h("button", { type: "button", id: "copy-seat-link", onclick: async () => {
    try { await navigator.clipboard.writeText(link); } catch { box.select(); document.execCommand?.("copy"); }
    copy.textContent = "Copied!";
    setTimeout(() => { copy.textContent = "Copy"; }, 2000);
  } }, "Copy");
  const open = document.getElementById("seat-link-box")?.open; // a redraw keeps it open
  return h("details", { class: "seat-link", id: "seat-link-box", open: open ? true : null },
    h("summary", {}, "Play from another device"),
    h("p", { class: "muted" }, "Your own link to this seat: open it on a phone or another browser and you are back in your seat. Keep it to yourself: whoever opens it plays for you."),
    h("div", { class: "linkrow" }, box, copy));
}

async function hostCall(what, body, done) {
  try {
    page.updateSummary(await api(path(what), { method: "POST", token: hostTokens.get(tableId), body }));
    if (done) banner(done, "info");
  } catch (err) { banner(err.message); }
}

const seatWord = (s) => (s.seat === "dealer" ? "the dealer's seat" : `seat ${letter(s.seat)}`);

/** The host's buttons beside one seat: free it (kick), or hand it to a bot for good. */
export function seatControls(s) {
  const status = app.summary?.status;
  // (the host's own seat is given up with "Leave the seat", as anyone's)
  if (!isHost() || s.kind === "bot" || s.seat === app.seat || !["waiting", "playing"].includes(status)) return null;
  const who = s.name ? `${s.name} (${seatWord(s)})` : seatWord(s);
  const free = s.taken ? h("button", { type: "button", class: "small", "data-kick": String(s.seat), "aria-label": `free ${who}`,
    onclick: () => {
      if (!confirm(`Free ${who}? Their link stops working${status === "playing" ? "; a bot plays the seat until someone takes it" : ""}.`)) return;
      hostCall("kick", { seat: s.seat }, `${seatWord(s)} is free.`);
    } }, "Free seat") : null;
  // a bot of either kind: the sensible one, or (at the turn-based games) the search bot
  const botButton = (kind, label, what) => h("button", { type: "button", class: "small", "data-bot": String(s.seat), "data-kind": kind,
    "aria-label": `${what.toLowerCase()} plays ${who}`, onclick: () => {
      if (!confirm(`${what} plays ${who} for the rest of the game?`)) return;
      hostCall("bot", { seat: s.seat, bot: kind }, `${what} plays ${seatWord(s)} now.`);
    } }, label);
  const game = app.summary?.game;
  const bots = s.seat === "dealer" ? [] : [botButton("sensible", "Bot plays it", "A bot"),
    game && !REALTIME.has(game) ? botButton("search", "Search bot plays it", "A search bot") : null];
  return free || bots.length ? h("span", { class: "host-seat" }, free, ...bots) : null;
}

/** The host's table-wide controls: list it in the lobby (while it waits), cancel it. */
export function tableControls() {
  const sum = app.summary;
  if (!isHost() || !sum || !["waiting", "playing"].includes(sum.status)) return null;
  const listed = sum.status === "waiting" ? h("label", { class: "listed-toggle" },
    h("input", { type: "checkbox", id: "listed-toggle", checked: sum.listed ? true : null,
      onchange: (e) => hostCall("listing", { listed: e.target.checked }, e.target.checked ? "Listed under Open tables: anyone may sit; only you start." : "Only friends with the link can sit now.") }),
    " Show it under Open tables") : null;
  const cancel = h("button", { type: "button", id: "cancel-table", class: "danger", onclick: () => {
    if (confirm("Cancel this table for everyone? The game ends here and nobody can play it on.")) hostCall("cancel", undefined, "The table is cancelled.");
  } }, "Cancel the table");
  return h("div", { class: "host-controls", role: "group", "aria-label": "host controls" },
    h("h3", {}, "You are the host"), listed, cancel);
}

/** This seat is played by a bot while its player is away: say so, with the way back. */
export function awayNotice() {
  const mine = (app.summary?.seats || []).find((s) => s.seat === app.seat);
  if (!mine?.away || app.summary.status !== "playing") return null;
  const back = h("button", { type: "button", class: "primary", id: "back", onclick: async () => {
    back.disabled = true;
    try { page.updateSummary(await api(path("back"), { method: "POST", token: seats.get(tableId)?.token })); } catch (err) { banner(err.message); back.disabled = false; }
  } }, "I'm back");
  return h("div", { class: "away-note", role: "status" }, "You ran out of time: a bot is playing your seat. ", back);
}
