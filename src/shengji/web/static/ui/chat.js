// The room's chat (players and spectators) and who is watching.
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../i18n.js";
import * as S from "../store.js";
import { html } from "./html.js";

const { state } = S;

/** Quick-chat phrases (快捷语): sent as ``[qc:KEY]`` so each reader sees them in their own
 * language; the server treats them as chat lines (same length rules, same rate limit). */
export const PHRASES = ["hello", "hurry", "nice", "sorry", "teamwork", "again", "bye"];
export const EMOJI = ["😄", "😂", "😅", "😭", "😡", "❤"];

/** A chat line in words: a quick phrase in my language, anything else as it was typed. */
export function lineText(text) {
  const m = /^\[qc:(\w+)\]$/.exec(text);
  return m && PHRASES.includes(m[1]) ? t("quick." + m[1]) : text;
}

function QuickChat() {
  const [open, setOpen] = useState(false);
  const say = (text) => { S.send({ t: "chat", text }); setOpen(false); };
  return html`<div class="quickchat" data-testid="quick-chat">
    <button type="button" class="small" data-testid="quick-toggle" aria-expanded=${open}
      onClick=${() => setOpen(!open)}>${t("quick.title")}</button>
    ${EMOJI.map((e) => html`<button type="button" class="small emoji" data-testid="emoji" title=${e}
      onClick=${() => say(e)}>${e}</button>`)}
    ${open ? html`<div class="phrases">${PHRASES.map((k) => html`<button type="button" class="small"
      data-testid=${"quick-" + k} onClick=${() => say(`[qc:${k}]`)}>${t("quick." + k)}</button>`)}</div>` : null}
  </div>`;
}

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
      ${state.chat.map((c) => html`<div class="line"><b>${c.name}</b>${c.seat == null ? html`<small> (${t("chat.watching")})</small>` : null}: ${lineText(c.text)}</div>`)}
    </div>
    <${QuickChat} />
    <form onSubmit=${submit} class="row">
      <input data-testid="chat-input" maxlength="500" placeholder=${t("chat.placeholder")} value=${text}
        onInput=${(e) => setText(e.target.value)} />
      <button type="submit">${t("chat.send")}</button>
    </form>
    <p class="muted small" data-testid="spectators">${t("chat.spectators", { n: watchers.length })}${watchers.length ? ": " + watchers.map((p) => p.name).join(", ") : ""}</p>
  </section>`;
}
