// The table page: join a seat, wait for the start, then play whatever game the table holds.
// The server decides everything; this page draws the state frames it sends and proposes actions.
import { h, s, mount, letter, seatTag, seatColor, bdi, withNames, seatNames } from "./dom.js";
import { api, seats, hostTokens, TableSocket, playerName, rememberName } from "./net.js";
import { replayViewer } from "./replay.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);

const app = {
  summary: null,
  seat: null, // int, "dealer" or null (spectator)
  frame: null, // the last state frame
  renderer: null,
  socket: null,
  finished: null,
  history: [], // state frames seen, for the replay viewer
  lastDice: null,
  pending: false,
  starting: false, // a start request is on its way
  eventCount: 0, // log lines shown so far
  late: false, // a call was refused as too late: the race frame on its way names who took it
};

const GAME_MODULES = {
  "snake-eyes": "snake-eyes", shake: "shake", "snake-eyes-casino": "casino", snap: "snap",
  "slap-the-elephant": "slap-the-elephant", gambler: "gambler",
};

async function loadRenderer(game) {
  try {
    return (await import(`./games/${GAME_MODULES[game] || "generic"}.js`)).default;
  } catch {
    return (await import("./games/generic.js")).default;
  }
}

function names() {
  const list = [];
  for (const s of app.summary?.seats || []) {
    if (typeof s.seat !== "number") continue;
    const base = s.name || (s.kind === "bot" ? `Bot ${letter(s.seat)}` : `Seat ${letter(s.seat)}`);
    list[s.seat] = s.kind === "bot" && s.name && !/bot/i.test(s.name) ? `${base} (bot)` : base;
  }
  return list;
}

/** Every way a name shows in a line: as drawn here ("Kim (bot)") and as the server wrote it. */
function allNames() {
  return [...names(), ...(app.summary?.seats || []).map((s) => s.name)];
}

// ---- banner, connection --------------------------------------------------------------------
let bannerTimer = null;
function banner(text, kind = "error") {
  const b = $("banner");
  mount(b, ...withNames(text, allNames()));
  b.className = `banner ${kind}`;
  b.hidden = false;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { b.hidden = true; }, 6000);
}

const CONN_TEXT = { connecting: "connecting…", open: "connected", reconnecting: "reconnecting…", closed: "disconnected" };
function connection(status, reason) {
  const c = $("conn");
  c.textContent = CONN_TEXT[status] || status;
  c.className = `conn ${status}`;
  document.body.classList.toggle("offline", status !== "open");
  if (status === "closed" && reason) banner(reason);
}

// ---- chat ------------------------------------------------------------------------------------
// Seated players talk; spectators read. Every name and line goes in as textContent, never markup.
const chat = { seen: new Set(), pending: null };

function chatLine(m) {
  const who = h("span", { class: "chat-who" });
  if (typeof m.seat === "number") {
    who.append(h("span", { class: "seat-dot", style: `background:${seatColor(m.seat)}`, "aria-hidden": "true", text: letter(m.seat) }));
  }
  who.append(h("span", { class: "chat-name" }, bdi(m.name), ":"));
  const at = new Date(m.at * 1000);
  return h("li", { "data-id": m.id }, who, h("span", { class: "chat-text", text: m.text }),
    h("time", { class: "chat-at", datetime: at.toISOString(), text: at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) }));
}

function onChat(frame) {
  const log = $("chat-log");
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  for (const m of frame.messages || []) {
    if (chat.seen.has(m.id)) continue; // a reconnect sends the recent chat again
    chat.seen.add(m.id);
    const later = [...log.children].find((li) => Number(li.dataset.id) > m.id);
    log.insertBefore(chatLine(m), later || null);
  }
  while (log.children.length > 100) log.firstChild.remove();
  if (atEnd || frame.ref !== undefined) log.scrollTop = log.scrollHeight;
  if (frame.ref !== undefined && frame.ref === chat.pending) {
    chat.pending = null;
    $("chat-text").value = "";
    $("chat-note").textContent = "";
  }
}

function chatRefused(frame) {
  chat.pending = null;
  $("chat-note").textContent = frame.message || frame.code; // the server's words, as text
}

function showChat() {
  const panel = $("chat");
  const waiting = app.summary?.status === "waiting";
  // in the waiting room the chat sits under the seats; at play, beside the table
  if (waiting && panel.parentElement !== $("main")) $("waiting").after(panel);
  if (!waiting && panel.parentElement !== $("side")) $("side").insertBefore(panel, $("seats"));
  const seated = app.seat !== null && app.seat !== undefined;
  $("chat-form").hidden = !seated;
  if (!seated) $("chat-note").textContent = "";
  // a watcher may talk once seated; with every seat taken there is none to take
  const why = openSeats().length ? "take a seat to talk" : "players only: you are watching";
  panel.querySelector("h2").textContent = seated ? "Chat" : `Chat (${why})`;
  panel.hidden = false;
}

function sendChat(e) {
  e.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) { input.focus(); return; }
  const ref = `c${Date.now().toString(36)}`;
  if (!app.socket?.send({ type: "chat", text, ref })) {
    $("chat-note").textContent = "Not connected: the message was not sent.";
    return;
  }
  chat.pending = ref;
}

// ---- joining ---------------------------------------------------------------------------------
function openSeats() {
  return (app.summary?.seats || []).filter((s) => s.kind !== "bot" && !s.taken);
}

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
      seats.set(tableId, { seat: res.seat, token: res.token, name: chosen });
      panel.hidden = true;
      $("waiting-title")?.focus(); // the join form is gone: focus goes on to the waiting room
      connect();
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
    s.kind === "bot" ? h("span", { class: "badge" }, `bot${s.level ? ` · ${s.level}` : ""}${s.strategy ? ` · ${s.strategy.replaceAll("_", " ")}` : ""}`) : null,
    s.kind !== "bot" && !s.taken ? h("span", { class: "muted" }, "open seat") : null,
    s.kind !== "bot" && s.taken ? h("span", { class: `dot ${s.connected ? "on" : "off"}`, "aria-label": s.connected ? "connected" : "not connected" }, s.connected ? "online" : "away") : null,
    s.seat === app.seat ? h("span", { class: "badge turn" }, "you") : null)));
}

function showWaiting() {
  const panel = $("waiting");
  const sum = app.summary;
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
  const canStart = host || (me && allIn);
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
      dropSeat(me.token);
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
    onlyWatch ? h("p", { class: "note strong" }, "Every seat is taken: you are watching. The game shows here as soon as a player starts it.")
      : [h("div", { class: "linkrow" }, start, leave),
        canStart ? null : h("p", { class: "muted" }, "The host starts the game, or anyone once every seat is taken.")]);
  panel.hidden = false;
  if (focused) $(focused)?.focus({ preventScroll: true });
}

// While waiting, ask for the seats now and then as well: a join that raced our hello still shows.
setInterval(async () => {
  if (app.summary?.status !== "waiting") return;
  try { updateSummary(await api(`/api/tables/${encodeURIComponent(tableId)}`)); } catch { /* next time */ }
}, 3000);

function updateSummary(summary) {
  app.summary = summary;
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

/** Someone asked for a rematch: the same seat (the same token) waits at the new table. */
function offerRematch(newId) {
  const over = $("over");
  if (over.querySelector("#rematch-join")) return;
  const me = seats.get(tableId);
  const go = () => {
    if (me) seats.set(newId, me);
    const host = hostTokens.get(tableId);
    if (host) hostTokens.set(newId, host);
    location.href = `/t/${encodeURIComponent(newId)}`;
  };
  // said in the panel's live region: a screen-reader player hears that a rematch waits
  const note = h("p", { class: "note strong" }, "A rematch is set up at a new table. ",
    h("button", { class: "primary", id: "rematch-join", onclick: go }, "Go to the rematch"));
  (over.querySelector("#rematch-note") || over).append(note);
}

function drawSeats() {
  if (!app.summary) return;
  mount($("seats"), h("h2", {}, "Seats"), seatList(app.summary));
}

// ---- playing ---------------------------------------------------------------------------------
function isMine(frame) {
  if (typeof app.seat !== "number") return false;
  const own = app.renderer?.isMine?.(frame.view, app.seat); // Snap: everyone may call, one flips
  return own === undefined ? (frame.actors || []).includes(app.seat) : own;
}

function act(action) {
  const frame = app.frame;
  if (!frame || !app.socket) return;
  const ref = app.socket.act(frame.move, action);
  if (!ref) banner("Not connected: the move was not sent. Reconnecting…");
  app.pending = Boolean(ref);
}

// The second click of a double click (or tap) would land on the next decision's button, drawn
// where the first one was, and make a move the player has not seen: a move button ignores a
// click that follows the last one at the same spot within a double click's time.
const SECOND_CLICK_MS = 350;
let lastPress = { at: -Infinity, x: NaN, y: NaN };
function pressed(e, action) {
  const now = performance.now();
  const near = Math.abs(e.clientX - lastPress.x) < 12 && Math.abs(e.clientY - lastPress.y) < 12;
  if (e.detail > 1 || (near && now - lastPress.at < SECOND_CLICK_MS)) return;
  lastPress = { at: now, x: e.clientX, y: e.clientY };
  act(action);
}
// a click anywhere else in between (a chip, a wager area) means the next press is meant
addEventListener("click", (e) => { if (!e.target.closest?.(".act")) lastPress = { at: -Infinity, x: NaN, y: NaN }; }, true);

function actionLabel(action) {
  const own = app.renderer?.label?.(action, app.frame?.view);
  if (own !== null && own !== undefined) return own;
  const rest = Object.entries(action).filter(([k]) => k !== "type").map(([, v]) => (typeof v === "object" ? JSON.stringify(v) : String(v)));
  const type = action.type.replaceAll("_", " ");
  return rest.length ? `${type} ${rest.join(" ")}` : type[0].toUpperCase() + type.slice(1);
}

function drawControls(frame) {
  const legal = frame.legal_actions || [];
  const box = $("controls");
  const buttons = [];
  // off turn a seat may have a side move (Gambler's IOU): offered, but not highlighted as the
  // move to make, so Space (which presses the highlighted lone move) cannot take it by accident
  const myTurn = isMine(frame);
  legal.forEach((a) => {
    const label = actionLabel(a);
    if (label === "") return; // the picture of the table offers this one
    const n = buttons.length + 1;
    buttons.push(h("button", { class: `act act-${a.type}${buttons.length === 0 && myTurn ? " primary" : ""}`, "data-action": a.type, "aria-keyshortcuts": n <= 9 ? String(n) : null,
      onclick: (e) => pressed(e, a) }, n <= 9 ? h("kbd", { "aria-hidden": "true" }, String(n)) : null, h("span", {}, label)));
  });
  const mine = myTurn || buttons.length > 0;
  const hint = mine || app.seat === "dealer" ? app.renderer?.hint?.(frame.view, { dealer: app.seat === "dealer", due: frame.dealer_due }) : null;
  const watching = app.seat === null || app.seat === undefined;
  const who = watching ? (frame.status === "finished" ? null : h("p", { class: "muted" }, "You are watching."))
    : !mine && !hint && frame.status === "playing" ? h("p", { class: "muted" }, "Waiting for the others…") : null;
  // focus on the moves, or parked on the turn line while the others played: the player's place
  const handOn = app.focusMoves && !$("play").hidden; // the moves take focus once they show
  if (handOn) app.focusMoves = false;
  const inBox = box.contains(document.activeElement);
  const hadFocus = inBox || document.activeElement === $("turn") || handOn;
  box.hidden = !buttons.length && !hint && !who;
  box.classList.toggle("idle", !buttons.length && !hint); // only words: nothing to keep in reach
  mount(box, h("h2", {}, myTurn && buttons.length ? "Your move" : "Moves"), hint ? h("p", { class: "hint" }, hint) : null, who, h("div", { class: "buttons" }, ...buttons), timerOffer(frame));
  // a keyboard player keeps their place: on the first move, or on the turn line (focusable, so
  // focus never falls to <body>) until this seat's turn comes (a side move offered off turn,
  // Gambler's IOU, does not pull a waiting player's focus onto itself)
  if (hadFocus) ((inBox || myTurn || handOn ? buttons[0] : null) || $("turn")).focus();
}

function drawTurn(frame) {
  // the renderer words this seat's own move as what to do ("throw the dice"), never by its name
  const me = typeof app.seat === "number" ? app.seat : null;
  const text = app.renderer?.turn?.(frame.view, names(), me) || "";
  const t = $("turn");
  const mine = isMine(frame);
  const line = mine ? (text ? `Your turn · ${text}` : "Your turn") : [text, awayNote(frame)].filter(Boolean).join(" · ");
  // a live region: rewritten only when its words change, so a screen reader says a new turn
  // once instead of repeating the same line at every frame
  if (t.dataset.line !== line) { mount(t, ...withNames(line, allNames())); t.dataset.line = line; }
  t.classList.toggle("mine", mine);
  document.body.classList.toggle("my-turn", mine);
}

/** A player to move whose every tab is gone, or a seat to move nobody has taken yet: the others
 * learn why nothing happens, and what will. */
function awayNote(frame) {
  if (frame.status !== "playing") return "";
  // in Snap and Slap everyone may call, but the table waits only for the seat to turn up a card
  const toMove = (seat) => (app.renderer?.isMine ? app.renderer.isMine(frame.view, seat) : (frame.actors || []).includes(seat));
  const due = (app.summary?.seats || []).filter((s) => s.kind !== "bot" && typeof s.seat === "number"
    && s.seat !== app.seat && toMove(s.seat));
  const n = names();
  const open = due.filter((s) => !s.taken);
  if (open.length) {
    const which = open.map((s) => n[s.seat]).join(" and ");
    return frame.deadline ? `${which} ${open.length > 1 ? "are" : "is"} open: the table moves for it when the time runs out`
      : `${which} ${open.length > 1 ? "are" : "is"} open: the table waits for a friend to take it with the link`;
  }
  const gone = due.filter((s) => s.taken && !s.connected);
  if (!gone.length) return "";
  const who = gone.map((s) => n[s.seat]).join(" and ");
  const be = gone.length > 1 ? "are" : "is";
  return frame.deadline ? `${who} ${be} away: the table moves for ${who} when the time runs out`
    : `${who} ${be} away: the table waits for ${who} to come back`;
}

// A table without a turn timer waits for good for a player who left on his turn: the others
// (any seated player, or the host) may give every turn a time limit from now on.
const OFFERED_TIMER = 60;
function timerOffer(frame) {
  const token = seats.get(tableId)?.token || hostTokens.get(tableId);
  if (frame.deadline || !token || !awayNote(frame)) return null;
  const button = h("button", { id: "set-timer", onclick: async () => {
    button.disabled = true;
    try {
      updateSummary(await api(`/api/tables/${encodeURIComponent(tableId)}/timer`, { method: "POST", token, body: { turn_seconds: OFFERED_TIMER } }));
    } catch (err) { banner(err.message); button.disabled = false; }
  } }, `Start a ${OFFERED_TIMER}-second turn timer`);
  return h("p", { class: "timer-offer" }, button, h("small", {}, " When it runs out, the table plays the safe default move for whoever is to move."));
}

function drawLog(lines) {
  const log = $("log");
  const who = allNames();
  for (const line of lines) log.append(h("li", {}, ...withNames(seatNames(line, names()), who)));
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function draw() {
  const frame = app.frame;
  if (!frame || !app.renderer) return;
  $("play").hidden = app.summary?.status === "waiting" || !$("replay").hidden;
  const ctx = {
    view: frame.view, names: names(), seat: typeof app.seat === "number" ? app.seat : null, legal: frame.legal_actions || [],
    actors: frame.actors || [], race: frame.race, act, redraw: draw, dealer: app.seat === "dealer",
    dealerLegal: app.seat === "dealer" ? frame.legal_actions || [] : [], lastDice: app.lastDice, status: frame.status,
  };
  const keep = focusKey($("board"));
  mount($("board"), app.renderer.render(ctx));
  refocus($("board"), keep);
  const log = $("log");
  log.scrollTop = log.scrollHeight;
  drawTurn(frame);
  drawControls(frame);
  syncBar();
  showDecision(frame);
}

// A control on the board (a wager area, a chip, a die face, a Sweepstakes space, a call) is
// drawn anew with every frame: focus follows it to its new copy instead of falling to <body>.
const KEYS_OF_CONTROLS = ["area", "chip", "face", "space", "call"];
function focusKey(root) {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  for (const k of KEYS_OF_CONTROLS) if (el.dataset?.[k] !== undefined) return `[data-${k}="${CSS.escape(el.dataset[k])}"]`;
  const within = [...root.querySelectorAll("button, input, select, [tabindex]")].indexOf(el);
  return within >= 0 ? within : null;
}
function refocus(root, key) {
  if (key === null) return;
  const el = typeof key === "number" ? root.querySelectorAll("button, input, select, [tabindex]")[key] : root.querySelector(key);
  if (el && !el.disabled) el.focus({ preventScroll: true });
  else $("turn").focus({ preventScroll: true }); // its control is gone: wait on the turn line
}

// On a phone the moves bar sticks to the bottom of the screen, over the table: its height, kept in
// --bar-h, is the room scrolling leaves under anything brought into view (scroll-padding-bottom).
function syncBar() {
  const bar = $("controls");
  const stuck = !bar.hidden && getComputedStyle(bar).position === "sticky";
  document.documentElement.style.setProperty("--bar-h", `${stuck ? bar.offsetHeight : 0}px`);
}
new ResizeObserver(syncBar).observe($("controls"));
addEventListener("resize", syncBar);

// A decision made on the board (Gambler's Sweepstakes spaces) is brought into view above the bar
// once, when it comes up for this seat; later redraws of the same decision leave the scroll alone.
let shownDecision = null;
function showDecision(frame) {
  const where = isMine(frame) ? app.renderer?.actOn?.(frame.view, app.seat) : null;
  const key = where ? `${frame.move}:${where}` : null;
  if (key === shownDecision) return;
  shownDecision = key;
  const part = where && $("board").querySelector(where);
  if (part) part.scrollIntoView({ block: "nearest" });
}

const DICE_RE = /\((\d)\+(\d)\)|rolls? (\d+)/;
function noteDice(lines) {
  for (const line of lines) {
    const m = DICE_RE.exec(line);
    if (m && m[1]) app.lastDice = [Number(m[1]), Number(m[2])];
  }
}

function onState(frame) {
  app.frame = frame;
  app.pending = false;
  if (frame.status && app.summary && frame.status !== app.summary.status) {
    app.summary = { ...app.summary, status: frame.status };
    // "Start the game" pressed by keyboard: focus follows to the moves, not to <body>
    if (frame.status !== "waiting" && $("waiting").contains(document.activeElement)) app.focusMoves = true;
    $("waiting").hidden = frame.status !== "waiting";
    if (frame.status !== "waiting") $("join").hidden = true;
    showChat();
  }
  // events cover [event_count - k, event_count): keep only lines this page has not shown yet
  let lines = frame.events || [];
  if (typeof frame.event_count === "number") {
    const first = frame.event_count - lines.length;
    lines = lines.slice(Math.max(0, app.eventCount - first));
    app.eventCount = Math.max(app.eventCount, frame.event_count);
  }
  noteDice(lines);
  drawLog(lines);
  app.history.push({ move: frame.move, view: frame.view, events: lines });
  if (app.history.length > 2000) app.history.shift();
  saveHistory();
  draw();
  startTimer(frame.deadline);
}

// The frames this tab has seen, kept for the tab's life so a reload keeps the replay's pictures.
const HISTORY_KEY = `gamenight:frames:${tableId}`;
let saveTimer = null;
function saveHistory() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    for (let keep = app.history.length; keep > 0; keep = Math.floor(keep / 2)) {
      try { sessionStorage.setItem(HISTORY_KEY, JSON.stringify(app.history.slice(-keep))); return; } catch { /* full: keep fewer */ }
    }
  }, 500);
}
try { app.history = JSON.parse(sessionStorage.getItem(HISTORY_KEY)) || []; } catch { app.history = []; }

let timerHandle = null;
function startTimer(deadline) {
  const el = $("timer");
  clearInterval(timerHandle);
  if (!deadline) { el.hidden = true; return; }
  const tick = () => {
    const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
    el.textContent = `${left} s left`; // words every font has: "⏱" was an empty box on many systems
    el.classList.toggle("low", left <= 5);
    el.setAttribute("aria-label", `${left} seconds left to move`);
  };
  el.hidden = false;
  tick();
  timerHandle = setInterval(tick, 250);
}

function onFinished(frame) {
  app.finished = frame;
  startTimer(null);
  const n = names();
  const w = frame.winner;
  const over = app.summary?.game === "snake-eyes-casino" ? "The session is over" : "The game is over";
  const title = w === null || w === undefined ? over : `${n[w] ?? letter(w)} wins!`;
  const returns = frame.returns || [];
  // where the returns are only shares of the win (+1, -0.5), the game's own figure says more
  const last = app.frame?.view;
  const standing = (s) => (last && app.renderer?.standing ? app.renderer.standing(last, s) : null);
  const me = seats.get(tableId);
  const host = hostTokens.get(tableId);
  const panel = $("over");
  mount(panel, h("h2", { class: "winner-line" }, trophy(), " ", ...withNames(title, allNames())),
    returns.length ? h("ul", { class: "returns" }, ...returns.map((r, s) => h("li", {}, seatTag(s, n), ` ${standing(s) ?? `${r > 0 ? "+" : ""}${r}`}`))) : null,
    h("div", { class: "buttons" },
      me || host ? h("button", { class: "primary big", id: "rematch", onclick: rematch }, "Rematch") : null,
      h("button", { id: "replay-open", onclick: () => openReplay() }, "Replay the game"),
      h("a", { class: "button", href: "/" }, "Back to the lobby")),
    h("div", { id: "rematch-note", role: "status" }));
  panel.hidden = false;
  if (app.summary?.rematch) offerRematch(app.summary.rematch);
  if (location.hash === REPLAY_HASH && $("replay").hidden) openReplay({ entry: false }); // a reload of the replay
}

function trophy() {
  return s("svg", { width: 28, height: 28, viewBox: "0 0 24 24", "aria-hidden": "true" },
    s("path", { d: "M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z", fill: "#E69F00", stroke: "#111", "stroke-width": 1 }));
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
    close: () => {
      if (location.hash !== REPLAY_HASH) closeReplay();
      else if (replayEntry) history.back(); // popstate closes it
      else { history.replaceState(null, "", location.pathname); closeReplay(); }
    } }));
  panel.hidden = false;
  $("play").hidden = true;
  panel.querySelector("button")?.focus();
}

let onFrame = function onFrame(frame) {
  switch (frame.type) {
    case "welcome":
      app.seat = frame.seat;
      updateSummary(frame.table);
      break;
    case "seats":
      updateSummary(frame.table);
      break;
    case "state":
      onState(frame);
      break;
    case "finished":
      onFinished(frame);
      break;
    case "chat":
      onChat(frame);
      break;
    case "race": // a call too late to change the table still changed the race: show it now
      if (app.frame) { app.frame = { ...app.frame, race: frame.race }; draw(); }
      if (app.late) { app.late = false; banner(tooLate(frame.race), "info"); }
      break;
    case "timeout":
      banner(`Time ran out for ${names()[frame.seat] ?? "a seat"}: the table played “${actionLabel(frame.action)}”.`, "info");
      break;
    case "error":
      if (frame.ref !== undefined && frame.ref !== null && frame.ref === chat.pending) { chatRefused(frame); break; }
      app.pending = false;
      if (frame.code === "bad_token") {
        banner("This browser's seat is no longer valid: join again or watch.");
        dropSeat(app.socket?.token);
      } else if (frame.code === "too_late") {
        // the race frame, sent with this refusal and in either order, says who took the call
        const race = app.frame?.race;
        const mine = race?.arrivals?.some((a) => a.seat === app.seat && a.result === "too late");
        app.late = !mine;
        banner(mine ? tooLate(race) : "Too late: the call was already taken.", "info");
      } else if (frame.code === "stale_move") {
        app.socket?.send({ type: "sync" });
      } else {
        banner(frame.message || frame.code);
      }
      break;
    default:
  }
}

/** Who took the call this seat was too late for: another player, or this seat in another tab. */
function tooLate(race) {
  const took = (race?.arrivals || []).find((a) => a.result !== "too late");
  if (!took) return "Too late: the call was already taken.";
  if (took.seat === app.seat) return "Too late: you took that call already, in another tab.";
  return `Too late: ${names()[took.seat] ?? "another player"} called first.`;
}

/** This tab's seat token is void (given back, or refused): watch, keeping any newer one. */
function dropSeat(token) {
  if (token && seats.get(tableId)?.token === token) seats.clear(tableId); // not a seat taken since in another tab
  connect();
}

// Another tab of this browser joined, left or changed seats at this table: follow it.
addEventListener("storage", (e) => {
  if (e.key !== `gamenight:seat:${tableId}` || !app.socket) return;
  if ((seats.get(tableId)?.token || null) !== (app.socket.token || null)) connect();
});

function connect() {
  app.socket?.close();
  const me = seats.get(tableId);
  app.seat = me ? me.seat : null;
  app.socket = new TableSocket(tableId, me?.token || null, { onFrame: (f) => onFrame(f), onStatus: connection });
}

function onKey(e) {
  if (e.target.closest("input, select, textarea, .chat") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (!app.frame || $("play").hidden) return;
  const key = e.key === " " ? " " : e.key;
  // Enter on a focused control, or Space on a focused call button, presses that control: Space
  // on "Snap fingers" slapped, Enter on a call turned up a card (a call the player never made)
  if (e.target.closest("button, a, summary") && (key === "Enter" || (key === " " && e.target.closest("button.call")))) return;
  const ctx = { legal: app.frame.legal_actions || [], act, view: app.frame.view };
  if (app.renderer?.onKey?.(key, ctx)) { e.preventDefault(); return; }
  if (/^[1-9]$/.test(key)) {
    const b = $("controls").querySelectorAll("button.act")[Number(key) - 1];
    if (b) { e.preventDefault(); b.click(); }
  } else if (key === " " || key === "Enter") {
    if (e.target.closest("button, a")) return;
    const b = $("controls").querySelector("button.act.primary");
    if (b && (app.frame.legal_actions || []).length === 1) { e.preventDefault(); b.click(); }
  }
}

async function main() {
  if (!tableId) { $("title").textContent = "No table"; return; }
  // the socket and the summary start together; frames wait until the game's renderer is loaded
  const early = [];
  let ready = false;
  const dispatch = onFrame;
  onFrame = (frame) => (ready ? dispatch(frame) : early.push(frame));
  connect();
  try {
    const summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    app.renderer = await loadRenderer(summary.game);
    updateSummary(summary);
  } catch (err) {
    app.socket?.close();
    $("title").textContent = "Table not found";
    mount($("main"), h("p", { class: "panel" }, `This table does not exist (${err.message}). `, h("a", { href: "/" }, "Back to the lobby")));
    connection("closed");
    return;
  }
  ready = true;
  for (const frame of early.splice(0)) dispatch(frame);
  document.addEventListener("keydown", onKey);
  $("chat-form").addEventListener("submit", sendChat);
  readMovesAloud();
}

/** A screen reader reads each new line of the log as it comes: at a table of quick bots that
 * drowns the turn line, so a player may quiet it (remembered by this browser, for every table). */
function readMovesAloud() {
  const box = $("log-aloud");
  const apply = () => {
    $("log").setAttribute("aria-live", box.checked ? "polite" : "off");
    localStorage.setItem("gamenight:log-aloud", box.checked ? "on" : "off");
  };
  box.checked = localStorage.getItem("gamenight:log-aloud") !== "off";
  box.addEventListener("change", apply);
  apply();
}

main();
