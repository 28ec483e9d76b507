// The create-room form's pace fields (room option ``table``): seconds to play, seconds to
// bury, call or bid (0: no turn timer; a seat that runs out goes on 托管), and how long the
// deal summary waits for "next deal". The defaults are the server's (``/api/meta``
// ``table``): a private room starts without a turn timer.
import { t } from "../i18n.js";
import { state } from "../store.js";
import { html } from "./html.js";

const FIELDS = [
  ["turn_s", "pace-turn", "lobby.turn_s"],
  ["long_turn_s", "pace-long-turn", "lobby.long_turn_s"],
  ["next_deal_s", "pace-next-deal", "lobby.next_deal_s"],
];

/** The server's pace for a new public or private room. */
export function paceDefaults(priv) {
  const d = state.meta && state.meta.table;
  const fallback = { turn_s: priv ? 0 : 30, long_turn_s: priv ? 0 : 60, next_deal_s: 30 };
  return (d && (priv ? d.private : d.public)) || fallback;
}

/** ``value``: the fields the player changed (the rest are the defaults). */
export function PaceFields({ value, priv, onChange }) {
  const d = paceDefaults(priv);
  return html`<fieldset class="pace" data-testid="pace">
    <legend>${t("lobby.pace")}</legend>
    <div class="grid3">
      ${FIELDS.map(([key, id, label]) => html`<label>${t(label)}
        <input type="number" min="0" max="600" step="1" data-testid=${id}
          value=${key in value ? value[key] : d[key]}
          onInput=${(e) => onChange({ ...value, [key]: e.target.value })} /></label>`)}
    </div>
    <p class="muted small">${t("lobby.pace_help")}</p>
  </fieldset>`;
}

/** The ``table`` option of ``POST /api/rooms``: the defaults with the player's changes. */
export function paceBody(value, priv) {
  const out = { ...paceDefaults(priv) };
  for (const [key] of FIELDS) {
    if (key in value && value[key] !== "") out[key] = Number(value[key]);
  }
  return out;
}
