// Motion with restraint: dice roll, cards turn, chips slide, each once, when what they show changes.
// A renderer marks a part with data-anim (the motion), data-anim-id (which part) and data-anim-sig
// (what it shows now); after each draw play() moves the parts whose signature changed. Nothing
// moves on the first draw, and nothing at all for a player who asked the system for less motion.

const less = matchMedia("(prefers-reduced-motion: reduce)");

/** The player's system asks for reduced motion: draw every change at once, animate nothing. */
export const still = () => less.matches;

/** Attributes for h(): this part plays `motion` when `sig` changes between draws. */
export const anim = (motion, id, sig) => ({ "data-anim": motion, "data-anim-id": id, "data-anim-sig": String(sig) });

const EASE = "cubic-bezier(.2,.8,.3,1)";
const MOTIONS = {
  // each die tumbles in from a little above, one after the other, as thrown dice land
  roll: (el) => [...el.querySelectorAll("svg")].forEach((d, i) => d.animate([
    { transform: "translateY(-18px) rotate(-220deg) scale(.6)", opacity: 0.2 },
    { transform: "translateY(2px) rotate(14deg) scale(1.05)", offset: 0.7 },
    { transform: "none", opacity: 1 },
  ], { duration: 560, delay: i * 70, easing: EASE, fill: "backwards" })),
  // a card turns over on its long edge
  turn: (el) => el.animate([
    { transform: "perspective(320px) rotateY(90deg)" },
    { transform: "none" },
  ], { duration: 340, easing: "ease-out" }),
  // chips slide onto their place
  slide: (el) => el.animate([
    { transform: "translateY(-16px)", opacity: 0 },
    { transform: "none", opacity: 1 },
  ], { duration: 380, easing: EASE }),
  // a figure that changed gives a short beat, so the eye finds it
  beat: (el) => el.animate([{ transform: "scale(1.3)" }, { transform: "none" }], { duration: 420, easing: EASE }),
};

const seen = new Map(); // data-anim-id -> the signature drawn last

/** Move every marked part under `root` whose signature changed since the last draw; says which motions ran. */
export function play(root) {
  const ran = [];
  for (const el of root.querySelectorAll("[data-anim]")) {
    const id = el.dataset.animId;
    const sig = el.dataset.animSig;
    const before = seen.get(id);
    seen.set(id, sig);
    if (before === undefined || before === sig || still()) continue;
    const motion = MOTIONS[el.dataset.anim];
    if (!motion) continue;
    motion(el);
    ran.push(el.dataset.anim);
  }
  return ran;
}
