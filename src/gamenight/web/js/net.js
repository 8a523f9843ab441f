// Talking to the gamenight server: JSON over HTTP for the lobby, one WebSocket per table.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** fetch() a JSON endpoint; a non-2xx answer throws ApiError with the server's message. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text }; }
  if (!res.ok) {
    const err = data?.detail ?? data ?? {};
    const message = typeof err === "string" ? err : err.message || (Array.isArray(err) ? err.map((e) => e.msg).join("; ") : res.statusText);
    throw new ApiError(res.status, err.code || String(res.status), message);
  }
  return data;
}

/** The seat token this browser holds for a table (kept in localStorage so a reload resumes). */
export const seats = {
  get(tableId) {
    try { return JSON.parse(localStorage.getItem(`gamenight:seat:${tableId}`)) || null; } catch { return null; }
  },
  set(tableId, info) { localStorage.setItem(`gamenight:seat:${tableId}`, JSON.stringify(info)); },
  clear(tableId) { localStorage.removeItem(`gamenight:seat:${tableId}`); },
};

export const hostTokens = {
  get(tableId) { return localStorage.getItem(`gamenight:host:${tableId}`); },
  set(tableId, token) { localStorage.setItem(`gamenight:host:${tableId}`, token); },
};

export function playerName() { return localStorage.getItem("gamenight:name") || ""; }
export function rememberName(name) { localStorage.setItem("gamenight:name", name); }

// A connection that died while a phone slept stays "open" to the browser: nothing arrives and what
// is sent goes nowhere. A ping the server does not answer in time means it is gone: reconnect.
const PING_EVERY_MS = 20000;
const PONG_WAIT_MS = 8000;

/**
 * A table's WebSocket that says hello with the seat token, reconnects with backoff after a drop,
 * and reports its state ("connecting", "open", "reconnecting", "closed") to onStatus.
 */
export class TableSocket {
  constructor(tableId, token, { onFrame, onStatus, role = null }) {
    this.role = role;
    this.tableId = tableId;
    this.token = token;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.tries = 0;
    this.closed = false;
    this.refs = 0;
    // a phone waking up (or a laptop back on the network) checks its connection at once
    this.wake = () => { if (document.visibilityState !== "hidden") this.check(); };
    document.addEventListener("visibilitychange", this.wake);
    addEventListener("online", this.wake);
    this.connect();
  }

  /** Ping; if nothing at all comes back in time, drop this connection and open a new one. */
  check() {
    const ws = this.ws;
    if (this.closed || !ws || ws.readyState !== WebSocket.OPEN || this.watchdog) return;
    const heard = this.heard;
    this.send({ type: "ping" });
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (this.closed || ws !== this.ws || this.heard !== heard) return;
      this.ws = null; // its close event, whenever the browser fires it, is ignored
      clearInterval(this.pinger);
      ws.close();
      this.tries += 1;
      this.connect();
    }, PONG_WAIT_MS);
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.onStatus(this.tries ? "reconnecting" : "connecting");
    ws.addEventListener("open", () => {
      this.tries = 0;
      ws.send(JSON.stringify(this.role ? { type: "hello", token: this.token || null, role: this.role } : { type: "hello", token: this.token || null }));
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.check(), PING_EVERY_MS);
    });
    ws.addEventListener("message", (e) => {
      if (ws === this.ws) this.heard = performance.now();
      let frame;
      try { frame = JSON.parse(e.data); } catch { return; }
      if (frame.type === "welcome") this.onStatus("open"); // the server knows us: now we are live
      this.onFrame(frame);
    });
    ws.addEventListener("close", (e) => {
      if (this.closed || ws !== this.ws) return; // an old connection: the new one keeps its pings
      clearInterval(this.pinger);
      if (e.code === 4404 || e.code === 4401) { this.onStatus("closed", e.reason); return; }
      this.tries += 1;
      this.onStatus("reconnecting");
      const wait = Math.min(8000, 300 * 2 ** Math.min(this.tries, 5)) * (0.75 + Math.random() / 2);
      this.timer = setTimeout(() => this.connect(), wait);
    });
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  act(move, action) {
    const ref = `r${Date.now().toString(36)}${(this.refs++).toString(36)}`;
    return this.send({ type: "action", move, action, ref }) ? ref : null;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.watchdog);
    clearInterval(this.pinger);
    document.removeEventListener("visibilitychange", this.wake);
    removeEventListener("online", this.wake);
    this.ws?.close();
  }
}
