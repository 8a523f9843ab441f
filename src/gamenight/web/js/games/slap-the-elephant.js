// Slap the Elephant shares Snap's table: one centre pile, slap on an elephant, snap fingers on a mouse.
import snap from "./snap.js";

export default { ...snap, title: "Slap the Elephant" };
