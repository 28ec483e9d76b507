// The owner's table controls while a match is played: ask the table to deal the
// current deal again (the seated players vote) and end the match early; and the vote panel
// every seated player answers. The server decides: a refused request comes back as an error.
import { useState } from "preact/hooks";
import { t } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { seatName } from "./labels.js";

const { state } = S;

/** Whether I have the room owner's rights (a room without an owner gives them to all). */
export function isOwner() {
  const room = state.room;
  if (!room) return false;
  return room.owner == null || (state.player != null && room.owner === state.player.id);
}

export function OwnerControls() {
  const [confirm, setConfirm] = useState(false);
  const room = state.room;
  if (!room || room.status !== "playing" || !state.game || !isOwner()) return null;
  const open = state.vote && state.vote.status === "open";
  return html`<section class="ownerctl" data-testid="owner-controls">
    <button class="small" data-testid="reset-deal" disabled=${open}
      onClick=${() => S.send({ t: "reset_deal" })}>${t("owner.reset_deal")}</button>
    ${confirm
      ? html`<span class="confirm">${t("owner.end_confirm")}
          <button class="small primary" data-testid="end-match-yes"
            onClick=${() => { setConfirm(false); S.send({ t: "end_match" }); }}>${t("owner.end_yes")}</button>
          <button class="small" onClick=${() => setConfirm(false)}>${t("owner.end_no")}</button></span>`
      : html`<button class="small" data-testid="end-match" onClick=${() => setConfirm(true)}>${t("owner.end_match")}</button>`}
  </section>`;
}

/** The vote on dealing the deal again: who proposed it, each voter's answer, and my
 * buttons while it waits for me; its outcome for a moment once it closes. */
export function VotePanel() {
  const v = state.vote;
  const g = state.game;
  if (!v || !g) return null;
  const i = v.voters.indexOf(state.seat);
  const mine = i >= 0 ? v.votes[i] : undefined;
  const status = v.status === "open" ? t("vote.open", { name: v.by, n: v.deal_no + 1 }) : t("vote." + v.status);
  return html`<div class=${"vote " + v.status} data-testid="vote" role="status">
    <span>${status}</span>
    <span class="votes">${v.voters.map((s, k) => html`<span class="badge">${seatName(s)} ${
      v.votes[k] === true ? "✓" : v.votes[k] === false ? "✗" : "…"}</span>`)}</span>
    ${v.status === "open" && i >= 0 && mine == null ? html`<span class="row">
      <button class="small primary" data-testid="vote-yes" onClick=${() => S.answerVote(true)}>${t("vote.yes")}</button>
      <button class="small" data-testid="vote-no" onClick=${() => S.answerVote(false)}>${t("vote.no")}</button>
    </span>` : null}
  </div>`;
}
