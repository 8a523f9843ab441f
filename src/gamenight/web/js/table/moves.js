// Moves: the board and the move buttons drawn from a frame, actions sent, keys, focus kept.
import { h, mount, withNames } from "../dom.js";
import { api, seats, hostTokens } from "../net.js";
import { tableId, $, app, page, names, allNames, banner } from "./page.js";
import { play } from "../motion.js";
import { turnAlert, blip } from "./alerts.js";
import { firstHint, moved } from "./rules.js";

export function isMine(frame) {
  if (typeof app.seat !== "number") return false;
  const own = app.renderer?.isMine?.(frame.view, app.seat); // Snap: everyone may call, one flips
  return own === undefined ? (frame.actors || []).includes(app.seat) : own;
}

// One proposal per move: a key held down, a second press or a double click's second half while
// the first is on its way all name the same move counter, and only the first is sent. The next
// decision's button, drawn once the server answered, is a new move and takes the next press.
export function act(action) {
  const frame = app.frame;
  if (!frame || !app.socket) return;
  if (app.pending && app.sentMove === frame.move) return;
  const ref = app.socket.act(frame.move, action);
  if (!ref) banner("Not connected: the move was not sent. Reconnecting…");
  app.pending = Boolean(ref);
  app.sentMove = frame.move;
  if (ref) moved();
}

// The second click of a double click (or tap) would land on the next decision's button, drawn
// where the first one was, and make a move the player has not seen: the browser counts it
// (detail 2), so it is dropped, whatever the machine's speed.
function pressed(e, action) {
  if (e.detail > 1) return;
  act(action);
}

export function actionLabel(action) {
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
  mount(box, h("h2", {}, myTurn && buttons.length ? "Your move" : "Moves"), firstHint(myTurn && buttons.length > 0), hint ? h("p", { class: "hint" }, hint) : null, who, h("div", { class: "buttons" }, ...buttons), timerOffer(frame));
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
  turnAlert(mine, app.summary ? `${app.summary.title || app.summary.game} · gamenight` : null);
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
      page.updateSummary(await api(`/api/tables/${encodeURIComponent(tableId)}/timer`, { method: "POST", token, body: { turn_seconds: OFFERED_TIMER } }));
    } catch (err) { banner(err.message); button.disabled = false; }
  } }, `Start a ${OFFERED_TIMER}-second turn timer`);
  return h("p", { class: "timer-offer" }, button, h("small", {}, " When it runs out, the table plays the safe default move for whoever is to move."));
}

export function draw() {
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
  const motions = play($("board"));
  if (motions.includes("roll")) blip("dice");
  else if (motions.includes("slide")) blip("chips");
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

export function onKey(e) {
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
