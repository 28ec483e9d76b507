// The attackers' point pile beside the table: their total and the point cards they won
// (both the server's: a friend revealed late takes its tricks off the pile), and the points
// failed throws added or took away.
import { t } from "../i18n.js";
import { Card } from "../cards.js";
import { state } from "../store.js";
import { html } from "./html.js";

/** "+10" / "−10" for a signed number of points. */
export function signed(n) {
  return n > 0 ? "+" + n : "−" + -n;
}

export function PointsPanel() {
  const g = state.game;
  if (!g || !state.room || state.room.status !== "playing") return null;
  return html`<section class="pointcards" data-testid="point-cards">
    <h3>${t("info.point_cards")} <b data-testid="pile-points">${g.attacker_points}</b></h3>
    <div class="cards" data-testid="pile">${g.point_cards.length ? g.point_cards.map((c) => html`<${Card} card=${c} fourColor=${state.fourColor} cls="tiny" />`) : html`<span class="muted">—</span>`}</div>
    ${g.penalty_points ? html`<p class="muted small" data-testid="pile-penalty">${t("info.penalty", { p: signed(g.penalty_points) })}</p>` : null}
  </section>`;
}
