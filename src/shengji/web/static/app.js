// The browser table's entry: routing (#/ the lobby, #/room/CODE a room, #/history the game
// history, #/replay/ID/DEAL/STEP a replay, #/review/CODE the match a room is playing), the keys (Enter play, H hint, L last trick, Esc
// clear; ← → in a replay) and start-up. Preact + htm, no build step; the history and the
// replay viewer load only when opened, so the table's first load stays small.
// Each part of the screen is a module under ui/, named for what it shows: lobby, waiting
// room, seats, info bar, trick, hand, actions, pickers, points, summary, match end, chat.
// The client computes no rule: see store.js.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { SuitDefs } from "./cards.js";
import { initialLang, setLang } from "./i18n.js";
import * as S from "./store.js";
import { Header } from "./ui/header.js";
import { useStore } from "./ui/hooks.js";
import { html } from "./ui/html.js";
import { Lobby, NameForm } from "./ui/lobby.js";
import { Notice } from "./ui/notices.js";
import { RoomView } from "./ui/room.js";

const { state } = S;

function routeCode() {
  const m = location.hash.match(/^#\/room\/([\w-]+)/);
  return m ? m[1] : null;
}

/** The page the address names: ``room`` (with ``routeCode``), ``history``, ``replay``,
 * ``review`` or the lobby. */
function routePage() {
  if (/^#\/history/.test(location.hash)) return "history";
  if (/^#\/replay\/\d+/.test(location.hash)) return "replay";
  if (/^#\/review\/[\w-]+/.test(location.hash)) return "review";
  return routeCode() ? "room" : "lobby";
}

const pages = {}; // lazily loaded page modules

/** A page whose module is loaded on first use (history.js, replay.js). */
function Lazy({ name, load, pick }) {
  const [mod, setMod] = useState(pages[name] || null);
  useEffect(() => {
    if (!mod) load().then((m) => { pages[name] = m; setMod(m); });
  }, [name]);
  if (!mod) return html`<main class="loading">…</main>`;
  const Page = pick(mod);
  return html`<${Page} />`;
}

function onKey(e) {
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
  if (!state.game || state.seat == null || !routeCode()) return;
  if (e.key === "Enter") {
    if (S.playSelection()) e.preventDefault();
  } else if (e.key === "h" || e.key === "H") {
    S.askHint();
  } else if (e.key === "Escape") {
    S.clearSelection();
    S.set({ showLast: false });
  } else if (e.key === "l" || e.key === "L") {
    S.set({ showLast: !state.showLast });
  }
}

function App() {
  const st = useStore();
  const [code, setCode] = useState(routeCode());
  const [page, setPage] = useState(routePage());
  useEffect(() => {
    const onHash = () => {
      setCode(routeCode());
      setPage(routePage());
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => {
    if (code && st.player) S.enterRoom(code);
    else if (!code && st.code) S.exitRoom();
  }, [code, st.player && st.player.token]);
  useEffect(() => {
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  let body;
  if (page === "replay") {
    body = html`<${Lazy} key="replay" name="replay" load=${() => import("./ui/replay.js")} pick=${(m) => m.ReplayPage} />`;
  } else if (page === "review") {
    body = html`<${Lazy} key="review" name="replay" load=${() => import("./ui/replay.js")} pick=${(m) => m.ReviewPage} />`;
  } else if (!st.player) body = html`<main class="lobby"><${NameForm} /></main>`;
  else if (code) body = html`<${RoomView} />`;
  else if (page === "history") {
    body = html`<${Lazy} key="history" name="history" load=${() => import("./ui/history.js")} pick=${(m) => m.HistoryPage} />`;
  } else body = html`<${Lobby} />`;
  return html`<${SuitDefs} /><${Header} /><${Notice} />${body}`;
}

async function main() {
  const l = initialLang();
  await setLang(l);
  S.set({ lang: l });
  await S.checkPlayer();
  const q = new URLSearchParams(location.search).get("room");
  if (q) history.replaceState(null, "", `/#/room/${encodeURIComponent(q)}`);
  else if (routePage() === "lobby" && !location.hash.startsWith("#/new")) { // a rules link stays
    const last = localStorage.getItem("shengji.room");
    if (last && state.player) history.replaceState(null, "", `#/room/${last}`);
  }
  render(html`<${App} />`, document.getElementById("app"));
  window.__shengji = state; // for tests and curious players
}

main();
