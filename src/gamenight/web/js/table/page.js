// What every part of the table page shares: the table's id, the page's state, seat names, banner.
import { mount, withNames, seatNamesOf } from "../dom.js";

export const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
export const $ = (id) => document.getElementById(id);

export const app = {
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

// The page's top (table.js) fills these in once every part is loaded: the parts below it call
// them here instead of importing it, so no two modules import each other.
export const page = {
  connect: () => {},
  dropSeat: (_token) => {},
  updateSummary: (_summary) => {},
};

export function names() {
  return seatNamesOf(app.summary?.seats);
}

/** Every way a name shows in a line: as drawn here ("Kim (bot)") and as the server wrote it. */
export function allNames() {
  return [...names(), ...(app.summary?.seats || []).map((s) => s.name)];
}

// ---- banner, connection --------------------------------------------------------------------
let bannerTimer = null;
export function banner(text, kind = "error") {
  const b = $("banner");
  mount(b, ...withNames(text, allNames()));
  b.className = `banner ${kind}`;
  b.hidden = false;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { b.hidden = true; }, 6000);
}

const CONN_TEXT = { connecting: "connecting…", open: "connected", reconnecting: "reconnecting…", closed: "disconnected" };
export function connection(status, reason) {
  const c = $("conn");
  c.textContent = CONN_TEXT[status] || status;
  c.className = `conn ${status}`;
  document.body.classList.toggle("offline", status !== "open");
  if (status === "closed" && reason) banner(reason);
}

export function openSeats() {
  return (app.summary?.seats || []).filter((s) => s.kind !== "bot" && !s.taken);
}
