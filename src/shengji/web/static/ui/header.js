// The top bar: the brand (a link to the lobby), the player's name, the game history, the
// sound toggle (off by default), the settings and the language toggle.
import { useState } from "preact/hooks";
import { LANGS, lang, t } from "../i18n.js";
import { setSetting, settings } from "../settings.js";
import { unlock } from "../sound.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { SettingsDialog, switchLang } from "./settings_dialog.js";

/** A speaker, with sound waves or struck out (drawn: no emoji font needed). */
function Speaker({ on }) {
  return html`<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none"
      stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
    <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
    ${on ? html`<path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11" />`
      : html`<path d="M16 9l5 6M21 9l-5 6" />`}
  </svg>`;
}

export function Header() {
  const st = S.state;
  const [open, setOpen] = useState(false);
  const toggleLang = () => switchLang(LANGS[(LANGS.indexOf(lang()) + 1) % LANGS.length]);
  const toggleSound = () => {
    if (!settings.sound) unlock(); // this click lets the browser start audio
    setSetting("sound", !settings.sound);
  };
  return html`<header class="top">
    <a class="brand" href="#/">
      <span class="logo">升级</span><span class="sub">${t("app.subtitle")}</span>
    </a>
    <div class="spacer"></div>
    ${st.player ? html`<span class="me" data-testid="me">${st.player.name}</span>` : null}
    ${st.player ? html`<a class="button ghost hbtn" href="#/history" data-testid="history-link"
      title=${t("history.title")}>${t("history.short")}</a>` : null}
    <button class="ghost hbtn" onClick=${toggleSound} data-testid="sound" aria-pressed=${settings.sound}
      title=${settings.sound ? t("settings.sound_on") : t("settings.sound_off")}
      aria-label=${t("settings.sound")}><${Speaker} on=${settings.sound} /></button>
    <button class="ghost hbtn" onClick=${() => setOpen(true)} data-testid="settings"
      title=${t("settings.title")} aria-label=${t("settings.title")}>⚙</button>
    <button class="ghost" onClick=${toggleLang} data-testid="lang">${t("ui.other_lang")}</button>
  </header>
  ${open ? html`<${SettingsDialog} onClose=${() => setOpen(false)} />` : null}`;
}
