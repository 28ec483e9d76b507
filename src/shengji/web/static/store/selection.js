// The cards I select and what becomes of them: the live preview (``check``, while cards
// are selected), playing or burying them (one ``act``: the server answers an illegal one
// with the reason the preview gives), pre-selecting before my turn, hints.
import { splitCards } from "../cards.js";
import { canSelect, myTurn, pendingAction } from "./selectors.js";
import { act, send } from "./socket.js";
import { notice, set, state } from "./state.js";

let handKey = "";
let checkKey = "";
let checkTimer = null;
let armedSent = null; // a pre-selected play sent when the turn came

/** After any change of the view: drop a stale selection, send an armed play now that my
 * turn came, and preview the selection. */
export function afterChange() {
  const g = state.game;
  const hk = g ? `${g.deal_no}|${g.phase}|${g.hand.join(" ")}` : "";
  if (hk !== handKey) {
    handKey = hk;
    if (state.selected.length || state.armed || state.acting) {
      set({ selected: [], verdict: null, armed: null, acting: null });
    }
  }
  if (state.armed && state.armed === pendingAction() && myTurn()) {
    const action = state.armed; // pre-selected and pressed before the turn: sent now
    set({ armed: null, acting: action });
    armedSent = action;
    act(action);
    return;
  }
  checkSelection();
}

/** Ask the server whether the selection is a legal play (or burial): the preview only. */
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

/** The preview's answer. */
export function onChecked(results) {
  for (const r of results) {
    if (r.action !== pendingAction()) continue;
    set({ verdict: { key: r.action, ok: r.ok, code: r.code, message: r.message } });
  }
}

/** The server refused the action I sent: its reason shows as the selection's verdict,
 * and for a pre-selected play as its own notice (``true``: told already). */
export function onRefused(msg) {
  const action = state.acting;
  if (!action) return false;
  const armed = action === armedSent;
  armedSent = null;
  set({ acting: null });
  if (action === pendingAction()) {
    set({ verdict: { key: action, ok: false, code: msg.code, message: msg.message } });
  }
  if (armed) {
    notice({ key: "notice.armed_refused", code: msg.code, message: msg.message }, "warn", 6000);
  }
  return armed;
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

/** Play the selection when my turn comes, or take that back. */
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

export function onHint(action) {
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

/** Whether the Play/Bury button sends now: my turn, cards selected (as many as the burial
 * takes), nothing sent and unanswered, and the preview has not already said no. The
 * preview is no gate: while it is on its way, the play goes at once. */
export function canPlay() {
  const action = pendingAction();
  const v = state.verdict;
  if (!action || !myTurn() || state.acting) return false;
  if (v && v.key === action && (v.count || (!v.ok && !v.pending))) return false;
  return true;
}

/** Send the Play/Bury action for the selection (one round trip: the answer is the update,
 * or an error with the reason), or arm it before my turn. */
export function playSelection() {
  const action = pendingAction();
  if (action && !myTurn() && state.game.phase === "playing") {
    armSelection(); // Enter before the turn: pre-play
    return true;
  }
  if (!canPlay()) return false;
  set({ acting: action });
  act(action);
  return true;
}
