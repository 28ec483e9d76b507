// The bar above the felt: trump (or the standing declaration's, with a "?"), the level and
// a short level sequence, each side's or seat's level, the friend call and whether it is
// found, the attackers' points against their goal, the deal number and stake, the room's
// stakes.
import { t } from "../i18n.js";
import { Card, SuitMark } from "../cards.js";
import { stakesRoomLabel } from "../stakes.js";
import { state } from "../store.js";
import { html } from "./html.js";
import {
  callLabel, fixedTeams, friendStatus, levelLabel, seatLevel, seatName, seatShort, teams, trumpLabel,
} from "./labels.js";
import { LevelSequence, isShortSequence } from "./levels.js";

/** Whether a deal's stake (×2 for each overturn) changes anything here: only in a room
 * playing for stakes that doubles on overturns; a plain room's levels never depend on it. */
export function stakeCounts(room) {
  const st = room && room.stakes;
  return !!st && st.kind !== "plain" && !!st.overturn_doubling;
}

/** "Us: 2" / "我方打2": whose level it is, then the level, never two bare numbers side by
 * side ("Team 2 2"). */
function levelChip(who, lv) {
  const [before, after] = t("info.team_level", { team: "\u0000", lv: "\u0001" }).split("\u0000");
  const [mid, end] = after.split("\u0001");
  return html`${before}${who}${mid}<b>${levelLabel(lv)}</b>${end}`;
}

export function InfoBar() {
  const g = state.game;
  const room = state.room;
  const me = state.seat;
  const tm = teams();
  const levels = (g && g.team_levels) || [];
  const dealerTeam = g && g.dealer != null && tm.length ? tm[g.dealer] : null;
  const seq = room ? room.ruleset.level_sequence : null;
  return html`<div class="infobar" data-testid="infobar">
    <div class="info trump" data-testid="trump">
      <span class="k">${t("info.trump")}</span>
      ${g && g.trump && g.trump !== "NT" ? html`<${SuitMark} suit=${g.trump} fourColor=${state.fourColor} />` : null}
      <b>${g ? trumpLabel(g.trump) : "—"}</b>
      ${g && !g.trump && g.declaration ? html`<span class="tentative">(${trumpLabel(g.declaration.trump)}?)</span>` : null}
      <span class="k">${t("info.level")}</span><b>${g ? levelLabel(g.level) : "—"}</b>
    </div>
    ${isShortSequence(seq) ? html`<div class="info"><${LevelSequence} seq=${seq} current=${g && g.level} /></div>` : null}
    <div class="info levels" data-testid="levels">
      <span class="k">${t("info.levels")}</span>
      ${!fixedTeams() && me != null && seatLevel(me) != null ? html`<span class="lv">${levelChip(t("team.me"), seatLevel(me))}</span>` : null}
      ${!fixedTeams() && g && g.dealer != null && g.dealer !== me ? html`<span class="lv def">${levelChip(seatShort(g.dealer), seatLevel(g.dealer))}
        <small>${t("badge.dealer")}</small></span>` : null}
      ${!fixedTeams() ? null : levels.map((lv, team) => html`<span class=${"lv" + (team === dealerTeam ? " def" : "")}>
        ${levelChip(me != null && tm[me] === team ? t("team.us") : t("team.n", { n: team + 1 }), lv)}
        ${team === dealerTeam ? html`<small>${t("badge.dealer")}</small>` : null}</span>`)}
    </div>
    ${g && g.friend_call ? html`<div class="info friendcall" data-testid="friend-call">
      <span class="k">${t("friend.title")}</span>
      <${Card} card=${g.friend_call.card} fourColor=${state.fourColor} cls="mini2" />
      <b>${callLabel(g.friend_call)}</b>
      <span class=${g.friend != null ? "found" : "muted"} data-testid="friend-status">${friendStatus(g)}</span>
    </div>` : null}
    <div class="info points" data-testid="points">
      <span class="k">${t("info.attacker_points")}</span>
      <b class="big" data-testid="points-value">${g ? g.attacker_points : 0}</b><span class="muted">/ ${g && g.goal != null ? g.goal : "—"}</span>
    </div>
    <div class="info deal" data-testid="deal-no">
      <b>${g ? t("info.deal_n", { n: g.deal_no + 1 }) : "—"}</b>
      ${g && g.stake > 1 && stakeCounts(room) ? html`<span class="badge" data-testid="stake"
        title=${t("info.stake_title")}>${t("info.stake", { s: g.stake })}</span>` : null}
    </div>
    ${stakesRoomLabel(room && room.stakes) ? html`<div class="info stakes" data-testid="room-stakes">
      <b>${stakesRoomLabel(room.stakes)}</b></div>` : null}
  </div>`;
}
