// The action bar under the felt: the pickers when it is this seat's call or bid; a button
// per legal declaration, pass or trump suit (the server's list); Play/Bury, enabled only
// when the server said the selection is legal, with its reason when not; hint, clear,
// last trick, nudge, 托管 (auto-play) and take back.
import { t } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { actionLabel, aidsOff, reasonText } from "./labels.js";
import { BidPicker, FriendPicker } from "./pickers.js";

const { state } = S;

/** The seat whose (human) player a nudge would remind, or null. */
function nudgeTarget() {
  const g = state.game;
  if (!g || g.to_act == null || g.to_act < 0 || g.to_act === state.seat) return null;
  const s = state.room.seats[g.to_act];
  return s && s.kind === "human" && !s.substitute ? g.to_act : null;
}

function buttonId(action) {
  if (action === "pass") return "pass";
  if (action.startsWith("trump ")) return "trump-" + action.slice(6);
  return "declare";
}

/** 托管: "take back" while the auto-play bot moves for me (the server put my seat on it
 * when my clock ran out, or I asked); otherwise a button to ask for it. */
function AutoButton() {
  const me = state.seat;
  const s = me != null && state.room ? state.room.seats[me] : null;
  if (!s || state.game.phase === "done") return null;
  if (s.auto) {
    return html`<button class="primary" data-testid="take-back" title=${t("action.take_back_title")}
      onClick=${() => S.autoPlay(false)}>${t("action.take_back")}</button>`;
  }
  return html`<button class="ghost" data-testid="auto-on" title=${t("action.auto_on_title")}
    onClick=${() => S.autoPlay(true)}>${t("action.auto_on")}</button>`;
}

export function ActionBar() {
  const g = state.game;
  const turn = S.myTurn();
  const v = state.verdict;
  const phase = g.phase;
  const canPlay = S.canPlay(); // the preview is no gate: the server answers the act itself
  const preselect = !turn && phase === "playing" && state.selected.length > 0;
  const armed = preselect && state.armed === S.pendingAction();
  let reason = "";
  if (preselect) reason = armed ? t("reason.armed") : t("reason.preselect");
  if (turn && (phase === "playing" || phase === "burying")) {
    if (!state.selected.length) reason = phase === "playing" ? t("reason.select") : t("prompt.bury", { n: g.bury_count, k: 0 });
    else if (v && v.count) reason = t("reason.bury_count", { n: g.bury_count, k: state.selected.length });
    else if (v && v.pending) reason = "…";
    else if (v && !v.ok) reason = reasonText(v.code, v.message);
  }
  const buttons = (g.options || []).filter((a) => !a.startsWith("bid ") && !a.startsWith("call "));
  // the declarations (or trump suits) in a row of their own, which scrolls sideways on a
  // phone: a four-deck hand offers many, and the hand stays on the screen under them
  const choices = buttons.filter((a) => a !== "pass");
  const button = (a) => html`<button class=${a === "pass" ? "" : "declare"}
      data-testid=${buttonId(a)} data-action=${a}
      onClick=${() => S.act(a)}>${actionLabel(a)}</button>`;
  const showPlay = phase === "playing" || (phase === "burying" && turn);
  return html`<div class="actions" data-testid="actions">
    ${turn && phase === "calling" ? html`<${FriendPicker} />` : null}
    ${turn && phase === "bidding" ? html`<${BidPicker} />` : null}
    <div class="abtns">
      ${choices.length ? html`<div class="choices" data-testid="choices">${choices.map(button)}</div>` : null}
      ${buttons.includes("pass") ? button("pass") : null}
      ${showPlay && !preselect ? html`<button class="primary" data-testid="play" disabled=${!canPlay}
          onClick=${() => S.playSelection()} title=${t("keys.enter")}>
          ${phase === "burying" ? t("action.bury_btn", { k: state.selected.length, n: g.bury_count }) : t("action.play_btn")}</button>` : null}
      ${preselect ? html`<button class=${armed ? "armed" : "primary"} data-testid="play-armed"
          aria-pressed=${armed} onClick=${() => S.armSelection()} title=${t("keys.enter")}>
          ${armed ? t("action.unarm") : t("action.play_when_turn")}</button>` : null}
      ${state.seat != null && (turn || phase === "dealing") && phase !== "done" && !aidsOff() ? html`<button
          data-testid="hint" onClick=${() => S.askHint()} disabled=${state.hintBusy}
          title=${t("keys.h")}>${t("action.hint")}</button>` : null}
      ${state.selected.length ? html`<button class="ghost" onClick=${() => S.clearSelection()}>${t("action.clear")}</button>` : null}
      ${g.last_trick && !aidsOff() ? html`<button class="ghost" data-testid="last-trick"
          onClick=${() => S.set({ showLast: !state.showLast })}>${t("action.last_trick")}</button>` : null}
      ${nudgeTarget() != null ? html`<button class="ghost" onClick=${() => S.send({ t: "nudge" })}>${t("action.nudge")}</button>` : null}
      <${AutoButton} />
    </div>
    <div class="reason" data-testid="reason">${reason}</div>
    ${turn && (phase === "declaring" || phase === "rebury") && g.deal_no === 0 ? html`<p class="muted small declarehint"
      data-testid="declare-hint">${t(phase === "rebury" ? "hint.rebury_window" : "hint.declare_window")}</p>` : null}
  </div>`;
}
