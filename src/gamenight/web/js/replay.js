// The replay viewer of a finished game: step through the moves and see the table after each one.
import { h, mount, letter, bdi, withNames, seatNames } from "./dom.js";

function moveText(m, names, live) {
  // seatless moves are the table's draws, or at a live casino table the dealer's entries
  const who = m.seat === null || m.seat === undefined ? (live ? "the dealer" : "chance") : bdi(names[m.seat] ?? letter(m.seat));
  const rest = Object.entries(m.action || {}).filter(([k]) => k !== "type").map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return [who, `: ${(m.action?.type || "?").replaceAll("_", " ")}${rest.length ? ` (${rest.join(", ")})` : ""}`];
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
  const list = h("ol", { class: "replay-moves", "aria-label": "every move of the record" }, ...moves.map((m, k) => h("li", { "data-move": k + 1 }, ...moveText(m, names, Boolean(record?.options?.live)))));

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

  const keys = (e) => {
    if (e.key === "ArrowLeft") { go(i - 1); e.preventDefault(); }
    if (e.key === "ArrowRight") { go(i + 1); e.preventDefault(); }
    if (e.key === "Home") { go(0); e.preventDefault(); }
    if (e.key === "End") { go(steps.length - 1); e.preventDefault(); }
  };
  const root = h("div", { class: "replay-root", onkeydown: keys },
    h("div", { class: "replay-head" }, h("h2", {}, "Replay"),
      h("div", { class: "buttons" },
        // words and arrows every font has: "⏮" and "⏭" were empty boxes on many systems
        h("button", { onclick: () => go(0), "aria-label": "first move" }, "|◀ First"),
        h("button", { onclick: () => go(i - 1), "aria-label": "previous move", id: "replay-prev" }, "◀ Back"),
        h("button", { onclick: () => go(i + 1), "aria-label": "next move", id: "replay-next" }, "Next ▶"),
        h("button", { onclick: () => go(steps.length - 1), "aria-label": "last move" }, "Last ▶|"),
        h("button", { onclick: close }, "Close"))),
    slider, where,
    steps.length ? null : h("p", { class: "muted" }, "No pictures of this game are available; the moves are listed below."),
    h("div", { class: "replay-grid" }, board, h("div", {}, h("h3", {}, "This move"), events, h("details", {}, h("summary", {}, `All ${moves.length} moves`), list))));
  queueMicrotask(() => go(i));
  return root;
}
