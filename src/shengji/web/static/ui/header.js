// The top bar: the brand (a link to the lobby), the player's name, the four-colour and
// language toggles.
import { LANGS, lang, setLang, t } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";

export function Header() {
  const st = S.state;
  const toggleLang = async () => {
    const next = LANGS[(LANGS.indexOf(lang()) + 1) % LANGS.length];
    await setLang(next);
    S.set({ lang: next });
  };
  const toggleColors = () => {
    localStorage.setItem("shengji.fourColor", st.fourColor ? "0" : "1");
    S.set({ fourColor: !st.fourColor });
  };
  return html`<header class="top">
    <a class="brand" href="#/">
      <span class="logo">升级</span><span class="sub">${t("app.subtitle")}</span>
    </a>
    <div class="spacer"></div>
    ${st.player ? html`<span class="me" data-testid="me">${st.player.name}</span>` : null}
    <button class="ghost" onClick=${toggleColors} title=${t("ui.four_color_hint")}
      data-testid="four-color" aria-pressed=${st.fourColor}>
      ${st.fourColor ? t("ui.two_color") : t("ui.four_color")}
    </button>
    <button class="ghost" onClick=${toggleLang} data-testid="lang">${t("ui.other_lang")}</button>
  </header>`;
}
