// The table page: join a seat, wait for the start, then play whatever game the table holds.
// The server decides everything; this page draws the state frames it sends and proposes actions.
// Its parts are in table/: page state, seats, chat, moves, log, timer, the end; this module loads
// the game's renderer, routes the socket's frames to them, and connects.
import { h, mount } from "./dom.js";
import { api, seats, TableSocket } from "./net.js";
import { tableId, $, app, page, names, banner, connection } from "./table/page.js";
import { onChat, chatRefused, showChat, sendChat, chat } from "./table/chat.js";
import { updateSummary } from "./table/seats.js";
import { draw, actionLabel, onKey, isMine } from "./table/moves.js";
import { drawLog, noteDice, saveHistory, readMovesAloud } from "./table/log.js";
import { startTimer } from "./table/timer.js";
import { onFinished } from "./table/end.js";
import { arrive, flush } from "./table/pace.js";
import { alertSwitches } from "./table/alerts.js";
import { showRules } from "./table/rules.js";

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

/** A state frame in: drawn at once when it answers this seat or hands it the turn, else at a
 * watchable pace behind the others' moves (table/pace.js). */
function onState(frame) {
  const urgent = !app.frame || (frame.ref !== undefined && frame.ref !== null) || frame.status !== "playing" || isMine(frame);
  const steady = app.renderer?.paced === false; // a race is drawn as it runs
  arrive(frame, drawState, { urgent, steady });
}

function drawState(frame) {
  app.frame = frame;
  app.pending = false;
  if (frame.status && app.summary && frame.status !== app.summary.status) {
    app.summary = { ...app.summary, status: frame.status };
    // "Start the game" pressed by keyboard: focus follows to the moves, not to <body>
    if (frame.status !== "waiting" && $("waiting").contains(document.activeElement)) app.focusMoves = true;
    $("waiting").hidden = frame.status !== "waiting";
    if (frame.status !== "waiting") $("join").hidden = true;
    if (frame.status === "cancelled") updateSummary(app.summary); // says so, in place of the moves
    showChat();
  }
  // events cover [event_count - k, event_count): keep only lines this page has not shown yet
  let lines = frame.events || [];
  let first = app.eventCount;
  if (typeof frame.event_count === "number") {
    first = frame.event_count - lines.length;
    lines = lines.slice(Math.max(0, app.eventCount - first));
    first = Math.max(first, app.eventCount);
    app.eventCount = Math.max(app.eventCount, frame.event_count);
  }
  noteDice(lines);
  drawLog(lines, first);
  app.history.push({ move: frame.move, view: frame.view, events: lines });
  if (app.history.length > 2000) app.history.shift();
  saveHistory();
  draw();
  startTimer(frame.deadline);
}

let onFrame = function onFrame(frame) {
  // anything but a state frame or a chat line acts on the table as it now stands
  if (frame.type !== "state" && frame.type !== "chat") flush(drawState);
  switch (frame.type) {
    case "welcome":
      app.seat = frame.seat;
      updateSummary(frame.table);
      alertSwitches();
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

page.connect = connect;
page.dropSeat = dropSeat;
page.updateSummary = updateSummary;

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
    showRules();
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
  alertSwitches();
  $("chat-form").addEventListener("submit", sendChat);
  readMovesAloud();
}

main();
