// The client's state: one object the UI reads, changed only through ``set`` (listeners run
// once per microtask), the player kept in localStorage, and the server's game view kept as
// data: a snapshot's whole view, then (protocol 3) each delta's fields set into it. Nothing
// here computes a rule: every value is the server's (docs/protocol.md, "Deltas").
import { splitCards } from "../cards.js";
import { onSettings, settings } from "../settings.js";

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
  game: null, // GameView projected for rendering (``project``), kept up to date
  view: null, // the server's GameView as it came: deltas are set into it
  chat: [],
  presence: [],
  away: [], // seats whose player has no connection now (presence.away): "away" on their plates
  clock: null, // the turn clock {seat, ms_left, total_ms, at}: ``at`` is when it came (ms)
  hold: null, // between deals: {deal_no, waiting, ms_left, at}: the summary holds the next deal
  selected: [], // indices into game.hand (chosen before the turn too: pre-select)
  armed: null, // a play pressed before the turn: sent when the turn comes
  vote: null, // the open (or just closed) vote on dealing the deal again
  verdict: null, // {key, ok, message} of the current selection (the live preview)
  acting: null, // the action sent and not yet answered (an update, or an error with why)
  hintBusy: false,
  notice: null, // {text, kind}
  paused: false, // the server cannot write its log: the table waits (`paused` / `resumed`)
  summary: null, // the last deal's summary, until dismissed
  matchOver: null,
  showLast: false,
  autoSit: false,
  autoStart: false, // "Play now": ready as soon as I sit, so the cards are dealt at once
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

/** A view with a delta's fields set into it (protocol 3): each field present replaces the
 * view's, ``played_suits`` replaces the ``played`` groups of the same suits; the others
 * stay. ``{to_act: 2, trick: [[1, "SA"]]}`` on a view gives the view with those two. */
export function applyDelta(view, delta) {
  const out = { ...view };
  for (const [k, v] of Object.entries(delta)) {
    if (k !== "played_suits") out[k] = v;
  }
  if (delta.played_suits) {
    const bySuit = new Map(delta.played_suits.map((g) => [g.suit, g]));
    out.played = (out.played || []).map((g) => bySuit.get(g.suit) || g);
  }
  return out;
}

/** A notice for a while (``ms``; 0: until replaced). */
export function notice(text, kind = "info", ms = 4000) {
  const n = { text, kind, at: Date.now() };
  set({ notice: n });
  if (ms) setTimeout(() => state.notice === n && set({ notice: null }), ms);
}
