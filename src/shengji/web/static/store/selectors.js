// What the UI asks of the state, read only: whose turn, the selection as an action, how
// long a clock has left. No rule is worked out here: the server's view says it all.
import { state } from "./state.js";

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

/** Whether cards may be selected now: my turn to play or bury, or (pre-select) while
 * others play a trick. */
export function canSelect() {
  const g = state.game;
  if (!g || state.seat == null || state.review != null) return false;
  if (g.phase === "playing") return true;
  return g.phase === "burying" && myTurn();
}

/** Milliseconds left on a clock or hold, counted down since it came. */
export function msLeft(x) {
  return x ? Math.max(0, x.ms_left - (performance.now() - x.at)) : 0;
}
