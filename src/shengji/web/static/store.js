// Client state: the player (token in localStorage), the lobby, and one room's socket.
// The game is the server's view of it (docs/protocol.md, "Server protocol"): each snapshot
// and each update carries this seat's whole GameView, with every number and mark the table
// shows (trump marks, the hand's order, the choices, roles, the point pile). The client
// computes no rule: it keeps that view, and asks the server (`check`) whether a selection
// of cards may be played or buried.
import { splitCards } from "./cards.js";
import { onSettings, settings } from "./settings.js";
import { cue } from "./sound.js";

const KEY = "shengji.player";

export const state = {
  lang: "en",
  settings, // settings.js: card size, hand order, four colours, sound, motion
  fourColor: settings.fourColor,
  player: loadPlayer(), // {id, name, token}
  meta: null, // {presets, bots}
  rooms: [],
  code: null, // the room we are in
  conn: "idle", // idle | connecting | open | closed
  room: null, // RoomInfo
  seat: null,
  game: null, // GameView, kept up to date
  chat: [],
  presence: [],
  away: [], // seats whose player has no connection now (presence.away): "away" on their plates
  clock: null, // the turn clock {seat, ms_left, total_ms, at}: ``at`` is when it came (ms)
  hold: null, // between deals: {deal_no, waiting, ms_left, at}: the summary holds the next deal
  selected: [], // indices into game.hand (chosen before the turn too: pre-select)
  armed: null, // a play pressed before the turn: sent when the turn comes if still legal
  vote: null, // the open (or just closed) vote on dealing the deal again
  verdict: null, // {key, ok, message} of the current selection
  hintBusy: false,
  notice: null, // {text, kind}
  paused: false, // the server cannot write its log: the table waits (`paused` / `resumed`)
  summary: null, // the last deal's summary, until dismissed
  matchOver: null,
  showLast: false,
  autoSit: false,
  suggestion: null, // a hinted friend call or bid ("call 1 SA", "bid 120") for the pickers
  lastHint: undefined, // the last hint's action (null: none)
  review: null, // the replay viewer draws the table: the update shown (room, seat, game are a replay's)
};

const listeners = new Set();
onSettings((s) => set({ settings: s, fourColor: s.fourColor }));
export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
let queued = false;
export function set(patch) {
  Object.assign(state, patch);
  if (!queued) {
    queued = true;
    queueMicrotask(() => {
      queued = false;
      listeners.forEach((fn) => fn(state));
    });
  }
}

function loadPlayer() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY) || "null");
    return p && p.token ? p : null;
  } catch {
    return null;
  }
}

export function savePlayer(p) {
  if (p) localStorage.setItem(KEY, JSON.stringify(p));
  else localStorage.removeItem(KEY);
  set({ player: p });
}

// ------------------------------------------------------------------------------ HTTP

async function api(path, opts = {}) {
  const headers = { "Content-Type": "application/json" };
  if (state.player) headers.Authorization = `Bearer ${state.player.token}`;
  const r = await fetch(path, { ...opts, headers });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error(typeof body.detail === "string" ? body.detail : `HTTP ${r.status}`);
    err.status = r.status;
    throw err;
  }
  return body;
}

export async function register(name) {
  const p = await api("/api/players", { method: "POST", body: JSON.stringify({ name }) });
  savePlayer(p);
}

/** Check the stored token still works (a fresh server forgets guests). */
export async function checkPlayer() {
  if (!state.player) return;
  try {
    await api("/api/me");
  } catch (e) {
    if (e.status === 401) savePlayer(null);
  }
}

export async function loadMeta() {
  if (!state.meta) set({ meta: await api("/api/meta") });
}

export async function loadRooms() {
  set({ rooms: await api("/api/rooms") });
}

export async function createRoom(body) {
  const room = await api("/api/rooms", { method: "POST", body: JSON.stringify(body) });
  set({ autoSit: true });
  return room.code;
}

/** Save a finished match's record as a .json file under the server's name for it
 * (``shengji-classic-2025-12-01-game12.json``; a private room's needs the token). */
export async function downloadRecord(game) {
  const headers = state.player ? { Authorization: `Bearer ${state.player.token}` } : {};
  const r = await fetch(`/api/games/${game}?download=1`, { headers });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  const m = (r.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
  const url = URL.createObjectURL(await r.blob());
  const a = Object.assign(document.createElement("a"), { href: url, download: m ? m[1] : `shengji-game${game}.json` });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** GET a JSON document of the API (with the token when signed in). */
export function getJSON(path) {
  return api(path);
}

// ------------------------------------------------------------------------------ socket

let ws = null;
let lastSeq = null;
let retry = 0;
let retryTimer = null;
let checkTimer = null;

export function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: 2, ...msg }));
}

export function act(action) {
  send({ t: "act", action });
}

/** Enter a room: open its socket (again after a drop, resuming after the last seq). */
export function enterRoom(code) {
  if (state.code === code && ws) return;
  leaveSocket();
  lastSeq = null;
  localStorage.setItem("shengji.room", code);
  set({
    code, room: null, game: null, seat: null, chat: [], presence: [], summary: null,
    matchOver: null, selected: [], verdict: null, notice: null, paused: false, away: [],
    clock: null, hold: null, armed: null, vote: null,
  });
  connect();
}

/** Close the room's socket; ``leave`` also gives up the seat (a bot plays it mid-match). */
export function exitRoom(leave = false) {
  if (leave) send({ t: "leave" });
  leaveSocket();
  localStorage.removeItem("shengji.room");
  set({ code: null, room: null, game: null, seat: null, conn: "idle", autoSit: false });
}

function leaveSocket() {
  clearTimeout(retryTimer);
  if (ws) {
    ws.onclose = null;
    ws.close();
    ws = null;
  }
}

function connect() {
  const code = state.code;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const sock = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(code)}`);
  ws = sock;
  set({ conn: "connecting" });
  sock.onopen = () => {
    const hello = { t: "hello", token: state.player.token, presence: "delta", batch: true };
    if (lastSeq != null) hello.last_seq = lastSeq;
    sock.send(JSON.stringify({ v: 2, ...hello }));
  };
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
    set({ conn: "closed", paused: false }); // a new socket hears of a pause again
    if (state.code === code) {
      const wait = Math.min(5000, 500 * 2 ** retry++);
      retryTimer = setTimeout(() => state.code === code && !ws && connect(), wait);
    }
  };
}

function notice(text, kind = "info", ms = 4000) {
  const n = { text, kind, at: Date.now() };
  set({ notice: n });
  if (ms) setTimeout(() => state.notice === n && set({ notice: null }), ms);
}

let onErrorHook = null;
/** The UI turns error codes into words (i18n); the store only reports them. */
export function setErrorHook(fn) {
  onErrorHook = fn;
}

function onMessage(msg) {
  if (typeof msg.seq === "number") lastSeq = Math.max(lastSeq ?? 0, msg.seq);
  switch (msg.t) {
    case "welcome":
      retry = 0;
      set({ conn: "open", seat: msg.seat });
      break;
    case "snapshot":
      onSnapshot(msg);
      break;
    case "room":
      onRoom(msg.room);
      break;
    case "update":
      onUpdate(msg);
      break;
    case "chat":
      set({ chat: [...state.chat, { name: msg.name, seat: msg.seat, text: msg.text }].slice(-100) });
      break;
    case "presence":
      set({ presence: msg.players, away: msg.away || [] });
      break;
    case "presence_delta":
      onPresenceDelta(msg);
      break;
    case "hint":
      onHint(msg.action);
      break;
    case "checked":
      onChecked(msg.results);
      break;
    case "nudge":
      if (msg.to === state.seat) notice({ key: "notice.nudged", by: msg.by }, "warn");
      break;
    case "match_over":
      set({ matchOver: { game: msg.game, result: msg.result, winners: msg.winners || [],
        names: msg.names || [], early: !!msg.early }, clock: null, hold: null, vote: null, armed: null });
      break;
    case "vote":
      onVote(msg);
      break;
    case "clock":
      set({ clock: stamped(msg.clock) });
      break;
    case "next_deal":
      onHold(msg.hold);
      break;
    case "settled":
      onSettled(msg);
      break;
    case "paused":
      set({ paused: true });
      break;
    case "resumed":
      set({ paused: false });
      notice({ key: "room.resumed" }, "info", 3000);
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
}

/** A vote on dealing the deal again: shown while open, then its outcome for a moment. */
function onVote(msg) {
  set({ vote: msg });
  if (msg.status !== "open") {
    setTimeout(() => state.vote === msg && set({ vote: null }), 4000);
  }
}

/** Send my answer to the open vote. */
export function answerVote(yes) {
  send({ t: "vote", yes });
}

/** Who came, changed seat or left since the last presence message (docs/protocol.md). */
function onPresenceDelta(msg) {
  const gone = new Set([...msg.left, ...msg.joined.map((p) => p.player)]);
  set({
    presence: [...state.presence.filter((p) => !gone.has(p.player)), ...msg.joined],
    away: msg.away || [],
  });
}

/** A clock or hold from the server with when it came: the page counts ``ms_left`` down
 * from then (``msLeft``). */
function stamped(x) {
  return x ? { ...x, at: performance.now() } : null;
}

/** Milliseconds left on a clock or hold, counted down since it came. */
export function msLeft(x) {
  return x ? Math.max(0, x.ms_left - (performance.now() - x.at)) : 0;
}

/** The summary hold began, changed or ended; when it ends the summary it held goes. */
function onHold(hold) {
  const patch = { hold: stamped(hold) };
  if (!hold && state.hold && state.summary && state.summary.deal_no === state.hold.deal_no) {
    patch.summary = null;
  }
  set(patch);
}

/** "Next deal": I have read the summary (the server deals once everyone has). */
export function nextDeal() {
  send({ t: "next_deal" });
  set({ summary: null });
}

/** 托管: let the auto-play bot move for me (``on``), or take my seat back. */
export function autoPlay(on) {
  send({ t: "auto", on });
}

/** A deal's stakes as the server settled them: shown in that deal's summary. */
function onSettled(msg) {
  const sm = state.summary;
  if (sm && sm.deal_no === msg.deal_no) set({ summary: { ...sm, settled: msg } });
}

function onError(msg) {
  if (msg.code === "moved") {
    // Another server runs the room now (its owner froze and lost its lease): the socket
    // closes (4409) and the usual retry (with backoff) reconnects, through the Redis
    // router or a proxy that routes by owner, with last_seq.
    return;
  }
  if (msg.code === "auth") {
    savePlayer(null);
    exitRoom();
    return;
  }
  if (msg.code === "no-room" || msg.code === "room-full") {
    localStorage.removeItem("shengji.room");
    leaveSocket();
    set({ code: null, conn: "idle" });
    location.hash = "";
    if (msg.code === "no-room") notice({ key: "error.no-room" }, "error");
    else notice({ code: msg.code, message: msg.message }, "error", 8000);
    return;
  }
  set({ hintBusy: false });
  notice({ code: msg.code, message: msg.message }, "error", 6000);
  if (onErrorHook) onErrorHook(msg);
}

function seatOf(room, playerId) {
  const s = room && room.seats.find((x) => x.kind === "human" && x.player === playerId);
  return s ? s.seat : null;
}

function onSnapshot(msg) {
  syncAsked = false;
  stale = false;
  const patch = { room: msg.room, chat: msg.chat || [], clock: stamped(msg.clock),
    hold: stamped(msg.hold) };
  patch.seat = seatOf(msg.room, state.player.id);
  patch.game = msg.game ? project(msg.game) : null;
  set(patch);
  afterChange();
  if (state.autoSit && state.seat == null && msg.room.status === "waiting") {
    const free = msg.room.seats.find((s) => s.kind === "empty");
    if (free) send({ t: "sit", seat: free.seat });
  }
  set({ autoSit: false });
}

function onRoom(room) {
  const seat = seatOf(room, state.player.id);
  const patch = { room, seat };
  if (room.status === "waiting" && state.room && state.room.status === "playing") {
    patch.selected = [];
  }
  set(patch);
}

/** The server's GameView, projected for rendering: card strings split into lists and the
 * trump kinds as a set. Nothing is computed here: every value is the server's. */
export function project(g) {
  return {
    ...g,
    hand: splitCards(g.hand),
    point_cards: splitCards(g.point_cards || ""),
    trumpSet: new Set(splitCards(g.trumps || "")),
  };
}

let syncAsked = false;
let stale = false;

/** After a whole frame: if an update without a view (resent to a resuming client) was not
 * followed in the same frame by one with a view or a snapshot, ask for a snapshot once. */
function afterFrame() {
  if (stale && !syncAsked) {
    syncAsked = true;
    send({ t: "sync" });
  }
  stale = false;
}

/** An update: the events are shown (notices, the deal's summary); the game is replaced by
 * the view the update carries. An old update resent to a resuming client has no view:
 * then a fresh snapshot is asked for once (``afterFrame``). */
function onUpdate(msg) {
  const wasMyTurn = myTurn();
  const said = readEvents(msg.events);
  msg.events.forEach(soundFor);
  const lastNotice = said.notice;
  const patch = { summary: said.summary || state.summary };
  if (msg.game) {
    patch.game = project(msg.game);
    stale = false;
  } else {
    stale = true;
  }
  if (lastNotice) notice(lastNotice, "warn", 5000);
  set(patch);
  afterChange();
  if (!wasMyTurn && myTurn() && state.game.phase !== "dealing") cue("your_turn");
}

/** What an update's events say beyond its view: the deal's summary (on ``deal_ended``,
 * with the kitty revealed before it) and the last notice (a friend revealed, a failed
 * throw, a deal dealt again). The table and the replay viewer read events alike. */
export function readEvents(events) {
  let summary = null;
  let kitty = null;
  let notice = null;
  for (const e of events) {
    if (e.type === "friend_revealed") notice = { key: "notice.friend_revealed", seat: e.seat };
    else if (e.type === "not_friend") notice = { key: "notice.not_friend", seat: e.seat, card: e.card };
    else if (e.type === "throw_failed") {
      notice = { key: "notice.throw_failed", seat: e.seat, attempted: e.attempted, forced: e.forced };
    } else if (e.type === "kitty_revealed") kitty = e;
    else if (e.type === "deal_ended" && e.summary) summary = { ...e.summary, end: e, kitty };
    else if (e.type === "deal_reset") notice = { key: "notice.deal_reset", n: e.deal_no + 1 };
  }
  return { summary, notice };
}

/** The sound cue of an event, if it has one (sound.js; off unless the player turned it on). */
function soundFor(e) {
  if (e.type === "played") cue("play");
  else if (e.type === "trick_won") cue("trick_won");
  else if (e.type === "declared") cue(e.overturn || e.rebury ? "overturn" : "declare");
  else if (e.type === "throw_failed") cue("throw_failed");
  else if (e.type === "deal_ended") cue("deal_end");
}

// ------------------------------------------------------------------------------ my turn

/** Whether it is my turn to play, bury, or answer in the declaration window. */
export function myTurn() {
  const g = state.game;
  return !!g && state.seat != null && g.to_act === state.seat;
}

/** The selected cards as a string. */
export function selectedCards() {
  const g = state.game;
  if (!g) return "";
  return [...state.selected].sort((a, b) => a - b).map((i) => g.hand[i]).join(" ");
}

/** The action the Play/Bury button would send for the current selection (or null). */
export function pendingAction() {
  const g = state.game;
  if (!g || !state.selected.length) return null;
  if (g.phase === "playing") return `play ${selectedCards()}`;
  if (g.phase === "burying") return `bury ${selectedCards()}`;
  return null;
}

let handKey = "";

/** After any change: drop a stale selection and re-check it. */
function afterChange() {
  const g = state.game;
  const hk = g ? `${g.deal_no}|${g.phase}|${g.hand.join(" ")}` : "";
  if (hk !== handKey) {
    handKey = hk;
    if (state.selected.length || state.armed) set({ selected: [], verdict: null, armed: null });
  }
  checkSelection();
}

let checkKey = "";

/** Ask the server whether the selection is a legal play (or burial). */
export function checkSelection() {
  const action = pendingAction();
  if (!action || !myTurn()) {
    checkKey = "";
    if (state.verdict) set({ verdict: null });
    return;
  }
  const g = state.game;
  if (g.phase !== "playing" && state.selected.length !== g.bury_count) {
    checkKey = "";
    set({ verdict: { key: action, ok: false, message: null, count: true } });
    return;
  }
  if (action === checkKey) return;
  checkKey = action;
  set({ verdict: { key: action, ok: false, pending: true } });
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => send({ t: "check", actions: [action] }), 40);
}

function onChecked(results) {
  for (const r of results) {
    if (r.action !== pendingAction()) continue;
    set({ verdict: { key: r.action, ok: r.ok, code: r.code, message: r.message } });
    if (state.armed === r.action && myTurn()) {
      // pre-selected and pressed before the turn: sent now if the server says it is legal
      set({ armed: null });
      if (r.ok) playSelection();
      else notice({ key: "notice.armed_refused", code: r.code, message: r.message }, "warn", 6000);
    }
  }
}

/** Whether cards may be selected now: my turn to play or bury, or (pre-select) while
 * others play a trick. */
export function canSelect() {
  const g = state.game;
  if (!g || state.seat == null || state.review != null) return false;
  if (g.phase === "playing") return true;
  return g.phase === "burying" && myTurn();
}

export function toggleCard(i) {
  if (!canSelect()) return;
  const sel = state.selected.includes(i)
    ? state.selected.filter((x) => x !== i)
    : [...state.selected, i];
  set({ selected: sel, armed: null });
  checkSelection();
}

export function clearSelection() {
  set({ selected: [], armed: null });
  checkSelection();
}

/** Play the selection when my turn comes (if the server then says it is legal), or
 * take that back. */
export function armSelection() {
  const action = pendingAction();
  if (!action || myTurn()) return;
  set({ armed: state.armed === action ? null : action });
}

/** Select the cards of an action ("play SA SA"), left to right in the hand. */
export function selectAction(action) {
  const g = state.game;
  const cards = splitCards(action.split(" ").slice(1).join(" "));
  const used = new Set();
  const sel = [];
  for (const c of cards) {
    const i = g.hand.findIndex((x, j) => x === c && !used.has(j));
    if (i >= 0) {
      used.add(i);
      sel.push(i);
    }
  }
  set({ selected: sel, armed: null });
  checkSelection();
}

export function askHint() {
  if (!myTurn() && !(state.game && state.game.phase === "dealing")) return;
  if (state.room && state.room.ruleset && state.room.ruleset.player_aids === false) return;
  set({ hintBusy: true, lastHint: undefined });
  send({ t: "hint", bot: "heuristic" });
}

function onHint(action) {
  set({ hintBusy: false, lastHint: action });
  if (!action) {
    notice({ key: "notice.no_hint" });
    return;
  }
  if (action.startsWith("play ") || action.startsWith("bury ")) selectAction(action);
  else {
    // a friend call or a bid fills the picker; the player still confirms it
    if (action.startsWith("call ") || action.startsWith("bid ")) set({ suggestion: action });
    notice({ key: "notice.hint", action });
  }
}

/** Send the Play/Bury action for the selection if the server said it is legal. */
export function playSelection() {
  const action = pendingAction();
  const v = state.verdict;
  if (action && !myTurn() && state.game.phase === "playing") {
    armSelection(); // Enter before the turn: pre-play
    return true;
  }
  if (!action || !myTurn() || !v || !v.ok || v.key !== action) return false;
  act(action);
  set({ selected: [], verdict: null, armed: null });
  checkKey = "";
  return true;
}
