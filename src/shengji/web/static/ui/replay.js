// The replay viewer (#/replay/ID/DEAL/TRICK): a finished match deal by deal and trick by
// trick, every hand face up; buttons, the ← → keys (↑ ↓ for deals) and a slider step
// through it, play/pause at a chosen speed. Each deal shows its declarations, the kitty
// picked up and buried, the friend call or the auction, then the table before the first lead
// and after each trick (the trick's cards, its winner, the attackers' points and point cards,
// the hands left), and at its end the kitty and each seat's level change. Like the table it
// computes no rule: the positions are the server's (GET /api/games/ID/replay). The same
// viewer shows the match being played, as the player's seat saw it (its own hand only).
import { useEffect, useRef, useState } from "preact/hooks";
import { t, tn } from "../i18n.js";
import { Card, SuitMark, splitCards } from "../cards.js";
import * as S from "../store.js";
import { html } from "./html.js";
import { callLabel, cardLabel, recordName, seatName, trumpLabel } from "./labels.js";
import { signed } from "./points.js";

const { state } = S;

export const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 1200; // one position a second and a bit at 1×

/** Grid areas around the table by table size, the viewer's seat first (at the bottom),
 * then in turn order (counter-clockwise: the next seat on the right). */
const AREAS = {
  3: ["b", "r", "l"],
  4: ["b", "r", "t", "l"],
  5: ["b", "r", "tr", "tl", "l"],
  6: ["b", "r", "tr", "t", "tl", "l"],
};

/** The positions of a deal: before the first lead, after each trick, then its end. */
export function stops(deal) {
  return deal.positions.length + (deal.end ? 1 : 0);
}

/** Clamp a (deal, position) pair into the replay; deal and position as in the URL. */
export function clampSpot(data, d, p) {
  const deals = data.deals.length;
  if (!deals) return [0, 0];
  const di = Math.min(Math.max(d, 1), deals);
  const last = stops(data.deals[di - 1]) - 1;
  return [di, Math.min(Math.max(p, 0), Math.max(last, 0))];
}

/** A seat's name in the replay; names that several seats share (bots) get their seat. */
function seatLabel(data, seat) {
  return recordName(data.names || data.players || [], seat, !data.names);
}

/** Cards as the table writes them in words: "♦5 ♦7 大王". */
function labelled(cards) {
  return splitCards(cards).map(cardLabel).join(" ");
}

function TinyCards({ cards, trumps, testid, cls = "rcard" }) {
  return html`<span class="rcards" data-testid=${testid}>${splitCards(cards).map((c) => html`<${Card}
    card=${c} fourColor=${state.fourColor} trump=${trumps.has(c)} cls=${cls} />`)}</span>`;
}

function SeatBox({ data, deal, pos, seat, area, trumps }) {
  const role = pos && pos.roles ? pos.roles[seat] : null;
  const hand = pos ? pos.hands[seat] : null;
  const play = pos && pos.plays ? pos.plays.find(([s]) => s === seat) : null;
  const dealer = deal.dealer === seat;
  const lv = deal.seat_levels ? deal.seat_levels[seat] : null;
  const won = pos && pos.winner === seat;
  return html`<div class=${"rseat area-" + area + (won ? " won" : "")} data-testid=${"rseat-" + seat}>
    <div class="plate">
      <span class="sname">${seatLabel(data, seat)}</span>
      ${dealer ? html`<span class="badge dealer">${t("badge.dealer")}</span>` : null}
      ${role === "friend" ? html`<span class="badge friend">${t("badge.friend")}</span>` : null}
      ${role === "attacker" && !data.teams.length ? html`<span class="badge attacker">${t("badge.attacker")}</span>` : null}
      ${data.teams.length ? html`<span class="team">${t("team.n", { n: data.teams[seat] + 1 })}</span>` : null}
      ${lv ? html`<span class="team">${t("seat.level", { lv })}</span>` : null}
      ${pos ? html`<span class="count">${pos.hand_sizes[seat]}</span>` : null}
    </div>
    ${hand != null ? html`<${TinyCards} cards=${hand} trumps=${trumps} testid=${"rhand-" + seat} />`
      : html`<span class="rcards back muted" data-testid=${"rhand-" + seat}>${pos ? t("replay.hidden_hand") : ""}</span>`}
    <div class="rplay" data-testid=${"rplay-" + seat}>${play ? html`<${TinyCards} cards=${play[1]}
      trumps=${trumps} cls="tcard" testid=${"rplayed-" + seat} />` : null}</div>
  </div>`;
}

/** What the deal said before the first lead: declarations or auction, kitty, friend call. */
function DealStart({ data, deal }) {
  const name = (s) => seatLabel(data, s);
  return html`<div class="rnotes" data-testid="replay-start">
    ${deal.redeals ? html`<p class="muted">${t("replay.redealt", { n: deal.redeals })}</p>` : null}
    ${deal.declarations.length ? html`<p data-testid="replay-declarations"><b>${t("replay.declarations")}</b>
      ${deal.declarations.map((d) => html`<span class="decl">${t("replay.decl." + d.kind, { name: name(d.seat) }) + " "
        + splitCards(d.cards).map((c) => cardLabel(c)).join(" ")}</span>`)}</p>`
      : deal.auction.length ? null : html`<p class="muted">${deal.turned
        ? t("replay.turned", { card: cardLabel(deal.turned) }) : t("replay.no_declaration")}</p>`}
    ${deal.auction.length ? html`<p data-testid="replay-auction"><b>${t("replay.auction")}</b>
      ${deal.auction.map(([s, x]) => `${name(s)} ${x == null ? t("action.pass_bid") : x}`).join(" · ")}
      ${deal.target ? " — " + t("bid.won", { name: name(deal.dealer), n: deal.target }) : ""}</p>` : null}
    ${deal.burials.map((b) => html`<p data-testid="replay-kitty"><b>${t("replay.kitty", { name: name(b.seat) })}</b>
      ${b.picked != null ? html` ${t("replay.picked")} ${splitCards(b.picked).map(cardLabel).join(" ")};` : null}
      ${b.buried != null ? html` ${t("replay.buried")} ${splitCards(b.buried).map(cardLabel).join(" ")}`
        : html` ${t("replay.buried_count", { n: b.count || 0 })}`}</p>`)}
    ${deal.friend_call ? html`<p data-testid="replay-friend"><b>${t("friend.title")}:</b> ${callLabel(deal.friend_call)}</p>` : null}
  </div>`;
}

/** The deal's end: attacker points, the kitty, each seat's level change. */
function DealEnd({ data, deal }) {
  const e = deal.end;
  const sm = e.summary;
  const k = e.kitty;
  return html`<div class="rnotes rend" data-testid="replay-end">
    <p><b>${t("summary.attacker_points")}: ${e.attacker_points}</b></p>
    ${k && k.cards ? html`<p data-testid="replay-kitty-end">${t("summary.kitty")}: ${splitCards(k.cards).map(cardLabel).join(" ")} —
      ${k.multiplier ? t("summary.kitty_line", { p: k.points, m: k.multiplier, g: k.attacker_gain })
        : t("summary.kitty_kept", { p: k.points })}</p>` : null}
    ${sm.penalty_points ? html`<p class="muted">${t("info.penalty", { p: signed(sm.penalty_points) })}</p>` : null}
    <p data-testid="replay-levels">${sm.seat_levels_after.map((lv, s) => html`<span class="lvchange">
      ${seatLabel(data, s)}: <s>${sm.seat_levels_before[s]}</s> → <b>${lv}</b>${sm.seat_steps[s] > 0
        ? " " + tn("replay.up", sm.seat_steps[s]) : ""}</span>`)}</p>
  </div>`;
}

export function ReplayBoard({ data, d, p }) {
  const deal = data.deals[d - 1];
  const last = stops(deal) - 1;
  const atEnd = deal.end && p === last;
  const pos = deal.positions[Math.min(p, deal.positions.length - 1)] || null;
  const n = data.seats;
  const base = data.seat != null ? data.seat : (data.mySeat != null ? data.mySeat : 0);
  const areas = AREAS[n] || AREAS[4];
  const trumps = new Set(splitCards(deal.trumps));
  const trickLabel = atEnd ? t("replay.deal_end") : p === 0 ? t("replay.before_lead")
    : t("replay.trick_n", { n: p });
  return html`<div class="rboard" data-testid="replay-board" data-deal=${d} data-pos=${p}>
    <div class="infobar rinfo">
      <div class="info trump" data-testid="replay-trump"><span class="k">${t("info.trump")}</span>
        ${deal.trump && deal.trump !== "NT" ? html`<${SuitMark} suit=${deal.trump} fourColor=${state.fourColor} />` : null}
        <b>${trumpLabel(deal.trump)}</b><span class="k">${t("info.level")}</span><b>${deal.level}</b></div>
      <div class="info"><b data-testid="replay-where">${t("info.deal_n", { n: deal.deal_no + 1 })} · ${trickLabel}</b></div>
      ${pos ? html`<div class="info points"><span class="k">${t("info.attacker_points")}</span>
        <b class="big" data-testid="replay-points">${atEnd ? deal.end.attacker_points : pos.attacker_points}</b></div>` : null}
      ${deal.friend_call ? html`<div class="info"><span class="k">${t("friend.title")}</span>
        <b>${callLabel(deal.friend_call)}</b></div>` : null}
    </div>
    <div class=${"rtable n" + n}>
      ${Array.from({ length: n }, (_, s) => html`<${SeatBox} key=${s} data=${data} deal=${deal} pos=${atEnd ? null : pos}
        seat=${s} area=${areas[(s - base + n) % n]} trumps=${trumps} />`)}
      <div class="rcentre">
        ${p === 0 ? html`<${DealStart} data=${data} deal=${deal} />` : null}
        ${atEnd ? html`<${DealEnd} data=${data} deal=${deal} />` : null}
        ${pos && p > 0 && !atEnd ? html`<div class="rtrick" data-testid="replay-trick">
          <span>${t("last.won", { p: pos.points })} — ${seatLabel(data, pos.winner)}</span>
          ${pos.throw ? html`<span class="warn" data-testid="replay-throw">${t("notice.throw_failed", {
            name: seatLabel(data, pos.throw.seat), attempted: labelled(pos.throw.attempted),
            forced: labelled(pos.throw.forced) })}</span>` : null}
          ${pos.friend_revealed != null ? html`<span data-testid="replay-friend-revealed">${t("notice.friend_revealed", {
            name: seatLabel(data, pos.friend_revealed) })}</span>` : null}
          ${pos.point_cards ? html`<span class="muted">${t("info.point_cards")}: ${splitCards(pos.point_cards).map(cardLabel).join(" ")}</span>` : null}
        </div>` : null}
      </div>
    </div>
  </div>`;
}

/** The controls and the board; ``spot`` is [deal, position] and ``go`` moves there. */
export function ReplayViewer({ data, spot, go, title, extra }) {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [d, p] = spot;
  const deal = data.deals[d - 1];
  const last = deal ? stops(deal) - 1 : 0;
  const step = (k) => {
    if (!deal) return;
    if (k > 0 && p >= last) {
      if (d < data.deals.length) go(d + 1, 0);
      else setPlaying(false);
    } else if (k < 0 && p <= 0) {
      if (d > 1) go(d - 1, stops(data.deals[d - 2]) - 1);
    } else go(d, p + k);
  };
  const stepRef = useRef(step);
  stepRef.current = step;
  useEffect(() => {
    if (!playing) return undefined;
    const id = setInterval(() => stepRef.current(1), STEP_MS / speed);
    return () => clearInterval(id);
  }, [playing, speed]);
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
  return html`<div class="replay" data-testid="replay">
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
    <${ReplayBoard} data=${data} d=${d} p=${p} />
  </div>`;
}

function parseHash() {
  const m = location.hash.match(/^#\/replay\/(\d+)(?:\/(\d+)(?:\/(\d+))?)?/);
  return m ? { id: Number(m[1]), d: Number(m[2] || 1), p: Number(m[3] || 0) } : null;
}

/** The page at #/replay/ID/DEAL/TRICK: fetch the positions, then the viewer; the address
 * follows each step, so a position can be shared. */
export function ReplayPage() {
  const route = parseHash();
  const [data, setData] = useState(null);
  const [err, setErr] = useState(null);
  const [spot, setSpot] = useState([route ? route.d : 1, route ? route.p : 0]);
  const id = route ? route.id : null;
  useEffect(() => {
    setData(null);
    setErr(null);
    S.getJSON(`/api/games/${id}/replay`).then((x) => {
      // the viewer's own seat at the bottom, if a seat bears its name
      const me = state.player && x.players ? x.players.indexOf(state.player.name) : -1;
      setData({ ...x, mySeat: me >= 0 ? me : null });
      setSpot((sp) => clampSpot(x, sp[0], sp[1]));
    }).catch((e) => setErr(e.status === 404 ? t("replay.not_found") : e.message));
  }, [id]);
  useEffect(() => {
    const onHash = () => {
      const r = parseHash();
      if (r && r.id === id && data) setSpot(clampSpot(data, r.d, r.p));
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [id, data]);
  const go = (d, p) => {
    const next = clampSpot(data, d, p);
    setSpot(next);
    history.replaceState(null, "", `#/replay/${id}/${next[0]}/${next[1]}`);
  };
  if (err) return html`<main class="replaypage"><p class="error" data-testid="replay-error">${err}</p>
    <a href="#/history">${t("history.back")}</a></main>`;
  if (!data) return html`<main class="replaypage loading" data-testid="replay-loading">${t("board.loading")}</main>`;
  const title = t("replay.title", { preset: t("preset." + data.preset), id });
  const extra = html`<span class="row">
    <button class="small" data-testid="replay-download" onClick=${() => S.downloadRecord(id)}>${t("match.record")}</button>
    <a class="button small ghost" href="#/history" data-testid="replay-history">${t("history.back")}</a></span>`;
  return html`<main class="replaypage"><${ReplayViewer} data=${data} spot=${spot} go=${go}
    title=${title} extra=${extra} /></main>`;
}

/** The match being played, as this seat saw it (own hand only), over the room. */
export function LiveReview({ code, onClose }) {
  const [data, setData] = useState(null);
  const [err, setErr] = useState(null);
  const [spot, setSpot] = useState([1, 0]);
  useEffect(() => {
    S.getJSON(`/api/rooms/${code}/replay`).then((x) => {
      const names = state.room ? state.room.seats.map((s, i) => seatName(i)) : null;
      const data2 = { ...x, names };
      setData(data2);
      const dl = x.deals.length;
      setSpot(dl ? [dl, stops(x.deals[dl - 1]) - 1] : [1, 0]);
    }).catch((e) => setErr(e.message));
  }, [code]);
  const go = (d, p) => setSpot(clampSpot(data, d, p));
  return html`<div class="overlay" onClick=${onClose}>
    <div class="dialog wide" data-testid="live-review" onClick=${(e) => e.stopPropagation()}>
      ${err ? html`<p class="error">${err}</p>` : !data ? html`<p class="muted">${t("board.loading")}</p>`
        : html`<${ReplayViewer} data=${data} spot=${spot} go=${go} title=${t("replay.live_title")} extra=${null} />`}
      <button onClick=${onClose} data-testid="live-review-close">${t("ui.close")}</button>
    </div>
  </div>`;
}
