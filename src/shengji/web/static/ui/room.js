// One room's screen: the table column (info bar, felt, action bar, hand) and the side
// column (point pile, chat, leave), with the last-trick, summary and match-end dialogs.
import { t } from "../i18n.js";
import * as S from "../store.js";
import { ActionBar } from "./actions.js";
import { Chat } from "./chat.js";
import { Felt } from "./felt.js";
import { Hand } from "./hand.js";
import { html } from "./html.js";
import { InfoBar } from "./infobar.js";
import { MatchOver } from "./match_over.js";
import { PointsPanel } from "./points.js";
import { Summary } from "./summary.js";
import { LastTrick } from "./trick.js";

const { state } = S;

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
      <${Felt} />
      ${playing && state.seat != null ? html`<${ActionBar} />` : null}
      ${playing && state.seat != null ? html`<${Hand} />` : null}
      ${playing && state.seat == null ? html`<p class="muted watching" data-testid="watching">${t("room.watching")}</p>` : null}
    </div>
    <aside class="side">
      <${PointsPanel} />
      <${Chat} />
      <button class="ghost leave" data-testid="leave" onClick=${() => { S.exitRoom(true); location.hash = "#/"; }}>${t("room.leave")}</button>
    </aside>
    ${playing ? html`<${LastTrick} />` : null}
    <${Summary} />
    <${MatchOver} />
  </main>`;
}
