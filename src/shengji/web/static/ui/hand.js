// The player's hand: the server's display order (trumps first, marked from GameView.trumps),
// fanned in up to four rows so the corners stay readable; click to select; while burying,
// the kitty's cards are marked.
import { useRef } from "preact/hooks";
import { Card, splitCards } from "../cards.js";
import * as S from "../store.js";
import { useWidth } from "./hooks.js";
import { html } from "./html.js";

const { state } = S;

export function Hand() {
  const g = state.game;
  const ref = useRef(null);
  const width = useWidth(ref);
  const cards = g.hand;
  const narrow = width < 560;
  const cw = narrow ? 50 : 70;
  const minStep = narrow ? 22 : 24;
  // one row if the cards fit with their corners readable, else two, three or four rows
  const all = cards.map((c, i) => i);
  let rows = [all];
  let step = cw;
  for (let r = 1; r <= 4; r++) {
    const per = Math.ceil(cards.length / r);
    step = per > 1 ? Math.min(cw + 4, (width - cw - 8) / (per - 1)) : cw;
    rows = Array.from({ length: r }, (_, k) => all.slice(k * per, (k + 1) * per));
    rows = rows.filter((row) => row.length);
    if (step >= minStep) break;
  }
  const playable = S.myTurn() && (g.phase === "playing" || g.phase === "burying");
  // while burying, mark the cards that came from the kitty
  const fromKitty = new Set();
  if (g.phase === "burying" && g.kitty && g.kitty_holder === state.seat) {
    const left = splitCards(g.kitty);
    for (let i = cards.length - 1; i >= 0 && left.length; i--) {
      const k = left.indexOf(cards[i]);
      if (k >= 0) {
        left.splice(k, 1);
        fromKitty.add(i);
      }
    }
  }
  return html`<div class=${"hand" + (playable ? " active" : "")} ref=${ref} data-testid="hand"
      style=${`--cw:${cw}px`}>
    ${rows.map((row) => {
      const total = (row.length - 1) * step + cw;
      return html`<div class="hrow" style=${`height:${Math.round(cw * 1.4) + 14}px`}>
        ${row.map((i, k) => html`<div class="hslot" key=${i + ":" + cards[i]}
            style=${`left:${(width - total) / 2 + k * step}px;z-index:${k + 1}`}>
          <${Card} card=${cards[i]} fourColor=${state.fourColor} testid=${"hand-" + i}
            trump=${g.trumpSet.has(cards[i])}
            selected=${state.selected.includes(i)}
            onClick=${() => playable && S.toggleCard(i)}
            cls=${"hcard" + (fromKitty.has(i) ? " fromkitty" : "")} />
        </div>`)}
      </div>`;
    })}
  </div>`;
}
