// The turn clock: the seconds a seat has left to act, counted down on the page from what
// the server said (``clock``: ms_left when it was sent); when it runs out the server puts the
// seat on 托管. The page decides nothing: it only shows the server's clock.
import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";

const { state } = S;

/** Re-render every quarter second while ``x`` (a clock or a hold) runs. */
export function useTicking(x) {
  const [, tick] = useState(0);
  useEffect(() => {
    if (!x) return undefined;
    const id = setInterval(() => tick((n) => n + 1), 250);
    return () => clearInterval(id);
  }, [x]);
}

/** Seconds left, rounded up ("5s", "5秒"). */
export function secondsLeft(x) {
  return Math.ceil(S.msLeft(x) / 1000);
}

/** The countdown on seat ``seat``'s plate while its clock runs. */
export function Countdown({ seat }) {
  const c = state.clock;
  useTicking(c);
  if (!c || c.seat !== seat) return null;
  const left = secondsLeft(c);
  const cls = "countdown" + (left <= 5 ? " low" : "");
  return html`<span class=${cls} role="timer" data-testid=${"countdown-" + seat}
    title=${t("clock.title")}>${t("clock.s", { n: left })}</span>`;
}
