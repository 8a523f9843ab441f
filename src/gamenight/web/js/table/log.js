// The event log: lines drawn in names, the last dice noted, the frames kept for the replay.
import { h, withNames, seatNames } from "../dom.js";
import { tableId, $, app, names, allNames } from "./page.js";

// Each line's place in the log: the game's line i sorts at 2i+1, a table note that came after
// e of the game's events at 2e, so it sits between the lines before it and after it.
function place(li, key) {
  const log = $("log");
  li.dataset.at = key;
  let after = log.lastElementChild;
  while (after && Number(after.dataset.at) > key) after = after.previousElementSibling;
  if (after) after.after(li); else log.prepend(li);
}

function trimmed() {
  const log = $("log");
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** The game's lines, the first of them the game's event number `first`. */
export function drawLog(lines, first) {
  const who = allNames();
  lines.forEach((line, i) => place(h("li", {}, ...withNames(seatNames(line, names()), who)), 2 * (first + i) + 1));
  trimmed();
}

let notesShown = 0; // the newest table note drawn
/** The table's own notes (away, back, seats freed, cancelled) the server keeps, each once,
 * marked apart from the game's lines; the names in them are text, never markup. */
export function drawNotes(notes) {
  const fresh = (notes || []).filter((note) => note.n > notesShown);
  for (const note of fresh) place(h("li", { class: "note" }, note.text), 2 * note.event);
  if (!fresh.length) return; // a seats change alone leaves the log where the reader has it
  notesShown = fresh[fresh.length - 1].n;
  trimmed();
}

const DICE_RE = /\((\d)\+(\d)\)|rolls? (\d+)/;
export function noteDice(lines) {
  for (const line of lines) {
    const m = DICE_RE.exec(line);
    if (m && m[1]) app.lastDice = [Number(m[1]), Number(m[2])];
  }
}

// The frames this tab has seen, kept for the tab's life so a reload keeps the replay's pictures.
const HISTORY_KEY = `gamenight:frames:${tableId}`;
let saveTimer = null;
export function saveHistory() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    for (let keep = app.history.length; keep > 0; keep = Math.floor(keep / 2)) {
      try { sessionStorage.setItem(HISTORY_KEY, JSON.stringify(app.history.slice(-keep))); return; } catch { /* full: keep fewer */ }
    }
  }, 500);
}
try { app.history = JSON.parse(sessionStorage.getItem(HISTORY_KEY)) || []; } catch { app.history = []; }

/** A screen reader reads each new line of the log as it comes: at a table of quick bots that
 * drowns the turn line, so a player may quiet it (remembered by this browser, for every table). */
export function readMovesAloud() {
  const box = $("log-aloud");
  const apply = () => {
    $("log").setAttribute("aria-live", box.checked ? "polite" : "off");
    localStorage.setItem("gamenight:log-aloud", box.checked ? "on" : "off");
  };
  box.checked = localStorage.getItem("gamenight:log-aloud") !== "off";
  box.addEventListener("change", apply);
  apply();
}
