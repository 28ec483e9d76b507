// The played-cards panel (记牌器), toggled beside the table: per suit, trumps first, the
// cards played so far this deal and how many of that suit you have not seen yet. Every
// figure is the server's (GameView.played): the client counts nothing.
import { t } from "../i18n.js";
import { SuitMark, splitCards } from "../cards.js";
import { setSetting, settings } from "../settings.js";
import { state } from "../store.js";
import { html } from "./html.js";
import { cardLabel } from "./labels.js";

function Group({ g }) {
  const cards = splitCards(g.cards);
  const trump = g.suit === "T";
  // a trump group names each card; a plain suit shows its ranks after the suit's mark
  return html`<div class="pgroup" data-testid=${"played-" + g.suit}>
    <span class="psuit">${trump ? html`<b>${t("played.trump")}</b>`
      : html`<${SuitMark} suit=${g.suit} fourColor=${state.fourColor} size=${14} />`}</span>
    <span class="pcards">${cards.length ? cards.map((c) => html`<span class=${"pc s" + c[0]}>${trump ? cardLabel(c) : c.slice(1)}</span>`)
      : html`<span class="muted">—</span>`}</span>
    <span class="pleft muted" title=${t("played.unseen_title")}>${t("played.unseen", { n: g.unseen })}</span>
  </div>`;
}

export function PlayedPanel() {
  const g = state.game;
  if (!g || !state.room || state.room.status !== "playing" || !g.played || !g.played.length) return null;
  const open = settings.showPlayed;
  return html`<section class="played" data-testid="played-panel">
    <h3><button class="ghost small" data-testid="played-toggle" aria-expanded=${open}
      onClick=${() => setSetting("showPlayed", !open)}>${open ? "▾" : "▸"} ${t("played.title")}</button></h3>
    ${open ? html`<div class="pgroups" data-testid="played-groups">${g.played.map((x) => html`<${Group} g=${x} />`)}</div>` : null}
  </section>`;
}
