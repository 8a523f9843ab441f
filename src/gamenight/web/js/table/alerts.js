// Telling a player his turn has come when he is not looking: the tab's title, an optional system
// notification, and optional sounds (short WebAudio blips, no files), both off until he turns
// them on; the choices are kept by this browser for every table.
import { h, mount } from "../dom.js";
import { icon } from "../pictures.js";
import { $, app } from "./page.js";

const SOUND_KEY = "gamenight:sound";
const NOTIFY_KEY = "gamenight:notify";
const on = (key) => localStorage.getItem(key) === "on";

let audio = null;
const TONES = { turn: [[660, 0, 0.12], [880, 0.13, 0.16]], dice: [[180, 0, 0.04], [140, 0.06, 0.04], [210, 0.12, 0.05]], chips: [[1500, 0, 0.05]] };

/** A short sound for `kind` (turn, dice, chips), when the player turned sounds on. */
export function blip(kind) {
  if (!on(SOUND_KEY) || !TONES[kind]) return;
  try {
    audio ||= new AudioContext();
    const t0 = audio.currentTime;
    for (const [freq, at, len] of TONES[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = kind === "dice" ? "square" : "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.08, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.001, t0 + at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + len);
    }
  } catch { /* no audio on this device: the page works silently */ }
}

let wasMine = false;
let baseTitle = "";

/** After each draw: the title says "Your turn" while it is, and the turn's arrival is told once. */
export function turnAlert(mine, title) {
  baseTitle = title || baseTitle || document.title;
  document.title = mine ? `● Your turn · ${baseTitle}` : baseTitle;
  if (mine && !wasMine) {
    blip("turn");
    if (on(NOTIFY_KEY) && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification("Your turn", { body: baseTitle, tag: `gamenight-${app.summary?.table_id}`, icon: "/static/favicon.svg" }); } catch { /* not offered here */ }
    }
  }
  wasMine = mine;
}

function toggle(id, key, label, what, before) {
  const b = h("button", { id, type: "button", class: "pref", "aria-pressed": String(on(key)), title: label, "aria-label": label }, icon(what, { off: !on(key) }));
  b.addEventListener("click", async () => {
    const next = !on(key);
    if (next && before && !(await before())) return;
    localStorage.setItem(key, next ? "on" : "off");
    b.setAttribute("aria-pressed", String(next));
    mount(b, icon(what, { off: !next }));
    if (next && key === SOUND_KEY) blip("turn");
  });
  return b;
}

async function mayNotify() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  return (await Notification.requestPermission()) === "granted";
}

/** The switches on the status bar: sounds for anyone, and "my turn" notices for a seated
 * player (a spectator has no turn); drawn again when this browser takes or leaves a seat. */
export function alertSwitches() {
  const seated = app.seat !== null && app.seat !== undefined;
  mount($("prefs"), toggle("sound", SOUND_KEY, "Sounds", "sound"),
    seated && "Notification" in window ? toggle("notify", NOTIFY_KEY, "Tell me when it is my turn", "bell", mayNotify) : null);
}
