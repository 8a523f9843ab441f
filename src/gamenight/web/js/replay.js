// The replay viewer of a finished game: step through the moves and see the table after each one.
import { h, mount, letter, bdi, withNames, seatNames } from "./dom.js";
import { icon } from "./pictures.js";

// A move in words: the game's own label for a player's move, the table's draws said plainly
// ("the table: dice 4 and 5"), never an action's raw fields.
function moveText(m, names, live, renderer) {
  // seatless moves are the table's draws, or at a live casino table the dealer's entries
  const who = m.seat === null || m.seat === undefined ? (live ? "the dealer" : "the table") : bdi(names[m.seat] ?? letter(m.seat));
  const a = m.action || {};
  const own = m.seat === null || m.seat === undefined ? null : renderer?.label?.(a, null);
  const type = (a.type || "move").replaceAll("_", " ");
  const said = own || (Array.isArray(a.faces) ? `${a.faces.length > 2 ? "shake" : "dice"} ${a.faces.join(" and ")}`
    : a.card !== undefined ? `${type} ${a.card}` : a.area ? `${type} ${a.amount ?? ""} on ${a.area}`.replace("  ", " ") : type);
  return [who, `: ${said}`];
}

/**
 * frames: [{move, view, events}] snapshots (from the server's replay, or those this browser saw),
 * record: the public record ({moves: [{seat, action}]}), notes: the table's own log (away, back,
 * seats freed...) from its summary, each shown with the step of the move it followed.
 */
export function replayViewer({ record, frames, renderer, names, every = names, seat, close, notes = [] }) {
  const moves = record?.moves || [];
  const steps = [...new Map((frames || []).map((f) => [f.move, f])).values()].sort((a, b) => a.move - b.move);
  let i = steps.length ? steps.length - 1 : 0;
  const board = h("div", { class: "replay-board" });
  const where = h("p", { class: "replay-where", "aria-live": "polite" });
  const events = h("ol", { class: "log replay-events", "aria-label": "events of this move" });
  const slider = h("input", { type: "range", min: 0, max: Math.max(0, steps.length - 1), value: i, "aria-label": "move", oninput: (e) => go(Number(e.target.value)) });
  const list = h("ol", { class: "replay-moves", "aria-label": "every move of the record" }, ...moves.map((m, k) => h("li", { "data-move": k + 1 }, ...moveText(m, names, Boolean(record?.options?.live), renderer))));

  function go(k) {
    if (!steps.length) return;
    i = Math.max(0, Math.min(steps.length - 1, k));
    const f = steps[i];
    const since = i ? steps[i - 1].move : -1; // a thinned replay's step shows the moves since the last
    slider.value = String(i);
    where.textContent = `After move ${f.move} of ${moves.length || steps[steps.length - 1].move} (step ${i + 1} of ${steps.length})`;
    mount(board, renderer.render({ view: f.view, names, seat, legal: [], actors: [], act: () => {}, redraw: () => go(i), race: null }));
    mount(events, ...(f.events || []).map((e) => h("li", {}, ...withNames(seatNames(e, names), every))),
      ...notes.filter((n) => n.move > since && n.move <= f.move).map((n) => h("li", { class: "note" }, n.text)));
    for (const li of list.children) li.classList.toggle("now", Number(li.dataset.move) === f.move);
  }

  // the arrows step the replay wherever the focus is while it shows (a click on the board or a
  // button left the focus where the old keydown on the panel no longer heard it); the slider and
  // the list's summary keep their own keys
  const keys = (e) => {
    if (!root.isConnected || root.closest("[hidden]")) { document.removeEventListener("keydown", keys); return; }
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest?.("input, select, textarea, .chat")) return;
    const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: steps.length - 1 }[e.key];
    if (to === undefined) return;
    go(to);
    e.preventDefault();
  };
  document.addEventListener("keydown", keys);
  const step = (name, word, label, to, id = null) => h("button", { onclick: () => go(to()), "aria-label": label, id, title: label }, icon(name), h("span", { class: "step-word" }, word));
  const root = h("div", { class: "replay-root" },
    h("div", { class: "replay-head" }, h("h2", {}, "Replay"),
      h("div", { class: "buttons" },
        // icons drawn as SVG: the "⏮" and "⏭" glyphs were empty boxes on many systems
        step("first", "First", "first move", () => 0),
        step("prev", "Back", "previous move", () => i - 1, "replay-prev"),
        step("next", "Next", "next move", () => i + 1, "replay-next"),
        step("last", "Last", "last move", () => steps.length - 1),
        h("button", { onclick: () => { document.removeEventListener("keydown", keys); close(); } }, "Close"))),
    slider, where,
    steps.length ? null : h("p", { class: "muted" }, "No pictures of this game are available; the moves are listed below."),
    h("div", { class: "replay-grid" }, board, h("div", {}, h("h3", {}, "This move"), events, h("details", {}, h("summary", {}, `All ${moves.length} moves`), list))));
  queueMicrotask(() => go(i));
  return root;
}
