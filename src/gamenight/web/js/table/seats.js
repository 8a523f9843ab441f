// Seats: the join form, the waiting room with its link and Start, the seat list, a rematch offer.
import { h, mount, letter, seatTag, bdi } from "../dom.js";
import { api, seats, hostTokens, playerName, rememberName } from "../net.js";
import { tableId, $, app, page, names, banner, openSeats } from "./page.js";
import { showChat } from "./chat.js";
import { draw } from "./moves.js";
import { seatControls, tableControls, awayNotice, seatLinkBox, learnSeat } from "./host.js";
import { offerRematch } from "./end.js";
import { drawNotes } from "./log.js";

function showJoin() {
  const panel = $("join");
  const free = openSeats();
  // a seat left open when the host started early is still there to take: the game waits on it
  if (!free.length || !["waiting", "playing"].includes(app.summary.status)) { panel.hidden = true; return; }
  const seatKey = free.map((s) => String(s.seat)).join(",");
  if (!panel.hidden && panel.dataset.seats === seatKey) return; // same seats: keep what the player typed
  // a redraw (a seat was taken or freed) keeps the typed name, the chosen seat and any message
  const typed = $("join-name")?.value, chosenSeat = $("join-seat")?.value, said = $("join-msg")?.textContent;
  const typing = document.activeElement?.id === "join-name" ? document.activeElement.selectionStart : null;
  panel.dataset.seats = seatKey;
  const name = h("input", { id: "join-name", name: "name", autocomplete: "nickname", required: true, value: typed ?? playerName(), "aria-describedby": "join-msg" });
  const pick = h("select", { id: "join-seat", "aria-label": "seat" },
    ...free.map((s) => h("option", { value: String(s.seat), selected: String(s.seat) === chosenSeat ? true : null }, s.seat === "dealer" ? "the dealer" : `seat ${letter(s.seat)}`)));
  const msg = h("p", { id: "join-msg", class: "form-msg", role: "status" }, said || "");
  const form = h("form", { class: "join-form", onsubmit: async (e) => {
    e.preventDefault();
    const chosen = name.value.trim();
    const seatValue = pick.value === "dealer" ? "dealer" : Number(pick.value);
    try {
      const res = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body: { name: chosen, seat: seatValue } });
      rememberName(chosen);
      seats.set(tableId, { seat: res.seat, token: res.token, name: res.name || chosen });
      // two players of one name are told apart: say the name the table gave
      if (res.name && res.name !== chosen) banner(`Someone here is called ${chosen} already: you are ${res.name}.`, "info");
      panel.hidden = true;
      $("waiting-title")?.focus(); // the join form is gone: focus goes on to the waiting room
      page.connect();
    } catch (err) {
      // the refused name goes back to the player as plain text, never as markup
      mount(msg, "“", bdi(chosen), `” could not join: ${err.message}`);
    }
  } },
  h("label", { for: "join-name" }, "Your name"), name,
  free.length > 1 ? [h("label", { for: "join-seat" }, "Seat"), pick] : null,
  h("button", { type: "submit", class: "primary" }, "Join the table"), msg);
  mount(panel, h("h2", {}, `Join this ${app.summary.title || app.summary.game} table`), form,
    h("p", { class: "muted" }, "Or just watch: the table below updates live."));
  panel.hidden = false;
  if (typing !== null) { name.focus(); name.setSelectionRange(typing, typing); }
}

// ---- waiting room ----------------------------------------------------------------------------
function joinLink() { return `${location.origin}/t/${encodeURIComponent(tableId)}`; }

function seatList(summary) {
  return h("ul", { class: "seat-list" }, ...summary.seats.map((s) => h("li", { class: s.connected ? "online" : "" },
    typeof s.seat === "number" ? seatTag(s.seat, names()) : h("span", { class: "seat-tag" }, h("span", { class: "seat-name" }, "Dealer")),
    s.kind === "bot" ? h("span", { class: "badge" }, `bot${s.bot === "search" ? " · search" : ""}${s.level ? ` · ${s.level}` : ""}${s.strategy ? ` · ${s.strategy.replaceAll("_", " ")}` : ""}`) : null,
    s.kind !== "bot" && !s.taken ? h("span", { class: "muted" }, "open seat") : null,
    s.kind !== "bot" && s.taken ? h("span", { class: `dot ${s.connected ? "on" : "off"}`, "aria-label": s.connected ? "connected" : "not connected" }, s.connected ? "online" : "offline") : null,
    s.away ? h("span", { class: "badge away" }, "away · a bot plays") : null,
    s.seat === app.seat ? h("span", { class: "badge turn" }, "you") : null,
    seatControls(s))));
}

function showWaiting() {
  const panel = $("waiting");
  const sum = app.summary;
  if (sum.status === "cancelled") {
    mount(panel, h("h2", { id: "waiting-title", tabindex: "-1" }, "This table was cancelled"),
      h("p", {}, "Its host ended it: nobody can play on here. ", h("a", { href: "/" }, "Back to the lobby")));
    panel.hidden = false;
    $("join").hidden = true;
    return;
  }
  if (sum.status !== "waiting") {
    if (panel.contains(document.activeElement)) app.focusMoves = true; // the moves take focus
    panel.hidden = true;
    return;
  }
  const link = joinLink();
  const copy = h("button", { type: "button", id: "copy-link", onclick: async () => {
    try { await navigator.clipboard.writeText(link); copy.textContent = "Copied!"; } catch { linkBox.select(); document.execCommand?.("copy"); copy.textContent = "Copied!"; }
    setTimeout(() => { copy.textContent = "Copy the join link"; }, 2000);
  } }, "Copy the join link");
  const linkBox = h("input", { class: "link", id: "join-link", readonly: true, value: link, "aria-label": "join link", onfocus: (e) => e.target.select() });
  const me = seats.get(tableId);
  const host = hostTokens.get(tableId);
  const allIn = openSeats().length === 0;
  // at a listed table strangers may have sat down: only the host starts it (docs/serve.md)
  const canStart = host || (me && allIn && (!sum.listed || sum.rematch_of));
  // one request at a time: the second click of a double click would ask to start a started table
  const start = h("button", { class: "primary big", id: "start", disabled: canStart && !app.starting ? null : true, onclick: async () => {
    if (app.starting) return;
    app.starting = true;
    // disabling the focused button drops focus to <body>: the moves take it when they show
    if (document.activeElement === start) app.focusMoves = true;
    start.disabled = true;
    try {
      const summary = await api(`/api/tables/${encodeURIComponent(tableId)}/start`, { method: "POST", token: host || me?.token });
      updateSummary(summary);
    } catch (err) {
      banner(err.message);
      start.disabled = false;
      if (app.focusMoves) { app.focusMoves = false; $("start")?.focus(); }
    } finally { app.starting = false; }
  } }, "Start the game");
  // a player who took the wrong seat (or has to go) gives it back before the game starts
  const leave = me ? h("button", { id: "leave", onclick: async () => {
    leave.disabled = true;
    try {
      await api(`/api/tables/${encodeURIComponent(tableId)}/leave`, { method: "POST", token: me.token });
      page.dropSeat(me.token);
    } catch (err) { banner(err.message); leave.disabled = false; }
  } }, "Leave the seat") : null;
  // redrawn at every seat change (and every 3 s): focus stays on the control of the same id
  const focused = panel.contains(document.activeElement) ? document.activeElement.id : null;
  // a friend who came after the last seat was taken can only watch: say so, with no Start to try
  const onlyWatch = !canStart && allIn;
  mount(panel, h("h2", { id: "waiting-title", tabindex: "-1" }, onlyWatch ? "Waiting for the start" : "Waiting for players"),
    h("div", { class: "linkrow" }, linkBox, copy),
    h("p", { class: "muted" }, onlyWatch ? "Anyone with this link can watch the game here." : "Send this link to your friends; each picks a seat and a name."),
    seatList(sum),
    onlyWatch ? h("p", { class: "note strong" }, "Every seat is taken: you are watching. The game shows here as soon as it starts.")
      : [h("div", { class: "linkrow" }, start, leave),
        canStart ? null : h("p", { class: "muted" }, sum.listed ? "The host starts the game." : "The host starts the game, or anyone once every seat is taken.")],
    seatLinkBox(), tableControls());
  panel.hidden = false;
  if (focused) $(focused)?.focus({ preventScroll: true });
}

// While waiting, ask for the seats now and then as well: a join that raced our hello still shows.
setInterval(async () => {
  if (app.summary?.status !== "waiting") return;
  try { updateSummary(await api(`/api/tables/${encodeURIComponent(tableId)}`)); } catch { /* next time */ }
}, 3000);

export function updateSummary(summary) {
  drawNotes(summary.notes);
  app.summary = summary;
  learnSeat(app.seat);
  $("title").textContent = summary.title || summary.game;
  document.title = `${summary.title || summary.game} · gamenight`;
  showWaiting();
  if (app.seat === null || app.seat === undefined) showJoin();
  else $("join").hidden = true;
  showChat();
  drawSeats();
  if (app.frame) draw();
  if (summary.rematch && app.finished) offerRematch(summary.rematch);
}

function drawSeats() {
  if (!app.summary) return;
  const playing = app.summary.status === "playing";
  mount($("seats"), h("h2", {}, "Seats"), seatList(app.summary), playing ? [seatLinkBox(), tableControls()] : null);
  // the way back for a player whose seat a bot plays, above the board where he looks first
  let note = $("away-note");
  if (!note) { note = h("div", { id: "away-note" }); $("play").prepend(note); }
  mount(note, awayNotice());
}
