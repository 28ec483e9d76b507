// The deal-end summary: the attackers' points, the kitty and its multiplier, the point
// cards they won, who went up (the server's per-seat steps), the target or the friend, the
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
import { callLabel, levelLabel, seatName, teamName } from "./labels.js";
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
  if (!lines.length) lines.push(t("summary.no_change"));
  return lines;
}

/** Levels before → after: per team (fixed partners) or per seat. */
function LevelRows({ sm }) {
  if (sm.teams && sm.teams.length) {
    return html`<div class="levels2">${sm.team_levels_after.map((lv, team) => html`<span>
      ${teamName(team)}: <s>${sm.team_levels_before[team]}</s> → <b>${lv}</b></span>`)}</div>`;
  }
  return html`<div class="levels2">${sm.seat_levels_after.map((lv, i) => html`<span>
    ${seatName(i)}: <s>${levelLabel(sm.seat_levels_before[i])}</s> → <b>${levelLabel(lv)}</b></span>`)}</div>`;
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
      <div class="bigpoints"><span>${t("summary.attacker_points")}</span>
        <b data-testid="summary-points">${sm.end.attacker_points}</b></div>
      ${k ? html`<div class="kitty">
        <div class="k">${t("summary.kitty")}</div>
        <div class="cards">${splitCards(k.cards).map(tiny)}</div>
        <div class="muted" data-testid="summary-kitty">${k.multiplier
          ? t("summary.kitty_line", { p: k.points, m: k.multiplier, g: k.attacker_gain })
          : t("summary.kitty_kept", { p: k.points })}</div>
      </div>` : null}
      ${pile.length ? html`<div class="kitty"><div class="k">${t("summary.point_cards")}</div>
        <div class="cards" data-testid="summary-pile">${pile.map(tiny)}</div></div>` : null}
      ${sm.penalty_points ? html`<p class="muted" data-testid="summary-penalty">${t("info.penalty", { p: signed(sm.penalty_points) })}</p>` : null}
      <ul class="changes" data-testid="summary-changes">${changeLines(sm).map((l) => html`<li>${l}</li>`)}</ul>
      ${sm.target ? html`<p class="muted" data-testid="summary-target">${t("summary.target", { n: sm.target })}</p>` : null}
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
