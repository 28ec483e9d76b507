// The match-end dialog: who won (a team, or the winning seats), the record's link, and
// "play again". Once the room can close or restart a match, its owner's buttons go here.
import { t } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { fixedTeams, seatName, teamName } from "./labels.js";

const { state } = S;

export function MatchOver() {
  const mo = state.matchOver;
  if (!mo || state.summary) return null;
  const winner = mo.result && mo.result.winner;
  const winners = (mo.result && mo.result.winners) || [];
  const who = fixedTeams() ? (winner != null ? teamName(winner) : null)
    : winners.length ? winners.map((i) => seatName(i)).join(", ") : null;
  return html`<div class="overlay">
    <div class="dialog" data-testid="match-over">
      <h2>${t("match.over")}</h2>
      <p data-testid="match-winner">${who != null ? t("match.winner", { team: who })
        : mo.early ? t("match.ended_early") : t("match.ended")}</p>
      <p class="row">
        <a class="button" href=${"#/replay/" + mo.game} data-testid="watch-replay">${t("match.replay")}</a>
        <button data-testid="record" onClick=${() => S.downloadRecord(mo.game)}>${t("match.record")}</button>
      </p>
      <div class="row">
        ${state.seat != null ? html`<button class="primary" data-testid="again"
          onClick=${() => { S.send({ t: "ready", ready: true }); S.set({ matchOver: null }); }}>${t("match.again")}</button>` : null}
        <button onClick=${() => S.set({ matchOver: null })}>${t("ui.close")}</button>
      </div>
    </div>
  </div>`;
}
