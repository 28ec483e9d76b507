// The match-end dialog: who won (the server names the winners: a team, or the winning
// seats; a match cut short names who leads), the record's link, "play again"; the room's
// owner starts the next match at once or closes the room.
import { t } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { fixedTeams, seatName, teamName, teams } from "./labels.js";

const { state } = S;

/** Whether I have the room owner's rights (a room without an owner gives them to all). */
function isOwner() {
  const room = state.room;
  return !!room && (room.owner == null || (state.player != null && room.owner === state.player.id));
}

export function MatchOver() {
  const mo = state.matchOver;
  if (!mo || state.summary) return null;
  const winners = mo.winners || [];
  // the winners' display names, made as the table makes them
  const names = state.room ? winners.map((i) => seatName(i)) : mo.names || [];
  let who = null;
  let team = null;
  const tm = teams();
  const sides = new Set(winners.map((i) => tm[i]));
  if (fixedTeams() && mo.result && mo.result.winner != null) team = teamName(mo.result.winner);
  else if (fixedTeams() && winners.length && sides.size === 1) team = teamName(tm[winners[0]]);
  else if (names.length) who = names.join(t("list.sep"));
  const text = team != null ? t("match.winner", { team }) : who != null ? t("match.winners", { names: who })
    : winners.length === 0 && mo.result && mo.result.winner == null ? t("match.draw") : t("match.ended");
  const owner = isOwner();
  return html`<div class="overlay">
    <div class="dialog" data-testid="match-over">
      <h2>${t("match.over")}</h2>
      ${mo.early ? html`<p data-testid="match-early">${t("match.ended_early")}</p>` : null}
      <p class="winners" data-testid="match-winner">${text}</p>
      ${names.length && team != null ? html`<p class="muted">${names.join(t("list.sep"))}</p>` : null}
      <p class="muted small" data-testid="match-next-hint">${owner ? t("match.new_hint") : state.seat != null ? t("match.again_hint") : ""}</p>
      <p class="row">
        <a class="button" href=${"#/replay/" + mo.game} data-testid="watch-replay">${t("match.replay")}</a>
        <button data-testid="record" onClick=${() => S.downloadRecord(mo.game)}>${t("match.record")}</button>
      </p>
      <div class="row">
        ${owner ? html`<button class="primary" data-testid="new-match" title=${t("match.new_hint")}
          onClick=${() => { S.send({ t: "new_match" }); S.set({ matchOver: null }); }}>${t("match.new")}</button>` : null}
        ${!owner && state.seat != null ? html`<button class="primary" data-testid="again" title=${t("match.again_hint")}
          onClick=${() => { S.send({ t: "ready", ready: true }); S.set({ matchOver: null }); }}>${t("match.again")}</button>` : null}
        ${owner ? html`<button data-testid="close-room"
          onClick=${() => { if (confirm(t("match.close_confirm"))) S.send({ t: "close_room" }); }}>${t("match.close_room")}</button>` : null}
        <button onClick=${() => S.set({ matchOver: null })}>${t("ui.close")}</button>
      </div>
    </div>
  </div>`;
}
