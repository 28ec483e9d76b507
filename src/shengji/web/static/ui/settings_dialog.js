// The settings dialog: card size, the hand's order (the server's, or its suit groups the
// other way round), four-colour suits, sound cues, motion, language. Kept in this browser
// (settings.js); the language by i18n.js.
import { LANGS, lang, setLang, t } from "../i18n.js";
import { CARD_SIZES, HAND_ORDERS, setSetting, settings } from "../settings.js";
import { unlock } from "../sound.js";
import * as S from "../store.js";
import { html } from "./html.js";

/** Switch the language (and re-render everything in it). */
export async function switchLang(next) {
  await setLang(next);
  S.set({ lang: next });
}

function Choice({ name, value, options, label, onPick }) {
  return html`<div class="setting" role="radiogroup" aria-label=${label}>
    <span class="k">${label}</span>
    <div class="seg">${options.map((o) => html`<button type="button" class=${o === value ? "on" : ""}
        data-testid=${`set-${name}-${o}`} aria-checked=${o === value} role="radio"
        onClick=${() => onPick(o)}>${t(`settings.${name}.${o}`)}</button>`)}</div>
  </div>`;
}

function Toggle({ name, label, hint, onChange }) {
  return html`<label class="setting check">
    <input type="checkbox" data-testid=${"set-" + name} checked=${settings[name]}
      onChange=${(e) => onChange(e.target.checked)} />
    <span>${label}${hint ? html`<br /><small class="muted">${hint}</small>` : null}</span>
  </label>`;
}

export function SettingsDialog({ onClose }) {
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return html`<div class="overlay" onClick=${onClose}>
    <div class="dialog settings" data-testid="settings-dialog" onClick=${(e) => e.stopPropagation()}>
      <h2>${t("settings.title")}</h2>
      <${Choice} name="cardSize" value=${settings.cardSize} options=${CARD_SIZES}
        label=${t("settings.card_size")} onPick=${(v) => setSetting("cardSize", v)} />
      <${Choice} name="handOrder" value=${settings.handOrder} options=${HAND_ORDERS}
        label=${t("settings.hand_order")} onPick=${(v) => setSetting("handOrder", v)} />
      <${Toggle} name="fourColor" label=${t("ui.four_color")} hint=${t("ui.four_color_hint")}
        onChange=${(v) => setSetting("fourColor", v)} />
      <${Toggle} name="sound" label=${t("settings.sound")} hint=${t("settings.sound_hint")}
        onChange=${(v) => { if (v) unlock(); setSetting("sound", v); }} />
      <${Toggle} name="motion" label=${t("settings.motion")}
        hint=${reduced ? t("settings.motion_reduced") : t("settings.motion_hint")}
        onChange=${(v) => setSetting("motion", v)} />
      <${Choice} name="lang" value=${lang()} options=${LANGS} label=${t("settings.language")}
        onPick=${(v) => switchLang(v)} />
      <p class="muted small">${t("settings.kept")}</p>
      <button class="primary" data-testid="settings-close" onClick=${onClose}>${t("ui.close")}</button>
    </div>
  </div>`;
}
