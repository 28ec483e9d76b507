// The deal-end summary: its own header (level, trump, dealer), the attackers' points and
// the lines that add up to them (point cards won, failed throws, the kitty × its multiplier
// or the last-trick transfer), the kitty's cards, the point cards they won, who went up (the server's per-seat steps), the target or the friend, the
// levels before and after, the stake and the room's settlement. All of it is the summary
// the server put on the deal_ended event. The next deal is not dealt while it shows: the
// server holds it until every player pressed "next deal" (or its time is up).
import { t, tn } from "../i18n.js";
import { Card, splitCards } from "../cards.js";
import { SettlementLines } from "../stakes.js";
import * as S from "../store.js";
import { secondsLeft, useTicking } from "./clock.js";
import { html } from "./html.js";
import { stakeCounts } from "./infobar.js";
import { callLabel, levelLabel, seatName, teamName, trumpLabel } from "./labels.js";
import { signed } from "./points.js";

const { state } = S;

/** The level changes in words: per team (fixed partners) or per seat. */
function changeLines(sm) {
  const lines = [];
  const steps = sm.seat_steps || [];
  if (sm.teams && sm.teams.length) {
    if (sm.end.attackers_take_over) {
      const attacker = sm.roles.indexOf("attacker");
      if (attacker >= 0) lines.push(t("summary.take_over", { team: teamName(sm.teams[attacker]) }));
    }
    const seen = new Set();
    sm.teams.forEach((team, seat) => {
      if (seen.has(team)) return;
      seen.add(team);
      const d = steps[seat];
      if (d > 0) lines.push(tn("summary.up", d, { team: teamName(team) }));
      else if (d < 0) lines.push(t("summary.seat_down", { name: teamName(team), lv: sm.seat_levels_after[seat] }));
    });
  } else {
    steps.forEach((d, i) => {
      const lv = sm.seat_levels_after[i];
      if (d > 0) lines.push(tn("summary.seat_up", d, { name: seatName(i), lv }));
      else if (d < 0) lines.push(t("summary.seat_down", { name: seatName(i), lv }));
    });
    if (sm.end.attackers_take_over) lines.push(t("summary.attackers_take_over"));
  }
  const kp = sm.kitty_penalty;
  if (kp) lines.push(t("summary.penalty_" + kp.kind, { n: kp.levels }));
  if (!lines.length) lines.push(t("summary.no_change"));
  return lines;
}

/** One level before → after; an unchanged level is shown once, not struck through. */
export function LevelChange({ before, after }) {
  if (before === after) return html`<b>${levelLabel(after)}</b> <span class="muted">${t("summary.unchanged")}</span>`;
  return html`<s>${levelLabel(before)}</s> → <b>${levelLabel(after)}</b>`;
}

/** Levels before → after: per team (fixed partners) or per seat. */
function LevelRows({ sm }) {
  if (sm.teams && sm.teams.length) {
    return html`<div class="levels2" data-testid="summary-levels">${sm.team_levels_after.map((lv, team) => html`<span>
      ${teamName(team)}: <${LevelChange} before=${sm.team_levels_before[team]} after=${lv} /></span>`)}</div>`;
  }
  return html`<div class="levels2" data-testid="summary-levels">${sm.seat_levels_after.map((lv, i) => html`<span>
    ${seatName(i)}: <${LevelChange} before=${sm.seat_levels_before[i]} after=${lv} /></span>`)}</div>`;
}

/** A total as the lines show numbers: "−275" with a minus sign, never a hyphen. */
function total(n) {
  return n < 0 ? "−" + -n : String(n);
}

/** One line of the sum in words: what the points are, and the product where one is. */
function partText(p) {
  const v = { p: p.base, m: p.multiplier };
  return t("summary.part." + p.kind, v);
}

/** The attackers' points taken apart (the server's parts, which add up to the total). */
export function PointsSum({ sm, total: sum }) {
  const parts = sm.parts || [];
  if (!parts.length) return null;
  return html`<ul class="pointsum" data-testid="summary-sum">
    ${parts.map((p) => html`<li data-testid="summary-part" data-kind=${p.kind}>
      <span>${partText(p)}</span><b class="pts">${p.kind === "tricks" || p.points === 0 ? String(p.points) : signed(p.points)}</b></li>`)}
    <li class="total"><span>${t("summary.attacker_points")}</span><b class="pts" data-testid="summary-total">${total(sum)}</b></li>
  </ul>`;
}

/** The deal's own header (its level, trump and dealer), since the table behind may
 * already show the next deal's. */
function DealHead({ sm }) {
  return html`<p class="muted dealhead" data-testid="summary-head">${[
    t("summary.head_level", { lv: levelLabel(sm.level) }),
    t("summary.head_trump", { trump: sm.trump ? trumpLabel(sm.trump) : "—" }),
    sm.dealer != null ? t("summary.head_dealer", { name: seatName(sm.dealer) }) : null,
  ].filter(Boolean).join(" · ")}</p>`;
}

/** Whether the server holds the next deal until I press "next deal". */
function waitsForMe(sm) {
  const h = state.hold;
  return !!h && h.deal_no === sm.deal_no && state.seat != null && h.waiting.includes(state.seat);
}

/** Who the next deal waits for, and how long at most (the server's hold). */
function HoldLine({ sm }) {
  const h = state.hold;
  useTicking(h);
  if (!h || h.deal_no !== sm.deal_no) return null;
  const others = h.waiting.filter((i) => i !== state.seat).map((i) => seatName(i));
  return html`<p class="muted" data-testid="hold">${others.length
    ? t("summary.waiting_for", { names: others.join(t("list.sep")) }) + " · " : ""}${t("summary.next_in", { n: secondsLeft(h) })}</p>`;
}

export function Summary() {
  const sm = state.summary;
  if (!sm) return null;
  const k = sm.kitty;
  const pile = splitCards(sm.point_cards);
  const close = () => S.set({ summary: null });
  const tiny = (c) => html`<${Card} card=${c} fourColor=${state.fourColor} cls="tiny" />`;
  return html`<div class="overlay">
    <div class="dialog" data-testid="summary">
      <h2>${t("summary.title", { n: sm.deal_no + 1 })}</h2>
      <${DealHead} sm=${sm} />
      <div class="bigpoints"><span>${t("summary.attacker_points")}</span>
        <b data-testid="summary-points">${total(sm.end.attacker_points)}</b></div>
      <${PointsSum} sm=${sm} total=${sm.end.attacker_points} />
      ${k && k.cards ? html`<div class="kitty">
        <div class="k">${t("summary.kitty")}</div>
        <div class="cards" data-testid="summary-kitty-cards">${splitCards(k.cards).map(tiny)}</div>
      </div>` : null}
      ${pile.length ? html`<div class="kitty"><div class="k">${t("summary.point_cards")}</div>
        <div class="cards" data-testid="summary-pile">${pile.map(tiny)}</div></div>` : null}
      <ul class="changes" data-testid="summary-changes">${changeLines(sm).map((l) => html`<li>${l}</li>`)}</ul>
      ${sm.target ? html`<p class="muted" data-testid="summary-target">${t("summary.target_made", { n: sm.target, p: sm.end.attacker_points })}</p>` : null}
      ${sm.friend_call ? html`<p class="muted">${t("friend.title")}: ${callLabel(sm.friend_call)} — ${sm.friend != null
        ? t("friend.found", { name: seatName(sm.friend) }) : t("friend.alone")}</p>` : null}
      <${LevelRows} sm=${sm} />
      ${sm.end.stake > 1 && stakeCounts(state.room) ? html`<p class="muted" data-testid="summary-stake">${t("summary.stake", { s: sm.end.stake })}</p>` : null}
      <${SettlementLines} stakes=${state.room && state.room.stakes} settled=${sm.settled} seatName=${seatName} />
      <${HoldLine} sm=${sm} />
      <button class="primary" data-testid="next-deal" onClick=${() => (waitsForMe(sm) ? S.nextDeal() : close())}>
        ${state.matchOver || !state.game || state.room.status !== "playing" || state.review != null
          ? t("ui.close") : t("summary.next")}</button>
    </div>
  </div>`;
}
