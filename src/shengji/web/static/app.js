// The browser table: lobby, seating, the game, chat. Preact + htm, no build step.
import { h, render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import htm from "htm";
import { Card, CardBack, SuitDefs, SuitMark, isTrump, splitCards } from "./cards.js";
import { LANGS, has, initialLang, lang, setLang, t } from "./i18n.js";
import * as S from "./store.js";
import { NO_STAKES, SettlementLines, StakesFields, stakesBody, stakesLabel, stakesRoomLabel } from "./stakes.js";

const html = htm.bind(h);
const { state } = S;

// ------------------------------------------------------------------------------ helpers

function seatName(i) {
  const s = state.room && state.room.seats[i];
  if (!s) return t("seat.n", { n: i + 1 });
  if (s.kind === "human") return s.name;
  if (s.kind === "bot") {
    // several bots of one kind: tell them apart by their seat number
    const same = state.room.seats.filter((x) => x.kind === "bot" && x.bot === s.bot).length;
    const name = t("seat.bot", { level: t("bot." + s.bot) });
    return same > 1 ? `${name} ${i + 1}` : name;
  }
  return t("seat.empty");
}

function teamOf(seat) {
  return seat % 2;
}

/** Words for a refused action: the catalog's wording of its code, else the server's text. */
function reasonText(code, message) {
  if (lang() === "en" && message) return message;
  if (code && has("reason." + code)) return t("reason." + code);
  return message || code || "";
}

function noticeText(n) {
  if (!n) return "";
  const x = n.text;
  if (typeof x === "string") return x;
  if (x.code) return reasonText(x.code, x.message);
  if (x.key === "notice.throw_failed") {
    return t(x.key, { name: seatName(x.seat), attempted: x.attempted, forced: x.forced });
  }
  if (x.key === "notice.hint") return t(x.key, { action: actionLabel(x.action) });
  if (x.key === "notice.friend_revealed") return t(x.key, { name: seatName(x.seat) });
  if (x.key === "notice.not_friend") return t(x.key, { name: seatName(x.seat), card: cardLabel(x.card) });
  return t(x.key, x);
}

function trumpLabel(trump) {
  if (!trump) return t("trump.undecided");
  if (trump === "NT") return t("trump.NT");
  return t("suit." + trump);
}

function actionLabel(action) {
  if (action === "pass") return t("action.pass");
  const [verb, ...cards] = action.split(" ");
  if (verb === "trump") return t("action.trump_suit", { suit: trumpLabel(cards[0]) });
  if (verb === "bid") return t("action.bid_n", { n: cards[0] });
  if (verb === "call") return t("action.call_card", { call: callLabel({ nth: Number(cards[0]), card: cards[1] }) });
  return `${t("action." + verb)} ${cards.map(cardLabel).join(" ")}`;
}

/** Whether the dealer names a copy ("the 2nd ♠A": nth-played) or just a card (边锋: its
 * holder nearest the dealer is the friend). */
function callsCopy() {
  return !!state.room && state.room.ruleset.friend_rule === "nth-played";
}

/** A friend call in words: "♠A", or "the 1st ♠A" (the nth copy another seat plays). */
function callLabel(call) {
  if (!call) return "";
  if (!callsCopy()) return cardLabel(call.card);
  return t("friend.nth_" + Math.min(call.nth, 4), { card: cardLabel(call.card) });
}

/** 找朋友: the friend line's status, from the seats the view says may still be it. */
function friendStatus(g) {
  if (g.friend != null) return t("friend.found", { name: seatName(g.friend) });
  const c = g.friend_candidates;
  if (!c || callsCopy()) return t("friend.hidden");
  if (c.length === 0) return t("friend.known_alone");
  if (c.length === 1 && c[0] === g.seat) return t("friend.you");
  return t("friend.maybe", { names: c.map(seatShort).join(" ") });
}

/** A level for the eye: the ranks as they are, the joker level (JK, 王) in words. */
function levelLabel(lv) {
  return lv === "JK" ? t("level.JK") : lv;
}

function cardLabel(c) {
  if (c === "BJ") return t("card.BJ");
  if (c === "LJ") return t("card.LJ");
  return { S: "♠", H: "♥", D: "♦", C: "♣" }[c[0]] + c.slice(1);
}

function roomLink(code) {
  return `${location.origin}/#/room/${code}`;
}

function routeCode() {
  const m = location.hash.match(/^#\/room\/([\w-]+)/);
  return m ? m[1] : null;
}

function useStore() {
  const [, force] = useState(0);
  useEffect(() => S.subscribe(() => force((n) => n + 1)), []);
  return state;
}

function useWidth(ref) {
  const [w, setW] = useState(800);
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const ro = new ResizeObserver(() => setW(el.clientWidth));
    ro.observe(el);
    setW(el.clientWidth);
    return () => ro.disconnect();
  }, [ref.current]);
  return w;
}

// ------------------------------------------------------------------------------ header

function Header() {
  const st = state;
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

// ------------------------------------------------------------------------------ lobby

function NameForm() {
  const [name, setName] = useState(localStorage.getItem("shengji.lastName") || "");
  const [err, setErr] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) return;
    try {
      localStorage.setItem("shengji.lastName", n);
      await S.register(n);
    } catch (x) {
      setErr(x.message);
    }
  };
  return html`<section class="panel narrow">
    <h1>${t("lobby.welcome")}</h1>
    <p class="muted">${t("lobby.intro")}</p>
    <form onSubmit=${submit} class="row">
      <input data-testid="name" maxlength="32" placeholder=${t("lobby.name_placeholder")}
        value=${name} onInput=${(e) => setName(e.target.value)} autofocus />
      <button class="primary" type="submit" data-testid="name-ok">${t("lobby.enter")}</button>
    </form>
    ${err ? html`<p class="error">${err}</p>` : null}
  </section>`;
}

function CreateRoom() {
  const meta = state.meta;
  const [preset, setPreset] = useState("classic");
  const [maxDeals, setMaxDeals] = useState("");
  const [priv, setPriv] = useState(false);
  const [fill, setFill] = useState("");
  const [rebury, setRebury] = useState(false);
  const [stakes, setStakes] = useState(NO_STAKES);
  const [extra, setExtra] = useState({}); // preset options changed in the form
  const [err, setErr] = useState(null);
  const presets = presetInfo();
  const info = presets.find((p) => p.name === preset) || { name: preset, players: 4 };
  const submit = async (e) => {
    e.preventDefault();
    setErr(null);
    const body = { preset, private: priv, options: {} };
    if (maxDeals) body.max_deals = Number(maxDeals);
    if (rebury) body.options.rebury = true;
    Object.assign(body.options, extra);
    if (stakesBody(stakes)) body.stakes = stakesBody(stakes);
    if (fill) {
      body.bots = {};
      for (let i = 1; i < (info.players || 4); i++) body.bots[i] = fill;
    }
    try {
      const code = await S.createRoom(body);
      location.hash = `#/room/${code}`;
    } catch (x) {
      setErr(x.message);
    }
  };
  return html`<section class="panel">
    <h2>${t("lobby.create")}</h2>
    <form onSubmit=${submit} class="create">
      <label>${t("lobby.preset")}
        <select data-testid="preset" value=${preset}
          onChange=${(e) => { setPreset(e.target.value); setExtra({}); }}>
          ${presets.map((p) => html`<option value=${p.name}>${t("preset." + p.name)}${
            p.playable === false ? " — " + t("lobby.not_playable") : ""}</option>`)}
        </select>
      </label>
      <p class="desc" data-testid="preset-desc">${t("preset_desc." + preset)}
        ${info.players ? html` <span class="muted">${t("lobby.seats", { n: info.players })}</span>` : null}
        ${info.playable === false && info.reason ? html`<br /><span class="error">${info.reason}</span>` : null}
        ${isShortSequence(info.level_sequence) ? html`<br /><${LevelSequence} seq=${info.level_sequence} />` : null}
      </p>
      <div class="grid2">
        <label>${t("lobby.max_deals")}
          <input type="number" min="1" max="99" placeholder=${t("lobby.until_win")}
            data-testid="max-deals" value=${maxDeals}
            onInput=${(e) => setMaxDeals(e.target.value)} />
        </label>
        <label>${t("lobby.fill_bots")}
          <select data-testid="fill-bots" value=${fill} onChange=${(e) => setFill(e.target.value)}>
            <option value="">${t("lobby.no_bots")}</option>
            ${(meta ? meta.bots : []).filter((b) => b !== "search").map(
              (b) => html`<option value=${b}>${t("bot." + b)}</option>`)}
          </select>
        </label>
      </div>
      <${StakesFields} value=${stakes} onChange=${setStakes} />
      ${info.partnership === "find-friend" ? html`<${FriendOptions} info=${info} extra=${extra} onChange=${setExtra} />` : null}
      ${info.ruleset && info.ruleset.rebury ? null : html`<label class="check"><input type="checkbox" checked=${rebury}
        onChange=${(e) => setRebury(e.target.checked)} /> ${t("lobby.rebury")}</label>`}
      <label class="check"><input type="checkbox" checked=${priv} data-testid="private"
        onChange=${(e) => setPriv(e.target.checked)} /> ${t("lobby.private")}</label>
      <button class="primary" type="submit" data-testid="create">${t("lobby.create_btn")}</button>
      ${err ? html`<p class="error">${err}</p>` : null}
    </form>
  </section>`;
}

/** Find-a-friend options (seed 002): how the dealer side shares its levels, and the J and A
 * kitty penalties; the preset's values until changed. */
function FriendOptions({ info, extra, onChange }) {
  const rs = info.ruleset || {};
  const val = (k) => (k in extra ? extra[k] : rs[k]);
  const set = (k, v) => onChange({ ...extra, [k]: v });
  return html`<div class="grid2">
    <label>${t("lobby.level_shares")}
      <select data-testid="level-shares" value=${val("level_shares")}
        onChange=${(e) => set("level_shares", e.target.value)}>
        ${["equal", "fixed", "elastic"].map((x) => html`<option value=${x}>${t("shares." + x)}</option>`)}
      </select>
    </label>
    <div>
      <label class="check"><input type="checkbox" data-testid="jack-penalty" checked=${!!val("jack_kitty_penalty")}
        onChange=${(e) => set("jack_kitty_penalty", e.target.checked)} /> ${t("lobby.jack_penalty")}</label>
      <label class="check"><input type="checkbox" data-testid="ace-penalty" checked=${!!val("ace_kitty_penalty")}
        onChange=${(e) => set("ace_kitty_penalty", e.target.checked)} /> ${t("lobby.ace_penalty")}</label>
    </div>
  </div>`;
}

/** The presets the server offers: ``[{name, players, playable, reason, level_sequence}]``. */
function presetInfo() {
  const meta = state.meta;
  if (meta && meta.preset_info) return meta.preset_info;
  return (meta ? meta.presets : ["classic"]).map((name) => ({ name, players: 4, playable: true }));
}

/** Whether a level sequence skips ranks (tournament: 2 5 10 J Q K A). */
function isShortSequence(seq) {
  return !!seq && seq.length > 0 && seq.length < 13;
}

/** A level sequence with the current level marked: ``2 5 [10] J Q K A``. */
function LevelSequence({ seq, current }) {
  return html`<span class="lvseq" data-testid="level-sequence">
    <span class="k">${t("info.level_sequence")}</span>
    ${seq.map((r) => html`<span class=${"lvstep" + (r === current ? " cur" : "")}>${r}</span>`)}
  </span>`;
}

function RoomList() {
  const [code, setCode] = useState("");
  useEffect(() => {
    S.loadRooms().catch(() => {});
    const id = setInterval(() => S.loadRooms().catch(() => {}), 5000);
    return () => clearInterval(id);
  }, []);
  const join = (e) => {
    e.preventDefault();
    const c = code.trim().replace(/^.*#\/room\//, "");
    if (c) location.hash = `#/room/${c}`;
  };
  return html`<section class="panel">
    <h2>${t("lobby.open_rooms")}</h2>
    ${state.rooms.length === 0 ? html`<p class="muted">${t("lobby.no_rooms")}</p>` : null}
    <ul class="rooms" data-testid="rooms">
      ${state.rooms.map((r) => {
        const taken = r.seats.filter((s) => s.kind !== "empty").length;
        return html`<li key=${r.code}>
          <span class="rname">${t("preset." + r.preset)}${stakesLabel(r.stakes) ? " · " + stakesLabel(r.stakes) : ""}</span>
          <span class="muted">${r.seats.map((s) => (s.kind === "empty" ? "·" : s.name)).join(", ")}</span>
          <span class=${"status " + r.status}>${t("status." + r.status)} ${taken}/${r.seats.length}</span>
          <a class="button" href=${"#/room/" + r.code}>${t("lobby.join")}</a>
        </li>`;
      })}
    </ul>
    <form onSubmit=${join} class="row">
      <input placeholder=${t("lobby.code_placeholder")} value=${code}
        data-testid="join-code" onInput=${(e) => setCode(e.target.value)} />
      <button type="submit">${t("lobby.join")}</button>
    </form>
  </section>`;
}

function Lobby() {
  useEffect(() => {
    S.loadMeta().catch(() => {});
  }, []);
  return html`<main class="lobby">
    <${CreateRoom} />
    <${RoomList} />
    <section class="panel about">
      <h2>${t("lobby.how")}</h2>
      <p>${t("lobby.how_text")}</p>
      <p class="muted">${t("lobby.keys")}</p>
      <p><a href="/leaderboard.html" data-testid="leaderboard-link">${t("board.link")}</a></p>
    </section>
  </main>`;
}

// ------------------------------------------------------------------------------ seats

/** Seat spots around the felt per table size, the viewer's first (at the bottom), then in
 * turn order (counter-clockwise: the next seat is on the right). ``x``/``y``: the plate, in
 * percent of the felt (``side`` pins it to the left or right edge); ``px``/``py``: the centre
 * of that seat's cards in a trick. Side seats play just below their plate (``py`` = ``y``
 * plus a fixed drop in pixels), whatever the felt's height, so cards never cover a plate. */
const SPOTS = {
  3: [{ x: 50, y: 90, px: 50, py: 70 }, { side: "right", y: 26, px: 70, py: 26, drop: true },
    { side: "left", y: 26, px: 30, py: 26, drop: true }],
  4: [{ x: 50, y: 90, px: 50, py: 70 }, { side: "right", y: 40, px: 71, py: 40, drop: true },
    { x: 50, y: 10, px: 50, py: 30 }, { side: "left", y: 40, px: 29, py: 40, drop: true }],
  5: [{ x: 50, y: 90, px: 50, py: 73 }, { side: "right", y: 40, px: 74, py: 40, drop: true },
    { x: 70, y: 10, px: 63, py: 31 }, { x: 30, y: 10, px: 37, py: 31 },
    { side: "left", y: 40, px: 26, py: 40, drop: true }],
  6: [{ x: 50, y: 90, px: 50, py: 73 }, { side: "right", y: 52, px: 74, py: 52, drop: true },
    { side: "right", y: 20, px: 71, py: 20, drop: true }, { x: 50, y: 10, px: 50, py: 31 },
    { side: "left", y: 20, px: 29, py: 20, drop: true },
    { side: "left", y: 52, px: 26, py: 52, drop: true }],
};

/** Phones (a felt about 370 × 360 px): five seats need the two across the table further
 * apart and the side seats lower, so that plates and tricks all fit. */
const NARROW_SPOTS = {
  5: [{ x: 50, y: 90, px: 50, py: 74 }, { side: "right", y: 50, px: 74, py: 50, drop: true },
    { x: 76, y: 10, px: 68, py: 30 }, { x: 24, y: 10, px: 32, py: 30 },
    { side: "left", y: 50, px: 26, py: 50, drop: true }],
};

const narrow = window.matchMedia("(max-width: 760px)");

/** Where seat ``i`` sits around the felt (the viewer at the bottom): its spot, and where
 * its trick cards go as offsets from the centre (``dx``, ``dy`` in percent, ``drop``). */
function seatPos(i, n) {
  const base = state.seat == null ? 0 : state.seat;
  const spots = (narrow.matches && NARROW_SPOTS[n]) || SPOTS[n] || SPOTS[4];
  const rel = (i - base + n) % n;
  const spot = spots[rel % spots.length];
  return { rel, spot, dx: spot.px - 50, dy: spot.py - 50, drop: spot.drop ? 1 : 0 };
}

/** Fixed partners: seats of the same parity play together (0 and 2 of four). */
function fixedTeams() {
  return !state.room || state.room.ruleset.partnership === "fixed";
}

/** The level of a seat: its own (find-a-friend, bidding) or its team's. */
function seatLevel(i) {
  const g = state.game;
  if (!g) return null;
  if (g.seat_levels && g.seat_levels.length) return g.seat_levels[i];
  return fixedTeams() && g.team_levels ? g.team_levels[teamOf(i)] : null;
}

function SeatPlate({ i, n }) {
  const room = state.room;
  const g = state.game;
  const s = room.seats[i];
  const p = seatPos(i, n);
  const side = p.spot.side || "mid";
  let style = `top:${p.spot.y}%;`;
  if (side === "right") style += "right:1.5%";
  else if (side === "left") style += "left:1.5%";
  else style += `left:${p.spot.x}%`;
  const turn = g && g.to_act === i;
  const dealer = g && g.dealer === i;
  const me = state.seat === i;
  const cls = ["seat", `rel${p.rel}`, side, p.spot.y < 30 ? "top" : "", turn ? "turn" : "",
    me ? "mine" : "", g && g.defenders.includes(i) ? "defender" : "",
    !s.connected && s.kind === "human" ? "away" : ""].join(" ");
  const showDecl = g && ["dealing", "declaring", "rebury"].includes(g.phase);
  const decl = showDecl && g.declaration && g.declaration.seat === i ? g.declaration : null;
  const lv = fixedTeams() ? null : seatLevel(i);
  return html`<div class=${cls} style=${style} data-testid=${"seat-" + i}>
    <div class="plate">
      <span class="sname">${s.kind === "empty" ? t("seat.empty") : seatName(i)}</span>
      ${dealer ? html`<span class="badge dealer" title=${t("badge.dealer_title")}>${t("badge.dealer")}</span>` : null}
      <${SideBadge} i=${i} />
      ${lastBid(i) != null ? html`<span class="badge bid" data-testid=${"bid-" + i}>${lastBid(i)}</span>` : null}
      ${s.substitute ? html`<span class="badge">${t("badge.substitute")}</span>` : null}
      ${s.kind === "human" && !s.connected ? html`<span class="badge away">${t("badge.away")}</span>` : null}
      ${g && !me && g.hand_sizes[i] > 0 ? html`<span class="count" title=${t("seat.cards_left")}>
        <${CardBack} cls="mini" />${g.hand_sizes[i]}</span>` : null}
      ${fixedTeams() ? html`<span class="team">${t("team.n", { n: teamOf(i) + 1 })}</span>` : null}
      ${lv != null ? html`<span class="team" data-testid=${"seat-level-" + i}>${t("seat.level", { lv: levelLabel(lv) })}</span>` : null}
    </div>
    ${decl ? html`<div class="decl">${splitCards(decl.cards).map(
      (c) => html`<${Card} card=${c} fourColor=${state.fourColor} cls="tiny" />`)}</div>` : null}
    ${state.seat == null && s.kind === "empty" ? html`<button class="small"
      data-testid=${"take-" + i} onClick=${() => S.send({ t: "sit", seat: i })}>${t("seat.take")}</button>` : null}
  </div>`;
}

/** Find-a-friend: a badge once a seat is known to be the dealer's friend. */
function SideBadge({ i }) {
  const g = state.game;
  if (!g || fixedTeams() || g.dealer == null) return null;
  if (g.friend === i && i !== g.dealer) {
    return html`<span class="badge friend" data-testid=${"friend-" + i}>${t("badge.friend")}</span>`;
  }
  if (sidesKnown() && !g.defenders.includes(i)) {
    return html`<span class="badge attacker">${t("badge.attacker")}</span>`;
  }
  // 找朋友 before the reveal: what this seat can tell (the view's friend_candidates)
  const c = g.friend_candidates;
  if (!c || g.friend != null || i === g.dealer || callsCopy()) return null;
  if (c.length === 1 && c[0] === i) {
    return html`<span class="badge friend" data-testid=${"friend-" + i}>${t("badge.friend_hidden")}</span>`;
  }
  if (!c.includes(i)) {
    return html`<span class="badge attacker" data-testid=${"not-friend-" + i}>${t("badge.attacker")}</span>`;
  }
  return html`<span class="badge maybe" data-testid=${"maybe-friend-" + i}>${t("badge.maybe_friend")}</span>`;
}

/** Whether everyone knows both sides: fixed partners; 竞标 once the auction is won;
 * 找朋友 once the friend is revealed. */
function sidesKnown() {
  const g = state.game;
  if (!g) return false;
  if (fixedTeams()) return true;
  if (state.room.ruleset.partnership === "bidding") return g.target != null;
  return g.friend != null;
}

function SeatControls({ i, s }) {
  const [bot, setBot] = useState("heuristic");
  const bots = (state.meta ? state.meta.bots : ["random", "heuristic"]).filter((b) => b !== "search");
  if (s.kind === "empty") {
    return html`<div class="seatctl">
      <button class="small" data-testid=${"sit-" + i}
        onClick=${() => S.send({ t: "sit", seat: i })}>${t("seat.sit")}</button>
      <select class="small" data-testid=${"bot-level-" + i} value=${bot}
        onChange=${(e) => setBot(e.target.value)}>
        ${bots.map((b) => html`<option value=${b}>${t("bot." + b)}</option>`)}
      </select>
      <button class="small" data-testid=${"add-bot-" + i}
        onClick=${() => S.send({ t: "add_bot", seat: i, bot })}>${t("seat.add_bot")}</button>
    </div>`;
  }
  if (s.kind === "bot") {
    return html`<div class="seatctl"><button class="small" data-testid=${"remove-bot-" + i}
      onClick=${() => S.send({ t: "remove_bot", seat: i })}>${t("seat.remove_bot")}</button></div>`;
  }
  if (state.seat === i) {
    return html`<div class="seatctl"><button class="small" data-testid="stand"
      onClick=${() => S.send({ t: "stand" })}>${t("seat.stand")}</button></div>`;
  }
  return null;
}

// ------------------------------------------------------------------------------ table

function InfoBar() {
  const g = state.game;
  const room = state.room;
  const me = state.seat;
  const levels = (g && g.team_levels) || [];
  const defTeam = g && g.defenders.length ? teamOf(g.defenders[0]) : null;
  const target = attackerTarget();
  const seq = room ? room.ruleset.level_sequence : null;
  return html`<div class="infobar" data-testid="infobar">
    <div class="info trump" data-testid="trump">
      <span class="k">${t("info.trump")}</span>
      ${g && g.trump && g.trump !== "NT" ? html`<${SuitMark} suit=${g.trump} fourColor=${state.fourColor} />` : null}
      <b>${g ? trumpLabel(g.trump) : "—"}</b>
      ${g && !g.trump && g.declaration ? html`<span class="tentative">(${trumpLabel(g.declaration.trump)}?)</span>` : null}
      <span class="k">${t("info.level")}</span><b>${g ? levelLabel(g.level) : "—"}</b>
    </div>
    ${isShortSequence(seq) ? html`<div class="info"><${LevelSequence} seq=${seq} current=${g && g.level} /></div>` : null}
    <div class="info levels" data-testid="levels">
      ${!fixedTeams() && me != null && seatLevel(me) != null ? html`<span class="lv">${t("team.me")} <b>${levelLabel(seatLevel(me))}</b></span>` : null}
      ${!fixedTeams() && g && g.dealer != null && g.dealer !== me ? html`<span class="lv def">${seatShort(g.dealer)}
        <b>${seatLevel(g.dealer)}</b><small>${t("badge.dealer")}</small></span>` : null}
      ${!fixedTeams() ? null : levels.map((lv, team) => html`<span class=${"lv" + (team === defTeam ? " def" : "")}>
        ${me != null && teamOf(me) === team ? t("team.us") : t("team.n", { n: team + 1 })}
        <b>${lv}</b>${team === defTeam ? html`<small>${t("badge.dealer")}</small>` : null}</span>`)}
    </div>
    ${g && g.friend_call ? html`<div class="info friendcall" data-testid="friend-call">
      <span class="k">${t("friend.title")}</span>
      <${Card} card=${g.friend_call.card} fourColor=${state.fourColor} cls="mini2" />
      <b>${callLabel(g.friend_call)}</b>
      <span class=${g.friend != null ? "found" : "muted"} data-testid="friend-status">${friendStatus(g)}</span>
    </div>` : null}
    <div class="info points" data-testid="points">
      <span class="k">${t("info.attacker_points")}</span>
      <b class="big">${g ? g.attacker_points : 0}</b><span class="muted">/ ${target || "—"}</span>
    </div>
    <div class="info deal">
      <span class="k">${t("info.deal")}</span><b>${g ? g.deal_no + 1 : "—"}</b>
      ${g && g.stake > 1 ? html`<span class="badge">×${g.stake}</span>` : null}
    </div>
    ${stakesRoomLabel(room && room.stakes) ? html`<div class="info stakes" data-testid="room-stakes">
      <b>${stakesRoomLabel(room.stakes)}</b></div>` : null}
  </div>`;
}

/** The attackers' points to take over: the bid target once there is one, else 40 a deck. */
function attackerTarget() {
  const g = state.game;
  if (g && g.target) return g.target;
  if (state.room && state.room.ruleset.partnership === "bidding") return null; // not bid yet
  return state.room ? state.room.ruleset.decks * 40 : 80;
}

/** A seat's name cut short for tight spots. */
function seatShort(i) {
  const name = seatName(i);
  return name.length > 8 ? name.slice(0, 7) + "…" : name;
}

function TrickArea() {
  const g = state.game;
  const n = state.room.ruleset.players;
  const live = g.trick.length > 0;
  const plays = live ? g.trick : g.last_trick && g.phase === "playing" ? g.last_trick.plays : [];
  const winner = !live && g.last_trick ? g.last_trick.winner : null;
  return html`<div class=${"trick" + (live ? "" : " done")} data-testid="trick">
    ${plays.map(([seat, cards]) => {
      const p = seatPos(seat, n);
      const style = `--dx:${p.dx};--dy:${p.dy};--drop:${p.drop}`;
      const count = splitCards(cards).length;
      const long = count > 10 ? " vlong" : count > 5 ? " long" : "";
      return html`<div class=${"play" + long + (seat === winner ? " won" : "")} style=${style}
          data-testid=${"play-" + seat}>
        ${splitCards(cards).map((c) => html`<${Card} card=${c} fourColor=${state.fourColor}
          trump=${isTrump(c, g.level, g.trump, state.room.ruleset.permanent_twos)} cls="tcard" />`)}
      </div>`;
    })}
  </div>`;
}

function phasePrompt() {
  const g = state.game;
  if (!g) return "";
  const me = state.seat;
  const turn = g.to_act === me && me != null;
  if (g.phase === "dealing" && g.rights && g.rights.length && g.dealer == null) {
    // 亮牌权: only last deal's attackers declare, each with its own level
    return t(g.rights.includes(me) ? "prompt.dealing_rights" : "prompt.dealing_others", {
      n: g.cards_dealt, lv: levelLabel(g.declare_level || g.level),
      names: g.rights.map(seatShort).join(" ") });
  }
  if (g.phase === "dealing") return t("prompt.dealing", { n: g.cards_dealt });
  if (g.phase === "declaring") return turn ? t("prompt.declare_window") : t("prompt.waiting_for", { name: seatName(g.to_act) });
  if (g.phase === "burying") {
    return turn ? t("prompt.bury", { n: S.kittySize(), k: state.selected.length })
      : t("prompt.burying", { name: seatName(g.to_act) });
  }
  if (g.phase === "rebury") return turn ? t("prompt.rebury") : t("prompt.waiting_for", { name: seatName(g.to_act) });
  if (g.phase === "bidding") {
    return turn ? t("prompt.your_bid", { n: S.bidCeiling() }) : t("prompt.bidding", { name: seatName(g.to_act) });
  }
  if (g.phase === "naming") return turn ? t("prompt.name_trump") : t("prompt.naming", { name: seatName(g.to_act) });
  if (g.phase === "calling") {
    return turn ? t(callsCopy() ? "prompt.call_friend_copy" : "prompt.call_friend") : t("prompt.calling", { name: seatName(g.to_act) });
  }
  if (g.phase === "playing") {
    if (turn) return g.trick.length ? t("prompt.your_follow") : t("prompt.your_lead");
    return t("prompt.waiting_for", { name: seatName(g.to_act) });
  }
  if (g.phase === "done") return t("prompt.deal_over");
  return "";
}

function Hand() {
  const g = state.game;
  const ref = useRef(null);
  const width = useWidth(ref);
  const cards = g.hand;
  const narrow = width < 560;
  const cw = narrow ? 50 : 70;
  const minStep = narrow ? 22 : 24;
  // one row if the cards fit with their corners readable, else two, three or four rows
  const all = cards.map((c, i) => i);
  let rows = [all];
  let step = cw;
  for (let r = 1; r <= 4; r++) {
    const per = Math.ceil(cards.length / r);
    step = per > 1 ? Math.min(cw + 4, (width - cw - 8) / (per - 1)) : cw;
    rows = Array.from({ length: r }, (_, k) => all.slice(k * per, (k + 1) * per));
    rows = rows.filter((row) => row.length);
    if (step >= minStep) break;
  }
  const playable = S.myTurn() && (g.phase === "playing" || g.phase === "burying");
  const rs = state.room.ruleset;
  // while burying, mark the cards that came from the kitty
  const fromKitty = new Set();
  if (g.phase === "burying" && g.kitty && g.kitty_holder === state.seat) {
    const left = splitCards(g.kitty);
    for (let i = cards.length - 1; i >= 0 && left.length; i--) {
      const k = left.indexOf(cards[i]);
      if (k >= 0) {
        left.splice(k, 1);
        fromKitty.add(i);
      }
    }
  }
  return html`<div class=${"hand" + (playable ? " active" : "")} ref=${ref} data-testid="hand"
      style=${`--cw:${cw}px`}>
    ${rows.map((row) => {
      const total = (row.length - 1) * step + cw;
      return html`<div class="hrow" style=${`height:${Math.round(cw * 1.4) + 14}px`}>
        ${row.map((i, k) => html`<div class="hslot" key=${i + ":" + cards[i]}
            style=${`left:${(width - total) / 2 + k * step}px;z-index:${k + 1}`}>
          <${Card} card=${cards[i]} fourColor=${state.fourColor} testid=${"hand-" + i}
            trump=${isTrump(cards[i], g.level, g.trump || (g.declaration && g.declaration.trump), rs.permanent_twos)}
            selected=${state.selected.includes(i)}
            onClick=${() => playable && S.toggleCard(i)}
            cls=${"hcard" + (fromKitty.has(i) ? " fromkitty" : "")} />
        </div>`)}
      </div>`;
    })}
  </div>`;
}

function ActionBar() {
  const g = state.game;
  const turn = S.myTurn();
  const v = state.verdict;
  const phase = g.phase;
  const canPlay = turn && v && v.ok && v.key === S.pendingAction();
  let reason = "";
  if (turn && (phase === "playing" || phase === "burying")) {
    if (!state.selected.length) reason = phase === "playing" ? t("reason.select") : t("prompt.bury", { n: S.kittySize(), k: 0 });
    else if (v && v.count) reason = t("reason.bury_count", { n: S.kittySize(), k: state.selected.length });
    else if (v && v.pending) reason = "…";
    else if (v && !v.ok) reason = reasonText(v.code, v.message);
  }
  const showPlay = phase === "playing" || (phase === "burying" && turn);
  return html`<div class="actions" data-testid="actions">
    ${turn && phase === "calling" ? html`<${FriendPicker} />` : null}
    ${turn && phase === "bidding" ? html`<${BidPicker} />` : null}
    <div class="abtns">
      ${state.options.map((o) => html`<button class=${o.action === "pass" ? "" : "declare"}
          data-testid=${o.action === "pass" ? "pass" : o.action.startsWith("trump ") ? "trump-" + o.action.slice(6) : "declare"}
          data-action=${o.action}
          onClick=${() => S.act(o.action)}>${actionLabel(o.action)}</button>`)}
      ${showPlay ? html`<button class="primary" data-testid="play" disabled=${!canPlay}
          onClick=${() => S.playSelection()} title=${t("keys.enter")}>
          ${phase === "burying" ? t("action.bury_btn", { k: state.selected.length, n: S.kittySize() }) : t("action.play_btn")}</button>` : null}
      ${state.seat != null && (turn || phase === "dealing") && phase !== "done" ? html`<button
          data-testid="hint" onClick=${() => S.askHint()} disabled=${state.hintBusy}
          title=${t("keys.h")}>${t("action.hint")}</button>` : null}
      ${state.selected.length ? html`<button class="ghost" onClick=${() => S.clearSelection()}>${t("action.clear")}</button>` : null}
      ${g.last_trick ? html`<button class="ghost" data-testid="last-trick"
          onClick=${() => S.set({ showLast: !state.showLast })}>${t("action.last_trick")}</button>` : null}
      ${nudgeTarget() != null ? html`<button class="ghost" onClick=${() => S.send({ t: "nudge" })}>${t("action.nudge")}</button>` : null}
    </div>
    <div class="reason" data-testid="reason">${reason}</div>
  </div>`;
}

const CALL_RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];

/** 找朋友: the dealer names a card (suit and rank, or a joker) and which copy counts. */
function FriendPicker() {
  const rs = state.room.ruleset;
  const sug = state.suggestion && state.suggestion.startsWith("call ") ? state.suggestion.split(" ") : null;
  const [suit, setSuit] = useState("S");
  const [rank, setRank] = useState("A");
  const [joker, setJoker] = useState(null);
  const [nth, setNth] = useState(1);
  useEffect(() => {
    if (!sug) return;
    const card = sug[2];
    setNth(Number(sug[1]));
    if (card === "BJ" || card === "LJ") setJoker(card);
    else {
      setJoker(null);
      setSuit(card[0]);
      setRank(card.slice(1));
    }
  }, [state.suggestion]);
  const card = joker || suit + rank;
  const action = `call ${nth} ${card}`;
  const send = () => {
    S.act(action);
    S.set({ suggestion: null });
  };
  return html`<div class="picker" data-testid="friend-picker">
    <span class="k">${t(callsCopy() ? "friend.pick" : "friend.pick_holder")}</span>
    <span class="seg">${["S", "H", "C", "D"].map((x) => html`<button
      class=${"small" + (!joker && suit === x ? " on" : "")} data-testid=${"call-suit-" + x}
      onClick=${() => { setJoker(null); setSuit(x); }}><${SuitMark} suit=${x} fourColor=${state.fourColor} /></button>`)}</span>
    <span class="seg ranks">${CALL_RANKS.map((r) => html`<button
      class=${"small" + (!joker && rank === r ? " on" : "")} data-testid=${"call-rank-" + r}
      onClick=${() => { setJoker(null); setRank(r); }}>${r}</button>`)}
      ${["BJ", "LJ"].map((j) => html`<button class=${"small" + (joker === j ? " on" : "")}
        data-testid=${"call-" + j} onClick=${() => setJoker(j)}>${t("card." + j)}</button>`)}</span>
    ${callsCopy() ? html`<select class="small" data-testid="call-nth" value=${nth} onChange=${(e) => setNth(Number(e.target.value))}>
      ${Array.from({ length: rs.decks }, (_, k) => html`<option value=${k + 1}>${t("friend.nth_" + Math.min(k + 1, 4), { card: "" }).trim()}</option>`)}
    </select>` : null}
    <${Card} card=${card} fourColor=${state.fourColor} cls="tiny" />
    <button class="primary" data-testid="call" onClick=${send}>${t("action.call_card", { call: callLabel({ nth, card }) })}</button>
  </div>`;
}

/** 竞标: bid a target below the standing bid (multiples of the step), or pass. */
function BidPicker() {
  const rs = state.room.ruleset;
  const top = S.bidCeiling();
  const step = rs.bid_step || 5;
  const options = [];
  for (let x = Math.floor(top / step) * step; x >= step; x -= step) options.push(x);
  const sug = state.suggestion && state.suggestion.startsWith("bid ") ? Number(state.suggestion.split(" ")[1]) : null;
  const [value, setValue] = useState(sug || options[0]);
  useEffect(() => {
    if (sug) setValue(sug);
    else if (value > top) setValue(options[0]);
  }, [state.suggestion, top]);
  if (!options.length) return null;
  const v = options.includes(value) ? value : options[0];
  return html`<div class="picker" data-testid="bid-picker">
    <span class="k">${t("bid.target")}</span>
    <select data-testid="bid-value" value=${v} onChange=${(e) => setValue(Number(e.target.value))}>
      ${options.map((x) => html`<option value=${x}>${x}</option>`)}
    </select>
    <button class="primary" data-testid="bid" onClick=${() => { S.act(`bid ${v}`); S.set({ suggestion: null }); }}>
      ${t("action.bid_n", { n: v })}</button>
  </div>`;
}

function nudgeTarget() {
  const g = state.game;
  if (!g || g.to_act == null || g.to_act < 0 || g.to_act === state.seat) return null;
  const s = state.room.seats[g.to_act];
  return s && s.kind === "human" && !s.substitute ? g.to_act : null;
}

function LastTrick() {
  const g = state.game;
  const lt = g.last_trick;
  if (!state.showLast || !lt) return null;
  return html`<div class="overlay" onClick=${() => S.set({ showLast: false })}>
    <div class="dialog small" data-testid="last-trick-dialog" onClick=${(e) => e.stopPropagation()}>
      <h3>${t("last.title")}</h3>
      ${lt.plays.map(([seat, cards]) => html`<div class=${"lrow" + (seat === lt.winner ? " won" : "")}>
        <span class="lname">${seatName(seat)}</span>
        <span class="cards">${splitCards(cards).map((c) => html`<${Card} card=${c} fourColor=${state.fourColor} cls="tiny" />`)}</span>
        ${seat === lt.winner ? html`<span class="badge ok">${t("last.won", { p: lt.points })}</span>` : null}
      </div>`)}
      <button onClick=${() => S.set({ showLast: false })}>${t("ui.close")}</button>
    </div>
  </div>`;
}

function levelChangeText(sm) {
  const e = sm.end;
  if (!fixedTeams()) return seatChangeText(sm);
  const n = state.room.ruleset.players;
  const defTeam = sm.defenders.length ? teamOf(sm.defenders[0]) : sm.dealer != null ? teamOf(sm.dealer) : 0;
  const atkTeam = n ? 1 - defTeam : 1;
  const lines = [];
  if (e.defender_levels) lines.push(t("summary.up", { team: teamName(defTeam), n: e.defender_levels }));
  if (e.attackers_take_over) lines.push(t("summary.take_over", { team: teamName(atkTeam) }));
  if (e.attacker_levels) lines.push(t("summary.up", { team: teamName(atkTeam), n: e.attacker_levels }));
  if (!lines.length) lines.push(t("summary.no_change"));
  return lines;
}

/** Find-a-friend and 竞标: who went up (per seat), and whether the attackers took over. */
function seatChangeText(sm) {
  const before = sm.seat_levels_before || [];
  const after = sm.seat_levels_after || [];
  const lines = [];
  const seq = state.room.ruleset.level_sequence;
  after.forEach((lv, i) => {
    const d = seq.indexOf(lv) - seq.indexOf(before[i]);
    if (d > 0) lines.push(t("summary.seat_up", { name: seatName(i), n: d, lv }));
    else if (d < 0) lines.push(t("summary.seat_down", { name: seatName(i), lv }));
  });
  if (sm.end.attackers_take_over) lines.push(t("summary.attackers_take_over"));
  if (!lines.length) lines.push(t("summary.no_change"));
  return lines;
}

function teamName(team) {
  const me = state.seat;
  if (me != null && teamOf(me) === team) return t("team.us_long");
  return t("team.n", { n: team + 1 });
}

function Summary() {
  const sm = state.summary;
  if (!sm) return null;
  const k = sm.kitty;
  const close = () => S.set({ summary: null });
  return html`<div class="overlay">
    <div class="dialog" data-testid="summary">
      <h2>${t("summary.title", { n: sm.deal_no + 1 })}</h2>
      <div class="bigpoints"><span>${t("summary.attacker_points")}</span>
        <b data-testid="summary-points">${sm.end.attacker_points}</b></div>
      ${k ? html`<div class="kitty">
        <div class="k">${t("summary.kitty")}</div>
        <div class="cards">${splitCards(k.cards).map((c) => html`<${Card} card=${c} fourColor=${state.fourColor} cls="tiny" />`)}</div>
        <div class="muted">${k.multiplier
          ? t("summary.kitty_line", { p: k.points, m: k.multiplier, g: k.attacker_gain })
          : t("summary.kitty_kept", { p: k.points })}</div>
      </div>` : null}
      ${sm.point_cards.length ? html`<div class="kitty"><div class="k">${t("summary.point_cards")}</div>
        <div class="cards">${sm.point_cards.map((c) => html`<${Card} card=${c} fourColor=${state.fourColor} cls="tiny" />`)}</div></div>` : null}
      <ul class="changes" data-testid="summary-changes">${levelChangeText(sm).map((l) => html`<li>${l}</li>`)}</ul>
      ${sm.target ? html`<p class="muted" data-testid="summary-target">${t("summary.target", { n: sm.target })}</p>` : null}
      ${sm.friend_call ? html`<p class="muted">${t("friend.title")}: ${callLabel(sm.friend_call)} — ${sm.friend != null
        ? t("friend.found", { name: seatName(sm.friend) }) : t("friend.alone")}</p>` : null}
      <div class="levels2">${fixedTeams() ? (sm.levels_after || []).map((lv, team) => html`<span>
        ${teamName(team)}: <s>${sm.levels_before[team]}</s> → <b>${lv}</b></span>`)
        : (sm.seat_levels_after || []).map((lv, i) => html`<span>
        ${seatName(i)}: <s>${levelLabel((sm.seat_levels_before || [])[i])}</s> → <b>${levelLabel(lv)}</b></span>`)}</div>
      ${sm.end.stake > 1 ? html`<p class="muted">${t("summary.stake", { s: sm.end.stake })}</p>` : null}
      <${SettlementLines} stakes=${state.room && state.room.stakes} settled=${sm.settled} seatName=${seatName} />
      <button class="primary" data-testid="next-deal" onClick=${close}>
        ${state.matchOver || !state.game || state.room.status !== "playing" ? t("ui.close") : t("summary.next")}</button>
    </div>
  </div>`;
}

function MatchOver() {
  const mo = state.matchOver;
  if (!mo || state.summary) return null;
  const winner = mo.result && mo.result.winner;
  const winners = (mo.result && mo.result.winners) || [];
  const who = fixedTeams() ? (winner != null ? teamName(winner) : null)
    : winners.length ? winners.map((i) => seatName(i)).join(", ") : null;
  return html`<div class="overlay">
    <div class="dialog" data-testid="match-over">
      <h2>${t("match.over")}</h2>
      <p data-testid="match-winner">${who != null ? t("match.winner", { team: who }) : t("match.ended")}</p>
      <p><a href=${"/api/games/" + mo.game} target="_blank">${t("match.record")}</a></p>
      <div class="row">
        ${state.seat != null ? html`<button class="primary" data-testid="again"
          onClick=${() => { S.send({ t: "ready", ready: true }); S.set({ matchOver: null }); }}>${t("match.again")}</button>` : null}
        <button onClick=${() => S.set({ matchOver: null })}>${t("ui.close")}</button>
      </div>
    </div>
  </div>`;
}

function Chat() {
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

function PointsPanel() {
  const g = state.game;
  if (!g) return null;
  return html`<section class="pointcards" data-testid="point-cards">
    <h3>${t("info.point_cards")} <b>${g.attacker_points}</b></h3>
    <div class="cards">${g.point_cards.length ? g.point_cards.map((c) => html`<${Card} card=${c} fourColor=${state.fourColor} cls="tiny" />`) : html`<span class="muted">—</span>`}</div>
  </section>`;
}

function WaitingRoom() {
  const room = state.room;
  const me = state.seat;
  const mine = me != null ? room.seats[me] : null;
  const empty = room.seats.filter((s) => s.kind === "empty").length;
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    S.loadMeta().catch(() => {});
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(roomLink(room.code));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const fill = () => room.seats.forEach((s) => s.kind === "empty" && s.seat !== me &&
    S.send({ t: "add_bot", seat: s.seat, bot: "heuristic" }));
  return html`<div class="felt waitroom" data-testid="waiting">
    <div class="wcard winfo">
      <h2>${t("preset." + room.preset)}</h2>
      <p class="muted small">${t("preset_desc." + room.preset)}
        ${room.max_deals ? " " + t("room.max_deals", { n: room.max_deals }) : ""}</p>
      ${isShortSequence(room.ruleset.level_sequence) ? html`<p class="small"><${LevelSequence} seq=${room.ruleset.level_sequence} /></p>` : null}
      <div class="row">
        <input class="link" readonly value=${roomLink(room.code)} data-testid="room-link"
          onFocus=${(e) => e.target.select()} />
        <button class="small" onClick=${copy}>${copied ? t("room.copied") : t("room.copy")}</button>
      </div>
      ${me == null ? html`<p>${t("room.pick_seat")}</p>` : null}
      <div class="row">
        ${empty > 0 ? html`<button data-testid="fill-bots-btn" onClick=${fill}>${t("room.fill_bots")}</button>` : null}
        ${mine ? html`<button class=${mine.ready ? "" : "primary"} data-testid="ready"
          onClick=${() => S.send({ t: "ready", ready: !mine.ready })}>
          ${mine.ready ? t("room.not_ready") : t("room.ready")}</button>` : null}
      </div>
      <p class="muted small">${empty ? t("room.need_seats", { n: empty }) : t("room.need_ready")}</p>
    </div>
    <div class=${"wseats n" + room.seats.length}>
      ${room.seats.map((s) => html`<div key=${s.seat} data-testid=${"seat-" + s.seat}
          class=${"wcard wseat" + (s.seat === me ? " mine" : "") + (s.kind === "empty" ? " empty" : "")}>
        <div class="whead">
          <span class="muted small">${t("seat.n", { n: s.seat + 1 })}${fixedTeams() ? " · " + t("team.n", { n: teamOf(s.seat) + 1 }) : ""}</span>
          ${s.kind === "human" && s.ready ? html`<span class="badge ok">${t("badge.ready")}</span>` : null}
          ${s.kind === "human" && !s.connected ? html`<span class="badge away">${t("badge.away")}</span>` : null}
        </div>
        <div class="wname">${s.kind === "empty" ? html`<span class="muted">${t("seat.empty")}</span>` : seatName(s.seat)}
          ${s.seat === me ? html` <small class="muted">(${t("seat.you")})</small>` : null}</div>
        <${SeatControls} i=${s.seat} s=${s} />
      </div>`)}
    </div>
  </div>`;
}

/** 竞标: the kitty cards shown to everyone and the bids so far, in the middle of the felt. */
function AuctionBoard() {
  const g = state.game;
  const shown = splitCards(g.shown);
  return html`<div class="auction" data-testid="auction">
    ${shown.length ? html`<div class="k">${t("bid.shown")}</div>
      <div class="cards" data-testid="shown">${shown.map((c) => html`<${Card} card=${c} fourColor=${state.fourColor} cls="tiny" />`)}</div>` : null}
    ${g.target ? html`<div class="k">${t("bid.won", { name: seatName(g.dealer), n: g.target })}</div>` : null}
  </div>`;
}

/** 竞标: a seat's last word in the auction (its bid, or "pass"), shown on its plate. */
function lastBid(i) {
  const g = state.game;
  if (!g || !g.auction || g.phase !== "bidding") return null;
  for (let k = g.auction.length - 1; k >= 0; k--) {
    if (g.auction[k][0] === i) return g.auction[k][1] == null ? t("action.pass") : String(g.auction[k][1]);
  }
  return null;
}

function Felt() {
  const room = state.room;
  const g = state.game;
  const n = room.ruleset.players;
  if (room.status === "waiting" || !g) return html`<${WaitingRoom} />`;
  return html`<div class=${"felt n" + n} data-testid="felt">
    ${room.seats.map((s) => html`<${SeatPlate} key=${s.seat} i=${s.seat} n=${n} />`)}
    <${TrickArea} />
    ${["bidding", "naming"].includes(g.phase) ? html`<${AuctionBoard} />` : null}
    <div class="prompt" data-testid="prompt">${phasePrompt()}</div>
    ${g.kitty_holder != null && g.phase === "burying" && g.kitty_holder !== state.seat
      ? html`<div class="kittybacks">${Array.from({ length: S.kittySize() }).map(() => html`<${CardBack} cls="tiny" />`)}</div>` : null}
  </div>`;
}

function RoomView() {
  const room = state.room;
  const g = state.game;
  if (!room) {
    return html`<main class="loading" data-testid="connecting">${t("room.connecting")}</main>`;
  }
  const playing = room.status === "playing" && g;
  return html`<main class="room">
    <div class="tablecol">
      ${room.status === "playing" ? html`<${InfoBar} />` : null}
      <${Felt} />
      ${playing && state.seat != null ? html`<${ActionBar} />` : null}
      ${playing && state.seat != null ? html`<${Hand} />` : null}
      ${playing && state.seat == null ? html`<p class="muted watching" data-testid="watching">${t("room.watching")}</p>` : null}
    </div>
    <aside class="side">
      <${PointsPanel} />
      <${Chat} />
      <button class="ghost leave" data-testid="leave" onClick=${() => { S.exitRoom(true); location.hash = "#/"; }}>${t("room.leave")}</button>
    </aside>
    ${playing ? html`<${LastTrick} />` : null}
    <${Summary} />
    <${MatchOver} />
  </main>`;
}

function Notice() {
  const n = state.notice;
  const conn = state.code && state.conn !== "open" && state.room ? t("room.reconnecting") : null;
  return html`<div class="notices">
    ${conn ? html`<div class="notice warn" data-testid="reconnecting">${conn}</div>` : null}
    ${n ? html`<div class=${"notice " + n.kind} data-testid="notice">${noticeText(n)}</div>` : null}
  </div>`;
}

// ------------------------------------------------------------------------------ app

function App() {
  const st = useStore();
  const [code, setCode] = useState(routeCode());
  useEffect(() => {
    const onHash = () => setCode(routeCode());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => {
    if (code && st.player) S.enterRoom(code);
    else if (!code && st.code) S.exitRoom();
  }, [code, st.player && st.player.token]);
  useEffect(() => {
    const onKey = (e) => {
      const tag = (e.target && e.target.tagName) || "";
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
      if (!state.game || state.seat == null) return;
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
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  let body;
  if (!st.player) body = html`<main class="lobby"><${NameForm} /></main>`;
  else if (code) body = html`<${RoomView} />`;
  else body = html`<${Lobby} />`;
  return html`<${SuitDefs} /><${Header} /><${Notice} />${body}`;
}

async function main() {
  const l = initialLang();
  await setLang(l);
  S.set({ lang: l });
  await S.checkPlayer();
  const q = new URLSearchParams(location.search).get("room");
  if (q) history.replaceState(null, "", `/#/room/${encodeURIComponent(q)}`);
  else if (!routeCode()) {
    const last = localStorage.getItem("shengji.room");
    if (last && state.player) history.replaceState(null, "", `#/room/${last}`);
  }
  render(html`<${App} />`, document.getElementById("app"));
  window.__shengji = state; // for tests and curious players
}

main();
