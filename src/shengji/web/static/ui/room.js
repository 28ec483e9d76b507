// One room's screen: the table column (info bar, felt, action bar, hand) and the side
// column (point pile, chat, leave), with the last-trick, summary and match-end dialogs.
import { t } from "../i18n.js";
import * as S from "../store.js";
import { ActionBar } from "./actions.js";
import { Chat } from "./chat.js";
import { Felt } from "./felt.js";
import { Hand } from "./hand.js";
import { RulesPanel } from "./house_rules.js";
import { html } from "./html.js";
import { InfoBar } from "./infobar.js";
import { MatchOver } from "./match_over.js";
import { Notice } from "./notices.js";
import { PlayedPanel } from "./played.js";
import { PointsPanel } from "./points.js";
import { Summary } from "./summary.js";
import { OwnerControls, VotePanel } from "./table_controls.js";
import { LastTrick } from "./trick.js";

const { state } = S;

/** "Review this match": the match so far as my seat saw it, in the replay viewer, opened
 * beside the table (its own tab: the table here keeps playing). */
function Review() {
  return html`<a class="button ghost small" data-testid="review" href=${"#/review/" + state.code}
    target="_blank" rel="noopener">${t("replay.review")}</a>`;
}

export function RoomView() {
  const room = state.room;
  const g = state.game;
  if (!room) {
    return html`<main class="loading" data-testid="connecting">${t("room.connecting")}</main>`;
  }
  const playing = room.status === "playing" && g;
  return html`<main class="room">
    <div class="tablecol">
      ${room.status === "playing" ? html`<${InfoBar} />` : null}
      <div class="feltwrap">
        <${Notice} inRoom=${true} />
        <${VotePanel} />
        <${Felt} />
      </div>
      ${playing && state.seat != null ? html`<${ActionBar} />` : null}
      ${playing && state.seat != null ? html`<${Hand} />` : null}
      ${playing && state.seat == null ? html`<p class="muted watching" data-testid="watching">${t("room.watching")}</p>` : null}
    </div>
    <aside class="side">
      <${PointsPanel} />
      <${PlayedPanel} />
      ${playing ? html`<${RulesPanel} room=${room} />` : null}
      <${OwnerControls} />
      ${playing && (g.deal_no > 0 || g.phase !== "dealing") ? html`<${Review} />` : null}
      <${Chat} />
      <button class="ghost leave" data-testid="leave" onClick=${() => { S.exitRoom(true); location.hash = "#/"; }}>${t("room.leave")}</button>
    </aside>
    ${playing ? html`<${LastTrick} />` : null}
    <${Summary} />
    <${MatchOver} />
  </main>`;
}
