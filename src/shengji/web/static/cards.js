// Our own SVG card faces: corner index, suit glyph (drawn as paths, no font needed),
// 大王/小王 jokers, a card back, and optional four-colour suits.
// Cards are strings in the project's notation: "SA", "H10", "D2", "BJ" (大王), "LJ" (小王).
// Which cards are trump, their order and their points are the server's (GameView.trumps,
// the hand's order, point_cards): nothing here knows a rule.
import { h } from "preact";
import htm from "htm";

const html = htm.bind(h);

export const SUITS = ["S", "H", "D", "C"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

/** Parse a card: {suit: "S"|"H"|"D"|"C"|null, rank: "10"|..., joker: "BJ"|"LJ"|null}. */
export function parseCard(card) {
  if (card === "BJ" || card === "LJ") return { suit: null, rank: null, joker: card };
  return { suit: card[0], rank: card.slice(1), joker: null };
}

/** A card string split into cards: "SA SA SK" -> ["SA", "SA", "SK"]. */
export function splitCards(text) {
  return text ? text.split(/\s+/).filter(Boolean) : [];
}

export function suitColor(suit, fourColor) {
  if (fourColor) return { S: "#1b1b1b", H: "#d0202a", D: "#1565c0", C: "#1f7a2e" }[suit];
  return suit === "H" || suit === "D" ? "#d0202a" : "#1b1b1b";
}

/** The suit shapes, defined once per page and used by every card (<use href="#sj-S">). */
export function SuitDefs() {
  return html`<svg width="0" height="0" style="position:absolute" aria-hidden="true">
    <defs>
      <symbol id="sj-H" viewBox="0 0 100 100">
        <path d="M50 92C22 68 2 50 2 29 2 13 14 3 28 3c10 0 18 6 22 15 4-9 12-15 22-15 14 0 26 10 26 26 0 21-20 39-48 63z" />
      </symbol>
      <symbol id="sj-D" viewBox="0 0 100 100">
        <path d="M50 2 88 50 50 98 12 50z" />
      </symbol>
      <symbol id="sj-S" viewBox="0 0 100 100">
        <path d="M50 3C62 22 98 38 98 62c0 15-11 24-23 24-9 0-16-4-20-11 1 10 6 17 14 23H31c8-6 13-13 14-23-4 7-11 11-20 11C13 86 2 77 2 62 2 38 38 22 50 3z" />
      </symbol>
      <symbol id="sj-C" viewBox="0 0 100 100">
        <circle cx="50" cy="27" r="22" />
        <circle cx="25" cy="59" r="22" />
        <circle cx="75" cy="59" r="22" />
        <path d="M45 50h10c0 22 4 36 15 48H30c11-12 15-26 15-48z" />
      </symbol>
      <symbol id="sj-star" viewBox="0 0 100 100">
        <path d="M50 4l13 30 33 3-25 22 8 32-29-17-29 17 8-32L4 37l33-3z" />
      </symbol>
    </defs>
  </svg>`;
}

function Index({ rank, suit, color }) {
  const ten = rank === "10";
  return html`<g>
    <text x="6.5" y="16" fill=${color} class="cidx" font-size=${ten ? 13 : 15}
      textLength=${ten ? 13 : undefined} lengthAdjust="spacingAndGlyphs">${rank}</text>
    <use href=${"#sj-" + suit} x="4" y="20" width="11" height="11" fill=${color} />
  </g>`;
}

function Face({ rank, suit, color }) {
  if (rank === "J" || rank === "Q" || rank === "K") {
    return html`<g>
      <rect x="17" y="20" width="36" height="52" rx="3" fill="none" stroke=${color}
        stroke-width="1.2" opacity="0.6" />
      <text x="35" y="50" text-anchor="middle" fill=${color} class="cface">${rank}</text>
      <use href=${"#sj-" + suit} x="28" y="54" width="14" height="14" fill=${color} />
    </g>`;
  }
  if (rank === "A") {
    return html`<use href=${"#sj-" + suit} x="20" y="28" width="30" height="30" fill=${color} />`;
  }
  return html`<use href=${"#sj-" + suit} x="23" y="32" width="24" height="24" fill=${color} />`;
}

function Joker({ big }) {
  const color = big ? "#d0202a" : "#1b1b1b";
  const label = big ? "大王" : "小王";
  return html`<g>
    <text x="10" y="17" text-anchor="middle" fill=${color} class="cjoker">${label[0]}</text>
    <text x="10" y="31" text-anchor="middle" fill=${color} class="cjoker">${label[1]}</text>
    <use href="#sj-star" x="19" y="30" width="32" height="32" fill=${color}
      stroke=${big ? "#8a0f16" : "#555"} stroke-width="3" />
    <text x="35" y="75" text-anchor="middle" fill=${color} class="cjword">JOKER</text>
  </g>`;
}

/**
 * One card face. Props: card ("SA"), fourColor, trump (bool: mark it as trump),
 * selected, onClick, cls (extra class names), title.
 */
export function Card({ card, fourColor, trump, selected, onClick, cls, title, testid }) {
  const c = parseCard(card);
  const color = c.joker ? null : suitColor(c.suit, fourColor);
  const classes = ["card", selected ? "sel" : "", trump ? "trump" : "", cls || ""].join(" ");
  return html`<svg class=${classes} viewBox="0 0 60 84" role="img" aria-label=${card}
      data-card=${card} data-testid=${testid} onClick=${onClick}>
    <title>${title || card}</title>
    <rect x="0.5" y="0.5" width="59" height="83" rx="5" class="cbg" />
    ${trump ? html`<rect x="0.5" y="78" width="59" height="5.5" rx="2" class="ctrump" />` : null}
    <circle cx="14" cy="40" r="4" class="cnew" />
    ${c.joker
      ? html`<${Joker} big=${c.joker === "BJ"} />`
      : html`<${Index} rank=${c.rank} suit=${c.suit} color=${color} />
          <${Face} rank=${c.rank} suit=${c.suit} color=${color} />`}
  </svg>`;
}

/** The back of a card (another seat's hand, the kitty face down). */
export function CardBack({ cls }) {
  return html`<svg class=${"card back " + (cls || "")} viewBox="0 0 60 84" aria-hidden="true">
    <rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#fff" stroke="#8a8a8a" />
    <rect x="4" y="4" width="52" height="76" rx="3" fill="#1d4f91" />
    <path d="M4 14 14 4M4 26 26 4M4 38 38 4M4 50 50 4M4 62 56 10M4 74 56 22M10 80 56 34M22 80 56 46M34 80 56 58M46 80 56 70"
      stroke="#3c74c0" stroke-width="2.2" />
    <path d="M4 46 38 80M4 34 50 80M4 22 56 74M4 10 56 62M10 4 56 50M22 4 56 38M34 4 56 26M46 4 56 14"
      stroke="#3c74c0" stroke-width="2.2" />
    <circle cx="30" cy="42" r="13" fill="#1d4f91" stroke="#e8c46a" stroke-width="2" />
    <text x="30" y="48" text-anchor="middle" class="cback">升</text>
  </svg>`;
}

/** A small inline suit mark, e.g. for the trump indicator ("NT" shows 无主 from i18n). */
export function SuitMark({ suit, fourColor, size = 16 }) {
  return html`<svg class="suitmark" width=${size} height=${size} viewBox="0 0 100 100"
      aria-label=${suit}>
    <use href=${"#sj-" + suit} fill=${suitColor(suit, fourColor)} />
  </svg>`;
}
