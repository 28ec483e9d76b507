// The trick on the felt (each seat's cards placed clear of its plate; the finished trick
// stays with its winner marked until the next lead, then gathers to the winner) and the
// last-trick dialog (key L). A play flies in from its seat's plate (mine from the hand):
// motion.js, skipped when motion is off; the cards are in place from the first frame.
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { t } from "../i18n.js";
import { Card, splitCards } from "../cards.js";
import { MOTION_MS, flyFrom, flyTo } from "../motion.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { aidsOff, seatName } from "./labels.js";
import { seatPos } from "./seats.js";

const { state } = S;

/** The on-screen rectangle a play by ``seat`` comes from: my hand, or the seat's plate. */
function sourceRect(felt, seat) {
  if (!felt) return null;
  if (seat === state.seat) {
    const hand = document.querySelector("[data-testid=hand]");
    if (hand) {
      const r = hand.getBoundingClientRect();
      return { left: r.left + r.width / 2 - 30, top: r.top, width: 60, height: 40 };
    }
  }
  const plate = felt.querySelector(`[data-testid=seat-${seat}] .plate`);
  return plate ? plate.getBoundingClientRect() : null;
}

/** Keep a play clear of its own seat's plate: a plate grows with its badges, clock and a
 * two-line name (a phone's side seats), so the cards move past its edge, away from it.
 * Measured without transforms (offsetTop), so a play still flying in is placed right. */
function clearOwnPlate(el, seat) {
  const box = el && el.offsetParent;
  const plate = box && box.closest(".felt")?.querySelector(`[data-testid=seat-${seat}] .plate`);
  if (!plate) return;
  const r = plate.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const h = el.offsetHeight;
  const w = el.offsetWidth;
  const left = b.left + box.clientLeft + el.offsetLeft - w / 2;
  if (left >= r.right || left + w <= r.left) return; // side by side: nothing to do
  const top = b.top + box.clientTop + el.offsetTop - h / 2;
  const gap = 4;
  const below = top + h / 2 > r.top + r.height / 2;
  const shift = below ? r.bottom + gap - top : r.top - gap - (top + h);
  if ((below && shift > 0) || (!below && shift < 0)) el.style.top = `${el.offsetTop + shift}px`;
}

function Play({ seat, cards, winner, n, fly }) {
  const g = state.game;
  const ref = useRef(null);
  useLayoutEffect(() => {
    if (fly && ref.current) flyFrom(ref.current, sourceRect(ref.current.closest(".felt"), seat));
  }, []);
  useLayoutEffect(() => clearOwnPlate(ref.current, seat)); // after every render: plates grow
  const p = seatPos(seat, n);
  const style = `--dx:${p.dx};--dy:${p.dy};--drop:${p.drop}`;
  const list = splitCards(cards);
  const long = list.length > 10 ? " vlong" : list.length > 5 ? " long" : "";
  return html`<div class=${"play" + long + (seat === winner ? " won" : "")} style=${style}
      ref=${ref} data-testid=${"play-" + seat}>
    ${list.map((c) => html`<${Card} card=${c} fourColor=${state.fourColor}
      trump=${g.trumpSet.has(c)} cls="tcard" />`)}
  </div>`;
}

/** A finished trick on its way to its winner (shown once, over the next lead). */
function Gathering({ plays, winner, n, onDone }) {
  const ref = useRef(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const felt = el && el.closest(".felt");
    const plate = felt && felt.querySelector(`[data-testid=seat-${winner}] .plate`);
    const to = plate ? plate.getBoundingClientRect() : null;
    let left = plays.length;
    const one = () => {
      left -= 1;
      if (left <= 0) onDone();
    };
    const items = el ? [...el.querySelectorAll(".play")] : [];
    if (!items.length) onDone();
    items.forEach((p) => flyTo(p, to, one));
    const guard = setTimeout(onDone, MOTION_MS + 200); // never left on the felt
    return () => clearTimeout(guard);
  }, []);
  return html`<div class="gather" ref=${ref} aria-hidden="true">
    ${plays.map(([seat, cards]) => {
      const p = seatPos(seat, n);
      return html`<div class="play" style=${`--dx:${p.dx};--dy:${p.dy};--drop:${p.drop}`}>
        ${splitCards(cards).map((c) => html`<${Card} card=${c} fourColor=${state.fourColor}
          trump=${state.game.trumpSet.has(c)} cls="tcard" />`)}
      </div>`;
    })}
  </div>`;
}

let seenPlays = new Set(); // "deal/trick/seat" of plays already on the felt
let lastTrickKey = "";

export function TrickArea() {
  const g = state.game;
  const n = state.room.ruleset.players;
  const [gather, setGather] = useState(null);
  const live = g.trick.length > 0;
  const plays = live ? g.trick : g.last_trick && g.phase === "playing" ? g.last_trick.plays : [];
  const winner = !live && g.last_trick ? g.last_trick.winner : null;
  const trickNo = live ? g.tricks_done : g.tricks_done - 1;
  const keyOf = (seat) => `${g.deal_no}/${trickNo}/${seat}`;
  // a play appearing for the first time flies in; a reload or a resumed view does not
  const firstView = lastTrickKey === "";
  const fresh = plays.filter(([seat]) => !seenPlays.has(keyOf(seat))).map(([seat]) => seat);
  const trickKey = `${g.deal_no}/${trickNo}`;
  if (live && g.trick.length === 1 && g.last_trick && lastTrickKey === `${g.deal_no}/${trickNo - 1}`
      && !gather) {
    // the next lead: the finished trick gathers to its winner meanwhile
    const done = { plays: g.last_trick.plays, winner: g.last_trick.winner, key: trickKey };
    queueMicrotask(() => setGather(done));
  }
  if (trickKey !== lastTrickKey) seenPlays = new Set([...seenPlays].filter((k) => k.startsWith(trickKey)));
  for (const [seat] of plays) seenPlays.add(keyOf(seat));
  lastTrickKey = trickKey;
  return html`<div class=${"trick" + (live ? "" : " done")} data-testid="trick">
    ${gather ? html`<${Gathering} key=${gather.key} plays=${gather.plays} winner=${gather.winner} n=${n}
      onDone=${() => setGather(null)} />` : null}
    ${plays.map(([seat, cards]) => html`<${Play} key=${keyOf(seat)} seat=${seat} cards=${cards}
      winner=${winner} n=${n} fly=${!firstView && fresh.includes(seat)} />`)}
  </div>`;
}

export function LastTrick() {
  const g = state.game;
  const lt = g.last_trick;
  if (!state.showLast || !lt || aidsOff()) return null;
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
