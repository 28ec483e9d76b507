// The seat plates around the felt: where each seat sits (the viewer at the bottom, then in
// turn order), its name, dealer/friend/attacker badges (the server's roles), the turn
// countdown, 托管 and away marks, cards left, team or level, its last bid, its standing
// declaration.
import { t } from "../i18n.js";
import { Card, CardBack, splitCards } from "../cards.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { Countdown } from "./clock.js";
import { callsCopy, fixedTeams, isAway, levelLabel, seatLevel, seatName, teams } from "./labels.js";

const { state } = S;

/** Seat spots around the felt per table size, the viewer's first (at the bottom), then in
 * turn order (counter-clockwise: the next seat is on the right). ``x``/``y``: the plate, in
 * percent of the felt (``side`` pins it to the left or right edge); ``px``/``py``: the centre
 * of that seat's cards in a trick. Side seats play just below their plate (``py`` = ``y``
 * plus a fixed drop in pixels), whatever the felt's height, so cards never cover a plate. */
const SPOTS = {
  3: [{ x: 50, y: 90, px: 50, py: 70 }, { side: "right", y: 26, px: 70, py: 26, drop: true },
    { side: "left", y: 26, px: 30, py: 26, drop: true }],
  4: [{ x: 50, y: 90, px: 50, py: 70 }, { side: "right", y: 40, px: 71, py: 40, drop: true },
    { x: 50, y: 10, px: 50, py: 30 }, { side: "left", y: 40, px: 29, py: 40, drop: true }],
  5: [{ x: 50, y: 90, px: 50, py: 73 }, { side: "right", y: 44, px: 74, py: 44, drop: true },
    { x: 70, y: 10, px: 63, py: 31 }, { x: 30, y: 10, px: 37, py: 31 },
    { side: "left", y: 44, px: 26, py: 44, drop: true }],
  6: [{ x: 50, y: 90, px: 50, py: 73 }, { side: "right", y: 52, px: 74, py: 52, drop: true },
    { side: "right", y: 20, px: 71, py: 20, drop: true }, { x: 50, y: 10, px: 50, py: 31 },
    { side: "left", y: 20, px: 29, py: 20, drop: true },
    { side: "left", y: 52, px: 26, py: 52, drop: true }],
};

/** Phones (a felt about 370 × 360 px): five seats need the two across the table further
 * apart and the side seats lower, so that plates and tricks all fit. */
const NARROW_SPOTS = {
  5: [{ x: 50, y: 90, px: 50, py: 74 }, { side: "right", y: 50, px: 74, py: 50, drop: true },
    { x: 76, y: 10, px: 68, py: 30 }, { x: 24, y: 10, px: 32, py: 30 },
    { side: "left", y: 50, px: 26, py: 50, drop: true }],
};

const narrow = window.matchMedia("(max-width: 760px)");

/** Where seat ``i`` sits around the felt (the viewer at the bottom): its spot, and where
 * its trick cards go as offsets from the centre (``dx``, ``dy`` in percent, ``drop``). */
/** A plate's name; a bot's ("Heuristic (seat 3)") keeps its seat when the plate is too
 * narrow for the whole name ("Heuri… (seat 3)"): the seat is what tells the bots apart. */
function Name({ text, seat }) {
  // a bot's name ends in its seat ("Heuristic (seat 3)", "智能·3号"): that part stays whole
  const tail = seat == null ? "" : t("seat.bot", { level: "", n: seat + 1 });
  if (!tail || !text.endsWith(tail) || text.length === tail.length) {
    return html`<span class="sname" title=${text}>${text}</span>`;
  }
  return html`<span class="sname numbered" title=${text}><span class="sbase">${text.slice(0, -tail.length)}</span><span
    class="snum">${tail}</span></span>`;
}

export function seatPos(i, n) {
  const base = state.seat == null ? 0 : state.seat;
  const spots = (narrow.matches && NARROW_SPOTS[n]) || SPOTS[n] || SPOTS[4];
  const rel = (i - base + n) % n;
  const spot = spots[rel % spots.length];
  return { rel, spot, dx: spot.px - 50, dy: spot.py - 50, drop: spot.drop ? 1 : 0 };
}

/** A seat's role as the server knows it: dealer, partner, friend, attacker or null. */
function roleOf(i) {
  const g = state.game;
  return g && g.roles ? g.roles[i] : null;
}

export function SeatPlate({ i, n }) {
  const room = state.room;
  const g = state.game;
  const s = room.seats[i];
  const p = seatPos(i, n);
  const side = p.spot.side || "mid";
  let style = `top:${p.spot.y}%;`;
  if (side === "right") style += "right:1.5%";
  else if (side === "left") style += "left:1.5%";
  else style += `left:${p.spot.x}%`;
  const turn = g && g.to_act === i;
  const dealer = g && g.dealer === i;
  // first deal, before trump is fixed: the seat that deals if nothing more is declared
  const toDeal = g && g.dealer == null && g.dealer_to_be === i;
  const me = state.seat === i;
  const role = roleOf(i);
  const dealerSide = role === "dealer" || role === "partner" || role === "friend";
  const cls = ["seat", `rel${p.rel}`, side, p.spot.y < 30 ? "top" : "", turn ? "turn" : "",
    me ? "mine" : "", dealerSide ? "defender" : "",
    isAway(i) ? "away" : "", s.auto ? "auto" : ""].join(" ");
  const showDecl = g && ["dealing", "declaring", "rebury"].includes(g.phase);
  const decl = showDecl && g.declaration && g.declaration.seat === i ? g.declaration : null;
  const lv = fixedTeams() ? null : seatLevel(i);
  const bid = lastBid(i);
  return html`<div class=${cls} style=${style} data-testid=${"seat-" + i}>
    <div class="plate">
      <${Name} text=${s.kind === "empty" ? t("seat.empty") : seatName(i)} seat=${s.kind === "bot" ? i : null} />
      ${dealer ? html`<span class="badge dealer" title=${t("badge.dealer_title")}>${t("badge.dealer")}</span>` : null}
      ${toDeal ? html`<span class="badge dealer tentative" data-testid=${"to-deal-" + i}
        title=${t(room.ruleset.first_deal_overturn_takes_dealer
          ? "badge.to_deal_last" : "badge.to_deal_first")}>${t("badge.to_deal")}</span>` : null}
      <${SideBadge} i=${i} />
      ${bid != null ? html`<span class="badge bid" data-testid=${"bid-" + i}>${bid}</span>` : null}
      <${Countdown} seat=${i} />
      ${s.auto ? html`<span class="badge auto" data-testid=${"auto-" + i}
        title=${t("badge.auto_title")}>${t("badge.auto")}</span>`
        : s.substitute ? html`<span class="badge">${t("badge.substitute")}</span>` : null}
      ${isAway(i) ? html`<span class="badge away" data-testid=${"away-" + i}>${t("badge.away")}</span>` : null}
      ${g && g.hand_sizes[i] > 0 ? html`<span class="count" data-testid=${"count-" + i}
        title=${t("seat.cards_left")}><${CardBack} cls="mini" />${g.hand_sizes[i]}</span>` : null}
      ${fixedTeams() ? html`<span class="team">${t("team.n", { n: teams()[i] + 1 })}</span>` : null}
      ${lv != null ? html`<span class="team" data-testid=${"seat-level-" + i}>${t("seat.level", { lv: levelLabel(lv) })}</span>` : null}
    </div>
    ${decl ? html`<div class="decl">${splitCards(decl.cards).map(
      (c) => html`<${Card} card=${c} fourColor=${state.fourColor} cls="tiny" />`)}</div>` : null}
    ${state.seat == null && s.kind === "empty" ? html`<button class="small"
      data-testid=${"take-" + i} onClick=${() => S.send({ t: "sit", seat: i })}>${t("seat.take")}</button>` : null}
  </div>`;
}

/** Find-a-friend and 竞标: a "friend" badge on a revealed friend, an "attacker" badge once
 * the server says a seat attacks (fixed partners show their team instead). */
function SideBadge({ i }) {
  if (fixedTeams()) return null;
  const role = roleOf(i);
  if (role === "friend") {
    return html`<span class="badge friend" data-testid=${"friend-" + i}>${t("badge.friend")}</span>`;
  }
  if (role === "attacker") return html`<span class="badge attacker">${t("badge.attacker")}</span>`;
  // 找朋友 before the reveal: what this seat can tell (the view's friend_candidates)
  const g = state.game;
  const c = g && g.friend_candidates;
  if (!c || g.friend != null || i === g.dealer || callsCopy()) return null;
  if (c.length === 1 && c[0] === i) {
    return html`<span class="badge friend" data-testid=${"friend-" + i}>${t("badge.friend_hidden")}</span>`;
  }
  if (!c.includes(i)) {
    return html`<span class="badge attacker" data-testid=${"not-friend-" + i}>${t("badge.attacker")}</span>`;
  }
  return html`<span class="badge maybe" data-testid=${"maybe-friend-" + i}>${t("badge.maybe_friend")}</span>`;
}

/** 竞标: a seat's last word in the auction (its bid, or "pass"), shown on its plate. */
function lastBid(i) {
  const g = state.game;
  if (!g || !g.auction || g.phase !== "bidding") return null;
  for (let k = g.auction.length - 1; k >= 0; k--) {
    if (g.auction[k][0] === i) return g.auction[k][1] == null ? t("action.pass_bid") : String(g.auction[k][1]);
  }
  return null;
}
