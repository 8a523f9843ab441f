// Any game without its own picture: the view as a readable list (a new game still plays at once).
import { h } from "../dom.js";

function show(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value) || typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export default {
  title: "",
  turn() { return ""; }, // (view, names, me): a game's own renderer words the line
  label() { return null; },
  render({ view }) {
    return h("dl", { class: "generic" }, ...Object.entries(view).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, show(v))]));
  },
};
