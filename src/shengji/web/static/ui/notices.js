// Banners under the top bar: "reconnecting…" while the socket is down, and the last notice
// (a refused action, a hint, a nudge, a friend revealed, a failed throw). A room-wide state
// banner (e.g. "the table is paused") belongs here too, one line per state.
import { t } from "../i18n.js";
import { state } from "../store.js";
import { html } from "./html.js";
import { noticeText } from "./labels.js";

export function Notice() {
  const n = state.notice;
  const conn = state.code && state.conn !== "open" && state.room ? t("room.reconnecting") : null;
  return html`<div class="notices">
    ${conn ? html`<div class="notice warn" data-testid="reconnecting">${conn}</div>` : null}
    ${state.paused && !conn ? html`<div class="notice warn" role="status" data-testid="paused">${t("room.paused")}</div>` : null}
    ${n ? html`<div class=${"notice " + n.kind} data-testid="notice">${noticeText(n)}</div>` : null}
  </div>`;
}
