// The table's chat: seated players talk, spectators read; every line goes in as text, never markup.
import { h, letter, seatColor, bdi } from "../dom.js";
import { $, app, openSeats } from "./page.js";

export const chat = { seen: new Set(), pending: null };

function chatLine(m) {
  const who = h("span", { class: "chat-who" });
  if (typeof m.seat === "number") {
    who.append(h("span", { class: "seat-dot", style: `background:${seatColor(m.seat)}`, "aria-hidden": "true", text: letter(m.seat) }));
  }
  who.append(h("span", { class: "chat-name" }, bdi(m.name), ":"));
  const at = new Date(m.at * 1000);
  return h("li", { "data-id": m.id }, who, h("span", { class: "chat-text", text: m.text }),
    h("time", { class: "chat-at", datetime: at.toISOString(), text: at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) }));
}

export function onChat(frame) {
  const log = $("chat-log");
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  for (const m of frame.messages || []) {
    if (chat.seen.has(m.id)) continue; // a reconnect sends the recent chat again
    chat.seen.add(m.id);
    const later = [...log.children].find((li) => Number(li.dataset.id) > m.id);
    log.insertBefore(chatLine(m), later || null);
  }
  while (log.children.length > 100) log.firstChild.remove();
  if (atEnd || frame.ref !== undefined) log.scrollTop = log.scrollHeight;
  if (frame.ref !== undefined && frame.ref === chat.pending) {
    chat.pending = null;
    $("chat-text").value = "";
    $("chat-note").textContent = "";
  }
}

export function chatRefused(frame) {
  chat.pending = null;
  $("chat-note").textContent = frame.message || frame.code; // the server's words, as text
}

export function showChat() {
  const panel = $("chat");
  const waiting = app.summary?.status === "waiting";
  // in the waiting room the chat sits under the seats; at play, beside the table
  if (waiting && panel.parentElement !== $("main")) $("waiting").after(panel);
  if (!waiting && panel.parentElement !== $("side")) $("side").insertBefore(panel, $("seats"));
  const seated = app.seat !== null && app.seat !== undefined;
  $("chat-form").hidden = !seated;
  if (!seated) $("chat-note").textContent = "";
  // a watcher may talk once seated; with every seat taken there is none to take
  const why = openSeats().length ? "take a seat to talk" : "players only: you are watching";
  panel.querySelector("h2").textContent = seated ? "Chat" : `Chat (${why})`;
  panel.hidden = false;
}

export function sendChat(e) {
  e.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) { input.focus(); return; }
  const ref = `c${Date.now().toString(36)}`;
  if (!app.socket?.send({ type: "chat", text, ref })) {
    $("chat-note").textContent = "Not connected: the message was not sent.";
    return;
  }
  chat.pending = ref;
}
