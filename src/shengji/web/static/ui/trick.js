// The trick on the felt (each seat's cards placed clear of its plate; the finished trick
// stays with its winner marked until the next lead) and the last-trick dialog (key L).
import { t } from "../i18n.js";
import { Card, splitCards } from "../cards.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { seatName } from "./labels.js";
import { seatPos } from "./seats.js";

const { state } = S;

export function TrickArea() {
  const g = state.game;
  const n = state.room.ruleset.players;
  const live = g.trick.length > 0;
  const plays = live ? g.trick : g.last_trick && g.phase === "playing" ? g.last_trick.plays : [];
  const winner = !live && g.last_trick ? g.last_trick.winner : null;
  return html`<div class=${"trick" + (live ? "" : " done")} data-testid="trick">
    ${plays.map(([seat, cards]) => {
      const p = seatPos(seat, n);
      const style = `--dx:${p.dx};--dy:${p.dy};--drop:${p.drop}`;
      const count = splitCards(cards).length;
      const long = count > 10 ? " vlong" : count > 5 ? " long" : "";
      return html`<div class=${"play" + long + (seat === winner ? " won" : "")} style=${style}
          data-testid=${"play-" + seat}>
        ${splitCards(cards).map((c) => html`<${Card} card=${c} fourColor=${state.fourColor}
          trump=${g.trumpSet.has(c)} cls="tcard" />`)}
      </div>`;
    })}
  </div>`;
}

export function LastTrick() {
  const g = state.game;
  const lt = g.last_trick;
  if (!state.showLast || !lt) return null;
  return html`<div class="overlay" onClick=${() => S.set({ showLast: false })}>
    <div class="dialog small" data-testid="last-trick-dialog" onClick=${(e) => e.stopPropagation()}>
      <h3>${t("last.title")}</h3>
      ${lt.plays.map(([seat, cards]) => html`<div class=${"lrow" + (seat === lt.winner ? " won" : "")}>
        <span class="lname">${seatName(seat)}</span>
        <span class="cards">${splitCards(cards).map((c) => html`<${Card} card=${c} fourColor=${state.fourColor}
          trump=${g.trumpSet.has(c)} cls="tiny" />`)}</span>
        ${seat === lt.winner ? html`<span class="badge ok">${t("last.won", { p: lt.points })}</span>` : null}
      </div>`)}
      <button onClick=${() => S.set({ showLast: false })}>${t("ui.close")}</button>
    </div>
  </div>`;
}
