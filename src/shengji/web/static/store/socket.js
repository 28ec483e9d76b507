// The connection to the server: the HTTP API (with the player's token) and the room's
// WebSocket, speaking protocol 3 (docs/protocol.md): ``delta`` messages instead of whole
// views, and typed actions. What the messages do to the state is connection.js's.
import { set, state } from "./state.js";

export const PROTOCOL = 3;

// ------------------------------------------------------------------------------ HTTP

async function api(path, opts = {}) {
  const headers = { "Content-Type": "application/json" };
  if (state.player) headers.Authorization = `Bearer ${state.player.token}`;
  const r = await fetch(path, { ...opts, headers });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error(typeof body.detail === "string" ? body.detail : `HTTP ${r.status}`);
    err.status = r.status;
    if (typeof body.field === "string") err.field = body.field; // the option at fault
    throw err;
  }
  return body;
}

/** GET a JSON document of the API (with the token when signed in). */
export function getJSON(path) {
  return api(path);
}

/** PUT a JSON body to the API. */
export function putJSON(path, body) {
  return api(path, { method: "PUT", body: JSON.stringify(body) });
}

/** DELETE a resource of the API. */
export function deleteJSON(path) {
  return api(path, { method: "DELETE" });
}

/** POST a JSON body to the API. */
export function postJSON(path, body) {
  return api(path, { method: "POST", body: JSON.stringify(body) });
}

// ------------------------------------------------------------------------------ socket

let ws = null;

/** Send a message on the room's socket (dropped when it is not open). */
export function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: PROTOCOL, ...msg }));
}

/** An action text as the server's options write it ("play SA SA", "bid 120", "call 1 SA")
 * in its typed form: ``{type: "play", cards: "SA SA"}``. Only the words are split: the
 * server parses the cards, once, and says whether the action is legal. */
export function typedAction(text) {
  const [verb, ...rest] = text.trim().split(/\s+/);
  const words = rest.join(" ");
  switch (verb) {
    case "play":
    case "bury":
    case "declare":
      return { type: verb, cards: words };
    case "pass":
      return { type: "pass" };
    case "bid":
      return { type: "bid", target: Number(rest[0]) };
    case "trump":
      return { type: "trump", suit: rest[0] };
    case "call":
      return { type: "call", nth: Number(rest[0]), card: rest[1] };
    default:
      return text; // the server answers with the forms it takes
  }
}

/** Send a game action for my seat, typed (the server answers an illegal one with the
 * reason ``check`` would give). */
export function act(action) {
  send({ t: "act", action: typedAction(action) });
}

/** Open the room's socket; ``onMessage`` gets each message, ``afterFrame`` runs after each
 * frame, ``hello`` is the first message (its ``last_seq`` resumes), ``onDrop`` the close. */
export function openSocket(code, { hello, onMessage, afterFrame, onDrop }) {
  closeSocket();
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const sock = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(code)}`);
  ws = sock;
  set({ conn: "connecting" });
  sock.onopen = () => sock.send(JSON.stringify({ v: PROTOCOL, ...hello() }));
  sock.onmessage = (ev) => {
    let data;
    try {
      data = JSON.parse(ev.data);
    } catch {
      return;
    }
    // one frame: one message, or (hello said batch) an array of them, in order
    if (Array.isArray(data)) for (const msg of data) onMessage(msg);
    else onMessage(data);
    afterFrame();
  };
  sock.onclose = () => {
    if (ws !== sock) return;
    ws = null;
    onDrop();
  };
}

/** Whether the room's socket is open or opening. */
export function hasSocket() {
  return ws != null;
}

/** Close the room's socket (no reconnecting). */
export function closeSocket() {
  if (ws) {
    ws.onclose = null;
    ws.close();
    ws = null;
  }
}
