// The replay viewer: a finished match (#/replay/ID/DEAL/STEP, /as/SEAT to watch a seat) or
// the match being played (#/review/CODE, as my seat saw it). A replay is the updates the
// table sent one audience, in order (GET /api/games/ID/replay?seat=N, docs/protocol.md), and
// each step is drawn by the table's own parts (info bar, felt, hand, point pile, played
// cards, the deal's summary) fed that update's view, as a live update feeds them: the
// viewer draws nothing of its own but its controls. Buttons, the ← → keys (↑ ↓ for deals)
// and a slider step through it, play/pause at a chosen speed.
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../i18n.js";
import * as S from "../store.js";
import { Felt } from "./felt.js";
import { Hand } from "./hand.js";
import { useStore } from "./hooks.js";
import { html } from "./html.js";
import { InfoBar } from "./infobar.js";
import { noticeText, recordName } from "./labels.js";
import { PlayedPanel } from "./played.js";
import { PointsPanel } from "./points.js";
import { Summary } from "./summary.js";

const { state } = S;

export const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 900; // one update a second or so at 1× (dealt cards go four times faster)

/** The updates of deal ``d`` (1-based) as [first, last] indices into ``data.updates``. */
export function dealRange(data, d) {
  const first = data.deals[d - 1].first;
  const next = data.deals[d];
  return [first, (next ? next.first : data.updates.length) - 1];
}

/** Clamp a (deal, step) pair into the replay; deal and step as in the address. */
export function clampSpot(data, d, p) {
  const deals = data.deals.length;
  if (!deals) return [0, 0];
  const di = Math.min(Math.max(d, 1), deals);
  const [first, last] = dealRange(data, di);
  return [di, Math.min(Math.max(p, 0), last - first)];
}

/** The room as the table's parts read it: the replay's, each plate named as the record
 * names its seat (a bot by its kind). */
function replayRoom(data) {
  const names = data.players || [];
  return { ...data.room, seats: data.room.seats.map((s) => ({ ...s,
    name: recordName(names, s.seat), connected: true })) };
}

/** Put update ``i`` on the table: its view, and what its events say (the summary, a
 * notice), exactly as a live update would. */
function show(data, i) {
  const u = data.updates[i];
  const said = S.readEvents(u.events);
  S.set({ review: i, room: data.tableRoom, seat: data.seat, game: u.game ? S.project(u.game) : null,
    summary: said.summary, selected: [], armed: null, showLast: false, clock: null, hold: null,
    presence: [], away: [], matchOver: null });
  return said.notice;
}

/** Leave the table as it was before the viewer drew on it. */
function clearTable() {
  S.set({ review: null, room: null, seat: null, game: null, summary: null });
}

/** The table itself, as the live room lays it out, without what only a player at it does. */
function ReplayTable({ said }) {
  const st = useStore();
  if (!st.room || !st.game) return null;
  return html`<div class="replaytable" data-testid="replay-board" data-shown=${st.review}>
    <div class="tablecol">
      <${InfoBar} />
      <div class="feltwrap"><${Felt} /></div>
      <p class="muted small rsaid" data-testid="replay-said">${said ? noticeText({ text: said }) : "\u00a0"}</p>
      ${st.seat != null ? html`<${Hand} />` : html`<p class="muted watching" data-testid="watching">${t("room.watching")}</p>`}
    </div>
    <aside class="side"><${PointsPanel} /><${PlayedPanel} /></aside>
    <${Summary} />
  </div>`;
}

/** Whose view to watch a finished match from: a seat or the spectators. */
function SeatPicker({ data, seat, pick }) {
  return html`<label class="small">${t("replay.as")}
    <select class="small" data-testid="replay-seat" value=${seat == null ? "s" : String(seat)}
      onChange=${(e) => pick(e.target.value === "s" ? null : Number(e.target.value))}>
      <option value="s">${t("replay.spectator")}</option>
      ${data.room.seats.map((s) => html`<option value=${s.seat}>${recordName(data.players || [], s.seat)}</option>`)}
    </select></label>`;
}

/** The controls and the table; ``spot`` is [deal, step] and ``go`` moves there. */
export function ReplayViewer({ data, spot, go, title, extra }) {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [d, p] = spot;
  const deal = data.deals[d - 1];
  const [first, lastIdx] = deal ? dealRange(data, d) : [0, 0];
  const last = lastIdx - first;
  const i = first + p;
  const [said, setSaid] = useState(null);
  useEffect(() => {
    if (deal) setSaid(show(data, i));
  }, [data, i]);
  useEffect(() => clearTable, []);
  const step = (k) => {
    if (!deal) return;
    if (k > 0 && p >= last) {
      if (d < data.deals.length) go(d + 1, 0);
      else setPlaying(false);
    } else if (k < 0 && p <= 0) {
      if (d > 1) go(d - 1, Infinity);
    } else go(d, p + k);
  };
  const stepRef = useRef(step);
  stepRef.current = step;
  const dealing = deal && data.updates[i] && data.updates[i].phase === "dealing";
  useEffect(() => {
    if (!playing) return undefined;
    const id = setTimeout(() => stepRef.current(1), STEP_MS / speed / (dealing ? 4 : 1));
    return () => clearTimeout(id);
  }, [playing, speed, i]);
  useEffect(() => {
    const onKey = (e) => {
      const tag = (e.target && e.target.tagName) || "";
      if (tag === "INPUT" && e.target.type !== "range") return;
      if (tag === "SELECT" || tag === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "ArrowRight") stepRef.current(1);
      else if (e.key === "ArrowLeft") stepRef.current(-1);
      else if (e.key === "ArrowDown") go(Math.min(d + 1, data.deals.length), 0);
      else if (e.key === "ArrowUp") go(Math.max(d - 1, 1), 0);
      else if (e.key === " ") setPlaying((x) => !x);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [d, p]);
  if (!deal) return html`<p class="muted" data-testid="replay-empty">${t("replay.empty")}</p>`;
  return html`<div class="replay" data-testid="replay" data-deal=${d} data-step=${p} data-first=${first}>
    <div class="rhead">
      <h2>${title}</h2>
      ${extra}
    </div>
    <div class="rcontrols" data-testid="replay-controls">
      <button class="small" data-testid="replay-prev-deal" disabled=${d <= 1} onClick=${() => go(d - 1, 0)}
        title=${t("replay.prev_deal")} aria-label=${t("replay.prev_deal")}>|◀</button>
      <button class="small" data-testid="replay-back" disabled=${d <= 1 && p <= 0} onClick=${() => step(-1)}
        title=${t("replay.back")} aria-label=${t("replay.back")}>◀</button>
      <button class="small primary" data-testid="replay-play" onClick=${() => setPlaying(!playing)}
        aria-pressed=${playing}>${playing ? t("replay.pause") : t("replay.play")}</button>
      <button class="small" data-testid="replay-next" disabled=${d >= data.deals.length && p >= last}
        onClick=${() => step(1)} title=${t("replay.next")} aria-label=${t("replay.next")}>▶</button>
      <button class="small" data-testid="replay-next-deal" disabled=${d >= data.deals.length}
        onClick=${() => go(d + 1, 0)} title=${t("replay.next_deal")} aria-label=${t("replay.next_deal")}>▶|</button>
      <label class="small">${t("replay.speed")}
        <select class="small" data-testid="replay-speed" value=${speed} onChange=${(e) => setSpeed(Number(e.target.value))}>
          ${SPEEDS.map((x) => html`<option value=${x}>${x}×</option>`)}
        </select></label>
      <input type="range" class="rslider" data-testid="replay-slider" min="0" max=${last} value=${p}
        aria-label=${t("replay.slider")} onInput=${(e) => go(d, Number(e.target.value))} />
      <span class="muted small" data-testid="replay-counter">${t("replay.counter", { d, deals: data.deals.length, p, last })}</span>
    </div>
    <${ReplayTable} said=${said} />
  </div>`;
}

/** The replay as the viewer keeps it: the server's, plus the room its table parts read. */
function prepared(x) {
  return { ...x, tableRoom: replayRoom(x) };
}

function parseHash() {
  const m = location.hash.match(/^#\/replay\/(\d+)(?:\/(\d+)(?:\/(\d+))?)?(?:\/as\/(\d+|s))?/);
  if (!m) return null;
  const as = m[4] == null ? undefined : m[4] === "s" ? null : Number(m[4]);
  return { id: Number(m[1]), d: Number(m[2] || 1), p: Number(m[3] || 0), as };
}

/** The page at #/replay/ID/DEAL/STEP[/as/SEAT]: fetch the updates of that audience, then
 * the viewer; the address follows each step, so a moment (and a seat) can be shared. A
 * player who sat in the match watches its own seat unless the address names another. */
export function ReplayPage() {
  const route = parseHash();
  const [data, setData] = useState(null);
  const [err, setErr] = useState(null);
  const [spot, setSpot] = useState([route ? route.d : 1, route ? route.p : 0]);
  const [seat, setSeat] = useState(route ? route.as : undefined);
  const id = route ? route.id : null;
  useEffect(() => {
    setErr(null);
    const q = seat === undefined ? "" : seat === null ? "" : `?seat=${seat}`;
    S.getJSON(`/api/games/${id}/replay${q}`).then((x) => {
      const me = state.player && x.players ? x.players.indexOf(state.player.name) : -1;
      if (seat === undefined) {
        setSeat(me >= 0 ? me : 0); // my seat, else the first: a hand to look at
        return;
      }
      setData(prepared(x));
      setSpot((sp) => clampSpot(x, sp[0], sp[1]));
    }).catch((e) => setErr(e.status === 404 ? t("replay.not_found") : e.message));
  }, [id, seat]);
  useEffect(() => {
    const onHash = () => { // an address typed or followed: that step, and that seat
      const r = parseHash();
      if (!r || r.id !== id || !data) return;
      setSpot(clampSpot(data, r.d, r.p));
      if (r.as !== undefined && r.as !== seat) {
        setData(null);
        setSeat(r.as);
      }
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [id, data, seat]);
  const address = (sp, who) => history.replaceState(null, "",
    `#/replay/${id}/${sp[0]}/${sp[1]}/as/${who == null ? "s" : who}`);
  const go = (d, p) => {
    const next = clampSpot(data, d, p);
    setSpot(next);
    address(next, seat);
  };
  const pick = (who) => {
    setData(null);
    setSeat(who);
    address(spot, who);
  };
  if (err) return html`<main class="replaypage"><p class="error" data-testid="replay-error">${err}</p>
    <a href="#/history">${t("history.back")}</a></main>`;
  if (!data) return html`<main class="replaypage loading" data-testid="replay-loading">${t("board.loading")}</main>`;
  const title = t("replay.title", { preset: t("preset." + data.preset), id });
  const extra = html`<span class="row">
    <${SeatPicker} data=${data} seat=${data.seat} pick=${pick} />
    <button class="small" data-testid="replay-download" onClick=${() => S.downloadRecord(id)}>${t("match.record")}</button>
    <a class="button small ghost" href="#/history" data-testid="replay-history">${t("history.back")}</a></span>`;
  return html`<main class="replaypage"><${ReplayViewer} data=${data} spot=${spot} go=${go}
    title=${title} extra=${extra} /></main>`;
}

/** The page at #/review/CODE (opened beside the room): the match being played, as this
 * player's seat saw it (its own hand only), from its last update. */
export function ReviewPage() {
  const code = (location.hash.match(/^#\/review\/([\w-]+)/) || [])[1];
  const [data, setData] = useState(null);
  const [err, setErr] = useState(null);
  const [spot, setSpot] = useState([1, 0]);
  useEffect(() => {
    S.getJSON(`/api/rooms/${code}/replay`).then((x) => {
      setData(prepared(x));
      const dl = x.deals.length;
      setSpot(dl ? clampSpot(x, dl, Infinity) : [1, 0]);
    }).catch((e) => setErr(e.message));
  }, [code]);
  const go = (d, p) => setSpot(clampSpot(data, d, p));
  if (err) return html`<main class="replaypage"><p class="error" data-testid="replay-error">${err}</p></main>`;
  if (!data) return html`<main class="replaypage loading">${t("board.loading")}</main>`;
  const extra = html`<a class="button small ghost" href=${"#/room/" + code} data-testid="review-back">${t("replay.back_to_room")}</a>`;
  return html`<main class="replaypage"><${ReplayViewer} data=${data} spot=${spot} go=${go}
    title=${t("replay.live_title")} extra=${extra} /></main>`;
}
