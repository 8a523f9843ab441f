// The lobby: pick a game, seat humans and bots, set the rules options, create the table, see open tables.
import { h, mount, letter, bdi, REALTIME } from "./dom.js";
import { api, seats, hostTokens, playerName, rememberName } from "./net.js";

const $ = (id) => document.getElementById(id);

// One line each, in our own words, so a newcomer knows what they are choosing.
const BLURB = {
  "snake-eyes": "Throw two dice to turn your numbered cards face down; first with every card down takes the kitty.",
  shake: "Take your colored die's points or shake six dice for more; six blanks and the round scores nothing.",
  "snake-eyes-casino": "A casino dice table: place chips on the layout, a shooter rolls, the dealer pays.",
  snap: "Turn up cards in turn; call Snap first when two face-up cards match and take the piles.",
  "slap-the-elephant": "One centre pile: slap the elephant, snap your fingers at the mouse, fastest wins the pile.",
  gambler: "Race around the board to $1000: lotteries, sweepstakes, horse races, fortune cards and IOUs.",
};
const SKIP = new Set(["players"]);

// Each option in a player's words (the server's description, from the rulebook, shows under it).
// A game added later shows its option names with spaces until it gets a line here.
const LABELS = {
  first_player: "Who goes first",
  auto_claim_start: "Collect the $100 at Start without asking",
  max_turns: "Stop after this many turns",
  rounds: "Ordinary rounds before the All Shake",
  scoring_faces: "Scoring faces on each shake die",
  final_tie: "A tie for the top final score",
  max_flips: "Stop a never-ending game after this many flips",
  starting_chips: "Chips each player starts with",
  ante: "Chips each player puts in the kitty",
  bankroll: "Chips each seat buys in with",
  table_min: "Smallest wager on one area",
  table_max: "Largest wager on one area",
  dice: "Dice on the table",
  winners_stay_up: "Winning multi-roll wagers stay up",
  max_rolls: "Rolls before the session ends",
  live: "Live table: a dealer enters each roll",
};
const CHOICE_WORDS = { share: "share it", "roll-off": "roll off for it" };
const label = (name) => LABELS[name] || name.replaceAll("_", " ");
/** A server message with option names (table_min) said as the lobby says them. */
const inWords = (text) => String(text).replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (name) => `“${label(name)}”`);

let games = [];
let chosen = null;

function banner(text) {
  const b = $("banner");
  b.textContent = text;
  b.hidden = false;
  setTimeout(() => { b.hidden = true; }, 6000);
}

function gameById(id) { return games.find((g) => g.id === id); }

function drawGames() {
  const box = $("games");
  const first = new URLSearchParams(location.search).get("game");
  chosen = gameById(first) || gameById(chosen?.id) || games.find((g) => g.id === "shake") || games[0];
  mount(box, h("legend", {}, "Game"), ...games.map((g) => h("div", { class: "game-pick" },
    h("input", { type: "radio", name: "game", id: `g-${g.id}`, value: g.id, checked: g.id === chosen.id ? true : null,
      onchange: () => { chosen = g; drawGameForm(); } }),
    h("label", { for: `g-${g.id}` }, h("strong", {}, g.title || g.id), h("small", {}, BLURB[g.id] || `${g.min_players}–${g.max_players} players`)))));
  drawGameForm();
}

function optionField(opt) {
  const id = `opt-${opt.name}`;
  const type = String(opt.type || "").toLowerCase();
  const help = h("small", { id: `${id}-help` }, opt.description || "");
  const choices = opt.choices || opt.enum || CHOICES[opt.name];
  if (type.includes("bool")) {
    return h("div", { class: "field check" },
      h("input", { type: "checkbox", id, name: opt.name, "data-kind": "bool", checked: opt.default ? true : null, "aria-describedby": `${id}-help` }),
      h("label", { for: id }, label(opt.name)), h("span"), help);
  }
  if (opt.name === "first_player") { // seats are lettered: "seat B", never "1"
    const n = Number($("players").value) || 2;
    return h("div", { class: "field" }, h("label", { for: id }, label(opt.name)),
      h("select", { id, name: opt.name, "data-kind": "seat", "aria-describedby": `${id}-help` },
        h("option", { value: "" }, "throw the dice for it, as the rules say"),
        ...Array.from({ length: n }, (_, s) => h("option", { value: String(s) }, `seat ${letter(s)}`))), help);
  }
  if (Array.isArray(choices) && choices.length) {
    return h("div", { class: "field" }, h("label", { for: id }, label(opt.name)),
      h("select", { id, name: opt.name, "data-kind": "choice", "aria-describedby": `${id}-help` }, ...choices.map((c) => h("option", { value: String(c), selected: c === opt.default ? true : null }, CHOICE_WORDS[c] || String(c)))), help);
  }
  if (type.includes("int") || type.includes("number") || type.includes("float")) {
    const isInt = type.includes("int");
    return h("div", { class: "field" }, h("label", { for: id }, label(opt.name)),
      h("input", { type: "number", id, name: opt.name, "data-kind": isInt ? "int" : "float", inputmode: "numeric", value: opt.default ?? "", placeholder: opt.default === null ? "none" : null,
        min: opt.minimum ?? null, max: opt.maximum ?? null, step: isInt ? 1 : "any", "aria-describedby": `${id}-help` }), help);
  }
  if (isData(opt)) return null; // a board, a deck, a payout table: the API's (see dataNote)
  return h("div", { class: "field" }, h("label", { for: id }, label(opt.name)),
    h("input", { id, name: opt.name, "data-kind": "text", value: opt.default ?? "", placeholder: opt.default === null ? "none" : null, "aria-describedby": `${id}-help` }), help);
}

/** An option holding data (a custom board, a deck of cards), not a setting one types. */
function isData(opt) {
  const type = String(opt.type || "").toLowerCase();
  return ["dict", "object", "list", "board", "deck", "tickets", "horses"].some((w) => type.includes(w));
}

/** Where the data options went: named in words, with the way to set them. */
function dataNote(g) {
  const data = (g.options || []).filter(isData).map((o) => o.description || label(o.name));
  if (!data.length) return null;
  return h("p", { class: "muted data-note" }, `Advanced: ${data.join(", ")} can be replaced with your own through the API (`,
    h("a", { href: "/docs" }, "/docs"), "); the table here uses the rulebook's.");
}

function drawGameForm() {
  const g = chosen;
  // bots in a race game need a person's reaction time to be beatable; elsewhere they need not wait
  $("bot-pace").value = REALTIME.has(g.id) ? "human" : "instant";
  const players = $("players");
  players.min = g.min_players;
  players.max = g.max_players;
  const want = Number(players.value) || 3;
  players.value = String(Math.min(g.max_players, Math.max(g.min_players, want)));
  const opts = (g.options || []).filter((o) => !SKIP.has(o.name) && !o.name.endsWith("_file")).map(optionField).filter(Boolean);
  mount($("options"), opts.length ? opts : h("p", { class: "muted" }, "This game has no options."), dataNote(g));
  drawSeats();
}

const CHOICES = { final_tie: ["share", "roll-off"] }; // Literal options the API lists without their values

/** A search bot's label says how long it may think, as the server told (bots.search_seconds). */
function searchLabel(seconds) {
  return `Search bot — thinks up to ${Number(seconds.toPrecision(3))} s a move`;
}

function botChoices(g) {
  const { levels = [], strategies = [], kinds = [], search_seconds: seconds = null } = g.bots || {};
  const out = [h("option", { value: "human" }, "a friend (open seat)")];
  for (const l of levels) out.push(h("option", { value: `level:${l}` }, `bot · ${l}`));
  for (const st of strategies) out.push(h("option", { value: `strategy:${st}` }, `bot · bets ${st.replaceAll("_", " ")}`));
  const plain = (kinds.length ? kinds : ["sensible"]).filter((k) => k !== "search");
  if (!levels.length && !strategies.length) {
    for (const k of plain) out.push(h("option", { value: `bot:${k}` }, `bot · ${k}`));
  }
  if (kinds.includes("search") && seconds) out.push(h("option", { value: "bot:search" }, searchLabel(seconds)));
  return out;
}

function drawSeats() {
  const g = chosen;
  const n = Math.min(g.max_players, Number($("players").value) || 0); // no rows past the game's limit
  const old = [...document.querySelectorAll(".seats-edit select")].map((s) => s.value);
  const rows = Array.from({ length: n }, (_, s) => {
    if (s === 0) return h("li", {}, h("strong", {}, `Seat ${letter(0)}`), h("span", {}, "you"));
    const sel = h("select", { "aria-label": `seat ${letter(s)}`, "data-seat": s }, ...botChoices(g));
    const bots = [...sel.options].filter((o) => o.value !== "human");
    const pick = bots.find((o) => o.value.endsWith(":normal") || o.value === "bot:sensible") || bots[0];
    sel.value = old[s - 1] && [...sel.options].some((o) => o.value === old[s - 1]) ? old[s - 1] : pick.value;
    return h("li", {}, h("label", { for: `seat-${s}` }, h("strong", {}, `Seat ${letter(s)}`)), Object.assign(sel, { id: `seat-${s}` }));
  });
  mount($("seat-editor"), h("h3", {}, "Who sits where"), h("ul", { class: "seats-edit" }, ...rows),
    h("p", { class: "muted" }, REALTIME.has(g.id) ? "Bots react like people (the bot speed is under Table settings); open seats wait for friends with the join link."
      : "Bots play at once; open seats wait for friends with the join link."));
}

function readOptions() {
  const out = {};
  for (const el of $("options").querySelectorAll("[data-kind]")) {
    const kind = el.dataset.kind;
    if (kind === "bool") out[el.name] = el.checked;
    else if (el.value === "") continue;
    else if (kind === "int" || kind === "seat") out[el.name] = Math.trunc(Number(el.value));
    else if (kind === "float") out[el.name] = Number(el.value);
    else out[el.name] = el.value;
  }
  // leave out what the player did not change, so the server's defaults stay the defaults
  for (const o of chosen.options || []) if (o.name in out && out[o.name] === o.default) delete out[o.name];
  return out;
}

/** The "who goes first" choices follow the number of seats. */
function redrawFirstPlayer() {
  const old = document.getElementById("opt-first_player");
  const opt = (chosen?.options || []).find((o) => o.name === "first_player");
  if (!old || !opt) return;
  const kept = old.value;
  const fresh = optionField(opt);
  old.closest(".field").replaceWith(fresh);
  const sel = fresh.querySelector("select");
  if ([...sel.options].some((o) => o.value === kept)) sel.value = kept;
}

function readSeats() {
  const n = Number($("players").value);
  const list = [{ kind: "human" }];
  for (let s = 1; s < n; s++) {
    const v = document.querySelector(`select[data-seat="${s}"]`)?.value || "human";
    if (v === "human") list.push({ kind: "human" });
    else if (v.startsWith("level:")) list.push({ kind: "bot", level: v.slice(6) });
    else if (v.startsWith("strategy:")) list.push({ kind: "bot", strategy: v.slice(9) });
    else if (v.startsWith("bot:")) list.push({ kind: "bot", bot: v.slice(4) });
    else list.push({ kind: "bot" });
  }
  return list;
}

// The server's rules for a display name (protocol.clean_name), checked before the table is made:
// a name refused only at the join would leave behind a table nobody sits at.
// Any printable name is fine ("O'Brien", "Tom & Jerry"): pages show names as text.
const MAX_NAME = 24;
const CONTROL = /[\p{C}\p{Z}]/u;
const MAX_MARKS = 4; // combining marks on one character (protocol.MAX_MARKS)
const STACKED = new RegExp(`[\\p{Mn}\\p{Me}]{${MAX_MARKS + 1},}`, "u");
function nameProblem(name) {
  name = name.normalize("NFC");
  if (!name) return "type your name first: the other players see it";
  if ([...name].length > MAX_NAME) return `a display name has at most ${MAX_NAME} characters`;
  if (STACKED.test(name)) return `a display name stacks at most ${MAX_MARKS} accents on one character`;
  const bad = [...name].find((ch) => ch !== " " && CONTROL.test(ch));
  return bad ? "a display name may not hold control or direction characters" : null;
}

async function create(e) {
  e.preventDefault();
  const msg = $("create-msg");
  msg.textContent = "";
  const name = $("name").value.trim();
  const n = Number($("players").value);
  if (!Number.isInteger(n) || n < chosen.min_players || n > chosen.max_players) {
    msg.textContent = `The table was not created: ${chosen.title || chosen.id} is for ${chosen.min_players} to ${chosen.max_players} players.`;
    $("players").focus();
    return;
  }
  const problem = nameProblem(name);
  if (problem) { msg.textContent = `The table was not created: ${problem}`; $("name").focus(); return; }
  const seatsWanted = readSeats();
  const body = { game: chosen.id, options: readOptions(), seats: seatsWanted, bot_pace: $("bot-pace").value, listed: $("listed").checked };
  if ($("turn-seconds").value) body.turn_seconds = Number($("turn-seconds").value);
  const btn = $("create-btn");
  btn.disabled = true;
  let id = null;
  try {
    const made = await api("/api/tables", { method: "POST", body });
    id = made.table_id;
    hostTokens.set(id, made.host_token);
    const joined = await api(`/api/tables/${encodeURIComponent(id)}/join`, { method: "POST", body: { name, seat: 0 } });
    rememberName(name);
    seats.set(id, { seat: joined.seat, token: joined.token, name: joined.name || name });
    // with bots in every other seat there is nobody to wait for
    if (seatsWanted.slice(1).every((s) => s.kind === "bot")) {
      await api(`/api/tables/${encodeURIComponent(id)}/start`, { method: "POST", token: made.host_token });
    }
    location.href = `/t/${encodeURIComponent(id)}`;
  } catch (err) {
    // once the table is made (this browser is its host) its page is where to go on: a seat to
    // join, a dealer to invite (a live casino table cannot start without one), the Start button
    if (id) { location.href = `/t/${encodeURIComponent(id)}`; return; }
    msg.textContent = `The table was not created: ${inWords(err.message)}`;
    btn.disabled = false;
  }
}

async function drawTables() {
  try {
    const list = await api("/api/tables");
    const box = $("tables");
    if (!list.length) { mount(box, h("li", { class: "muted" }, "No open tables. Create one and share its link.")); return; }
    mount(box, ...list.map((t) => {
      const free = t.seats.filter((s) => s.kind !== "bot" && !s.taken).length;
      const who = t.seats.filter((s) => s.taken || s.kind === "bot").map((s) => s.name || (s.kind === "bot" ? "bot" : "?"));
      const listed = who.flatMap((n, i) => [i ? ", " : " · ", bdi(n)]); // each name isolated: an RTL one keeps its place
      const title = t.title || t.game;
      const href = `/t/${encodeURIComponent(t.table_id)}`;
      // every seat taken, waiting for its host to start: there is nothing to join, only to watch
      const go = free ? h("a", { class: "button primary", href, "aria-label": `join the ${title} table` }, "Join")
        : h("a", { class: "button", href, "aria-label": `watch the ${title} table` }, "Watch");
      const seatsLine = free ? `${free} open seat${free === 1 ? "" : "s"}` : "full, waiting to start";
      return h("li", {}, h("div", {}, h("strong", {}, title), h("div", { class: "muted" }, seatsLine, ...listed)), go);
    }));
  } catch { /* the next poll tries again */ }
}

async function main() {
  $("name").value = playerName();
  $("players").addEventListener("input", () => { drawSeats(); redrawFirstPlayer(); });
  $("create").addEventListener("submit", create);
  try {
    games = await api("/api/games");
  } catch (err) {
    banner(`Could not load the games: ${err.message}`);
    return;
  }
  drawGames();
  drawTables();
  setInterval(drawTables, 5000);
}

main();
