// Banners under the top bar: "reconnecting…" while the socket is down, and the last notice
// (a refused action, a hint, a nudge, a friend revealed, a failed throw). A room-wide state
// banner (e.g. "the table is paused") belongs here too, one line per state.
import { t } from "../i18n.js";
import { state } from "../store.js";
import { html } from "./html.js";
import { noticeText } from "./labels.js";

/** The banners: over the top of the felt in a room (never over the trump and points chips
 * of the info bar), under the top bar elsewhere. The app renders one outside rooms. */
export function Notice({ inRoom = false }) {
  if (!inRoom && state.code && state.room) return null; // the room shows its own
  const n = state.notice;
  const conn = state.code && state.conn !== "open" && state.room ? t("room.reconnecting") : null;
  return html`<div class=${"notices" + (inRoom ? " inroom" : "")} aria-live="polite">
    ${conn ? html`<div class="notice warn" data-testid="reconnecting">${conn}</div>` : null}
    ${state.paused && !conn ? html`<div class="notice warn" role="status" data-testid="paused">${t("room.paused")}</div>` : null}
    ${n ? html`<div class=${"notice " + n.kind} data-testid="notice">${noticeText(n)}</div>` : null}
  </div>`;
}
