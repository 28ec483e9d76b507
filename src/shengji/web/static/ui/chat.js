// The room's chat (players and spectators) and who is watching.
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";

const { state } = S;

export function Chat() {
  const [text, setText] = useState("");
  const list = useRef(null);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [state.chat.length]);
  const submit = (e) => {
    e.preventDefault();
    const s = text.trim();
    if (!s) return;
    S.send({ t: "chat", text: s.slice(0, 500) });
    setText("");
  };
  const seated = new Set((state.room ? state.room.seats : []).map((x) => x.player));
  const watchers = state.presence.filter((p) => !seated.has(p.player));
  return html`<section class="chat" data-testid="chat">
    <h3>${t("chat.title")}</h3>
    <div class="lines" ref=${list}>
      ${state.chat.map((c) => html`<div class="line"><b>${c.name}</b>${c.seat == null ? html`<small> (${t("chat.watching")})</small>` : null}: ${c.text}</div>`)}
    </div>
    <form onSubmit=${submit} class="row">
      <input data-testid="chat-input" maxlength="500" placeholder=${t("chat.placeholder")} value=${text}
        onInput=${(e) => setText(e.target.value)} />
      <button type="submit">${t("chat.send")}</button>
    </form>
    <p class="muted small" data-testid="spectators">${t("chat.spectators", { n: watchers.length })}${watchers.length ? ": " + watchers.map((p) => p.name).join(", ") : ""}</p>
  </section>`;
}
