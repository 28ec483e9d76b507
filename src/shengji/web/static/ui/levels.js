// A level sequence that skips ranks (tournament: 2 5 10 J Q K A), with the current level
// marked; shown in the create-room form, the waiting room and the info bar.
import { t } from "../i18n.js";
import { html } from "./html.js";

/** Whether a level sequence skips ranks (so it is worth showing). */
export function isShortSequence(seq) {
  return !!seq && seq.length > 0 && seq.length < 13;
}

/** ``2 5 [10] J Q K A``. */
export function LevelSequence({ seq, current }) {
  return html`<span class="lvseq" data-testid="level-sequence">
    <span class="k">${t("info.level_sequence")}</span>
    ${seq.map((r) => html`<span class=${"lvstep" + (r === current ? " cur" : "")}>${r}</span>`)}
  </span>`;
}
