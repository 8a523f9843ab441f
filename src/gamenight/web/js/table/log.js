// The event log: lines drawn in names, the last dice noted, the frames kept for the replay.
import { h, withNames, seatNames } from "../dom.js";
import { tableId, $, app, names, allNames } from "./page.js";

export function drawLog(lines) {
  const log = $("log");
  const who = allNames();
  for (const line of lines) log.append(h("li", {}, ...withNames(seatNames(line, names()), who)));
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
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
