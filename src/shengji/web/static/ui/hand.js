// The player's hand: the server's display order (trumps first, marked from GameView.trumps),
// the same with its suit groups reversed (GameView.hand_groups: trumps on the right), or by
// printed suit with the trumps left in their suits (marked, not moved), at
// the card size the player chose; fanned in up to four rows so the corners stay readable
// (rows overlap on a phone, so that a four-deck hand fits on the screen). Click to select,
// also before the turn (pre-select); while burying, the kitty's cards are marked. Each card
// keeps its element from one view to the next, so that cards dealt arrive one by one and the
// rest slide over.
import { useLayoutEffect, useRef } from "preact/hooks";
import { Card, RANKS, parseCard, splitCards } from "../cards.js";
import { dropIn } from "../motion.js";
import { settings } from "../settings.js";
import * as S from "../store.js";
import { useWidth } from "./hooks.js";
import { html } from "./html.js";

const { state } = S;

const WIDTHS = { small: [40, 58], medium: [50, 70], large: [58, 84] }; // [phone, wider]

/** Printed suits in the order the server lists its suit groups (colours alternate). */
const SUIT_ORDER = { S: 1, H: 2, C: 3, D: 4 };

/** A card's place when the hand is shown by suit: jokers first, then each printed suit high
 * to low (a level card stays among its suit's cards: no rule is applied, only the faces). */
function bySuit(card) {
  const c = parseCard(card);
  if (c.joker) return [0, c.joker === "BJ" ? 0 : 1];
  return [SUIT_ORDER[c.suit], RANKS.length - RANKS.indexOf(c.rank)];
}

/** The hand's positions in the order the player chose: the server's (trumps first), its
 * suit groups (sizes from the server) in reverse order, each group still high to low
 * (trumps on the right), or the printed suits as they are, trumps left where they fall.
 *
 *   handOrder(["H2", "SA", "D3", "BJ"], [2, 1, 1], "suits")  // [3, 1, 0, 2]: BJ SA H2 D3
 */
export function handOrder(hand, groups, order) {
  const all = hand.map((c, i) => i);
  if (order === "suits") {
    const keys = hand.map(bySuit);
    return all.sort((a, b) => keys[a][0] - keys[b][0] || keys[a][1] - keys[b][1] || a - b);
  }
  const sized = (groups || []).reduce((a, n) => a + n, 0) === hand.length;
  if (order !== "trumps-right" || !sized) return all;
  const runs = [];
  let at = 0;
  for (const n of groups) {
    runs.push(all.slice(at, at + n));
    at += n;
  }
  return runs.reverse().flat();
}

/** A key per card that stays with it: the card and which copy of it (``SA#1``). */
function cardKeys(hand) {
  const seen = {};
  return hand.map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    return `${c}#${seen[c]}`;
  });
}

function Slot({ k, left, z, children, arriving }) {
  const ref = useRef(null);
  useLayoutEffect(() => {
    if (arriving) dropIn(ref.current);
  }, []);
  return html`<div class="hslot" ref=${ref} data-key=${k} style=${`left:${left}px;z-index:${z}`}>${children}</div>`;
}

let lastKeys = new Set();
let lastDeal = null;

export function Hand() {
  const g = state.game;
  const ref = useRef(null);
  const width = useWidth(ref);
  const cards = g.hand;
  const narrow = width < 560;
  const [phoneW, wideW] = WIDTHS[settings.cardSize] || WIDTHS.medium;
  const many = narrow && cards.length > 33; // three and four decks on a phone
  const cw = many ? Math.min(phoneW, 44) : narrow ? phoneW : wideW;
  const minStep = narrow ? Math.round(cw * 0.44) : Math.round(cw * 0.34);
  const order = handOrder(cards, g.hand_groups, settings.handOrder);
  // one row if the cards fit with their corners readable, else two, three or four rows
  let rows = [order];
  let step = cw;
  for (let r = 1; r <= 4; r++) {
    const per = Math.ceil(cards.length / r);
    step = per > 1 ? Math.min(cw + 4, (width - cw - 8) / (per - 1)) : cw;
    rows = Array.from({ length: r }, (_, k) => order.slice(k * per, (k + 1) * per)).filter((row) => row.length);
    if (step >= minStep) break;
  }
  const ch = Math.round(cw * 1.4);
  // rows overlap on a phone with many cards: each shows its corners above the next
  const rowH = many && rows.length > 2 ? Math.round(ch * 0.56) : ch + 14;
  const selectable = S.canSelect();
  const keys = cardKeys(cards);
  // cards just dealt drop in (not on the first view of a deal, nor on a reload)
  const dealing = g.phase === "dealing" && lastDeal === g.deal_no;
  const arriving = new Set(dealing ? keys.filter((k) => !lastKeys.has(k)) : []);
  lastKeys = new Set(keys);
  lastDeal = g.deal_no;
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
  const pre = selectable && !S.myTurn();
  return html`<div class=${"hand" + (selectable ? " active" : "") + (pre ? " pre" : "") + (many ? " many" : "")}
      ref=${ref} data-testid="hand" data-order=${settings.handOrder} style=${`--cw:${cw}px`}>
    ${rows.map((row, r) => {
      const total = (row.length - 1) * step + cw;
      const h = r === rows.length - 1 ? ch + 14 : rowH;
      return html`<div class="hrow" style=${`height:${h}px`}>
        ${row.map((i, k) => html`<${Slot} key=${keys[i]} k=${keys[i]} arriving=${arriving.has(keys[i])}
            left=${Math.round((width - total) / 2 + k * step)} z=${k + 1}>
          <${Card} card=${cards[i]} fourColor=${state.fourColor} testid=${"hand-" + i}
            trump=${g.trumpSet.has(cards[i])}
            selected=${state.selected.includes(i)}
            onClick=${() => S.toggleCard(i)}
            cls=${"hcard" + (fromKitty.has(i) ? " fromkitty" : "")} />
        </${Slot}>`)}
      </div>`;
    })}
  </div>`;
}
