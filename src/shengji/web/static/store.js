// Client state: the player (token in localStorage), the lobby, and one room's socket.
// The room's game is kept from snapshots and the events of each update (docs/protocol.md,
// "Server protocol"); after phase changes a `sync` fetches a fresh snapshot, whose hand
// comes in the server's display order.
import { cardPoints, sortHand, splitCards } from "./cards.js";

const KEY = "shengji.player";

export const state = {
  lang: "en",
  fourColor: localStorage.getItem("shengji.fourColor") === "1",
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
  selected: [], // indices into game.hand
  verdict: null, // {key, ok, message} of the current selection
  options: [], // declaration / pass buttons: [{action, ok}]
  hintBusy: false,
  notice: null, // {text, kind}
  summary: null, // the last deal's summary, until dismissed
  matchOver: null,
  showLast: false,
  autoSit: false,
  suggestion: null, // a hinted friend call or bid ("call 1 SA", "bid 120") for the pickers
  lastHint: undefined, // the last hint's action (null: none)
};

const listeners = new Set();
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
    matchOver: null, selected: [], verdict: null, options: [], notice: null,
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
    const hello = { t: "hello", token: state.player.token };
    if (lastSeq != null) hello.last_seq = lastSeq;
    sock.send(JSON.stringify({ v: 2, ...hello }));
  };
  sock.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    onMessage(msg);
  };
  sock.onclose = () => {
    if (ws !== sock) return;
    ws = null;
    set({ conn: "closed" });
    if (state.code === code) {
      const wait = Math.min(5000, 500 * 2 ** retry++);
      retryTimer = setTimeout(() => state.code === code && !ws && connect(), wait);
    }
  };
}

/** The player's own seat is placed at the bottom: seats relative to it. */
export function mySeat() {
  return state.seat;
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
      set({ presence: msg.players });
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
      set({ matchOver: { game: msg.game, result: msg.result } });
      break;
    case "settled":
      onSettled(msg);
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
}

/** A deal's stakes as the server settled them: shown in that deal's summary. */
function onSettled(msg) {
  const sm = state.summary;
  if (sm && sm.deal_no === msg.deal_no) set({ summary: { ...sm, settled: msg } });
}

function onError(msg) {
  if (msg.code === "auth") {
    savePlayer(null);
    exitRoom();
    return;
  }
  if (msg.code === "no-room") {
    localStorage.removeItem("shengji.room");
    leaveSocket();
    set({ code: null, conn: "idle" });
    location.hash = "";
    notice({ key: "error.no-room" }, "error");
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
  const patch = { room: msg.room, chat: msg.chat || [] };
  patch.seat = seatOf(msg.room, state.player.id);
  patch.game = msg.game ? normalize(msg.game) : null;
  set(patch);
  afterChange(true);
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

/** A snapshot's game with the hand as a list and the last deal's extras. */
function normalize(g) {
  const hand = splitCards(g.hand);
  const decl = g.declaration || g.own_declaration;
  return {
    ...g,
    // the server orders the hand once trump is fixed; until then we group level cards
    hand: g.trump ? hand : sortHand(hand, g.level, decl ? decl.trump : null),
    point_cards: splitCards(g.point_cards || ""),
    team_levels_before: g.team_levels,
  };
}

function freshGame(ev, prev, msg) {
  const n = state.room ? state.room.ruleset.players : 4;
  return {
    seat: state.seat,
    phase: "dealing",
    level: ev.level,
    deal_no: ev.deal_no,
    dealer: ev.dealer,
    defenders: [],
    trump: null,
    to_act: -1,
    hand: [],
    hand_sizes: Array(n).fill(0),
    declaration: null,
    own_declaration: null,
    kitty: null,
    kitty_holder: null,
    leader: 0,
    trick: [],
    tricks_done: 0,
    last_trick: null,
    attacker_points: 0,
    stake: 1,
    cards_dealt: 0,
    result: null,
    team_levels: msg.team_levels,
    team_levels_before: msg.team_levels,
    seat_levels: msg.seat_levels || [],
    match_over: false,
    winner: null,
    point_cards: [],
    auction: [],
    bid_ceiling: null,
    target: null,
    shown: "",
    friend_call: null,
    friend: null,
    friend_candidates: null,
    rights: ev.rights || [],
    declare_level: null,
  };
}

function removeCards(hand, cards) {
  const out = [...hand];
  for (const c of cards) {
    const i = out.indexOf(c);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

function onUpdate(msg) {
  let g = state.game ? { ...state.game } : null;
  let needSync = !g;
  let summary = state.summary;
  let reveal = null;
  let lastNotice = null;
  const before = g ? g.team_levels : msg.team_levels;
  const seatBefore = g && g.seat_levels ? g.seat_levels : msg.seat_levels || [];
  for (const e of msg.events) {
    if (e.type === "deal_started") {
      g = freshGame(e, g, msg);
      needSync = true;
      continue;
    }
    if (!g) continue;
    switch (e.type) {
      case "card_dealt":
        if (e.seat === state.seat) {
          const trump = g.declaration ? g.declaration.trump : null;
          g.hand = sortHand([...g.hand, e.card], g.level, trump);
        }
        break;
      case "card_count_dealt":
        g.hand_sizes = g.hand_sizes.map((n, i) => (i === e.seat ? n + 1 : n));
        g.cards_dealt += 1;
        break;
      case "declared":
        g.declaration = { seat: e.seat, cards: e.cards, trump: e.trump };
        if (g.rights && g.rights.length && g.dealer == null) needSync = true; // 亮牌权: the level moves
        if (e.seat === state.seat) g.own_declaration = g.declaration;
        if (g.phase === "dealing" && state.seat != null && g.hand.length) {
          g.hand = sortHand(g.hand, g.level, e.trump);
        }
        break;
      case "trump_fixed":
        g.trump = e.trump;
        g.dealer = e.dealer;
        needSync = true;
        break;
      case "kitty_taken":
      case "kitty_buried":
        needSync = true;
        break;
      case "kitty_shown":
        g.shown = e.cards;
        break;
      case "bid_made":
        g.auction = [...(g.auction || []), [e.seat, e.target]];
        break;
      case "passed":
        if (g.phase === "bidding") g.auction = [...(g.auction || []), [e.seat, null]];
        break;
      case "auction_won":
        g.dealer = e.dealer;
        g.target = e.target;
        g.level = e.level;
        g.defenders = [e.dealer];
        needSync = true;
        break;
      case "friend_called":
        g.friend_call = { card: e.card, nth: e.nth };
        needSync = true; // the view says who may be the friend, as this seat can tell
        break;
      case "friend_revealed":
        g.friend = e.seat;
        g.friend_candidates = [e.seat];
        if (!g.defenders.includes(e.seat)) g.defenders = [...g.defenders, e.seat];
        lastNotice = { key: "notice.friend_revealed", seat: e.seat };
        break;
      case "not_friend":
        lastNotice = { key: "notice.not_friend", seat: e.seat, card: e.card };
        needSync = true;
        break;
      case "throw_failed":
        lastNotice = { key: "notice.throw_failed", seat: e.seat, attempted: e.attempted,
          forced: e.forced };
        break;
      case "played": {
        const cards = splitCards(e.cards);
        // the dealer's own copies of the called card can leave it known to be alone
        if (g.friend_call && g.friend == null && e.seat === g.dealer
          && cards.includes(g.friend_call.card)) needSync = true;
        if (g.trick.length === 0) g.leader = e.seat;
        g.trick = [...g.trick, [e.seat, e.cards]];
        if (e.seat === state.seat) g.hand = removeCards(g.hand, cards);
        g.hand_sizes = g.hand_sizes.map((n, i) => (i === e.seat ? n - cards.length : n));
        break;
      }
      case "trick_won": {
        g.last_trick = { leader: g.leader, plays: g.trick, winner: e.winner, points: e.points };
        if (!g.defenders.includes(e.winner)) {
          const won = g.trick.flatMap(([, cs]) => splitCards(cs)).filter((c) => cardPoints(c));
          g.point_cards = [...g.point_cards, ...won];
        }
        g.trick = [];
        g.tricks_done += 1;
        g.leader = e.winner;
        g.attacker_points = e.attacker_points;
        break;
      }
      case "kitty_revealed":
        reveal = e;
        g.kitty = e.cards;
        break;
      case "deal_ended":
        summary = {
          deal_no: g.deal_no,
          defenders: g.defenders,
          dealer: g.dealer,
          level: g.level,
          trump: g.trump,
          last_trick: g.last_trick,
          point_cards: g.point_cards,
          kitty: reveal,
          end: e,
          levels_before: before,
          levels_after: msg.team_levels,
          seat_levels_before: seatBefore,
          seat_levels_after: msg.seat_levels || [],
          target: g.target,
          friend: g.friend,
          friend_call: g.friend_call,
        };
        g.result = e;
        break;
      default:
        break;
    }
  }
  if (g) {
    g.phase = msg.phase;
    g.to_act = msg.to_act;
    g.deal_no = msg.deal_no;
    g.team_levels = msg.team_levels;
    g.seat_levels = msg.seat_levels || [];
  }
  const patch = { game: g, summary };
  if (lastNotice) notice(lastNotice, "warn", 5000);
  set(patch);
  if (needSync) send({ t: "sync" });
  afterChange(false);
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

export function kittySize() {
  return state.room ? state.room.ruleset.kitty_size : 8;
}

let optionsKey = "";
let handKey = "";

/** After any change: drop a stale selection, re-check it, refresh the declaration options. */
function afterChange(fromSnapshot) {
  const g = state.game;
  const hk = g ? `${g.deal_no}|${g.phase}|${g.hand.join(" ")}` : "";
  if (hk !== handKey) {
    handKey = hk;
    if (state.selected.length) set({ selected: [], verdict: null });
  }
  refreshOptions(fromSnapshot);
  checkSelection();
}

/** Declaration candidates from the hand: every count of each level card and joker pairs. */
function declarationCandidates(g) {
  const counts = {};
  for (const c of g.hand) {
    const rank = c === "BJ" || c === "LJ" ? c : c.slice(1);
    if (rank === (g.declare_level || g.level) || c === "BJ" || c === "LJ") counts[c] = (counts[c] || 0) + 1;
  }
  const out = [];
  for (const [card, n] of Object.entries(counts)) {
    for (let k = 1; k <= n; k++) out.push(`declare ${Array(k).fill(card).join(" ")}`);
  }
  return out;
}

function refreshOptions() {
  const g = state.game;
  const turn = g && g.to_act === state.seat;
  const eligible = g && state.seat != null && (g.phase === "dealing" ||
    (["declaring", "rebury", "bidding", "naming"].includes(g.phase) && turn));
  const auctioned = state.room && state.room.ruleset.partnership === "bidding";
  if (!eligible || (auctioned && g.phase === "dealing")) {
    optionsKey = "";
    if (state.options.length) set({ options: [] });
    return;
  }
  let cands;
  if (g.phase === "bidding") cands = ["pass"];
  else if (g.phase === "naming") cands = ["S", "H", "C", "D"].map((x) => `trump ${x}`);
  else cands = declarationCandidates(g);
  if (["declaring", "rebury"].includes(g.phase)) cands.push("pass");
  const d = g.declaration || g.own_declaration;
  const key = `${g.deal_no}|${g.phase}|${g.to_act}|${cands.join(",")}|${d ? d.seat + d.cards : ""}`;
  if (key === optionsKey) return;
  optionsKey = key;
  if (!cands.length) {
    set({ options: [] });
    return;
  }
  send({ t: "check", actions: cands.slice(0, 16) });
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
  if (g.phase !== "playing" && state.selected.length !== kittySize()) {
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
  const opts = [];
  for (const r of results) {
    if (r.action.startsWith("play ") || r.action.startsWith("bury ")) {
      if (r.action === pendingAction()) {
        set({ verdict: { key: r.action, ok: r.ok, code: r.code, message: r.message } });
      }
    } else {
      opts.push(r);
    }
  }
  if (opts.length || results.every((r) => !r.action.match(/^(play|bury) /))) {
    set({ options: opts.filter((r) => r.ok) });
  }
}

export function toggleCard(i) {
  const sel = state.selected.includes(i)
    ? state.selected.filter((x) => x !== i)
    : [...state.selected, i];
  set({ selected: sel });
  checkSelection();
}

export function clearSelection() {
  set({ selected: [] });
  checkSelection();
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
  set({ selected: sel });
  checkSelection();
}

export function askHint() {
  if (!myTurn() && !(state.game && state.game.phase === "dealing")) return;
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

/** 竞标: the highest target a bid may name now: the opening bid, then a step below the
 * standing (lowest) bid. */
export function bidCeiling() {
  const g = state.game;
  const rs = state.room && state.room.ruleset;
  if (!g || !rs) return null;
  const bids = (g.auction || []).filter(([, x]) => x != null);
  const open = rs.bid_open || 150;
  const step = rs.bid_step || 5;
  return bids.length ? bids[bids.length - 1][1] - step : open;
}

/** Send the Play/Bury action for the selection if the server said it is legal. */
export function playSelection() {
  const action = pendingAction();
  const v = state.verdict;
  if (!action || !myTurn() || !v || !v.ok || v.key !== action) return false;
  act(action);
  set({ selected: [], verdict: null });
  checkKey = "";
  return true;
}
