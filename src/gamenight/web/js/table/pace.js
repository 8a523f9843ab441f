// A watchable pace: the others' moves (a bot's shakes, its throws) are drawn one step at a time,
// STEP_MS apart, instead of flashing past in one frame. The page never falls far behind: with
// more than CATCH_UP steps waiting it draws them all at once, and an answer to this seat's own
// move, or a frame that hands it the turn, is drawn at once with everything before it.
import { still } from "../motion.js";

const STEP_MS = 450;
const CATCH_UP = 4;
const queue = [];
let timer = null;
let lastDrawn = -Infinity;

/**
 * Take in a state frame: `draw(frame)` now when it may not wait (`urgent`), when the table plays
 * without a show (`steady`: reduced motion, instant bots, a race), else in turn.
 */
export function arrive(frame, draw, { urgent = false, steady = false } = {}) {
  queue.push(frame);
  // a step that comes after a pause is drawn at once: only steps that come quicker wait their turn
  const due = timer === null && performance.now() >= lastDrawn + STEP_MS;
  if (urgent || steady || due || still() || queue.length > CATCH_UP) { flush(draw); return; }
  if (timer === null) pump(draw);
}

/** Draw every waiting frame now (before a frame of another kind is handled: the end, a race). */
export function flush(draw) {
  clearTimeout(timer);
  timer = null;
  for (const f of queue.splice(0)) draw(f);
  lastDrawn = performance.now();
}

/** How many steps wait to be drawn (the tests watch the pace through it). */
export const waiting = () => queue.length;

function pump(draw) {
  const wait = Math.max(0, lastDrawn + STEP_MS - performance.now());
  timer = setTimeout(() => {
    timer = null;
    const next = queue.shift();
    if (next === undefined) return;
    draw(next);
    lastDrawn = performance.now();
    if (queue.length) pump(draw);
  }, wait);
}
