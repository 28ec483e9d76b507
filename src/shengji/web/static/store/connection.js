// One room's session: entering and leaving it, the socket's messages turned into state
// (docs/protocol.md, "Server protocol"), the player's account and the lobby over HTTP.
// A snapshot brings this seat's whole GameView; each ``delta`` after it (protocol 3) the
// events and only the fields that changed, set into the view as data (``applyDelta``):
// the client computes no rule. A full view comes again on reconnecting and on ``sync``.
import { cue } from "../sound.js";
import { afterChange, onChecked, onHint, onRefused } from "./selection.js";
import { myTurn } from "./selectors.js";
import { closeSocket, deleteJSON, getJSON, hasSocket, openSocket, postJSON, putJSON, send } from "./socket.js";
import { applyDelta, notice, project, savePlayer, set, state } from "./state.js";

let lastSeq = null;
let retry = 0;
let retryTimer = null;

// ------------------------------------------------------------------------------ account, lobby

export async function register(name) {
  savePlayer(await postJSON("/api/players", { name }));
}

/** Check the stored token still works (a fresh server forgets guests). */
export async function checkPlayer() {
  if (!state.player) return;
  try {
    await getJSON("/api/me");
  } catch (e) {
    if (e.status === 401) savePlayer(null);
  }
}

export async function loadMeta() {
  if (!state.meta) set({ meta: await getJSON("/api/meta") });
}

export async function loadRooms() {
  set({ rooms: await getJSON("/api/rooms") });
}

/** The server's check of a preset with house rules (``POST /api/rules/check``): the
 * ruleset and what changed, or an error whose ``field`` names the option at fault. */
export function checkRules(preset, options) {
  return postJSON("/api/rules/check", { preset, options });
}

/** The player's saved house rules: ``[{name, preset, options}]``. */
export async function savedRules() {
  return (await getJSON("/api/me/rules")).rules;
}

/** Save (or replace) a named rule set; the server checks it as a new room. */
export function saveRules(name, preset, options) {
  return putJSON(`/api/me/rules/${encodeURIComponent(name)}`, { preset, options });
}

/** Forget a saved rule set. */
export function forgetRules(name) {
  return deleteJSON(`/api/me/rules/${encodeURIComponent(name)}`);
}

export async function createRoom(body, start = false) {
  const room = await postJSON("/api/rooms", body);
  set({ autoSit: true, autoStart: start });
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

// ------------------------------------------------------------------------------ the room

/** Enter a room: open its socket (again after a drop, resuming after the last seq). */
export function enterRoom(code) {
  if (state.code === code && hasSocket()) return;
  leaveSocket();
  lastSeq = null;
  localStorage.setItem("shengji.room", code);
  set({
    code, room: null, game: null, view: null, seat: null, chat: [], presence: [],
    summary: null, matchOver: null, selected: [], verdict: null, notice: null, paused: false,
    away: [], clock: null, hold: null, armed: null, acting: null, vote: null,
  });
  connect();
}

/** Close the room's socket; ``leave`` also gives up the seat (a bot plays it mid-match). */
export function exitRoom(leave = false) {
  if (leave) send({ t: "leave" });
  leaveSocket();
  localStorage.removeItem("shengji.room");
  set({ code: null, room: null, game: null, view: null, seat: null, conn: "idle", autoSit: false });
}

function leaveSocket() {
  clearTimeout(retryTimer);
  closeSocket();
}

function connect() {
  const code = state.code;
  openSocket(code, {
    hello: () => {
      const hello = { t: "hello", token: state.player.token, presence: "delta", batch: true };
      if (lastSeq != null) hello.last_seq = lastSeq;
      return hello;
    },
    onMessage,
    afterFrame,
    onDrop: () => {
      set({ conn: "closed", paused: false, acting: null }); // a new socket hears of a pause again
      if (state.code === code) {
        const wait = Math.min(5000, 500 * 2 ** retry++);
        retryTimer = setTimeout(() => state.code === code && !hasSocket() && connect(), wait);
      }
    },
  });
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
      onUpdate(msg, msg.game);
      break;
    case "delta":
      onUpdate(msg, state.view ? applyDelta(state.view, msg.game) : null);
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
  // an action I sent, refused: its reason shows on the selection too
  if (!onRefused(msg)) notice({ code: msg.code, message: msg.message }, "error", 6000);
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
  patch.view = msg.game || null;
  patch.game = msg.game ? project(msg.game) : null;
  set(patch);
  afterChange();
  if (state.autoSit && state.seat == null && msg.room.status === "waiting") {
    const free = msg.room.seats.find((s) => s.kind === "empty");
    if (free) send({ t: "sit", seat: free.seat });
    if (free && state.autoStart) send({ t: "ready", ready: true });
  }
  set({ autoSit: false, autoStart: false });
}

function onRoom(room) {
  const seat = seatOf(room, state.player.id);
  const patch = { room, seat };
  if (room.status === "waiting" && state.room && state.room.status === "playing") {
    patch.selected = [];
  }
  set(patch);
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

/** An update (or a delta, its fields set into the view: ``view``): the events are shown
 * (notices, the deal's summary) and the view replaced. An old update resent to a resuming
 * client has no view, nor has a delta that came with no view to set it into: then a fresh
 * snapshot is asked for once (``afterFrame``) and deltas wait for it. */
function onUpdate(msg, view) {
  const wasMyTurn = myTurn();
  const said = readEvents(msg.events);
  msg.events.forEach(soundFor);
  const lastNotice = said.notice;
  const patch = { summary: said.summary || state.summary };
  if (view) {
    patch.view = view;
    patch.game = project(view);
    stale = false;
  } else {
    patch.view = null;
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
