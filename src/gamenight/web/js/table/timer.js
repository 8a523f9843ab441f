// The turn timer: the seconds left to move, counted down on the status bar.
import { $ } from "./page.js";

let timerHandle = null;
export function startTimer(deadline) {
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
